/**
 * The matcher classes: {@linkcode ANY}, {@linkcode Regex}, {@linkcode Approx},
 * {@linkcode Contains}, {@linkcode OneOf} and {@linkcode Eq} (the `$type`
 * matcher is in `type_matcher.ts`). `matchers.ts` documents the decisions.
 *
 * @module
 */

import { describeJson, isJsonObject } from "./calls.ts";
import { InputError } from "../base/errors.ts";
import { nearestDouble } from "../base/exact_number.ts";
import { type Matcher, plainJson as plain } from "./matcher.ts";
import { compare } from "./value_compare.ts";
import { compileUserPattern, type UserPattern } from "../base/user_regex.ts";

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
   * Flags: any of `i`, `m`, `s`.
   * @default {""}
   */
  flags?: string;
}

function listItemText(item: unknown): string {
  return typeof item === "string" ? item : JSON.stringify(plain(item)) ?? "null";
}

/**
 * Matches a string the pattern finds anywhere in (search semantics; anchor
 * with `^…$`). A list is matched as its items joined by spaces.
 * `{"$regex": "p", "$flags": "i"}` in JSON.
 *
 * Patterns run on RE2 (linear time: no pattern can hang a run), in the
 * dialect `lib/base/user_regex.ts` documents: Python's `(?P<name>…)` and
 * JavaScript's `(?<name>…)` both work; backreferences, lookaround and flags
 * other than `i`, `m`, `s` are refused when the matcher is made; `\d`, `\w`,
 * `\s` and `\b` are ASCII only.
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
 * assert.throws(() => new Regex("(a)\\1"), /backreference/);
 * ```
 */
export class Regex implements Matcher {
  /** The pattern as given (Python named groups included). */
  readonly pattern: string;
  /** The flags as given. */
  readonly flags: string;
  readonly #pattern: UserPattern;

  /**
   * Compile a pattern; a bad pattern or flag fails here, not while scoring.
   *
   * @param pattern An RE2 pattern; `(?P<name>…)` and `(?<name>…)` are accepted.
   * @param options The flags.
   * @throws {InputError} On an invalid pattern or flag, or one RE2 cannot run.
   */
  constructor(pattern: string, options: RegexOptions = {}) {
    const flags = options.flags ?? "";
    if (typeof pattern !== "string") {
      throw new InputError(`$regex must be a string, got ${describeJson(pattern)}`);
    }
    if (typeof flags !== "string") {
      throw new InputError(`$flags must be a string, got ${describeJson(flags)}`);
    }
    this.#pattern = compileUserPattern(pattern, flags, undefined, "$regex");
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
    if (typeof actual === "string") return this.#pattern.test(actual);
    if (Array.isArray(actual)) return this.#pattern.test(actual.map(listItemText).join(" "));
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
 * booleans never match. A number a double cannot hold (kept as its digits)
 * is compared as its nearest double, on either side. `{"$approx": n, "$rel": r, "$abs": a}` in JSON.
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
    // A kept literal (a number a double cannot hold, issue 42) counts as its nearest double:
    // a tolerance is a statement about closeness, where the last digits do not matter.
    const value = nearestDouble(actual);
    if (value === undefined || !Number.isFinite(value)) return false;
    return Math.abs(value - this.value) <= Math.max(this.rel * Math.abs(this.value), this.abs);
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
