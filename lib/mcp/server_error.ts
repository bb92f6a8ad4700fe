/**
 * The error an MCP server that misbehaves raises: it did not start, it timed
 * out, it exited, or it broke the protocol. The message says which and ends
 * with the last lines the server wrote to stderr.
 *
 * @module
 */

import { ToolscoreError } from "../base/errors.ts";

/** Why talking to a server failed. */
export type McpServerErrorKind =
  | "spawn"
  | "permission"
  | "timeout"
  | "exit"
  | "protocol"
  | "config";

/** Options for {@linkcode McpServerError}. */
export interface McpServerErrorOptions extends ErrorOptions {
  /**
   * The last lines the server wrote to stderr.
   * @default {[]}
   */
  stderr?: readonly string[];
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
  /** The last lines the server wrote to stderr. */
  readonly stderr: readonly string[];

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
    const tail = stderr.slice(-8).join(" | ");
    super(tail === "" ? message : `${message}; its stderr ends: ${tail}`, options);
    this.name = "McpServerError";
    this.stderr = stderr;
  }
}
