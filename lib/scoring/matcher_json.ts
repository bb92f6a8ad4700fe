/**
 * The `$` operators: reading matchers from JSON ({@linkcode matcherFromJson},
 * {@linkcode expectedArgsFromJson}), with errors that name the JSON path and
 * suggest the operator a typo meant.
 *
 * A key of data that starts with `$` is written with one more `$` (issue 42):
 * `{"$$match": {"a": 1}}` is the literal key `$match` (its value read as
 * usual), at any depth and at the top of `args`, where an operator cannot
 * stand. `contract init` writes data keys this way, so every argument object
 * of a trace reads back as itself ({@linkcode escapeDataKey}).
 *
 * @module
 */

import { describeJson, isJsonObject, joinPath } from "./calls.ts";
import { InputError } from "../base/errors.ts";
import { clipEcho } from "../base/clip_input.ts";
import { nearestDouble } from "../base/exact_number.ts";
import type { Matcher } from "./matcher.ts";
import { ANY, Approx, Contains, Eq, OneOf, Regex } from "./matcher_classes.ts";
import { IsType, type JsonTypeName } from "./type_matcher.ts";
import { bfclParamFromJson } from "./bfcl_param.ts";

// An operator key: `$` but not the `$$` of an escaped data key.
const isOperatorKey = (key: string) => key.startsWith("$") && !key.startsWith("$$");
// The data key an escaped key stands for.
const dataKey = (key: string) => key.startsWith("$$") ? key.slice(1) : key;

/**
 * The key to write for a data key, so that {@linkcode matcherFromJson} reads it
 * back as that key: one more `$` when it starts with `$`.
 *
 * @param key A key of argument data.
 * @returns The key as a gold file or contract writes it.
 *
 * @example Usage
 * ```ts
 * import { escapeDataKey, matcherFromJson } from "./matcher_json.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeDataKey("$match"), "$$match");
 * assert.equal(escapeDataKey("q"), "q");
 * assert.deepEqual(matcherFromJson({ [escapeDataKey("$match")]: 1 }), { $match: 1 });
 * ```
 */
export function escapeDataKey(key: string): string {
  return key.startsWith("$") ? `$${key}` : key;
}

/** The operators, each with the modifier keys it accepts. */
const OPERATORS: Record<string, readonly string[]> = {
  $any: [],
  $regex: ["$flags"],
  $contains: [],
  $one_of: ["$normalize", "$doc", "$language", "$unexpected", "$floats"],
  $approx: ["$rel", "$abs"],
  $type: [],
  $eq: [],
};

const MODIFIERS: Record<string, string> = {
  $flags: "$regex",
  $rel: "$approx",
  $abs: "$approx",
  // BFCL's parameter rules (bfcl_param.ts).
  $normalize: "$one_of",
  $doc: "$one_of",
  $language: "$one_of",
  $unexpected: "$one_of",
  $floats: "$one_of",
};

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
  const alias = lower.replaceAll("_", "");
  if (Object.hasOwn(OPERATOR_ALIASES, alias)) return OPERATOR_ALIASES[alias];
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
      `(write {"$eq": …} or $$key for data whose keys start with $)`;
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
    const owner = Object.hasOwn(MODIFIERS, key) ? MODIFIERS[key] : undefined;
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
        if (value.$normalize !== undefined || keys.length > 1) {
          if (value.$normalize !== "bfcl") {
            throw new InputError(
              `$normalize must be "bfcl" (BFCL's parameter rules; the other modifiers of ` +
                `$one_of go with it), got ${
                  typeof value.$normalize === "string"
                    ? clipEcho(JSON.stringify(value.$normalize))
                    : describeJson(value.$normalize)
                }`,
            );
          }
          if (!Array.isArray(argument)) {
            throw new InputError(`$one_of must be a list, got ${describeJson(argument)}`);
          }
          return bfclParamFromJson(value, argument, path);
        }
        if (!Array.isArray(argument) || argument.length === 0) {
          throw new InputError(`$one_of must be a non-empty list, got ${describeJson(argument)}`);
        }
        {
          // Not spread into the constructor: a contract may list 300,000 alternatives (issue 42).
          const oneOf = new OneOf();
          (oneOf as { values: readonly unknown[] }).values = argument.map((item, i) =>
            matcherFromJson(item, joinPath(where("$one_of"), i))
          );
          return oneOf;
        }
      case "$approx":
        return new Approx((nearestDouble(argument) ?? argument) as number, {
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
  if (keys.some(isOperatorKey)) return operatorFromJson(value, path);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    Object.defineProperty(out, dataKey(key), {
      value: matcherFromJson(value[key], joinPath(path, key)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
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
  const operator = Object.keys(value).find(isOperatorKey);
  if (operator !== undefined) {
    throw new InputError(
      `${operator} cannot stand for the whole arguments object; put operators on argument ` +
        `values, or leave args out to not check them (write $${operator} for a data key ` +
        `${operator})`,
      path || undefined,
    );
  }
  return matcherFromJson(value, path) as Record<string, unknown>;
}
