/**
 * The errors toolscore throws on purpose. The CLI maps them to exit codes and
 * prints them in one or two lines; anything else is a bug and gets a stack
 * trace only with `TOOLSCORE_DEBUG=1`.
 *
 * @module
 */

/**
 * Base class of every error toolscore throws on purpose; anything else that
 * escapes is a bug.
 *
 * @example Usage
 * ```ts
 * import { InputError, loadGold, ToolscoreError } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const error = await loadGold("no/such/gold.json").catch((e) => e);
 * assert.ok(error instanceof ToolscoreError); // an input problem, not a bug
 * assert.ok(error instanceof InputError);
 * assert.equal(new ToolscoreError("no trace").name, "ToolscoreError");
 * ```
 */
export class ToolscoreError extends Error {
  /**
   * Create an error.
   *
   * @param message What went wrong, in one sentence.
   * @param options The `cause`, if any.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ToolscoreError";
  }
}

/**
 * Bad input: a file or value the user gave us. The CLI exits 2.
 *
 * @example Usage
 * ```ts
 * import { InputError } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const error = new InputError("missing key tool", "gold.json:3:14");
 * assert.equal(error.message, "gold.json:3:14: missing key tool");
 * ```
 */
export class InputError extends ToolscoreError {
  /**
   * Create an input error.
   *
   * @param message What is wrong and what to do.
   * @param where File, line and column, or a JSON path: `gold.json:3:14`, `required[1].tool`.
   * @param options The `cause`, if any.
   */
  constructor(message: string, readonly where?: string, options?: ErrorOptions) {
    super(where ? `${where}: ${message}` : message, options);
    this.name = "InputError";
  }
}

/**
 * A bad command line: unknown flag, missing argument. The CLI exits 2.
 *
 * @example Usage
 * ```ts
 * import { UsageError } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new UsageError("unknown flag --bogus").name, "UsageError");
 * ```
 */
export class UsageError extends ToolscoreError {
  /**
   * Create a usage error.
   *
   * @param message What is wrong with the command line and what to do.
   * @param options The `cause`, if any.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UsageError";
  }
}

/**
 * Prefix a JSON path with a file name: `gold.json: required[1].tool: missing`.
 *
 * @param error The error to re-raise with a location.
 * @param file The file the value came from.
 * @returns A new {@linkcode InputError} naming the file.
 *
 * @example Usage
 * ```ts
 * import { InputError } from "@toolscore/cli";
 * import { inFile } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = inFile(new InputError("missing", "[0].tool"), "gold.json");
 * assert.equal(error.message, "gold.json: [0].tool: missing");
 * ```
 */
export function inFile(error: InputError, file: string): InputError {
  return new InputError(error.message, file, { cause: error });
}
