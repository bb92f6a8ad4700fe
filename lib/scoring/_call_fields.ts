/**
 * What each field of a call in the file shape must hold, for `callFromJson()`,
 * and the plain-object test it and `calls.ts` share (kept apart from
 * `calls.ts`, which is near the 500-line cap; `calls.ts` re-exports
 * `isJsonObject`).
 *
 * @module
 */

import { isNumberText } from "../base/lossless_json.ts";
import { isMalformedKind } from "./malformed.ts";

/**
 * Whether a value is a plain JSON object (not an array, not null, not a
 * number literal kept as its digits, which is a null-prototype object).
 *
 * @param value Any value.
 * @returns `true` for a plain object.
 *
 * @example Usage
 * ```ts
 * import { isJsonObject } from "./calls.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isJsonObject({}), true);
 * assert.equal(isJsonObject([]), false);
 * ```
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype) return true;
  return prototype === null && !isNumberText(value);
}

// What fieldValid() accepts, in words, for the error message.
export const FIELD_EXPECTS: Partial<Record<string, string>> = {
  args: "an object (or null to leave the arguments unchecked)",
  sideEffects: "an object of checks",
  metadata: "an object",
  id: "a string",
  rawArgs: "a string",
  argsError: "a string",
  description: "a string",
  error: "a string or null",
  isError: "true or false",
  durationS: "a number of seconds >= 0, or null when unknown",
  costUsd: "a number of USD >= 0, or null when unknown",
  actor: '"user" or "agent"',
  malformed: "no-name, bad-arguments or unknown-type",
};

export function fieldValid(field: string, value: unknown): boolean {
  switch (field) {
    case "args":
      return value === null || isJsonObject(value);
    case "sideEffects":
    case "metadata":
      return isJsonObject(value);
    case "id":
    case "rawArgs":
    case "argsError":
    case "description":
      return typeof value === "string";
    case "error":
      return value === null || typeof value === "string";
    case "isError":
      return typeof value === "boolean";
    case "durationS":
    case "costUsd":
      return value === null || (typeof value === "number" && Number.isFinite(value) && value >= 0);
    case "actor":
      return value === "user" || value === "agent";
    case "malformed":
      return isMalformedKind(value);
    default:
      return true;
  }
}
