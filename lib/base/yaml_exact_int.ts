/**
 * A YAML integer tag that keeps integers a double cannot hold as their
 * digits (issue 42), for reading and for writing. It is js-yaml's core `int`
 * tag with one change: a decimal integer outside ±(2^53 − 1) resolves to a
 * kept literal (the raw JSON value of `lossless_json.ts`) instead of a
 * rounded double, and a kept integer literal is dumped as its digits. Hex,
 * octal and binary integers (`0x…`, `0o…`) resolve as before (a double).
 *
 * @module
 */

import type * as Yaml from "js-yaml";
import { isNumberText, numberFromText } from "./lossless_json.ts";

const DECIMAL = /^[-+]?[0-9]+$/;
const INTEGER_LITERAL = /^-?\d+$/;
const made = new WeakMap<object, Yaml.Schema>();

/** The parts of js-yaml the schema is made from. */
export type YamlTags = Pick<
  typeof Yaml,
  "intCoreTag" | "defineScalarTag" | "CORE_SCHEMA" | "binaryTag"
>;

/**
 * The core schema (with `!!binary`) whose `int` tag keeps big integers.
 *
 * @param yaml The js-yaml module (loaded lazily by the caller).
 * @returns The schema, made once per module.
 *
 * @example Usage
 * ```ts
 * import * as yaml from "js-yaml";
 * import { exactYamlSchema } from "./yaml_exact_int.ts";
 * import assert from "node:assert/strict";
 *
 * const schema = exactYamlSchema(yaml);
 * const value = yaml.load("id: 12345678901234567891\nn: 3\n", { schema });
 * assert.equal(JSON.stringify(value), '{"id":12345678901234567891,"n":3}');
 * assert.equal(yaml.dump(value, { schema }), "id: 12345678901234567891\nn: 3\n");
 * ```
 */
export function exactYamlSchema(yaml: YamlTags): Yaml.Schema {
  let schema = made.get(yaml);
  if (schema !== undefined) return schema;
  const core = yaml.intCoreTag;
  const exactInt = yaml.defineScalarTag(core.tagName, {
    implicit: core.implicit,
    implicitFirstChars: core.implicitFirstChars,
    resolve(source, isExplicit, tagName) {
      const value = core.resolve(source, isExplicit, tagName);
      if (typeof value === "number" && !Number.isSafeInteger(value) && DECIMAL.test(source)) {
        return numberFromText(BigInt(source).toString()) as unknown as number;
      }
      return value;
    },
    identify: (data) =>
      isNumberText(data) ? INTEGER_LITERAL.test(data.rawJSON) : core.identify(data),
    represent: (data) => isNumberText(data) ? data.rawJSON : core.represent(data),
  });
  schema = yaml.CORE_SCHEMA.withTags(yaml.binaryTag, exactInt);
  made.set(yaml, schema);
  return schema;
}
