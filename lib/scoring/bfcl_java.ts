/**
 * BFCL's Java type conversion, rule for rule: `java_type_converter` and its
 * helpers (`parse_arraylist`, `parse_array`, `parse_hashmap`,
 * `parse_java_value`) in ShishirPatil/gorilla
 * `bfcl_eval/eval_checker/ast_eval/type_convertor/java_type_converter.py`
 * (Apache-2.0). A Java value arrives as the source text of the argument; the
 * converter turns it into the Python value the checker compares, and falls
 * back to the text itself when the text is not of the type (then the type
 * check decides).
 *
 * Python's regular expressions are written here with the same meaning: `$`
 * also matches before a final newline, `.` is any character but `\n`, and
 * `\w` is Unicode-aware. `\d` is ASCII here (Python's also takes other
 * decimal digits; BFCL's data has none).
 *
 * @module
 */

import { BfclCrashError, checkCollectionLength, pyFloatOf, pyIntOf } from "./bfcl_values.ts";

const COLLECTIONS = ["Array", "ArrayList", "HashMap"];

/**
 * The Java type names BFCL's `JAVA_TYPE_CONVERSION` knows, with the Python
 * type each converts to.
 *
 * @example Usage
 * ```ts
 * import { JAVA_TYPES } from "./bfcl_java.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(JAVA_TYPES.long, "int");
 * ```
 */
export const JAVA_TYPES: Readonly<Record<string, string>> = Object.freeze({
  byte: "int",
  short: "int",
  integer: "int",
  float: "float",
  double: "float",
  long: "int",
  boolean: "bool",
  char: "str",
  Array: "list",
  ArrayList: "list",
  Set: "set",
  HashMap: "dict",
  Hashtable: "dict",
  Queue: "list",
  Stack: "list",
  String: "str",
  any: "str",
});

const NOT_NL = "[^\\n]";

function parseJavaValue(text: string): unknown {
  if (text === "true") return true;
  if (text === "false") return false;
  if (text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1);
  if (/^-?\d+[lL]\n?$/.test(text)) {
    const value = pyIntOf(text.slice(0, -1));
    if (value === undefined) throw new BfclCrashError(`ValueError: int(${JSON.stringify(text)})`);
    return value;
  }
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]\n?$/.test(text)) {
    return pyFloatOf(text.replace(/[fF](?=\n?$)/, ""));
  }
  return pyIntOf(text) ?? pyFloatOf(text) ?? text;
}

function element(text: string, nested: string | undefined): unknown {
  if (nested === "char" || nested === "String") return text.slice(1, -1);
  return nested ? javaTypeConverter(text, nested) : parseJavaValue(text);
}

