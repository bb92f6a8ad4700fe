/**
 * Python's view of JSON values, as BFCL's checker sees them (ShishirPatil/gorilla,
 * `bfcl_eval/eval_checker/ast_eval/ast_checker.py`, Apache-2.0): the type
 * name `type(value)` gives, `==` between values (an int equals a float of
 * the same value, `True` equals `1`) and {@linkcode standardizeBfclString},
 * BFCL's `standardize_string`.
 *
 * Int versus float comes from the literal: a whole-valued float literal
 * (`5.0`) reaches here as a kept literal of `parseJsonLossless(text, {keep:
 * "float-text"})` (`numberKind` says `"float"`); a plain JavaScript number is
 * an int when it is whole.
 *
 * Deviations, stated: Python's `str.lower()` and JavaScript's
 * `toLowerCase()` may differ on characters whose case mapping changed
 * between their Unicode versions; an int and a float are compared as
 * doubles (Python compares them exactly, which differs only beyond 2^53).
 *
 * @module
 */

import {
  exactNumbersEqual,
  isNumberText,
  numberFromText,
  numberKind,
  numberText,
} from "../base/lossless_json.ts";

/** A Python type name as `type(value).__name__` writes it. */
export type PyTypeName = "int" | "float" | "bool" | "str" | "list" | "dict" | "NoneType";

/**
 * The Python type a JSON value loads as (`json.loads`).
 *
 * @param value A JSON value (kept literals included).
 * @returns Its Python type name.
 *
 * @example Usage
 * ```ts
 * import { pyType } from "./bfcl_values.ts";
 * import { parseJsonLossless } from "../base/lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * const [a, b, c] = parseJsonLossless("[5.0, 5, true]", { keep: "float-text" }) as unknown[];
 * assert.deepEqual([pyType(a), pyType(b), pyType(c)], ["float", "int", "bool"]);
 * ```
 */
export function pyType(value: unknown): PyTypeName {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "string") return "str";
  if (typeof value === "number" || isNumberText(value)) {
    return numberKind(value) === "integer" ? "int" : "float";
  }
  if (Array.isArray(value)) return "list";
  return "dict";
}

function numeric(value: unknown): boolean {
  return typeof value === "number" || typeof value === "boolean" || isNumberText(value);
}

function asNumber(value: unknown): number | unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

function numbersEqual(a: unknown, b: unknown): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  if (pyType(x) === "float" || pyType(y) === "float") {
    const nx = typeof x === "number" ? x : Number(numberText(x));
    const ny = typeof y === "number" ? y : Number(numberText(y));
    return nx === ny;
  }
  return exactNumbersEqual(x, y);
}

/**
 * Python's `a == b` for JSON values: numbers (bools as 0 and 1) by value,
 * lists item by item, dicts key by key, everything else by type and value.
 *
 * @param a A value.
 * @param b A value.
 * @returns `true` when Python says `a == b`.
 *
 * @example Usage
 * ```ts
 * import { pyEqual } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pyEqual(true, 1), true);
 * assert.equal(pyEqual([1, { a: 2 }], [1, { a: 2 }]), true);
 * assert.equal(pyEqual("1", 1), false);
 * ```
 */
export function pyEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (numeric(a) || numeric(b)) return numeric(a) && numeric(b) && numbersEqual(a, b);
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEqual(item, b[i], depth + 1));
  }
  if (typeof a !== "object" || typeof b !== "object" || a === undefined || b === undefined) {
    return false;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((key) => Object.hasOwn(y, key) && pyEqual(x[key], y[key], depth + 1));
}

/**
 * Python's `value in items` for a list.
 *
 * @param value A value.
 * @param items The list.
 * @returns `true` when some item equals the value.
 *
 * @example Usage
 * ```ts
 * import { pyIn } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pyIn(5, [5.5, 5]), true);
 * assert.equal(pyIn("", ["a"]), false);
 * ```
 */
export function pyIn(value: unknown, items: readonly unknown[]): boolean {
  return items.some((item) => pyEqual(value, item));
}

// `[ \,\.\/\-\_\*\^]` in ast_checker.standardize_string: the ASCII space and ,./-_*^, no other.
const DELETED = /[ ,./\-_*^]/g;

/**
 * BFCL's `standardize_string`: delete the ASCII space and `` ,./-_*^``
 * (tabs, newlines and other spaces stay), lowercase, and turn `'` into `"`.
 *
 * @param text A string.
 * @returns The standardized string.
 *
 * @example Usage
 * ```ts
 * import { standardizeBfclString } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(standardizeBfclString("April 1, 2024"), "april12024");
 * assert.equal(standardizeBfclString("it's\tA"), 'it"s\ta');
 * ```
 */
export function standardizeBfclString(text: string): string {
  return text.replace(DELETED, "").toLowerCase().replaceAll("'", '"');
}

