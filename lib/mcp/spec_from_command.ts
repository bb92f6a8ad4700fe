/**
 * A stdio server spec from a command line (`toolscore doctor -- CMD…`).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { splitCommandLine } from "./command_line.ts";
import type { StdioServerSpec } from "./server_spec.ts";

/**
 * A local server spec from a command line: the tokens after `--`, or one
 * quoted string.
 *
 * @param command The tokens, or one command-line string to split.
 * @returns The spec.
 * @throws {InputError} When the command is empty.
 *
 * @example Usage
 * ```ts
 * import { serverSpecFromCommandLine } from "./spec_from_command.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(serverSpecFromCommandLine("deno run server.ts"), {
 *   command: ["deno", "run", "server.ts"],
 * });
 * ```
 */
export function serverSpecFromCommandLine(command: string | string[]): StdioServerSpec {
  const tokens = typeof command === "string" ? splitCommandLine(command) : [...command];
  if (tokens.length === 0 || tokens[0] === "") {
    throw new InputError("empty server command; give the executable and its arguments", "command");
  }
  return { command: tokens };
}
