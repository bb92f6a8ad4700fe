/**
 * Gold files (legacy, v1): a JSON array of `{tool, args?, side_effects?,
 * description?, metadata?}` or `{"calls": […]}`. An item without `tool` is an
 * error with its index, never skipped. Each item is read like a contract's
 * required call (`expectedCallFromJson`), so `$` operators work in gold files
 * too and an unknown key is an error.
 *
 * @module
 */

import { freezeGold, isFrozenGold } from "../scoring/_frozen_gold.ts";
import { keyCount } from "../scoring/_tool_groups.ts";
import { describeJson, isJsonObject, joinPath, type ToolCall } from "../scoring/calls.ts";
import { expectedCallFromJson } from "../contract/parse.ts";
import { inFile, InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";

// Raw gold values already converted, with a snapshot of each to notice a later edit: evaluate()
// in a loop over one raw gold list converts it once, and an edited list is converted again.
const converted = new WeakMap<object, { snapshot: unknown; calls: ToolCall[] }>();

// A snapshot is a copy of the plain objects and arrays of a value (other values by reference),
// as key and value lists that are quick to compare.
class ObjectSnapshot {
  constructor(readonly keys: string[], readonly values: unknown[]) {}
}

class ArraySnapshot {
  constructor(readonly items: unknown[]) {}
}

function snapshotOf(value: unknown): unknown {
  if (Array.isArray(value)) return new ArraySnapshot(value.map(snapshotOf));
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  return new ObjectSnapshot(keys, keys.map((key) => snapshotOf(value[key])));
}

function unchanged(value: unknown, snapshot: unknown): boolean {
  if (snapshot instanceof ObjectSnapshot) {
    if (!isJsonObject(value)) return false;
    const { keys, values } = snapshot;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!Object.hasOwn(value, key) || !unchanged(value[key], values[i])) return false;
    }
    return keyCount(value) === keys.length;
  }
  if (snapshot instanceof ArraySnapshot) {
    if (!Array.isArray(value) || value.length !== snapshot.items.length) return false;
    for (let i = 0; i < value.length; i++) {
      if (!unchanged(value[i], snapshot.items[i])) return false;
    }
    return true;
  }
  return value === snapshot;
}

/**
 * Read gold calls from parsed JSON: a list of calls or `{"calls": […]}`.
 * Calls already in the TypeScript shape (with matcher instances) are accepted.
 *
 * The list returned is frozen (its calls and their plain objects too), and
 * passing it back returns it as is. A raw value passed again is converted
 * only once unless it changed in between (it is compared with a snapshot),
 * so scoring many traces against one gold list stays cheap.
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
  if (Array.isArray(value) && isFrozenGold(value)) return value;
  if (typeof value === "object" && value !== null) {
    const cached = converted.get(value);
    if (cached !== undefined && unchanged(value, cached.snapshot)) return cached.calls;
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
  // The list we return is frozen, so passing it back (loadGold, then evaluate()) is a no-op.
  freezeGold(calls);
  if (typeof value === "object" && value !== null) {
    converted.set(value, { snapshot: snapshotOf(value), calls });
  }
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
