/**
 * BFCL's JavaScript type conversion, rule for rule: `js_type_converter`,
 * `parse_js_collection` and `parse_js_value` in ShishirPatil/gorilla
 * `bfcl_eval/eval_checker/ast_eval/type_convertor/js_type_converter.py`
 * (Apache-2.0). A JavaScript value arrives as the source text of the
 * argument; the converter turns it into the Python value the checker
 * compares, and falls back to the text when the text is not of the type.
 *
 * Python's regular expressions are written with the same meaning (`$` also
 * before a final newline, `.` any character but `\n`); `\d` is ASCII (see
 * `bfcl_java.ts`). An exception inside `parse_js_collection` returns the
 * text, as BFCL's bare `except` does.
 *
 * @module
 */

import {
  BfclCrashError,
  checkCollectionLength,
  pyFloatOf,
  pyIntOf,
  pyStrip,
} from "./bfcl_values.ts";

/**
 * The JavaScript type names BFCL's `JS_TYPE_CONVERSION` knows, with the
 * Python type each converts to.
 *
 * @example Usage
 * ```ts
 * import { JS_TYPES } from "./bfcl_js.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(JS_TYPES.Bigint, "int");
 * ```
 */
export const JS_TYPES: Readonly<Record<string, string>> = Object.freeze({
  String: "str",
  integer: "int",
  float: "float",
  Bigint: "int",
  Boolean: "bool",
  dict: "dict",
  array: "list",
  any: "str",
});

const N = "[^\\n]";

function quoted(text: string): boolean {
  return (text.startsWith('"') && text.endsWith('"')) ||
    (text.startsWith("'") && text.endsWith("'"));
}

function parseJsValue(raw: string): unknown {
  const text = raw.trim();
  if (text === "true") return true;
  if (text === "false") return false;
  if (quoted(text)) return text.slice(1, -1);
  return pyIntOf(text) ?? pyFloatOf(text) ?? text;
}

