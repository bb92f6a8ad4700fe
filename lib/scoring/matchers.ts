/**
 * Matchers: expected-side values that decide for themselves whether an
 * actual value matches (`ANY`, `Regex`, `Approx`, `Contains`, `OneOf`,
 * `IsType`, `Eq`), the `$` operators that spell them in JSON files, and the
 * value comparison every argument metric uses.
 *
 * In a JSON value read by {@linkcode matcherFromJson}, an object is an
 * operator when any of its keys starts with `$`:
 *
 * | JSON | matcher |
 * |---|---|
 * | `{"$any": true}` | {@linkcode ANY}: present, any value |
 * | `{"$regex": "p", "$flags": "i"}` | {@linkcode Regex}: search anywhere (anchor with `^…$`) |
 * | `{"$contains": v}` | {@linkcode Contains}: substring, list item or object key |
 * | `{"$one_of": [v, …]}` | {@linkcode OneOf}: any of; items may be operators |
 * | `{"$approx": n, "$rel": r, "$abs": a}` | {@linkcode Approx}: `|x − n| ≤ max(r·|n|, a)` |
 * | `{"$type": "string"}` or a list of type names | {@linkcode IsType} |
 * | `{"$eq": v}` | {@linkcode Eq}: `v` literally, even when its keys start with `$` |
 *
 * Decisions the design leaves open:
 *
 * - `Regex` matches strings. A list is matched as its items joined by
 *   spaces (strings as they are, other items as JSON text). Numbers,
 *   booleans, null and objects never match a pattern.
 * - `Regex` flags are `i`, `m`, `s`, `u` and `v`; `g` and `y` would make
 *   matching depend on earlier matches and are refused.
 * - Python's `(?P<name>…)` is read as `(?<name>…)` and `(?P=name)` as
 *   `\k<name>`; every other pattern is JavaScript RegExp syntax.
 * - `$type` names are the JSON ones: `string`, `number`, `integer` (finite,
 *   no fraction), `boolean`, `null`, `array`, `object`. A boolean is never a
 *   number.
 * - In lenient comparison a boolean never equals a number (`true` ≠ `1`):
 *   only strings are loosened (surrounding whitespace is ignored).
 * - {@linkcode ANY} matches any value that is present (not `undefined`).
 *
 * @module
 */

import { trimmedEqual } from "../base/_text.ts";
import { describeJson, isJsonObject, joinPath } from "./calls.ts";
import { InputError } from "../base/errors.ts";

/** An expected-side value that decides whether an actual value matches. */
export interface Matcher {
  /**
   * Whether an actual value matches.
   *
   * @param actual The actual value (`undefined` when the key is absent).
   * @param strict Whether values nested in the matcher compare strictly.
   * @returns `true` on a match.
   */
  matches(actual: unknown, strict: boolean): boolean;
  /**
   * The matcher's operator object, e.g. `{"$regex": "^a"}`.
   *
   * @returns Plain JSON that {@linkcode matcherFromJson} reads back to the same matcher.
   */
  toJSON(): Record<string, unknown>;
  /**
   * The operator object as JSON text.
   *
   * @returns `JSON.stringify(this.toJSON())`.
   */
  toString(): string;
}

/** The JSON type names `$type` accepts. */
export type JsonTypeName =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "null"
  | "array"
  | "object";

const JSON_TYPE_NAMES: readonly JsonTypeName[] = [
  "string",
  "number",
  "integer",
  "boolean",
  "null",
  "array",
  "object",
];

// Names users bring from Python or JSON Schema habits, to suggest the JSON name.
const TYPE_ALIASES: Record<string, JsonTypeName> = {
  str: "string",
  int: "integer",
  float: "number",
  bool: "boolean",
  none: "null",
  list: "array",
  dict: "object",
};

/** Plain JSON for a value that may hold matchers. */
function plain(value: unknown): unknown {
  if (isMatcher(value)) return value.toJSON();
  if (Array.isArray(value)) return value.map(plain);
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = plain(value[key]);
    return out;
  }
  return value;
}