/**
 * Python's `len()` of a string: its code points.
 *
 * @param text A string.
 * @returns The number of code points.
 *
 * @example Usage
 * ```ts
 * import { pyLength } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pyLength("a😀"), 2);
 * ```
 */
export function pyLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A Python exception BFCL's checker would raise: the evaluation of that output crashes there. */
export class BfclCrashError extends Error {
  /** The error name. */
  override name = "BfclCrashError";
}

/**
 * A Python float as a JSON value: whole values as kept `5.0` literals, so
 * that {@linkcode pyType} still says `"float"`.
 *
 * @param value The number.
 * @returns The value.
 *
 * @example Usage
 * ```ts
 * import { pyFloat, pyType } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pyType(pyFloat(3)), "float");
 * assert.equal(JSON.stringify(pyFloat(3)), "3.0");
 * ```
 */
export function pyFloat(value: number): unknown {
  if (!Number.isInteger(value)) return value;
  const text = String(value);
  return numberFromText(/[e.]/.test(text) ? text : `${text}.0`);
}

const DIGITS = String.raw`\d+(?:_\d+)*`;
const INT_TEXT = new RegExp(String.raw`^\s*[+-]?${DIGITS}\s*$`);
const FLOAT_TEXT = new RegExp(
  String
    .raw`^\s*[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)\s*$`,
  "i",
);

/**
 * Python's `int(text)` for base 10 (ASCII digits).
 *
 * @param text The text.
 * @returns The int, or `undefined` where Python raises `ValueError`.
 *
 * @example Usage
 * ```ts
 * import { pyIntOf } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pyIntOf(" 1_000 "), 1000);
 * assert.equal(pyIntOf("1.0"), undefined);
 * ```
 */
export function pyIntOf(text: string): unknown {
  if (!INT_TEXT.test(text)) return undefined;
  const big = BigInt(text.trim().replaceAll("_", ""));
  const small = Number(big);
  return Number.isSafeInteger(small) ? small : numberFromText(big.toString());
}

/**
 * Python's `float(text)`.
 *
 * @param text The text.
 * @returns The float, or `undefined` where Python raises `ValueError`.
 *
 * @example Usage
 * ```ts
 * import { pyFloatOf, pyType } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pyFloatOf("2.5"), 2.5);
 * assert.equal(pyType(pyFloatOf("2")), "float");
 * assert.equal(pyFloatOf("2f"), undefined);
 * ```
 */
export function pyFloatOf(text: string): unknown {
  if (!FLOAT_TEXT.test(text)) return undefined;
  const clean = text.trim().replaceAll("_", "").toLowerCase();
  const sign = clean.startsWith("-") ? -1 : 1;
  const bare = clean.replace(/^[+-]/, "");
  if (bare === "nan") return NaN;
  if (bare === "inf" || bare === "infinity") return sign * Infinity;
  return pyFloat(Number(clean));
}

/**
 * Python's `str.strip(chars)`: remove any of `chars` from both ends
 * (whitespace when `chars` is absent).
 *
 * @param text The text.
 * @param chars The characters to remove.
 * @returns The stripped text.
 *
 * @example Usage
 * ```ts
 * import { pyStrip } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pyStrip(`'"a'`, `'"`), "a");
 * assert.equal(pyStrip("  a \n"), "a");
 * ```
 */
export function pyStrip(text: string, chars?: string): string {
  if (chars === undefined) return text.trim();
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * The longest collection text (`new ArrayList<>(…)`, `[…]`, `{…}`) the
 * converters read, in UTF-16 units: BFCL's patterns backtrack, and some
 * take time quadratic in the text.
 *
 * @example Usage
 * ```ts
 * import { MAX_COLLECTION_TEXT } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_COLLECTION_TEXT, 8192);
 * ```
 */
export const MAX_COLLECTION_TEXT = 8192;

/**
 * Refuse collection text longer than {@linkcode MAX_COLLECTION_TEXT}, as a
 * checker error (the verdict is then invalid, and says why).
 *
 * @param text The argument's source text.
 * @throws {BfclCrashError} When it is longer.
 *
 * @example Usage
 * ```ts
 * import { checkCollectionLength } from "./bfcl_values.ts";
 * import assert from "node:assert/strict";
 *
 * checkCollectionLength("[1, 2]");
 * assert.throws(() => checkCollectionLength("[" + "1,".repeat(5000) + "]"), /longer than 8192/);
 * ```
 */
export function checkCollectionLength(text: string): void {
  if (text.length > MAX_COLLECTION_TEXT) {
    throw new BfclCrashError(
      `collection text longer than ${MAX_COLLECTION_TEXT} characters (${text.length}); ` +
        `toolscore does not run BFCL's backtracking patterns on it`,
    );
  }
}
