/**
 * The CLI's dispatcher: `--version`, `--help`, `help COMMAND`, the command
 * table, and the mapping of errors to exit codes and one-line messages.
 *
 * @module
 */

import { clipErrorLine } from "../base/clip_input.ts";
import { maxOf } from "../base/arrays.ts";
import { exitCodesHelp } from "./exit_codes.ts";
import { InputError, ToolscoreError, UsageError } from "../base/errors.ts";
import { type CliIO, EXIT, INTERNAL_EXIT_HELP } from "./command.ts";
import { COMMANDS } from "./commands.ts";
import { VERSION } from "../base/version.ts";
import { redactText } from "../checks/security.ts";
import {
  escapeControl,
  OWN_COLOR_SEQUENCES,
  OWN_PROGRESS_SEQUENCES,
  withOwnSequences,
} from "../base/terminal_safe.ts";

function usage(): string {
  const width = maxOf(Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, entry]) =>
    `  ${name.padEnd(width)}  ${entry.summary}`
  );
  return [
    `toolscore ${VERSION}: score what LLM agents do with tools, offline and with proof.`,
    "",
    "Usage: toolscore COMMAND [OPTIONS] [ARGS]",
    "",
    "Commands:",
    ...lines,
    "",
    "Options:",
    "  -h, --help     show help (also: toolscore help COMMAND, toolscore COMMAND --help)",
    "  -V, --version  print the version",
    "",
    ...exitCodesHelp(),
    INTERNAL_EXIT_HELP,
    "Set TOOLSCORE_DEBUG=1 for stack traces. NO_COLOR or --no-color turns colour off.",
    "",
    "Examples:",
    "  toolscore demo",
    "  toolscore eval gold.json trace.json --fail-under B",
    "",
  ].join("\n");
}

/**
 * Turn a thrown value into the message and exit code the CLI reports.
 *
 * @param error What was thrown.
 * @returns The one- or two-line message and the exit code.
 *
 * @example Usage
 * ```ts
 * import { InputError } from "@toolscore/cli";
 * import { describeError } from "./run.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(describeError(new InputError("bad", "g.json:1:2")), {
 *   message: "g.json:1:2: bad",
 *   code: 2,
 * });
 * ```
 */
export function describeError(error: unknown): { message: string; code: number } {
  if (error instanceof UsageError || error instanceof InputError) {
    return { message: error.message, code: EXIT.usage };
  }
  if (error instanceof Deno.errors.NotCapable) {
    const match = /Requires (\w+) access to "?([^",]*)"?/.exec(error.message);
    const flag = match ? `--allow-${match[1]}${match[2] ? `=${match[2]}` : ""}` : "the flag";
    return {
      message: `missing permission: ${error.message.split("\n")[0]}; run deno with ${flag}`,
      code: EXIT.usage,
    };
  }
  if (error instanceof ToolscoreError) return { message: error.message, code: EXIT.usage };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    message: `internal error: ${message}\n(a bug, please report it with TOOLSCORE_DEBUG=1 ` +
      "and --allow-env=TOOLSCORE_DEBUG for the stack)",
    code: EXIT.internal,
  };
}

/**
 * Whether stack traces are asked for: on, off, or unreadable (deno may not read
 * `TOOLSCORE_DEBUG`: no `--allow-env`, so whether it is set cannot be known).
 */
function debugState(): "on" | "off" | "unreadable" {
  try {
    if (
      Deno.permissions.querySync({ name: "env", variable: "TOOLSCORE_DEBUG" }).state !== "granted"
    ) {
      return "unreadable";
    }
    return Deno.env.get("TOOLSCORE_DEBUG") === "1" ? "on" : "off";
  } catch {
    return "unreadable";
  }
}

// Every command's "Exit codes:" paragraph ends with the line on 70.
function withInternalExit(help: string): string {
  if (help.includes(INTERNAL_EXIT_HELP)) return help;
  const start = help.indexOf("Exit codes:");
  if (start === -1) return `${help.trimEnd()}\n\nExit codes: ${INTERNAL_EXIT_HELP}\n`;
  const end = help.indexOf("\n\n", start);
  const at = end === -1 ? help.trimEnd().length : end;
  return `${help.slice(0, at)}\n${INTERNAL_EXIT_HELP}${help.slice(at)}`;
}

