/**
 * Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) and the hashes
 * built on it. The serialization itself is the maintained `canonicalize`
 * package; this module only turns values that JSON cannot hold into stable
 * repr strings first, so hashing never throws:
 *
 * - a value with `toJSON()` (matchers, results) is replaced by what it returns;
 * - `undefined` in an array, a function, a symbol or a bigint becomes its
 *   `String()` form (`"undefined"`); `undefined` object values are left out,
 *   as `JSON.stringify` does;
 * - `NaN`, `Infinity` and `-Infinity` become those strings;
 * - a string or key with a lone surrogate has it replaced by U+FFFD;
 * - a boxed primitive (`new Number(1)`) becomes its value; a `RegExp` its
 *   source form (`"/^a/i"`);
 * - a class instance without `toJSON()` is written as an object of its own
 *   enumerable properties; a `Map` as an object, a `Set` as an array;
 * - a cycle becomes the string `"[Circular]"`.
 *
 * Numbers a double cannot hold (issue 42): a kept literal (the raw JSON value
 * `lossless_json.ts` reads for `12345678901234567890`) is written by its
 * exact value, so two ids that differ in the 20th digit never hash alike. A
 * kept literal whose value a double holds exactly is written as that number
 * (RFC 8785's form: `5.0` → `5`); any other as its digits (an integer) or
 * `digitsEexponent`, a JSON number text RFC 8785 alone would never produce.
 * Values without kept literals are serialized by `canonicalize`, unchanged;
 * a value holding one by a small writer here that sorts keys and writes
 * strings and numbers the same way.
 *
 * @module
 */

import canonicalize from "canonicalize";
import { canonicalNumber } from "./exact_number.ts";
import { isNumberText } from "./lossless_json.ts";

function wellFormed(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

// What toPlain met on the way: kept literals need the writer below (canonicalize cannot write them).
interface PlainState {
  kept: boolean;
}

function toPlain(value: unknown, seen: Set<object>, state: PlainState = { kept: false }): unknown {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "string") return wellFormed(value);
  if (typeof value !== "object") return String(value);
  if (isNumberText(value)) {
    const number = canonicalNumber(value);
    if (typeof number !== "number") state.kept = true;
    return number;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return toPlain(value.valueOf(), seen, state);
  }
  if (value instanceof RegExp) return String(value);
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  try {
    const withToJson = value as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === "function") return toPlain(withToJson.toJSON(), seen, state);
    if (Array.isArray(value)) {
      return value.map((item) => item === undefined ? "undefined" : toPlain(item, seen, state));
    }
    if (value instanceof Set) return [...value].map((item) => toPlain(item, seen, state));
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    // A null prototype, so that a "__proto__" key stays an ordinary key.
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, item] of entries) {
      if (item !== undefined) out[wellFormed(String(key))] = toPlain(item, seen, state);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * A value as the plain JSON data {@linkcode canonicalJson} serializes: every
 * non-JSON leaf replaced by its stable repr (see the module doc). Objects in
 * the result have a null prototype, so a `"__proto__"` key stays a key.
 *
 * @param value Any value.
 * @returns Plain JSON data: `null`, booleans, finite numbers, strings, arrays and objects
 * (and kept literals, in canonical form, for numbers a double cannot hold).
 *
 * @example Usage
 * ```ts
 * import { canonicalValue } from "./canonical.ts";
 * import assert from "node:assert/strict";
 *
 * const plain = canonicalValue({ n: NaN, list: [undefined, 1], when: new Date(0) });
 * assert.equal(JSON.stringify(plain), '{"n":"NaN","list":["undefined",1],"when":"1970-01-01T00:00:00.000Z"}');
 * ```
 */
export function canonicalValue(value: unknown): unknown {
  return toPlain(value, new Set());
}

/**
 * A value as canonical JSON text (RFC 8785): sorted keys, no whitespace,
 * ECMAScript number form. Non-JSON leaves are written as stable repr strings.
 *
 * @param value Any value.
 * @returns The canonical JSON text.
 *
 * @example Usage
 * ```ts
 * import { canonicalJson } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(canonicalJson({ b: 1, a: [1e21, 0.1 + 0.2] }), '{"a":[1e+21,0.30000000000000004],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  const state: PlainState = { kept: false };
  const plain = toPlain(value, new Set(), state);
  return state.kept ? writeCanonical(plain) : canonicalize(plain) ?? "null";
}

// RFC 8785 for plain data that holds kept literals (written as their text). The data comes from
// toPlain (finite numbers, well-formed strings, no cycles) and from documents held to the nesting
// limit, so recursion is bounded.
function writeCanonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (isNumberText(value)) return value.rawJSON;
  if (Array.isArray(value)) return `[${value.map(writeCanonical).join(",")}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    parts.push(`${JSON.stringify(key)}:${writeCanonical(record[key])}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * A value as canonical JSON UTF-8 bytes (see {@linkcode canonicalJson}).
 *
 * @param value Any value.
 * @returns The UTF-8 bytes.
 *
 * @example Usage
 * ```ts
 * import { canonicalJsonBytes } from "./canonical.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(canonicalJsonBytes({ a: "é" }), new TextEncoder().encode('{"a":"é"}'));
 * ```
 */
export function canonicalJsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}

/**
 * The lowercase hex SHA-256 of bytes or a string's UTF-8 bytes.
 *
 * @param data The bytes or text.
 * @returns 64 hex digits.
 *
 * @example Usage
 * ```ts
 * import { sha256Hex } from "./canonical.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(sha256Hex("").slice(0, 8), "e3b0c442");
 * ```
 */
export function sha256Hex(data: Uint8Array | string): string {
  // node:crypto loads on the first hash, not with this module: trace readers use canonical JSON
  // without hashing, and loading it took about a tenth of a one-trace `eval`'s start-up.
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(data).digest("hex");
}

/**
 * The SHA-256 of a value as canonical JSON: the same value hashes the same
 * whatever its key order.
 *
 * @param value Any value.
 * @returns 64 lowercase hex digits.
 *
 * @example Usage
 * ```ts
 * import { jsonSha256 } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(jsonSha256({ a: 1, b: 2 }), jsonSha256({ b: 2, a: 1 }));
 * ```
 */
export function jsonSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
