/**
 * Gold files (legacy, v1): a JSON array of `{tool, args?, side_effects?,
 * description?, metadata?}` or `{"calls": […]}`. An item without `tool` is an
 * error with its index, never skipped. Each item is read like a contract's
 * required call (`expectedCallFromJson`), so `$` operators work in gold files
 * too and an unknown key is an error.
 *
 * @module
 */

import { describeJson, isJsonObject, joinPath, type ToolCall } from "./calls.ts";
import { expectedCallFromJson } from "./contract/parse.ts";
import { inFile, InputError } from "./errors.ts";
import { readDocument } from "./load.ts";

// Gold lists already converted, so evaluate() in a loop converts a list once.
const converted = new WeakMap<object, ToolCall[]>();

/**
 * Read gold calls from parsed JSON: a list of calls or `{"calls": […]}`.
 * Calls already in the TypeScript shape (with matcher instances) pass through.
 *
 * @param value The parsed gold file.
 * @param source The file name, for errors.
 * @returns The expected calls.
 * @throws {InputError} On an item without `tool`, an unknown key or a bad matcher, naming where.
 *
 * @example Usage
 * ```ts
 * import { goldFromJson } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const gold = goldFromJson([{ tool: "search", args: { q: { $regex: "^deno" } } }]);
 * assert.equal(String(gold[0]?.args?.q), '{"$regex":"^deno"}');
 * assert.throws(() => goldFromJson([{ args: {} }], "gold.json"), /gold\.json: \[0\]\.tool: missing/);
 * ```
 */
export function goldFromJson(value: unknown, source?: string): ToolCall[] {
  if (typeof value === "object" && value !== null) {
    const cached = converted.get(value);
    if (cached) return cached;
  }
  let list: unknown[];
  let base = "";
  if (Array.isArray(value)) list = value;
  else if (isJsonObject(value) && Array.isArray(value.calls)) {
    list = value.calls;
    base = "calls";
  } else {
    throw new InputError(
      `a gold file is a list of calls or {"calls": [...]}, got ${describeJson(value)}`,
      source,
    );
  }
  const calls = list.map((item, i) => {
    try {
      return expectedCallFromJson(item, joinPath(base, i));
    } catch (error) {
      throw error instanceof InputError && source ? inFile(error, source) : error;
    }
  });
  if (typeof value === "object" && value !== null) converted.set(value, calls);
  // The list we return is already converted: passing it back (loadGold, then evaluate()) is a no-op.
  converted.set(calls, calls);
  return calls;
}

/**
 * Read a gold file (JSON, JSONC or YAML).
 *
 * @param path The file.
 * @returns The expected calls.
 * @throws {InputError} When the file cannot be read, parsed or understood.
 *
 * @example Usage
 * ```ts ignore
 * import { loadGold } from "@toolscore/cli";
 *
 * const gold = await loadGold("testdata/gold.json");
 * ```
 */
export async function loadGold(path: string): Promise<ToolCall[]> {
  return goldFromJson(await readDocument(path), path);
}
