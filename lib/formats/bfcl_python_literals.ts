/**
 * Python literals as BFCL's decoder sees them (`ast.literal_eval`-level
 * values, private to the `bfcl` reader): number and string literals read
 * into Python values, Python values written back as `repr` writes them (for
 * the text BFCL's `ast.unparse` gives a call without keywords), and the JSON
 * form of a decoded value that keeps int versus float (`5.0` stays a float:
 * {@linkcode numberFromText}).
 *
 * Python ints have no size limit; here they are `bigint`s, written to JSON
 * as numbers when they are safe integers and as kept literals otherwise.
 *
 * @module
 */

import { numberFromText } from "../base/lossless_json.ts";

/** A Python value a BFCL call string can decode to. */
export type PyValue =
  | { kind: "int"; value: bigint }
  | { kind: "float"; value: number }
  | { kind: "bool"; value: boolean }
  | { kind: "none" }
  | { kind: "str"; value: string }
  | { kind: "bytes"; text: string }
  | { kind: "complex"; text: string }
  | { kind: "list"; items: PyValue[] }
  | { kind: "tuple"; items: PyValue[] }
  | { kind: "dict"; entries: [PyValue, PyValue][] }
  | { kind: "call"; name: string; args: [string, PyValue][] };

/** A call string BFCL's decoder rejects, or a value this reader cannot hold. */
export class BfclDecodeError extends Error {
  /** @param message What could not be decoded. */
  constructor(message: string) {
    super(message);
    this.name = "BfclDecodeError";
  }
}

/** A value BFCL decodes that JSON cannot hold (bytes, complex, inf): the call is kept, marked. */
export class BfclUnsupportedValue extends Error {
  /** @param message Which value. */
  constructor(message: string) {
    super(message);
    this.name = "BfclUnsupportedValue";
  }
}

const INT_TEXT = /^(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[1-9][0-9]*|0+)$/;
const FLOAT_TEXT = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/**
 * A Python number literal's value (`1_000`, `0x1F`, `5.0`, `1e3`, `2j`).
 *
 * @param text The literal as written.
 * @returns The value.
 * @throws {BfclDecodeError} When Python would reject the literal.
 *
 * @example Usage
 * ```ts
 * import { pythonNumber } from "./bfcl_python_literals.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pythonNumber("0x1F"), { kind: "int", value: 31n });
 * assert.deepEqual(pythonNumber("5."), { kind: "float", value: 5 });
 * assert.throws(() => pythonNumber("012"), /invalid number literal/);
 * ```
 */
export function pythonNumber(text: string): PyValue {
  const plain = text.replaceAll("_", "");
  if (/[jJ]$/.test(plain)) return { kind: "complex", text };
  if (INT_TEXT.test(plain)) return { kind: "int", value: BigInt(plain.toLowerCase()) };
  if (FLOAT_TEXT.test(plain) && /[.eE]/.test(plain)) return { kind: "float", value: Number(plain) };
  throw new BfclDecodeError(`invalid number literal ${text}`);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

function unescape(body: string, literal: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) throw new BfclDecodeError(`unterminated escape in ${literal}`);
    if (next === "\n") {
      i++;
      continue;
    }
    if (SIMPLE_ESCAPES[next] !== undefined) {
      out += SIMPLE_ESCAPES[next];
      i++;
      continue;
    }
    const hex = { x: 2, u: 4, U: 8 }[next as "x" | "u" | "U"];
    if (hex !== undefined) {
      const digits = body.slice(i + 2, i + 2 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) {
        throw new BfclDecodeError(`truncated \\${next} escape in ${literal}`);
      }
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) throw new BfclDecodeError(`illegal Unicode escape in ${literal}`);
      out += String.fromCodePoint(code);
      i += 1 + hex;
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4));
    if (octal !== null) {
      out += String.fromCodePoint(parseInt(octal[0], 8));
      i += octal[0].length;
      continue;
    }
    if (next === "N") throw new BfclUnsupportedValue(`\\N{…} escape in ${literal}`);
    out += "\\"; // Python keeps an unknown escape as written
  }
  return out;
}

/**
 * A Python string literal's value: prefixes `r`, `u`, `b` (bytes), quotes
 * `'`, `"` and triple quotes, escapes as Python reads them.
 *
 * @param text The literal as written.
 * @returns The value (a `str`, or `bytes` for a `b` prefix).
 * @throws {BfclDecodeError} On an f-string (BFCL's decoder rejects them) or a bad escape.
 *
 * @example Usage
 * ```ts
 * import { pythonString } from "./bfcl_python_literals.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pythonString("'a\\tb\\u00e9'"), { kind: "str", value: "a\tbé" });
 * assert.deepEqual(pythonString("r'\\d'"), { kind: "str", value: "\\d" });
 * assert.equal(pythonString("b'x'").kind, "bytes");
 * ```
 */
export function pythonString(text: string): PyValue {
  const prefix = /^[a-zA-Z]*/.exec(text)![0].toLowerCase();
  if (prefix.includes("f") || prefix.includes("t")) {
    throw new BfclDecodeError(`unsupported expression: f-string ${text}`);
  }
  const rest = text.slice(prefix.length);
  const quote = rest.startsWith('"""') || rest.startsWith("'''") ? rest.slice(0, 3) : rest[0]!;
  if (rest.length < 2 * quote.length || !rest.endsWith(quote)) {
    throw new BfclDecodeError(`unterminated string ${text}`);
  }
  const body = rest.slice(quote.length, rest.length - quote.length);
  const value = prefix.includes("r") ? body : unescape(body, text);
  return prefix.includes("b") ? { kind: "bytes", text } : { kind: "str", value };
}

