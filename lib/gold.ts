/**
 * Gold files (legacy, v1): a JSON array of `{tool, args?, side_effects?,
 * description?, metadata?}` or `{"calls": […]}`. An item without `tool` is an
 * error with its index, never skipped. Argument values go through
 * {@linkcode matcherFromJson}, so `$` operators work in gold files too.
 *
 * @module
 */

import { callFromJson, describeJson, isJsonObject, joinPath, type ToolCall } from "./calls.ts";
import { InputError } from "./errors.ts";
import { readDocument } from "./load.ts";
import { isMatcher, matcherFromJson } from "./matchers.ts";

const GOLD_KEYS = new Set(["tool", "args", "side_effects", "description", "metadata", "id"]);

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
  const where = (path: string) => source ? `${source}: ${path}` : path;
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
    const path = joinPath(base, i);
    if (!isJsonObject(item)) {
      throw new InputError(`expected a call object, got ${describeJson(item)}`, where(path));
    }
    if (item.tool === undefined) throw new InputError("missing", where(joinPath(path, "tool")));
    for (const key of Object.keys(item)) {
      if (!GOLD_KEYS.has(key) && !["sideEffects"].includes(key)) {
        throw new InputError(
          `unknown key ${key} (a gold call has ${[...GOLD_KEYS].join(", ")})`,
          where(joinPath(path, key)),
        );
      }
    }
    let call: ToolCall;
    try {
      call = callFromJson(item, { path });
    } catch (error) {
      if (error instanceof InputError && source) throw new InputError(error.message, source);
      throw error;
    }
    if (call.args !== undefined && call.args !== null && !isMatcher(call.args)) {
      try {
        call.args = matcherFromJson(call.args, joinPath(path, "args")) as Record<string, unknown>;
      } catch (error) {
        if (error instanceof InputError && source) throw new InputError(error.message, source);
        throw error;
      }
    }
    return call;
  });
  if (typeof value === "object" && value !== null) converted.set(value, calls);
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