// Every console line, reports and errors alike, with control characters from inputs escaped
// (`stdoutBytes` takes bytes its caller escaped the same way).
function safeIO(io: CliIO): CliIO {
  const out = io.color ? [OWN_COLOR_SEQUENCES] : [];
  const err = io.progress ? [OWN_COLOR_SEQUENCES, OWN_PROGRESS_SEQUENCES] : out;
  const decoder = new TextDecoder();
  return {
    // Every credential form findSecrets knows is shown as its preview, whatever field of
    // whatever input it came from: final answers, tool and argument names, results, file
    // names (issue 42).
    stdout: (text) => io.stdout(escapeControl(redactText(text), { keep: out })),
    stdoutBytes: (bytes) =>
      io.stdoutBytes !== undefined ? io.stdoutBytes(bytes) : io.stdout(decoder.decode(bytes)),
    stderr: (text) => io.stderr(escapeControl(redactText(text), { keep: err })),
    color: io.color,
    progress: io.progress,
    stdin: () => io.stdin(),
  };
}

/**
 * Run the CLI on arguments and return the exit code. Never throws. Control
 * characters in anything written (a tool name from a trace, an error's
 * snippet) are shown escaped (`\u001b`), but for toolscore's own colour and
 * progress sequences.
 *
 * @param args The arguments after `toolscore`.
 * @param terminal Where to write.
 * @returns The exit code.
 *
 * @example Usage
 * ```ts
 * import { runCli } from "./run.ts";
 * import { VERSION } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * let out = "";
 * const io = {
 *   stdout: (t: string) => void (out += t),
 *   stderr: () => {},
 *   color: false,
 *   progress: false,
 *   stdin: () => Promise.resolve(""),
 * };
 * assert.equal(await runCli(["--version"], io), 0);
 * assert.equal(out.split("\n")[0], `toolscore ${VERSION}`);
 * ```
 */
export function runCli(args: string[], terminal: CliIO): Promise<number> {
  // Own sequences marked while the command runs, so data cannot pass for them (issue 42).
  return withOwnSequences(() => runMarked(args, terminal));
}

async function runMarked(args: string[], terminal: CliIO): Promise<number> {
  const io = safeIO(terminal);
  try {
    const [first, ...rest] = args;
    if (first === "--version" || first === "-V") {
      // The first line stays `toolscore X.Y.Z` for scripts; the rest loads only here.
      io.stdout((await import("./version.ts")).versionText(VERSION));
      return EXIT.ok;
    }
    if (first === undefined || first === "--help" || first === "-h") {
      io.stdout(usage());
      return EXIT.ok;
    }
    const helpOf = first === "help" ? rest[0] : undefined;
    if (first === "help" && helpOf === undefined) {
      io.stdout(usage());
      return EXIT.ok;
    }
    const name = helpOf ?? first;
    const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!entry) {
      const known = Object.keys(COMMANDS).join(", ");
      throw new UsageError(`unknown command ${name}; the commands are ${known}`);
    }
    const command = await entry.load();
    if (helpOf !== undefined || rest.includes("--help") || rest.includes("-h")) {
      const help = withInternalExit(command.help);
      io.stdout(help.endsWith("\n") ? help : `${help}\n`);
      return EXIT.ok;
    }
    return await command.run(rest, io);
  } catch (error) {
    const { message, code } = describeError(error);
    const debug = debugState();
    // A bug's report needs the stack; say in its one hint line when TOOLSCORE_DEBUG cannot be read.
    const shown = code === EXIT.internal && debug === "unreadable"
      ? `${
        message.split("\n")[0]
      }\n(a bug, please report it with TOOLSCORE_DEBUG=1; deno may not ` +
        "read TOOLSCORE_DEBUG here: add --allow-env=TOOLSCORE_DEBUG for the stack)"
      : message;
    io.stderr(`toolscore: ${clipErrorLine(shown)}\n`); // no 2 MB line echoing input (issue 42)
    if (debug === "on" && error instanceof Error) io.stderr(`${error.stack}\n`);
    return code;
  }
}
