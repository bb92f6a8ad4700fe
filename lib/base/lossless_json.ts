/**
 * A lossless JSON parse: number literals a double cannot hold exactly keep
 * their written digits.
 *
 * `JSON.parse` turns `12345678901234567890` into `12345678901234567000` and
 * `5.0` into `5`; two different ids then compare equal, and a checker that
 * must tell an int from a float (BFCL's) cannot. Here such a literal becomes a
 * V8 raw JSON value (`JSON.rawJSON(source)`, read through the reviver's
 * `context.source`): a frozen null-prototype object `{rawJSON: "…"}` that
 * `JSON.stringify` writes back digit for digit, so every report, receipt and
 * export keeps the digits without knowing about it. Everything else parses as
 * `JSON.parse` would.
 *
 * What is kept (`keep`):
 *
 * - `"unsafe"` (the default): integer literals (no `.`, no exponent) outside
 *   ±(2^53 − 1), the range where every integer is exact.
 * - `"float-text"`: those, and float literals (with `.` or an exponent) whose
 *   value is a whole number (`5.0`, `1e3`), so that the literal's kind
 *   survives; `5.5` is a float in JavaScript already and stays a number.
 *
 * The reviver runs only when the text could hold such a literal (a run of 16
 * digits where a number can start, for `"unsafe"`; a `.`, `e` or `E` for
 * `"float-text"`), so ordinary files parse at `JSON.parse` speed; a file that
 * holds one parses about 5 to 10 times slower (the reviver sees every value).
 *
 * @module
 */

/** A number literal kept as its written text: a V8 raw JSON value. */
export interface NumberText {
  /** The literal as written in the source, e.g. `"12345678901234567890"` or `"5.0"`. */
  readonly rawJSON: string;
}

/** Options for {@linkcode parseJsonLossless}. */
export interface ParseJsonLosslessOptions {
  /**
   * Which number literals keep their text: `"unsafe"` (integers a double
   * cannot hold) or `"float-text"` (those, and whole-valued float literals).
   * @default {"unsafe"}
   */
  keep?: "unsafe" | "float-text";
}

interface RawJsonApi {
  rawJSON(text: string): NumberText;
  isRawJSON(value: unknown): boolean;
  parse(
    text: string,
    reviver: (key: string, value: unknown, context: { source?: string }) => unknown,
  ): unknown;
}

const api = JSON as unknown as RawJsonApi;
// A number literal of 16 digits or more, where a JSON number can start: at the top, or after
// `[`, `:`, `,` or white space (and a `-`). Digits inside strings mostly follow a quote or a
// letter (OTLP's `"startTimeUnixNano": "1700000000000000000"`): such a file skips the reviver,
// which made a 50 MB OTLP export parse 5 to 12 times slower (issue 42).
const LONG_DIGITS = /(?:^|[:,[\s])-?\d{16}/;
const FLOAT_MARK = /[.eE]/;
const INTEGER_LITERAL = /^-?\d+$/;

function keptUnsafe(value: number, source: string): boolean {
  return !Number.isSafeInteger(value) && INTEGER_LITERAL.test(source);
}

/**
 * Parse JSON text, keeping the number literals a double cannot hold (and,
 * with `keep: "float-text"`, whole-valued float literals) as their written
 * text. Throws `SyntaxError` exactly where `JSON.parse` does.
 *
 * @param text The JSON text.
 * @param options What to keep.
 * @returns The value; kept literals are {@linkcode NumberText} values.
 *
 * @example Usage
 * ```ts
 * import { isNumberText, numberText, parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * const value = parseJsonLossless('{"id": 12345678901234567890, "n": 5.0}') as Record<string, unknown>;
 * assert.equal(numberText(value.id), "12345678901234567890");
 * assert.equal(value.n, 5);
 * assert.equal(JSON.stringify(value), '{"id":12345678901234567890,"n":5}');
 * const typed = parseJsonLossless("[5.0, 5]", { keep: "float-text" }) as unknown[];
 * assert.equal(isNumberText(typed[0]), true);
 * assert.equal(typed[1], 5);
 * ```
 */
export function parseJsonLossless(text: string, options: ParseJsonLosslessOptions = {}): unknown {
  const floats = options.keep === "float-text";
  if (!LONG_DIGITS.test(text) && !(floats && FLOAT_MARK.test(text))) return JSON.parse(text);
  return api.parse(text, (_key, value, context) => {
    if (typeof value !== "number" || context.source === undefined) return value;
    const source = context.source;
    if (keptUnsafe(value, source)) return api.rawJSON(source);
    if (floats && Number.isInteger(value) && !INTEGER_LITERAL.test(source)) {
      return api.rawJSON(source);
    }
    return value;
  });
}

/**
 * Whether a value is a number literal kept as text.
 *
 * @param value Any value.
 * @returns `true` for a {@linkcode NumberText}.
 *
 * @example Usage
 * ```ts
 * import { isNumberText, parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isNumberText(parseJsonLossless("9007199254740993")), true);
 * assert.equal(isNumberText(9007199254740991), false);
 * ```
 */
export function isNumberText(value: unknown): value is NumberText {
  return api.isRawJSON(value);
}

/**
 * The written text of a kept literal, or `undefined` for any other value.
 *
 * @param value Any value.
 * @returns The literal's text.
 *
 * @example Usage
 * ```ts
 * import { numberText, parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(numberText(parseJsonLossless("-18446744073709551616")), "-18446744073709551616");
 * assert.equal(numberText(1), undefined);
 * ```
 */
export function numberText(value: unknown): string | undefined {
  return isNumberText(value) ? value.rawJSON : undefined;
}

/**
 * Make a kept literal from number text (for writers and tests).
 *
 * @param text A JSON number literal.
 * @returns The kept literal.
 * @throws {SyntaxError} When `text` is not a JSON number literal.
 *
 * @example Usage
 * ```ts
 * import { numberFromText } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(JSON.stringify([numberFromText("5.0")]), "[5.0]");
 * assert.throws(() => numberFromText("five"), SyntaxError);
 * ```
 */
export function numberFromText(text: string): NumberText {
  if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) {
    throw new SyntaxError(`not a JSON number literal: ${JSON.stringify(text.slice(0, 40))}`);
  }
  return api.rawJSON(text);
}

