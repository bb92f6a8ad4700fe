/**
 * Arithmetic-free facts about numbers that may be kept literals (the raw JSON
 * values of `lossless_json.ts`): whether one is a whole number, its nearest
 * double, and its canonical text. Matchers and canonical JSON use these so
 * that a 64-bit id is neither rounded nor mistaken for an object (issue 42).
 *
 * @module
 */

import { isNumberText, numberFromText, numberText } from "./lossless_json.ts";

/** A number as an exact decimal: `digits × 10^exponent`, digits without leading or trailing zeros. */
interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

function decimal(text: string): Decimal | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[3] ?? "";
  let digits = (match[2]! + fraction).replace(/^0+/, "");
  if (digits === "") return { negative: false, digits: "0", exponent: 0 };
  let exponent = Number(match[4] ?? "0") - fraction.length;
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { negative: match[1] === "-", digits, exponent };
}

/**
 * Whether a value is a number (plain, finite, or a kept literal) with no
 * fractional part, judged on the written digits for a kept literal.
 *
 * @param value Any value.
 * @returns `true` for a whole number.
 *
 * @example Usage
 * ```ts
 * import { isWholeNumber } from "./exact_number.ts";
 * import { parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isWholeNumber(parseJsonLossless("12345678901234567890")), true);
 * assert.equal(isWholeNumber(3.5), false);
 * assert.equal(isWholeNumber("3"), false);
 * ```
 */
export function isWholeNumber(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value);
  const text = numberText(value);
  if (text === undefined) return false;
  const exact = decimal(text);
  return exact !== undefined && (exact.digits === "0" || exact.exponent >= 0);
}

/**
 * A number as a double: a plain number as it is, a kept literal as its
 * nearest double (for tolerances, where rounding is the point); anything
 * else `undefined`.
 *
 * @param value Any value.
 * @returns The double, or `undefined` for a non-number.
 *
 * @example Usage
 * ```ts
 * import { nearestDouble } from "./exact_number.ts";
 * import { parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(nearestDouble(parseJsonLossless("9007199254740993")), 9007199254740992);
 * assert.equal(nearestDouble("1"), undefined);
 * ```
 */
export function nearestDouble(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  const text = numberText(value);
  return text === undefined ? undefined : Number(text);
}

/**
 * The canonical form of a kept literal: the plain number when a double holds
 * its value exactly (so `5.0` and `1e21` written as digits hash like `5` and
 * `1e21`, RFC 8785's number form), else a kept literal of its exact value in
 * a normal form — an integer as its digits (`12345678901234567890`), any
 * other value as `digitsEexponent` (`123456789012345678905e-1`). Values that
 * are not kept literals are returned as they are.
 *
 * @param value Any value.
 * @returns The value in canonical form.
 *
 * @example Usage
 * ```ts
 * import { canonicalNumber } from "./exact_number.ts";
 * import { numberText, parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(canonicalNumber(parseJsonLossless("5.0", { keep: "float-text" })), 5);
 * assert.equal(numberText(canonicalNumber(parseJsonLossless("12345678901234567890"))), "12345678901234567890");
 * assert.equal(numberText(canonicalNumber(parseJsonLossless("1.23456789012345678900e19", { keep: "float-text" }))), "12345678901234567890");
 * ```
 */
export function canonicalNumber(value: unknown): unknown {
  if (!isNumberText(value)) return value;
  const exact = decimal(value.rawJSON);
  if (exact === undefined) return value;
  const double = Number(value.rawJSON);
  const asDouble = decimal(String(double));
  if (
    asDouble !== undefined && asDouble.negative === exact.negative &&
    asDouble.digits === exact.digits && asDouble.exponent === exact.exponent
  ) {
    return double;
  }
  const sign = exact.negative ? "-" : "";
  // A kept literal is finite as a double, so the exponent is at most about 308.
  const text = exact.exponent >= 0
    ? `${sign}${exact.digits}${"0".repeat(exact.exponent)}`
    : `${sign}${exact.digits}e${exact.exponent}`;
  return numberFromText(text);
}
