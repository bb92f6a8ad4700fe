/**
 * BFCL's per-parameter check, ported rule for rule from ShishirPatil/gorilla
 * `bfcl_eval/eval_checker/ast_eval/ast_checker.py` (Apache-2.0): the body of
 * `simple_function_checker`'s loop over the model's parameters, with
 * `type_checker`, `string_checker`, `list_checker`, `dict_checker` and
 * `list_dict_checker`. {@linkcode checkBfclValue} returns BFCL's verdict and
 * its `error_type`.
 *
 * The rules, in BFCL's order: the language's type conversion (Java and
 * JavaScript values arrive as source text and go through
 * `java_type_converter`/`js_type_converter`; a non-string is
 * `type_error:java`/`type_error:js`); a Python int for a documented float
 * becomes a float (top level only); the type check, where the type of the
 * first acceptable value other than `""` stands for a "variable" when it
 * differs from the documented type (the value may then have that type, and
 * is compared exactly, without standardization); then dicts, lists of
 * dicts, strings and lists compare after `standardize_string` (top-level
 * strings, string items of lists, string values of dicts), and anything
 * else by Python `==` against the acceptable values.
 *
 * @module
 */

import {
  BfclCrashError,
  pyFloat,
  pyIn,
  pyLength,
  pyType,
  type PyTypeName,
  standardizeBfclString as standardize,
} from "./bfcl_values.ts";
import { numberText } from "../base/lossless_json.ts";
import { JAVA_TYPES, javaTypeConverter } from "./bfcl_java.ts";
import { JS_TYPES, jsTypeConverter } from "./bfcl_js.ts";

/** The language whose type rules apply (BFCL's `Language`). */
export type BfclLanguage = "python" | "java" | "javascript";

/** A parameter as the function doc describes it. */
export interface BfclDocParam {
  /** The documented type (`"float"`, `"array"`, `"HashMap"`, …). */
  readonly type: string;
  /** The documented item type of an array. */
  readonly items?: string;
}

/** A BFCL verdict: valid, or the `error_type` and BFCL's message. */
export interface BfclCheck {
  /** Whether BFCL accepts it. */
  valid: boolean;
  /** BFCL's `error_type` when not valid. */
  errorType?: string;
  /** What went wrong, in words. */
  error?: string;
}

const PYTHON_TYPES: Readonly<Record<string, string>> = {
  string: "str",
  integer: "int",
  float: "float",
  boolean: "bool",
  array: "list",
  tuple: "list",
  dict: "dict",
  any: "str",
};
const PYTHON_NESTED = ["array", "tuple"];
const NESTED_CONVERSION = ["Array", "ArrayList", "array"];
const OK: BfclCheck = Object.freeze({ valid: true });