class AnyMatcher implements Matcher {
  matches(actual: unknown, _strict?: boolean): boolean {
    return actual !== undefined;
  }
  toJSON(): Record<string, unknown> {
    return { $any: true };
  }
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/**
 * Matches any value that is present; `{"$any": true}` in JSON.
 *
 * @example Usage
 * ```ts
 * import { ANY } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(valuesMatch({ id: ANY }, { id: 42 }), true);
 * assert.equal(String(ANY), '{"$any":true}');
 * ```
 */
export const ANY: Matcher = new AnyMatcher();

/** Options for {@linkcode Regex}. */
export interface RegexOptions {
  /**
   * RegExp flags: any of `i`, `m`, `s`, `u`, `v`.
   * @default {""}
   */
  flags?: string;
}

const REGEX_FLAGS = /^[imsuv]*$/;

/**
 * Rewrite Python-only group syntax to JavaScript: `(?P<name>` → `(?<name>`,
 * `(?P=name)` → `\k<name>`. Escapes and character classes are skipped.
 */
function fromPythonPattern(pattern: string): string {
  if (!pattern.includes("(?P")) return pattern;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      out += ch;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      out += ch;
      continue;
    }
    if (pattern.startsWith("(?P<", i)) {
      out += "(?<";
      i += 3;
      continue;
    }
    const backref = /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(pattern.slice(i));
    if (backref) {
      out += `\\k<${backref[1]}>`;
      i += backref[0].length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

function listItemText(item: unknown): string {
  return typeof item === "string" ? item : JSON.stringify(plain(item)) ?? "null";
}

/**
 * Matches a string the pattern finds anywhere in (search semantics; anchor
 * with `^…$`). A list is matched as its items joined by spaces.
 * `{"$regex": "p", "$flags": "i"}` in JSON.
 *
 * @example Usage
 * ```ts
 * import { Regex } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * const flight = new Regex("^FL-\\d+$");
 * assert.equal(valuesMatch(flight, "FL-123"), true);
 * assert.equal(valuesMatch(flight, "XFL-123"), false);
 * assert.equal(String(flight), '{"$regex":"^FL-\\\\d+$"}');
 * assert.equal(new Regex("(?P<year>\\d{4})-").matches("2026-01", false), true);
 * ```
 */
export class Regex implements Matcher {
  /** The pattern as given (Python named groups included). */
  readonly pattern: string;
  /** The flags as given. */
  readonly flags: string;
  readonly #regexp: RegExp;

  /**
   * Compile a pattern; a bad pattern or flag fails here, not while scoring.
   *
   * @param pattern A JavaScript RegExp pattern; `(?P<name>…)` is accepted.
   * @param options The flags.
   * @throws {InputError} On an invalid pattern or flag.
   */
  constructor(pattern: string, options: RegexOptions = {}) {
    const flags = options.flags ?? "";
    if (typeof pattern !== "string") {
      throw new InputError(`$regex must be a string, got ${describeJson(pattern)}`);
    }
    if (typeof flags !== "string" || !REGEX_FLAGS.test(flags)) {
      throw new InputError(
        `invalid $flags ${
          JSON.stringify(flags)
        }; use any of i, m, s, u, v (g and y are not allowed)`,
      );
    }
    try {
      this.#regexp = new RegExp(fromPythonPattern(pattern), flags);
    } catch (error) {
      const reason = (error as Error).message.replace(/^Invalid regular expression: /, "");
      throw new InputError(
        `invalid $regex ${JSON.stringify(pattern)} (${reason}); fix the pattern`,
      );
    }
    this.pattern = pattern;
    this.flags = flags;
  }

  /**
   * Whether the pattern is found in the actual value.
   *
   * @param actual A string, or a list matched as its items joined by spaces.
   * @param _strict Unused: patterns ignore the mode.
   * @returns `true` when the pattern is found.
   */
  matches(actual: unknown, _strict?: boolean): boolean {
    if (typeof actual === "string") return this.#regexp.test(actual);
    if (Array.isArray(actual)) return this.#regexp.test(actual.map(listItemText).join(" "));
    return false;
  }

  /**
   * The operator object.
   *
   * @returns `{"$regex": pattern}` plus `"$flags"` when there are flags.
   */
  toJSON(): Record<string, unknown> {
    return this.flags === ""
      ? { $regex: this.pattern }
      : { $regex: this.pattern, $flags: this.flags };
  }

  /**
   * The operator object as JSON text.
   *
   * @returns `JSON.stringify(this.toJSON())`.
   */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/** Options for {@linkcode Approx}. */
export interface ApproxOptions {
  /**
   * Relative tolerance, as a share of |expected|.
   * @default {1e-6}
   */
  rel?: number;
  /**
   * Absolute tolerance.
   * @default {0}
   */
  abs?: number;
}

function checkTolerance(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InputError(`${name} must be a finite number ≥ 0, got ${describeJson(value)}`);
  }
  return value;
}

/**
 * Matches a number within `max(rel·|expected|, abs)` of the expected one;
 * booleans never match. `{"$approx": n, "$rel": r, "$abs": a}` in JSON.
 *
 * @example Usage
 * ```ts
 * import { Approx } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(valuesMatch(new Approx(2, { abs: 0.1 }), 2.05), true);
 * assert.equal(valuesMatch(new Approx(2), 2.05), false);
 * assert.equal(String(new Approx(2)), '{"$approx":2,"$rel":0.000001,"$abs":0}');
 * ```
 */
export class Approx implements Matcher {
  /** The expected number. */
  readonly value: number;
  /** The relative tolerance. */
  readonly rel: number;
  /** The absolute tolerance. */
  readonly abs: number;

  /**
   * Create the matcher.
   *
   * @param value The expected number.
   * @param options The tolerances.
   * @throws {InputError} When a number is not finite or a tolerance is negative.
   */
  constructor(value: number, options: ApproxOptions = {}) {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new InputError(`$approx must be a finite number, got ${describeJson(value)}`);
    }
    this.value = value;
    this.rel = checkTolerance("$rel", options.rel ?? 1e-6);
    this.abs = checkTolerance("$abs", options.abs ?? 0);
  }

  /**
   * Whether the actual value is a number close enough.
   *
   * @param actual The actual value.
   * @param _strict Unused: the mode does not change this matcher.
   * @returns `true` when within tolerance.
   */
  matches(actual: unknown, _strict?: boolean): boolean {
    if (typeof actual !== "number" || !Number.isFinite(actual)) return false;
    return Math.abs(actual - this.value) <= Math.max(this.rel * Math.abs(this.value), this.abs);
  }

  /**
   * The operator object.
   *
   * @returns `{"$approx": n, "$rel": r, "$abs": a}`.
   */
  toJSON(): Record<string, unknown> {
    return { $approx: this.value, $rel: this.rel, $abs: this.abs };
  }

  /**
   * The operator object as JSON text.
   *
   * @returns `JSON.stringify(this.toJSON())`.
   */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/**
 * Matches a string containing the item (a substring), a list with an item
 * that matches it (compared as the mode compares; the item may be a
 * matcher), or an object with the item as a key. `{"$contains": v}` in JSON.
 *
 * @example Usage
 * ```ts
 * import { Contains } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(valuesMatch(new Contains("@"), "me@example.com"), true);
 * assert.equal(valuesMatch(new Contains(2), [1, 2, 3]), true);
 * assert.equal(valuesMatch(new Contains("id"), { id: 1 }), true);
 * ```
 */
export class Contains implements Matcher {
  /** The item to look for. */
  readonly item: unknown;

  /**
   * Create the matcher.
   *
   * @param item The substring, list item (or matcher) or object key.
   */
  constructor(item: unknown) {
    this.item = item;
  }

  /**
   * Whether the actual value contains the item.
   *
   * @param actual The actual value.
   * @param strict How list items compare.
   * @returns `true` when the item is found.
   */
  matches(actual: unknown, strict = false): boolean {
    if (typeof actual === "string") {
      return typeof this.item === "string" && actual.includes(this.item);
    }
    if (Array.isArray(actual)) return actual.some((el) => compare(this.item, el, strict, true));
    if (isJsonObject(actual)) {
      return typeof this.item === "string" && Object.hasOwn(actual, this.item);
    }
    return false;
  }

  /**
   * The operator object.
   *
   * @returns `{"$contains": item}`.
   */
  toJSON(): Record<string, unknown> {
    return { $contains: plain(this.item) };
  }

  /**
   * The operator object as JSON text.
   *
   * @returns `JSON.stringify(this.toJSON())`.
   */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/**
 * Matches when any of the values matches (each compared as the mode
 * compares; values may be matchers). `{"$one_of": [v, …]}` in JSON.
 *
 * @example Usage
 * ```ts
 * import { OneOf, Regex } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * const city = new OneOf("NYC", new Regex("^New York"));
 * assert.equal(valuesMatch(city, "New York City"), true);
 * assert.equal(valuesMatch(city, "Boston"), false);
 * ```
 */
export class OneOf implements Matcher {
  /** The candidate values. */
  readonly values: readonly unknown[];

  /**
   * Create the matcher.
   *
   * @param values The candidates (plain values or matchers).
   */
  constructor(...values: unknown[]) {
    this.values = values;
  }

  /**
   * Whether any candidate matches.
   *
   * @param actual The actual value.
   * @param strict How candidates compare.
   * @returns `true` when one matches.
   */
  matches(actual: unknown, strict = false): boolean {
    return this.values.some((value) => compare(value, actual, strict, true));
  }

  /**
   * The operator object.
   *
   * @returns `{"$one_of": [...]}`.
   */
  toJSON(): Record<string, unknown> {
    return { $one_of: this.values.map(plain) };
  }

  /**
   * The operator object as JSON text.
   *
   * @returns `JSON.stringify(this.toJSON())`.
   */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

function jsonTypeMatches(name: JsonTypeName, actual: unknown): boolean {
  switch (name) {
    case "string":
      return typeof actual === "string";
    case "number":
      return typeof actual === "number" && Number.isFinite(actual);
    case "integer":
      return typeof actual === "number" && Number.isInteger(actual);
    case "boolean":
      return typeof actual === "boolean";
    case "null":
      return actual === null;
    case "array":
      return Array.isArray(actual);
    case "object":
      return isJsonObject(actual);
  }
}

function checkTypeName(name: unknown): JsonTypeName {
  if (typeof name === "string" && (JSON_TYPE_NAMES as readonly string[]).includes(name)) {
    return name as JsonTypeName;
  }
  const alias = typeof name === "string" ? TYPE_ALIASES[name.toLowerCase()] : undefined;
  const hint = alias ? ` (did you mean ${alias}?)` : "";
  throw new InputError(
    `unknown $type ${JSON.stringify(name) ?? describeJson(name)}${hint}; ` +
      `use one of ${JSON_TYPE_NAMES.join(", ")}`,
  );
}

/**
 * Matches a value of one of the JSON types (`integer` = a finite number
 * without a fraction). `{"$type": "string"}` or `{"$type": ["integer", "null"]}` in JSON.
 *
 * @example Usage
 * ```ts
 * import { IsType } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(valuesMatch(new IsType("integer"), 3), true);
 * assert.equal(valuesMatch(new IsType("integer"), 3.5), false);
 * assert.equal(valuesMatch(new IsType("integer", "null"), null), true);
 * assert.equal(String(new IsType("string")), '{"$type":"string"}');
 * ```
 */
export class IsType implements Matcher {
  /** The accepted type names. */
  readonly types: readonly JsonTypeName[];

  /**
   * Create the matcher.
   *
   * @param types One or more JSON type names.
   * @throws {InputError} On an unknown type name or none at all.
   */
  constructor(...types: JsonTypeName[]) {
    if (types.length === 0) throw new InputError("$type needs at least one type name");
    this.types = types.map(checkTypeName);
  }

  /**
   * Whether the actual value has one of the types.
   *
   * @param actual The actual value.
   * @param _strict Unused: the mode does not change this matcher.
   * @returns `true` when a type fits.
   */
  matches(actual: unknown, _strict?: boolean): boolean {
    return this.types.some((name) => jsonTypeMatches(name, actual));
  }

  /**
   * The operator object.
   *
   * @returns `{"$type": name}` for one type, `{"$type": [names]}` for several.
   */
  toJSON(): Record<string, unknown> {
    return { $type: this.types.length === 1 ? this.types[0] : [...this.types] };
  }

  /**
   * The operator object as JSON text.
   *
   * @returns `JSON.stringify(this.toJSON())`.
   */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/**
 * Matches a value equal to the literal (compared as the mode compares, with
 * no operators inside). `{"$eq": v}` in JSON, for data whose own keys start
 * with `$`.
 *
 * @example Usage
 * ```ts
 * import { matcherFromJson } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * const literal = matcherFromJson({ $eq: { $ref: "#/a" } });
 * assert.equal(valuesMatch(literal, { $ref: "#/a" }), true);
 * ```
 */
export class Eq implements Matcher {
  /** The literal value. */
  readonly value: unknown;

  /**
   * Create the matcher.
   *
   * @param value The literal JSON value.
   */
  constructor(value: unknown) {
    this.value = value;
  }

  /**
   * Whether the actual value equals the literal.
   *
   * @param actual The actual value.
   * @param strict Whether to compare strictly.
   * @returns `true` when equal.
   */
  matches(actual: unknown, strict = false): boolean {
    return compare(this.value, actual, strict, false);
  }

  /**
   * The operator object.
   *
   * @returns `{"$eq": value}`.
   */
  toJSON(): Record<string, unknown> {
    return { $eq: plain(this.value) };
  }

  /**
   * The operator object as JSON text.
   *
   * @returns `JSON.stringify(this.toJSON())`.
   */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/**
 * Whether a value is a matcher (an object with `matches` and `toJSON`
 * methods; parsed JSON never is one).
 *
 * @param value Any value.
 * @returns `true` for a matcher.
 *
 * @example Usage
 * ```ts
 * import { ANY, isMatcher } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isMatcher(ANY), true);
 * assert.equal(isMatcher({ $any: true }), false);
 * ```
 */
export function isMatcher(value: unknown): value is Matcher {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Matcher>;
  return typeof candidate.matches === "function" && typeof candidate.toJSON === "function";
}

/** The operators, each with the modifier keys it accepts. */
const OPERATORS: Record<string, readonly string[]> = {
  $any: [],
  $regex: ["$flags"],
  $contains: [],
  $one_of: [],
  $approx: ["$rel", "$abs"],
  $type: [],
  $eq: [],
};

const MODIFIERS: Record<string, string> = { $flags: "$regex", $rel: "$approx", $abs: "$approx" };

// Spellings from other tools that are not a typo of ours.
const OPERATOR_ALIASES: Record<string, string> = {
  $in: "$one_of",
  $oneof: "$one_of",
  $re: "$regex",
  $match: "$regex",
  $pattern: "$regex",
  $exists: "$any",
  $istype: "$type",
  $equals: "$eq",
  $includes: "$contains",
};

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function suggestOperator(key: string): string | undefined {
  const lower = key.toLowerCase().replaceAll("-", "_");
  if (OPERATOR_ALIASES[lower.replaceAll("_", "")]) {
    return OPERATOR_ALIASES[lower.replaceAll("_", "")];
  }
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of [...Object.keys(OPERATORS), ...Object.keys(MODIFIERS)]) {
    const distance = editDistance(lower, name);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function unknownOperator(key: string, path: string): InputError {
  const suggestion = suggestOperator(key);
  const hint = suggestion
    ? ` (did you mean ${suggestion}?)`
    : `; the operators are ${Object.keys(OPERATORS).join(", ")} ` +
      `(write {"$eq": …} for data whose keys start with $)`;
  return new InputError(`unknown operator ${key}${hint}`, path || undefined);
}

function operatorFromJson(value: Record<string, unknown>, path: string): Matcher {
  const keys = Object.keys(value);
  const operators = keys.filter((key) => Object.hasOwn(OPERATORS, key));
  for (const key of keys) {
    if (!key.startsWith("$")) {
      throw new InputError(
        `key ${JSON.stringify(key)} beside an operator; an operator object holds only ` +
          `its operator (write {"$eq": …} for data whose keys start with $)`,
        path || undefined,
      );
    }
    if (!Object.hasOwn(OPERATORS, key) && !Object.hasOwn(MODIFIERS, key)) {
      throw unknownOperator(key, path);
    }
  }
  if (operators.length > 1) {
    throw new InputError(
      `two operators in one object (${operators.join(" and ")}); use one, ` +
        `or combine them with $one_of`,
      path || undefined,
    );
  }
  const operator = operators[0];
  for (const key of keys) {
    const owner = MODIFIERS[key];
    if (owner !== undefined && owner !== operator) {
      throw new InputError(`${key} goes with ${owner}`, path || undefined);
    }
  }
  const argument = value[operator as string];
  const where = (at: string) => joinPath(path, at);
  try {
    switch (operator) {
      case "$any":
        if (argument !== true) {
          throw new InputError(`$any must be true, got ${describeJson(argument)}`);
        }
        return ANY;
      case "$regex":
        return new Regex(argument as string, {
          flags: value.$flags === undefined ? "" : value.$flags as string,
        });
      case "$contains":
        return new Contains(matcherFromJson(argument, where("$contains")));
      case "$one_of":
        if (!Array.isArray(argument) || argument.length === 0) {
          throw new InputError(`$one_of must be a non-empty list, got ${describeJson(argument)}`);
        }
        return new OneOf(
          ...argument.map((item, i) => matcherFromJson(item, joinPath(where("$one_of"), i))),
        );
      case "$approx":
        return new Approx(argument as number, {
          rel: value.$rel === undefined ? undefined : value.$rel as number,
          abs: value.$abs === undefined ? undefined : value.$abs as number,
        });
      case "$type": {
        const names = typeof argument === "string" ? [argument] : argument;
        if (!Array.isArray(names)) {
          throw new InputError(
            `$type must be a type name or a list of them, got ${describeJson(argument)}`,
          );
        }
        return new IsType(...names as JsonTypeName[]);
      }
      case "$eq":
        return new Eq(argument);
      default:
        throw new InputError(
          `${keys.join(", ")} without an operator; add ${MODIFIERS[keys[0] ?? ""] ?? "one"}`,
        );
    }
  } catch (error) {
    // Constructors do not know the path; nested calls already named theirs.
    if (error instanceof InputError && error.where === undefined) {
      throw new InputError(error.message, path || undefined, { cause: error });
    }
    throw error;
  }
}

/**
 * Turn `$` operators in a JSON value into matchers, at any depth. An object
 * is an operator when any key starts with `$`; everything else is copied.
 * Matchers already in the value are kept.
 *
 * @param value A parsed JSON value (usually a call's `args`).
 * @param path The value's JSON path, for errors (`required[1].args`).
 * @returns The value with matchers in place of operator objects.
 * @throws {InputError} On an unknown operator, two operators in one object, a
 * bad regex or a bad operand, naming the path of the offending value.
 *
 * @example Usage
 * ```ts
 * import { matcherFromJson } from "@toolscore/cli";
 * import { valuesMatch } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * const args = matcherFromJson({ date: { $regex: "^2026-" }, seats: 2 });
 * assert.equal(valuesMatch(args, { date: "2026-05-01", seats: 2 }), true);
 * assert.throws(
 *   () => matcherFromJson({ $regexp: "^a" }, "required[0].args.date"),
 *   { message: "required[0].args.date: unknown operator $regexp (did you mean $regex?)" },
 * );
 * ```
 */
export function matcherFromJson(value: unknown, path = ""): unknown {
  if (Array.isArray(value)) return value.map((item, i) => matcherFromJson(item, joinPath(path, i)));
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.some((key) => key.startsWith("$"))) return operatorFromJson(value, path);
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = matcherFromJson(value[key], joinPath(path, key));
  return out;
}

/**
 * Read an expected call's `args` object: its values go through
 * {@linkcode matcherFromJson}. The object itself cannot be an operator —
 * `args` absent or `null` already means "don't check arguments".
 *
 * @param value The parsed `args` object.
 * @param path Its JSON path, for errors (`required[0].args`).
 * @returns The arguments with matchers in place of operator objects.
 * @throws {InputError} When `args` is not an object, is an operator object, or holds a bad operator.
 *
 * @example Usage
 * ```ts
 * import { expectedArgsFromJson } from "./matchers.ts";
 * import assert from "node:assert/strict";
 *
 * const args = expectedArgsFromJson({ q: { $regex: "^a" } }, "required[0].args");
 * assert.equal(String(args.q), '{"$regex":"^a"}');
 * assert.throws(() => expectedArgsFromJson({ $any: true }, "required[0].args"), /required\[0\]\.args: /);
 * ```
 */
export function expectedArgsFromJson(value: unknown, path: string): Record<string, unknown> {
  if (!isJsonObject(value)) {
    throw new InputError(`must be an object, got ${describeJson(value)}`, path || undefined);
  }
  const operator = Object.keys(value).find((key) => key.startsWith("$"));
  if (operator !== undefined) {
    throw new InputError(
      `${operator} cannot stand for the whole arguments object; put operators on argument ` +
        `values, or leave args out to not check them`,
      path || undefined,
    );
  }
  return matcherFromJson(value, path) as Record<string, unknown>;
}

/** Options for {@linkcode valuesMatch}. */
export interface ValuesMatchOptions {
  /**
   * Compare exactly: same JSON type and value, no trimming, same object key
   * sets, same array lengths. Matchers still decide.
   * @default {false}
   */
  strict?: boolean;
}

function compare(expected: unknown, actual: unknown, strict: boolean, matchers: boolean): boolean {
  switch (typeof expected) {
    case "string":
      if (typeof actual !== "string") return false;
      return strict ? expected === actual : trimmedEqual(expected, actual);
    case "number":
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
  if (matchers && isMatcher(expected)) return expected.matches(actual, strict);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    for (let i = 0; i < expected.length; i++) {
      if (!compare(expected[i], actual[i], strict, matchers)) return false;
    }
    return true;
  }
  if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
  if (isMatcher(actual)) return false;
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
 * has one number type, so `1` and `1.0` are equal in both modes.
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
