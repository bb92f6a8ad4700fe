/**
 * What every subcommand shares: its shape, the output streams, flag parsing
 * that turns mistakes into usage errors, and the exit codes.
 *
 * @module
 */

import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../base/errors.ts";

/**
 * How every help text documents exit code 70 (`runCli` adds it to each
 * command's "Exit codes:" paragraph).
 */
export const INTERNAL_EXIT_HELP =
  "70 internal error — a bug, please report it with TOOLSCORE_DEBUG=1.";

/** Exit codes of every command. */
export const EXIT = {
  /** Everything passed. */
  ok: 0,
  /** The gate failed: a score under the bar, violations, receipt problems, a rejected protocol. */
  gate: 1,
  /** A usage or input error. */
  usage: 2,
  /** `decide` only: the protocol is undecided. */
  undecided: 3,
  /** An internal error: a bug in toolscore. */
  internal: 70,
} as const;

/** Where a command writes. Tests pass a collector; the CLI passes the real streams. */
export interface CliIO {
  /** Write to standard output (the text is written as is; add `\n` yourself). */
  stdout(text: string): void;
  /** Write to standard error. */
  stderr(text: string): void;
  /** Whether colours may be used on stdout. */
  color: boolean;
  /** Whether stderr is a terminal (for progress lines). */
  progress: boolean;
  /** Standard input's text, for `-` arguments. */
  stdin(): Promise<string>;
  /**
   * Write UTF-8 bytes to standard output as they are: text the caller has
   * already passed through `escapeControl` (as `runCli` does to
   * {@linkcode CliIO.stdout}) and encoded, so large reports are escaped and
   * encoded by the thread that rendered them. Optional: without it, the
   * bytes are decoded and written with {@linkcode CliIO.stdout}.
   */
  stdoutBytes?(bytes: Uint8Array): void;
}

/** One subcommand. */
export interface Command {
  /** The name users type. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The full `--help` text, with examples. */
  help: string;
  /**
   * Run the command.
   *
   * @param args The arguments after the command name.
   * @param io Where to write.
   * @returns The exit code.
   */
  run(args: string[], io: CliIO): Promise<number>;
}

/** The flags of one command, as `node:util` `parseArgs` takes them. */
export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;

/** What {@linkcode parseFlags} returns. */
export interface ParsedFlags {
  /** Flag values by name. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** Positional arguments. */
  positionals: string[];
}

/**
 * Parse a command's flags; an unknown flag or a missing value is a
 * {@linkcode UsageError} naming the command's help.
 *
 * @param command The command name, for the hint.
 * @param args The arguments after the command name.
 * @param options The flags.
 * @returns The values and positionals.
 * @throws {UsageError} On an unknown flag or a flag without its value.
 *
 * @example Usage
 * ```ts
 * import { parseFlags } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * const flags = parseFlags("eval", ["g.json", "--json"], { json: { type: "boolean" } });
 * assert.deepEqual(flags.positionals, ["g.json"]);
 * assert.equal(flags.values.json, true);
 * ```
 */
export function parseFlags(command: string, args: string[], options: FlagSpec): ParsedFlags {
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedFlags["values"], positionals };
  } catch (error) {
    const text = (error as Error).message;
    // parseArgs reads `--objective -cost` as a missing value; say how to pass it.
    const dashed = /use '(-[\w-]+)=-XYZ'/.exec(text)?.[1];
    if (dashed !== undefined) {
      const short = options[dashed.replace(/^--/, "")]?.short;
      const at = args.findIndex((arg, i) =>
        (arg === dashed || arg === `-${short}`) && args[i + 1]?.startsWith("-")
      );
      const typed = args[at] ?? dashed;
      const value = args[at + 1] ?? "-VALUE";
      throw new UsageError(
        `${typed} ${value}: a value that starts with - must be joined with =: ${dashed}=${value}`,
      );
    }
    const message = text.split("\n")[0]?.replace(/\. To specify.*$/, "");
    throw new UsageError(`${message}; see toolscore ${command} --help`);
  }
}

/**
 * A string flag's value, or `undefined`.
 *
 * @param flags Parsed flags.
 * @param name The flag.
 * @returns The value.
 *
 * @example Usage
 * ```ts
 * import { parseFlags, stringFlag } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * const flags = parseFlags("eval", ["--format", "openai"], { format: { type: "string" } });
 * assert.equal(stringFlag(flags, "format"), "openai");
 * ```
 */
export function stringFlag(flags: ParsedFlags, name: string): string | undefined {
  const value = flags.values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A repeatable string flag's values (empty when absent).
 *
 * @param flags Parsed flags.
 * @param name The flag.
 * @returns The values, in order.
 *
 * @example Usage
 * ```ts
 * import { listFlag, parseFlags } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * const flags = parseFlags("x", ["--key", "A", "--key", "B"], {
 *   key: { type: "string", multiple: true },
 * });
 * assert.deepEqual(listFlag(flags, "key"), ["A", "B"]);
 * ```
 */
export function listFlag(flags: ParsedFlags, name: string): string[] {
  const value = flags.values[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

/**
 * A number flag's value.
 *
 * @param flags Parsed flags.
 * @param name The flag.
 * @param range The allowed closed interval, for the error message.
 * @returns The number, or `undefined` when the flag is absent.
 * @throws {UsageError} When the value is not a number in range.
 *
 * @example Usage
 * ```ts
 * import { numberFlag, parseFlags } from "./command.ts";
 * import assert from "node:assert/strict";
 *
 * const flags = parseFlags("x", ["--alpha", "0.05"], { alpha: { type: "string" } });
 * assert.equal(numberFlag(flags, "alpha", [0, 1]), 0.05);
 * ```
 */
export function numberFlag(
  flags: ParsedFlags,
  name: string,
  range: [number, number] = [-Infinity, Infinity],
): number | undefined {
  const raw = stringFlag(flags, name);
  if (raw === undefined) return undefined;
  const value = raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(value) || value < range[0] || value > range[1]) {
    const bounds = Number.isFinite(range[0]) || Number.isFinite(range[1])
      ? ` between ${range[0]} and ${range[1]}`
      : "";
    throw new UsageError(`--${name} ${raw}: expected a number${bounds}`);
  }
  return value;
}
