/**
 * The `$type` matcher, {@linkcode IsType}, and the JSON type names it accepts.
 *
 * @module
 */

import { describeJson, isJsonObject } from "./calls.ts";
import { InputError } from "../base/errors.ts";
import { isWholeNumber } from "../base/exact_number.ts";
import { isNumberText } from "../base/lossless_json.ts";
import type { Matcher } from "./matcher.ts";

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

function jsonTypeMatches(name: JsonTypeName, actual: unknown): boolean {
  switch (name) {
    case "string":
      return typeof actual === "string";
    case "number":
      return typeof actual === "number" ? Number.isFinite(actual) : isNumberText(actual);
    case "integer":
      // A kept literal (issue 42) is judged by its digits: 12345678901234567890 is an integer.
      return isWholeNumber(actual);
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
  const alias = typeof name === "string" && Object.hasOwn(TYPE_ALIASES, name.toLowerCase())
    ? TYPE_ALIASES[name.toLowerCase()]
    : undefined;
  const hint = alias ? ` (did you mean ${alias}?)` : "";
  throw new InputError(
    `unknown $type ${JSON.stringify(name) ?? describeJson(name)}${hint}; ` +
      `use one of ${JSON_TYPE_NAMES.join(", ")}`,
  );
}

/**
 * Matches a value of one of the JSON types (`integer` = a finite number
 * without a fraction; a number literal a double cannot hold, kept as its
 * digits, is a `number`, and an `integer` when its digits have no fraction). `{"$type": "string"}` or `{"$type": ["integer", "null"]}` in JSON.
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
