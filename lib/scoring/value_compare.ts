/**
 * Value comparison every argument metric uses: deep equality, lenient or
 * strict, where a matcher on the expected side decides for itself.
 *
 * Numbers compare by exact decimal value (issue 42). A number literal a
 * double cannot hold (`12345678901234567890`, past ±(2^53 − 1)) is read by
 * every trace, gold and contract reader as its written digits
 * (`lib/base/lossless_json.ts`), and such a kept literal equals another
 * number only when their decimal values are the same, digit for digit:
 * `12345678901234567890` and `…891` differ in lenient and strict mode alike
 * (both read as `12345678901234567000` before). A kept literal and a plain
 * number compare the same way (`exactNumbersEqual`).
 *
 * Lenient comparison loosens strings only (surrounding whitespace); it never
 * turns a number into a string or back, for kept literals as for any other
 * number: gold `9007199254740993` does not match the string
 * `"9007199254740993"` in either mode (write the gold as a string, or
 * `{"$regex": "^9007199254740993$"}`, to accept the text). What changed is
 * that the gold keeps its digits in every output, so the mismatch shows the
 * value that was written, not `9007199254740992`.
 *
 * @module
 */

import { trimmedEqual } from "../base/_text.ts";
import { exactNumbersEqual, isNumberText } from "../base/lossless_json.ts";
import { isMatcher } from "./matcher.ts";

/** Options for {@linkcode valuesMatch}. */
export interface ValuesMatchOptions {
  /**
   * Compare exactly: same JSON type and value, no trimming, same object key
   * sets, same array lengths. Matchers still decide.
   * @default {false}
   */
  strict?: boolean;
}

/**
 * Compare an expected value with an actual one.
 *
 * @param expected The expected value (may hold matchers).
 * @param actual The actual value.
 * @param strict Compare exactly.
 * @param matchers Whether matchers in `expected` decide (`false` for `$eq` literals).
 * @returns `true` when they match.
 */
export function compare(
  expected: unknown,
  actual: unknown,
  strict: boolean,
  matchers: boolean,
): boolean {
  switch (typeof expected) {
    case "string":
      if (typeof actual !== "string") return false;
      return strict ? expected === actual : trimmedEqual(expected, actual);
    case "number":
      // A kept literal (issue 42) can equal only a number that is not a safe integer.
      return expected === actual ||
        !Number.isSafeInteger(expected) && isNumberText(actual) &&
          exactNumbersEqual(expected, actual);
    case "boolean":
      return expected === actual;
    case "undefined":
      return actual === undefined;
    case "object":
      break;
    default:
      return false;
  }
  if (expected === null) return actual === null;
  if (isNumberText(expected)) return exactNumbersEqual(expected, actual);
  if (matchers && isMatcher(expected)) return expected.matches(actual, strict);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    for (let i = 0; i < expected.length; i++) {
      if (!compare(expected[i], actual[i], strict, matchers)) return false;
    }
    return true;
  }
  if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
  if (isMatcher(actual) || isNumberText(actual)) return false;
  const want = expected as Record<string, unknown>;
  const got = actual as Record<string, unknown>;
  const keys = Object.keys(want);
  if (keys.length !== Object.keys(got).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(got, key) || !compare(want[key], got[key], strict, matchers)) return false;
  }
  return true;
}

/**
 * Compare an expected value (which may hold matchers at any depth) with an
 * actual one. Lenient (the default): a matcher decides, else deep equality
 * where strings compare after trimming surrounding whitespace. Strict: same
 * JSON type and value, no trimming, same key sets, same array lengths. JSON
 * has one number type, so `1` and `1.0` are equal in both modes; integers a
 * double cannot hold compare digit for digit (see the module doc).
 *
 * @param expected The expected value.
 * @param actual The actual value.
 * @param options Lenient or strict.
 * @returns `true` when they match.
 *
 * @example Usage
 * ```ts
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(valuesMatch("NYC", " NYC "), true);
 * assert.equal(valuesMatch("NYC", " NYC ", { strict: true }), false);
 * assert.equal(valuesMatch({ n: 1 }, { n: 1.0 }, { strict: true }), true);
 * ```
 */
export function valuesMatch(
  expected: unknown,
  actual: unknown,
  options: ValuesMatchOptions = {},
): boolean {
  return compare(expected, actual, options.strict ?? false, true);
}