// BFCL's 2-D pattern, `\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\)`
// with re.match, matched by hand in the order a backtracking engine tries it (lazy items, the
// greedy repetition first), remembering positions that cannot finish: the same match, in
// quadratic time instead of exponential (the lazy items may hold "]" and ",").
function match2d(code: string): string | undefined {
  const ws = (at: number) => {
    while (at < code.length && /\s/.test(code[at]!)) at++;
    return at;
  };
  const attempt = (start: number, close: string): number | undefined => {
    if (code[start] !== "[") return undefined;
    const failed = new Set<number>();
    // From r (after an item's "]" and spaces): more items, else the closing bracket.
    const rest = (r: number): number | undefined => {
      if (failed.has(r)) return undefined;
      if (code[r] === ",") {
        const open = ws(r + 1);
        if (code[open] === "[") {
          for (let q = open + 1; q < code.length && code[q] !== "\n"; q++) {
            if (code[q] !== "]") continue;
            const end = rest(ws(q + 1));
            if (end !== undefined) return end;
          }
        }
      }
      if (code[r] === close) return r + 1;
      failed.add(r);
      return undefined;
    };
    for (let q = start + 1; q < code.length && code[q] !== "\n"; q++) {
      if (code[q] !== "]") continue;
      const end = rest(ws(q + 1));
      if (end !== undefined) return end;
    }
    return undefined;
  };
  if (code[0] === "[") {
    const end = attempt(ws(1), "]");
    if (end !== undefined) return code.slice(0, end);
  }
  const prefix = /^new\s+Array\(/.exec(code);
  if (prefix) {
    const end = attempt(ws(prefix[0].length), ")");
    if (end !== undefined) return code.slice(0, end);
  }
  return undefined;
}

const ARRAY_1D = new RegExp(String.raw`^(?:\[(${N}*?)\]|\bnew\s+Array\((${N}*?)\))`);

function parseArray(code: string, nested: string | undefined): unknown {
  const twoD = match2d(code);
  if (twoD !== undefined) {
    return Array.from(twoD.matchAll(new RegExp(`\\[(${N}*?)\\]`, "g")), (m, idx) => {
      let inner = m[1]!.trim();
      if (idx === 0 && inner.startsWith("[")) inner = inner.slice(1);
      return inner.split(",").map((part) => parseJsValue(part.trim()));
    });
  }
  const oneD = ARRAY_1D.exec(code);
  if (!oneD) return code;
  const body = (oneD[1] ?? oneD[2] ?? "").trim();
  const elements = body === "" ? [] : body.split(",");
  if (!nested) return elements.map((part) => parseJsValue(part.trim()));
  return elements.map((part) => {
    const text = part.trim();
    return text.startsWith("'") || text.startsWith('"')
      ? jsTypeConverter(text, nested, "String")
      : jsTypeConverter(text, nested);
  });
}

function parseDict(code: string): unknown {
  if (code === "{}") return {};
  const match = new RegExp(`^\\{(${N}*?)\\}`).exec(code);
  if (!match) return code;
  const dictionary: Record<string, unknown> = {};
  const pairs = new RegExp(`([^:]+):\\s*(${N}*?)(?:,\\s*(?=[^,]+:)|$)`, "g");
  for (const pair of match[1]!.matchAll(pairs)) {
    const key = pyStrip(pair[1]!.trim(), `'"`);
    const value = pair[2]!.trim();
    let parsed: unknown;
    if (value.startsWith("[") && value.endsWith("]")) parsed = parseJsCollection(value, "array");
    else if (value.startsWith("{") && value.endsWith("}")) {
      parsed = parseJsCollection(value, "dict");
    } else parsed = parseJsValue(pyStrip(value, `'"`));
    Object.defineProperty(dictionary, key, {
      value: parsed,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return dictionary;
}

function parseJsCollection(raw: string, type: "array" | "dict", nested?: string): unknown {
  checkCollectionLength(raw);
  const code = raw.trim();
  try {
    return type === "array" ? parseArray(code, nested) : parseDict(code);
  } catch (error) {
    if (error instanceof BfclCrashError) return code;
    throw error;
  }
}

/**
 * BFCL's `js_type_converter(value, expected_type, nested_type)`.
 *
 * @param value The argument's JavaScript source text.
 * @param type The documented type.
 * @param nested The documented item type, for `array`.
 * @returns The Python value (the text itself when it is not of the type).
 * @throws {BfclCrashError} Where BFCL raises: an unknown type.
 *
 * @example Usage
 * ```ts
 * import { jsTypeConverter } from "./bfcl_js.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(jsTypeConverter("'abc'", "String"), "abc");
 * assert.equal(jsTypeConverter("12n", "Bigint"), 12);
 * assert.deepEqual(jsTypeConverter("[1, 'two', true]", "array"), [1, "two", true]);
 * assert.deepEqual(jsTypeConverter("{'key': 123}", "dict"), { key: 123 });
 * ```
 */
export function jsTypeConverter(value: string, type: string, nested?: string): unknown {
  if (!Object.hasOwn(JS_TYPES, type)) throw new BfclCrashError(`Unsupported type: ${type}`);
  switch (type) {
    case "String":
      return quoted(value) ? value.slice(1, -1) : value;
    case "integer":
      return /^-?\d+\n?$/.test(value) ? pyIntOf(value) : value;
    case "float":
      return /^-?\d+(\.\d+)?\n?$/.test(value) ? pyFloatOf(value) : value;
    case "Bigint": {
      if (!/^-?\d+n\n?$/.test(value)) return value;
      const int = pyIntOf(value.slice(0, -1));
      if (int === undefined) throw new BfclCrashError(`ValueError: int(${JSON.stringify(value)})`);
      return int;
    }
    case "Boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "dict":
      return parseJsCollection(value, "dict", nested);
    case "array":
      return parseJsCollection(value, "array", nested);
    default:
      return value;
  }
}
