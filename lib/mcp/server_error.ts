/**
 * The error an MCP server that misbehaves raises: it did not start, it timed
 * out, it exited, or it broke the protocol. The message says which and ends
 * with the last lines the server wrote to stderr.
 *
 * @module
 */

import { ToolscoreError } from "../base/errors.ts";

/** A process found by its marker. */
export interface MarkedProcess {
  /** Its process id. */
  pid: number;
  /** Its command line, as `/proc` shows it (at most 200 characters). */
  command: string;
}

/**
 * What closing found of the processes the child started: the ones stopped,
 * the ones still running, and whether they could be looked for at all.
 */
export interface LeftBehind {
  /** The child's process group, which its children start in. */
  group: number;
  /**
   * `false` when deno did not permit signalling the group or other
   * processes: that needs `--allow-run` without a list.
   */
  signalled: boolean;
  /** Processes carrying the server's marker that were stopped (besides the server). */
  stopped: MarkedProcess[];
  /** Processes carrying the marker that still run (deno may not stop them). */
  survivors: MarkedProcess[];
  /** Whether processes could be looked for by their marker (Linux, `/proc` or `sh`). */
  looked: boolean;
  /** Whether something still held the server's stdout or stderr open after it exited. */
  pipesHeld: boolean;
  /** The marker entry the server's processes carry (`TOOLSCORE_MCP_RUN=<id>`). */
  marker: string;
}

/** Why talking to a server failed. */
export type McpServerErrorKind =
  | "spawn"
  | "permission"
  | "timeout"
  | "exit"
  | "protocol"
  | "config"
  | "version"
  | "invalid"
  | "http"
  | "deadline"
  | "unsupported";

/** Options for {@linkcode McpServerError}. */
export interface McpServerErrorOptions extends ErrorOptions {
  /**
   * What the server wrote to stderr: its first and last lines.
   * @default {[]}
   */
  stderr?: readonly string[];
  /**
   * What closing a local server found of the processes it started.
   * @default {null}
   */
  leftBehind?: LeftBehind | null;
}

// A line that starts an error report: Node's `Error: Cannot find module …`, Python's traceback…
const ERROR_LINE =
  /^\s*(?:[\w.]*(?:Error|Exception)\b|Traceback\b|panic:|fatal\b|FATAL\b|error(?:\[\w+\])?:|Uncaught\b)/i;

/**
 * The stderr lines worth a message: the first error line and the two after
 * it (a crash's cause is at the top of its stack trace), then the last four
 * lines; only the last eight when no error line comes earlier.
 *
 * @param stderr What the server wrote to stderr, first lines and last lines.
 * @returns The lines, in order.
 *
 * @example Usage
 * ```ts
 * import { stderrExcerpt } from "./server_error.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = ["node:internal/loader:1228", "Error: Cannot find module 'x'", "    at a", ...Array(10).fill("    at b"), "Node.js v22"];
 * assert.deepEqual(stderrExcerpt(lines).slice(0, 2), ["Error: Cannot find module 'x'", "    at a"]);
 * assert.equal(stderrExcerpt(lines).at(-1), "Node.js v22");
 * ```
 */
export function stderrExcerpt(stderr: readonly string[]): string[] {
  const first = stderr.findIndex((line) => ERROR_LINE.test(line));
  if (first === -1 || first >= stderr.length - 8) return stderr.slice(-8);
  return [...stderr.slice(first, first + 3), "…", ...stderr.slice(-4)];
}

/**
 * A server that did not start, timed out, exited or broke the protocol.
 *
 * @example Usage
 * ```ts
 * import { McpServerError } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const error = new McpServerError("timeout", "no answer to initialize within 5 s", {
 *   stderr: ["loading…"],
 * });
 * assert.equal(error.message, "no answer to initialize within 5 s; its stderr ends: loading…");
 * ```
 */
export class McpServerError extends ToolscoreError {
  /** What the server wrote to stderr: its first and last lines. */
  readonly stderr: readonly string[];
  /** What closing a local server found of the processes it started. */
  readonly leftBehind: LeftBehind | null;

  /**
   * Create the error.
   *
   * @param kind Why it failed.
   * @param message What happened, in one sentence.
   * @param options The server's last stderr lines and the cause.
   */
  constructor(
    readonly kind: McpServerErrorKind,
    message: string,
    options: McpServerErrorOptions = {},
  ) {
    const stderr = options.stderr ?? [];
    const excerpt = stderrExcerpt(stderr);
    const text = excerpt.join(" | ").replace(" | … | ", " … ");
    const what = excerpt.includes("…") ? "its stderr says" : "its stderr ends";
    super(text === "" ? message : `${message}; ${what}: ${text}`, options);
    this.name = "McpServerError";
    this.stderr = stderr;
    this.leftBehind = options.leftBehind ?? null;
  }
}