// BFCL's `new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}` (re.DOTALL) with re.search, group 1,
// found by hand: the same match, without the cubic backtracking of \s* around a lazy group when
// no }} follows. At each opening the spaces are taken whole, and the group ends where the spaces
// before the first "}}" after its first character begin; only when that fails and "}}" follows
// the spaces directly is the group the last space.
function addsBody(input: string): string | undefined {
  const openings = /new\s+ArrayList<[\p{L}\p{N}_]*>\(\)\s*\{\{/gu;
  for (const opening of input.matchAll(openings)) {
    const open = opening.index + opening[0].length;
    let first = open;
    while (first < input.length && /\s/.test(input[first]!)) first++;
    const close = first < input.length ? input.indexOf("}}", first + 1) : -1;
    if (close < 0) {
      // Taking the spaces whole fails; giving one back lets it be the group when "}}" follows.
      if (first > open && input.startsWith("}}", first)) return input[first - 1];
      continue;
    }
    let end = close;
    while (end > first + 1 && /\s/.test(input[end - 1]!)) end--;
    return input.slice(first, end);
  }
  return undefined;
}

function parseArrayList(input: string, nested: string | undefined): unknown {
  const asList = new RegExp(
    String.raw`new\s+ArrayList<[\p{L}\p{N}_]*>\(Arrays\.asList\((${NOT_NL}+?)\)\)`,
    "u",
  ).exec(input);
  if (asList) return asList[1]!.split(",").map((part) => element(part.trim(), nested));
  const adds = addsBody(input);
  if (adds !== undefined) {
    return Array.from(adds.matchAll(new RegExp(`add\\((${NOT_NL}+?)\\)`, "g")), (m) => {
      return element(m[1]!.trim(), nested);
    });
  }
  if (/new\s+ArrayList<[\p{L}\p{N}_]*>\(\)/u.test(input)) return [];
  return input;
}

function parseArray(input: string, nested: string | undefined): unknown {
  const match = new RegExp(String.raw`new\s+[\p{L}\p{N}_]+\[\]\s*\{(${NOT_NL}*?)\}`, "u").exec(
    input,
  );
  if (!match) return input;
  return match[1]!.split(",").filter((part) => part.trim() !== "").map((part) =>
    nested ? javaTypeConverter(part.trim(), nested) : parseJavaValue(part.trim())
  );
}

function parseHashMap(input: string): unknown {
  // BFCL's `\{\s*\{?\s*(.*?)\s*\}?\s*\}` with each \s* atomic ((?=(\s*))\n): the lazy group
  // can take any text, so the first match takes each \s* whole anyway; without this, text with
  // no closing brace backtracks through every split of the spaces (minutes for 3 KB).
  const match = new RegExp(
    String.raw`new\s+HashMap<[\s\S]*?>\s*\(\)\s*\{(?=(\s*))\1\{?(?=(\s*))\2([\s\S]*?)` +
      String.raw`(?=(\s*))\4\}?(?=(\s*))\5\}`,
  ).exec(input);
  if (match) {
    const elements: Record<string, unknown> = {};
    const puts = match[3]!;
    if (puts.trim() !== "") {
      const pattern = new RegExp(`put\\("(${NOT_NL}*?)",\\s*(${NOT_NL}*?)\\)`, "g");
      for (const put of puts.matchAll(pattern)) {
        Object.defineProperty(elements, put[1]!, {
          value: parseJavaValue(put[2]!.trim()),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return elements;
  }
  if (new RegExp(`new\\s+HashMap<${NOT_NL}*?>\\s*\\(\\)`).test(input)) return {};
  return input;
}

/**
 * BFCL's `java_type_converter(value, expected_type, nested_type)`.
 *
 * @param value The argument's Java source text.
 * @param type The documented Java type.
 * @param nested The documented item type, for `Array` and `ArrayList`.
 * @returns The Python value (the text itself when it is not of the type).
 * @throws {BfclCrashError} Where BFCL raises: an unknown type, or `Set`,
 * `Hashtable`, `Queue` and `Stack`, which it does not implement.
 *
 * @example Usage
 * ```ts
 * import { javaTypeConverter } from "./bfcl_java.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(javaTypeConverter("123L", "long"), 123);
 * assert.equal(javaTypeConverter("123", "long"), "123");
 * assert.deepEqual(javaTypeConverter("new int[]{1, 2}", "Array", "integer"), [1, 2]);
 * assert.deepEqual(javaTypeConverter('new HashMap<String, String>() {{ put("k", "v"); }}', "HashMap"), { k: "v" });
 * ```
 */
export function javaTypeConverter(value: string, type: string, nested?: string): unknown {
  if (!Object.hasOwn(JAVA_TYPES, type)) throw new BfclCrashError(`Unsupported type: ${type}`);
  if (COLLECTIONS.includes(type)) checkCollectionLength(value);
  switch (type) {
    case "byte":
    case "short":
    case "integer":
      return /^-?\d+\n?$/.test(value) ? pyIntOf(value) : value;
    case "float":
      if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]\n?$/.test(value)) return value;
      return pyFloatOf(value.replace(/[fF](?=\n?$)/, ""));
    case "double":
      return /^-?\d+(\.\d+)?([eE][+-]?\d+)?\n?$/.test(value) ? pyFloatOf(value) : value;
    case "long":
      return /^-?\d+[lL]\n?$/.test(value) ? pyIntOf(value.replace(/[lL](?=\n?$)/, "")) : value;
    case "boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "char":
      // `^\'.$\'` can never match: BFCL keeps every char as its text.
      return value;
    case "Array":
      return parseArray(value, nested);
    case "ArrayList":
      return parseArrayList(value, nested);
    case "HashMap":
      return parseHashMap(value);
    case "String":
    case "any":
      return value;
    default:
      throw new BfclCrashError(`${type} conversion is not implemented`);
  }
}