function fail(errorType: string, error: string): BfclCheck {
  return { valid: false, errorType, error };
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

// get_possible_answer_type: the type of the first answer that is not "".
function answerType(answers: unknown): PyTypeName | undefined {
  for (const answer of iterate(answers)) if (answer !== "") return pyType(answer);
  return undefined;
}

// Python iterates a string by characters; BFCL's lists are lists in its data.
function iterate(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return Array.from(value);
  if (value !== null && typeof value === "object") return Object.keys(value);
  throw new BfclCrashError(`TypeError: ${pyType(value)} is not iterable`);
}

function isDict(value: unknown): value is Record<string, unknown> {
  return pyType(value) === "dict";
}

// Python's len().
function pyLen(value: unknown): number {
  if (typeof value === "string") return pyLength(value);
  if (Array.isArray(value)) return value.length;
  if (isDict(value)) return Object.keys(value).length;
  throw new BfclCrashError(`TypeError: ${pyType(value)} has no len()`);
}

// `value[i] for i in range(len(value))`: a list's items, a string's characters; a dict
// raises on its first integer index.
function indexable(value: unknown): readonly unknown[] {
  if (isDict(value) && pyLen(value) > 0) throw new BfclCrashError("KeyError: 0");
  return isDict(value) ? [] : iterate(value);
}

// Python's `item in container`.
function pyContains(container: unknown, item: string): boolean {
  if (typeof container === "string") return container.includes(item);
  if (Array.isArray(container)) return pyIn(item, container);
  if (isDict(container)) return Object.hasOwn(container, item);
  throw new BfclCrashError(`TypeError: argument of type ${pyType(container)} is not iterable`);
}

interface TypeResult extends BfclCheck {
  isVariable: boolean;
}

function typeChecker(
  param: string,
  value: unknown,
  answers: unknown,
  expected: string,
  nested: string | undefined,
): TypeResult {
  const variableType = answerType(answers);
  const isVariable = variableType !== undefined && variableType !== expected;
  let result: TypeResult = { valid: true, isVariable: false };
  if (pyType(value) === expected) {
    if (nested === undefined) return { valid: true, isVariable };
    for (const item of iterate(answers)) {
      let flag = true;
      if (pyType(item) === "list") {
        for (const valueItem of iterate(value)) {
          if (!typeChecker(param, valueItem, item, nested, undefined).valid) {
            flag = false;
            break;
          }
        }
      }
      if (flag) return { valid: true, isVariable };
    }
    result = {
      valid: false,
      isVariable: false,
      errorType: "type_error:nested",
      error: `nested type check failed for ${param}: expected ${expected} of ${nested}`,
    };
  }
  if (variableType !== undefined && pyType(value) === variableType) {
    return { ...result, isVariable: true };
  }
  return {
    valid: false,
    isVariable: result.isVariable,
    errorType: "type_error:simple",
    error: `incorrect type for ${param}: expected ${expected}, got ${pyType(value)}`,
  };
}

function std(value: unknown): unknown {
  return typeof value === "string" ? standardize(value) : value;
}

function stringChecker(param: string, value: string, answers: unknown): BfclCheck {
  const wanted = iterate(answers).filter((a) => typeof a === "string").map(std);
  if (wanted.includes(standardize(value))) return OK;
  return fail("value_error:string", `invalid value for ${param}: ${show(value)}`);
}

function listChecker(param: string, value: unknown[], answers: unknown): BfclCheck {
  const got = value.map(std);
  const wanted = iterate(answers).map((answer) => indexable(answer).map(std));
  if (pyIn(got, wanted)) return OK;
  return fail("value_error:list/tuple", `invalid value for ${param}: ${show(value)}`);
}

function dictChecker(_param: string, value: unknown, answers: unknown): BfclCheck {
  let result = fail("dict_checker:unclear", "no acceptable dict");
  for (const answer of iterate(answers)) {
    if (answer === "") continue;
    result = fail("dict_checker:unclear", "no acceptable dict");
    if (!isDict(value)) throw new BfclCrashError(`AttributeError: ${pyType(value)} has no items()`);
    // A list or a string here reaches `possible_answer.items()`, which raises.
    if (!isDict(answer)) {
      throw new BfclCrashError(`AttributeError: ${pyType(answer)} has no items()`);
    }
    let flag = true;
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(answer, key)) {
        result = fail("value_error:dict_key", `unexpected dict key ${show(key)}`);
        flag = false;
        break;
      }
      if (!pyIn(std(value[key]), indexable(answer[key]).map(std))) {
        result = fail("value_error:dict_value", `invalid value for dict key ${show(key)}`);
        flag = false;
        break;
      }
    }
    for (const key of Object.keys(answer)) {
      if (!Object.hasOwn(value, key) && !pyContains(answer[key], "")) {
        result = fail("value_error:dict_key", `missing dict key ${show(key)}`);
        flag = false;
        break;
      }
    }
    if (flag) return OK;
  }
  return result;
}

function listDictChecker(param: string, value: unknown[], answers: unknown): BfclCheck {
  let result = fail("list_dict_checker:unclear", "no acceptable list of dicts");
  for (const answer of iterate(answers)) {
    let flag = true;
    if (value.length !== pyLen(answer)) {
      result = fail("value_error:list_dict_count", "wrong number of dicts in the list");
      continue;
    }
    const items = value.length === 0 ? [] : indexable(answer);
    for (let i = 0; i < value.length; i++) {
      result = dictChecker(param, value[i], [items[i]]);
      if (!result.valid) {
        flag = false;
        break;
      }
    }
    if (flag) return OK;
  }
  return result;
}

