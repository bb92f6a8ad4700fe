/**
 * `eval --waivers FILE` (issue 43): known-bad gold items, each scored and
 * shown but left out of the per-category accuracy and counts, out of the
 * BFCL score files' figures and out of the gate, and listed apart.
 *
 * The file is a JSON (or YAML) list of `{id, reason, link}`: `id` the
 * contract id waived (every repeat of it is waived), `reason` why (a
 * non-empty string), `link` where it is discussed (a URL, or `null`; may be
 * left out). Any other key, an id given twice or a list past
 * {@linkcode MAX_WAIVERS} entries is an input error (exit 2) naming the file
 * and the entry. A waiver whose id has no contract in the gold folder is a
 * warning, not an error: the waiver file `data/bfcl-waivers.json` covers every
 * BFCL category, and a folder usually holds some of them.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import type { Waiver } from "./eval_gold_types.ts";

/** At most this many waivers in one file. */
export const MAX_WAIVERS = 100_000;

const KEYS = new Set(["id", "reason", "link"]);

/**
 * Read a waiver file.
 *
 * @param path The file.
 * @returns The waivers, by contract id.
 * @throws {InputError} When the file cannot be read or is not a list of `{id, reason, link}`.
 *
 * @example Usage
 * ```ts
 * import { loadWaivers } from "./eval_waivers.ts";
 * import assert from "node:assert/strict";
 *
 * const file = Deno.makeTempFileSync({ suffix: ".json" });
 * Deno.writeTextFileSync(file, JSON.stringify([{ id: "simple_7", reason: "no answer can pass" }]));
 * const waivers = await loadWaivers(file);
 * assert.deepEqual(waivers.get("simple_7"), { id: "simple_7", reason: "no answer can pass", link: null });
 * Deno.removeSync(file);
 * ```
 */
export async function loadWaivers(path: string): Promise<Map<string, Waiver>> {
  const doc = await readDocument(path);
  if (!Array.isArray(doc)) {
    throw new InputError(`--waivers: expected a list of {id, reason, link}`, path);
  }
  if (doc.length > MAX_WAIVERS) {
    throw new InputError(`--waivers: ${doc.length} waivers, more than ${MAX_WAIVERS}`, path);
  }
  const out = new Map<string, Waiver>();
  for (const [i, entry] of doc.entries()) {
    const where = `${path}: [${i}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new InputError("expected an object {id, reason, link}", where);
    }
    const record = entry as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!KEYS.has(key)) {
        throw new InputError(
          `unknown key ${JSON.stringify(key)}; a waiver has id, reason and link`,
          where,
        );
      }
    }
    const { id, reason, link } = record;
    if (typeof id !== "string" || id === "") {
      throw new InputError("id: expected the contract id, a non-empty string", where);
    }
    if (typeof reason !== "string" || reason.trim() === "") {
      throw new InputError("reason: expected a non-empty string: why the item is waived", where);
    }
    if (link !== undefined && link !== null && typeof link !== "string") {
      throw new InputError("link: expected a URL string or null", where);
    }
    if (out.has(id)) throw new InputError(`id ${JSON.stringify(id)} is waived twice`, where);
    out.set(id, { id, reason, link: typeof link === "string" ? link : null });
  }
  return out;
}
