/**
 * File-safe names for imported task ids (issue 44): `toolscore import tau2`
 * writes one contract per task as `DIR/<name>.json`, and `DIR/index.json`
 * maps each task id to its file, so the name only has to be safe and
 * unique, never reversible.
 *
 * The rules: every character outside `A-Z a-z 0-9 . _ -` becomes `_`; a
 * leading `.` becomes `_` (no hidden files, no `..`); an empty id is `_`; a
 * name is cut to 100 characters; `index` is `index_` (the index's own
 * name); and when two ids give the same name — compared case-insensitively,
 * for case-insensitive file systems — the later ones get `-2`, `-3`, … in
 * file order.
 *
 * @module
 */

const MAX_NAME = 100;

function safeStem(id: string): string {
  let name = id.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\./, "_").replace(/\.$/, "_");
  if (name.length > MAX_NAME) name = name.slice(0, MAX_NAME);
  if (name === "") name = "_";
  if (name.toLowerCase() === "index") name = `${name}_`;
  return name;
}

/**
 * File-safe, unique file names (`<name>.json`) for ids, in order.
 *
 * @param ids The ids, in file order (unique).
 * @returns One file name per id.
 *
 * @example Usage
 * ```ts
 * import { fileSafeNames } from "./tau2_file_names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(fileSafeNames(["0", "a/b", "a?b", "../x", "Index"]), [
 *   "0.json", "a_b.json", "a_b-2.json", "_._x.json", "Index_.json",
 * ]);
 * ```
 */
export function fileSafeNames(ids: readonly string[]): string[] {
  const taken = new Set<string>();
  // The next suffix to try per stem, so many ids of one stem stay linear, not quadratic.
  const next = new Map<string, number>();
  return ids.map((id) => {
    const stem = safeStem(id);
    const key = stem.toLowerCase();
    let name = stem;
    let n = next.get(key) ?? 2;
    while (taken.has(name.toLowerCase())) name = `${stem}-${n++}`;
    next.set(key, n);
    taken.add(name.toLowerCase());
    return `${name}.json`;
  });
}