/**
 * Python's `repr` of a float: the shortest digits that read back, in fixed
 * notation from 1e-4 up to 1e16 (with `.0` when whole), else `1e+16` style.
 *
 * @param value The float.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { floatRepr } from "./bfcl_python_literals.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([5, 1e16, 0.0001, 0.00001, -0].map(floatRepr), ["5.0", "1e+16", "0.0001", "1e-05", "-0.0"]);
 * ```
 */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, exp] = value.toExponential().split("e") as [string, string];
  const exponent = Number(exp);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const power = `${Math.abs(exponent)}`.padStart(2, "0");
    return `${sign}${head}e${exponent < 0 ? "-" : "+"}${power}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === "" ? "0" : fraction}`;
}

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/**
 * Python's `repr` of a `str`: single quotes unless the text holds `'` and
 * no `"`; `\\`, the quote, `\t`, `\n`, `\r` and unprintable characters escaped.
 *
 * @param value The text.
 * @returns The literal.
 *
 * @example Usage
 * ```ts
 * import { strRepr } from "./bfcl_python_literals.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(strRepr("it's"), `"it's"`);
 * assert.equal(strRepr("a\nb"), "'a\\nb'");
 * ```
 */
export function strRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of value) {
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!;
      const hex = code.toString(16);
      out += code < 0x100
        ? `\\x${hex.padStart(2, "0")}`
        : code < 0x10000
        ? `\\u${hex.padStart(4, "0")}`
        : `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

/**
 * Python's `repr` of a decoded value, as `ast.unparse` writes a constant.
 *
 * @param value The value.
 * @returns The text.
 */
export function pyRepr(value: PyValue): string {
  switch (value.kind) {
    case "int":
      return value.value.toString();
    case "float":
      return floatRepr(value.value);
    case "bool":
      return value.value ? "True" : "False";
    case "none":
      return "None";
    case "str":
      return strRepr(value.value);
    case "bytes":
    case "complex":
      return value.text;
    case "list":
      return `[${value.items.map(pyRepr).join(", ")}]`;
    case "tuple":
      return value.items.length === 1
        ? `(${pyRepr(value.items[0]!)},)`
        : `(${value.items.map(pyRepr).join(", ")})`;
    case "dict":
      return `{${value.entries.map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
    case "call":
      return `${value.name}(${value.args.map(([k, v]) => `${k}=${pyRepr(v)}`).join(", ")})`;
  }
}

// How json.dumps writes a dict key.
function keyText(key: PyValue): string {
  switch (key.kind) {
    case "str":
      return key.value;
    case "int":
      return key.value.toString();
    case "float":
      return floatRepr(key.value);
    case "bool":
      return key.value ? "true" : "false";
    case "none":
      return "null";
    default:
      throw new BfclUnsupportedValue(`a dict key of type ${key.kind} (${pyRepr(key)})`);
  }
}

/**
 * The JSON form of a decoded value, as `json.dumps` would write it: ints
 * beyond ±(2^53 − 1) and whole floats as kept literals (so `5.0` stays a
 * float), tuples as lists, a nested call with keywords as `{name: {args}}`.
 *
 * @param value The decoded value.
 * @returns The JSON value.
 * @throws {BfclUnsupportedValue} For bytes, complex numbers, inf and nan, and keys JSON cannot hold.
 *
 * @example Usage
 * ```ts
 * import { toJsonValue } from "./bfcl_python_literals.ts";
 * import assert from "node:assert/strict";
 *
 * const value = toJsonValue({ kind: "tuple", items: [{ kind: "float", value: 5 }, { kind: "int", value: 2n ** 64n }] });
 * assert.equal(JSON.stringify(value), "[5.0,18446744073709551616]");
 * assert.throws(() => toJsonValue({ kind: "bytes", text: "b'x'" }), /bytes literal/);
 * ```
 */
export function toJsonValue(value: PyValue): unknown {
  switch (value.kind) {
    case "int": {
      const n = Number(value.value);
      return Number.isSafeInteger(n) ? n : numberFromText(value.value.toString());
    }
    case "float":
      if (!Number.isFinite(value.value)) {
        throw new BfclUnsupportedValue(`the float ${floatRepr(value.value)}`);
      }
      return Number.isInteger(value.value) ? numberFromText(floatRepr(value.value)) : value.value;
    case "bool":
      return value.value;
    case "none":
      return null;
    case "str":
      return value.value;
    case "bytes":
      throw new BfclUnsupportedValue(`the bytes literal ${value.text}`);
    case "complex":
      throw new BfclUnsupportedValue(`the complex literal ${value.text}`);
    case "list":
    case "tuple":
      return value.items.map(toJsonValue);
    case "dict": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of value.entries) out[keyText(k)] = toJsonValue(v);
      return out;
    }
    case "call": {
      const args: Record<string, unknown> = {};
      for (const [k, v] of value.args) args[k] = toJsonValue(v);
      return { [value.name]: args };
    }
  }
}