/**
 * The kind of a number as written: `"integer"` for an integer literal (or an
 * integral JavaScript number without kept text), `"float"` for a literal with
 * `.` or an exponent (or a non-integral number); `undefined` for a non-number.
 *
 * @param value A number or a kept literal.
 * @returns Its kind.
 *
 * @example Usage
 * ```ts
 * import { numberKind, parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * const [a, b, c] = parseJsonLossless("[5.0, 5, 5.5]", { keep: "float-text" }) as unknown[];
 * assert.deepEqual([numberKind(a), numberKind(b), numberKind(c)], ["float", "integer", "float"]);
 * assert.equal(numberKind("5"), undefined);
 * ```
 */
export function numberKind(value: unknown): "integer" | "float" | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  const text = numberText(value);
  if (text === undefined) return undefined;
  return INTEGER_LITERAL.test(text) ? "integer" : "float";
}

/**
 * A number or kept literal as an exact decimal: sign, digits without leading
 * zeros and the power of ten, e.g. `1.50` → `{negative: false, digits: "15", exponent: -1}`.
 */
function decimalOf(
  value: unknown,
): { negative: boolean; digits: string; exponent: number } | undefined {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else {
    const kept = numberText(value);
    if (kept === undefined) return undefined;
    text = kept;
  }
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[3] ?? "";
  let digits = (match[2] + fraction).replace(/^0+/, "");
  let exponent = Number(match[4] ?? "0") - fraction.length;
  const trailing = /0*$/.exec(digits)![0].length;
  if (digits.length === 0) return { negative: false, digits: "0", exponent: 0 };
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { negative: match[1] === "-", digits, exponent };
}

/**
 * Whether two numbers (plain or kept literals) have the same exact decimal
 * value: `12345678901234567890` and `…891` differ, `5.0` and `5` are equal,
 * `1e2` and `100` are equal. A plain number compares as its shortest
 * round-trip decimal (`0.1` is `0.1`). Non-numbers are never equal here.
 *
 * @param a A number or kept literal.
 * @param b A number or kept literal.
 * @returns `true` when both are numbers of the same value.
 *
 * @example Usage
 * ```ts
 * import { exactNumbersEqual, parseJsonLossless } from "./lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * const [a, b] = parseJsonLossless("[12345678901234567890, 12345678901234567891]") as unknown[];
 * assert.equal(exactNumbersEqual(a, b), false);
 * assert.equal(exactNumbersEqual(a, parseJsonLossless("12345678901234567890")), true);
 * assert.equal(exactNumbersEqual(parseJsonLossless("5.0", { keep: "float-text" }), 5), true);
 * ```
 */
export function exactNumbersEqual(a: unknown, b: unknown): boolean {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (x === undefined || y === undefined) return false;
  return x.negative === y.negative && x.digits === y.digits && x.exponent === y.exponent;
}
