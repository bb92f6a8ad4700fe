/**
 * The {@linkcode Matcher} interface every matcher implements, and the two
 * helpers the matcher classes and value comparison share.
 *
 * @module
 */

import { isJsonObject } from "./calls.ts";

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

/**
 * Plain JSON for a value that may hold matchers (each matcher as its operator object).
 *
 * @param value Any value.
 * @returns The value with matchers replaced by their `toJSON()`.
 */
export function plainJson(value: unknown): unknown {
  if (isMatcher(value)) return value.toJSON();
  if (Array.isArray(value)) return value.map(plainJson);
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = plainJson(value[key]);
    return out;
  }
  return value;
}