function convert(
  language: BfclLanguage,
  param: string,
  value: unknown,
  doc: BfclDocParam,
): { value: unknown; expected: string; nested: string | undefined } | BfclCheck {
  const table = language === "java"
    ? JAVA_TYPES
    : language === "javascript"
    ? JS_TYPES
    : PYTHON_TYPES;
  if (!Object.hasOwn(table, doc.type)) throw new BfclCrashError(`KeyError: ${show(doc.type)}`);
  const expected = table[doc.type]!;
  const nestedType = (names: readonly string[]) => {
    if (!names.includes(doc.type)) return undefined;
    if (doc.items === undefined) throw new BfclCrashError("KeyError: 'items'");
    if (!Object.hasOwn(table, doc.items)) throw new BfclCrashError(`KeyError: ${show(doc.items)}`);
    return doc.items;
  };
  if (language === "python") {
    const nested = nestedType(PYTHON_NESTED);
    let converted = value;
    if (doc.type === "float" && pyType(value) === "int") {
      converted = pyFloat(Number(numberText(value) ?? value));
    }
    return { value: converted, expected, nested: nested && PYTHON_TYPES[nested] };
  }
  if (typeof value !== "string") {
    return fail(
      language === "java" ? "type_error:java" : "type_error:js",
      `incorrect type for ${param}: expected the value's source text, got ${pyType(value)}`,
    );
  }
  const converter = language === "java" ? javaTypeConverter : jsTypeConverter;
  const nested = nestedType(NESTED_CONVERSION);
  return {
    value: converter(value, doc.type, nested),
    expected,
    nested: nested && table[nested],
  };
}

/**
 * BFCL's check of one parameter value the model sent, once the parameter is
 * known to be in the doc and in the possible answer: conversion, type check
 * and value check (`simple_function_checker`'s loop body).
 *
 * @param param The parameter's name, for messages.
 * @param value The value sent (kept literals tell a `5.0` float).
 * @param answers The possible answer's acceptable values.
 * @param doc The parameter as the function doc describes it.
 * @param language Whose type rules apply.
 * @returns BFCL's verdict.
 * @throws {BfclCrashError} Where BFCL's checker raises instead of judging.
 *
 * @example Usage
 * ```ts
 * import { checkBfclValue } from "./bfcl_checker.ts";
 * import { parseJsonLossless } from "../base/lossless_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkBfclValue("n", 5, [5.5, 5], { type: "float" }, "python").valid, true);
 * const five = parseJsonLossless("5.0", { keep: "float-text" });
 * assert.equal(checkBfclValue("n", five, [5], { type: "integer" }, "python").errorType, "type_error:simple");
 * assert.equal(checkBfclValue("s", "New-York", ["new york"], { type: "string" }, "python").valid, true);
 * ```
 */
export function checkBfclValue(
  param: string,
  value: unknown,
  answers: readonly unknown[],
  doc: BfclDocParam,
  language: BfclLanguage,
): BfclCheck {
  const converted = convert(language, param, value, doc);
  if ("valid" in converted) return converted;
  const { expected, nested } = converted;
  const got = converted.value;
  const typed = typeChecker(param, got, answers, expected, nested);
  if (!typed.valid) return { valid: false, errorType: typed.errorType, error: typed.error };
  if (!typed.isVariable) {
    if (expected === "dict") return dictChecker(param, got, answers);
    if (expected === "list" && nested === "dict") {
      return listDictChecker(param, got as unknown[], answers);
    }
    if (expected === "str") return stringChecker(param, got as string, answers);
    if (expected === "list") return listChecker(param, got as unknown[], answers);
  }
  if (pyIn(got, answers)) return OK;
  return fail("value_error:others", `invalid value for ${param}: ${show(got)}`);
}
