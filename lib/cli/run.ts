/**
 * The CLI's dispatcher: `--version`, `--help`, `help COMMAND`, the command
 * table, and the mapping of errors to exit codes and one-line messages.
 *
 * @module
 */

import { InputError, ToolscoreError, UsageError } from "../base/errors.ts";
import { type CliIO, EXIT } from "./command.ts";
import { COMMANDS } from "./commands.ts";
import { VERSION } from "../base/version.ts";
import {
  escapeControl,
  OWN_COLOR_SEQUENCES,
  OWN_PROGRESS_SEQUENCES,
} from "../base/terminal_safe.ts";

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
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
    "Exit codes: 0 ok, 1 the gate failed, 2 usage or input error, 3 undecided (decide);",
    "141 when the reader of the output closed it early (as with `| head`).",
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
    message: `internal error: ${message}\n(a toolscore bug; set TOOLSCORE_DEBUG=1 for the stack)`,
    code: 70,
  };
}

function debugEnabled(): boolean {
  try {
    return Deno.env.get("TOOLSCORE_DEBUG") === "1";
  } catch {
    return false; // no env permission: no stack traces
  }
}

// Every console line, reports and errors alike, with control characters from inputs escaped.
function safeIO(io: CliIO): CliIO {
  const out = io.color ? [OWN_COLOR_SEQUENCES] : [];
  const err = io.progress ? [OWN_COLOR_SEQUENCES, OWN_PROGRESS_SEQUENCES] : out;
  return {
    stdout: (text) => io.stdout(escapeControl(text, { keep: out })),
    stderr: (text) => io.stderr(escapeControl(text, { keep: err })),
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
export async function runCli(args: string[], terminal: CliIO): Promise<number> {
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
      io.stdout(command.help.endsWith("\n") ? command.help : `${command.help}\n`);
      return EXIT.ok;
    }
    return await command.run(rest, io);
  } catch (error) {
    const { message, code } = describeError(error);
    io.stderr(`toolscore: ${message}\n`);
    if (debugEnabled() && error instanceof Error) {
      io.stderr(`${error.stack}\n`);
    }
    return code;
  }
}
