/**
 * Checking tool arguments against a JSON Schema (`metadata.schema` on a gold
 * call). The validator is ajv; each schema is compiled once and cached.
 * `$schema` picks the draft: 2020-12 when it names it, draft-07 otherwise
 * (what most tool schemas are written in).
 *
 * @module
 */

import type { Ajv } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { ajv2020Class, ajvClass } from "../base/_lazy.ts";
import { isJsonObject } from "./calls.ts";

type Validate = (data: unknown) => boolean;

const compiled = new WeakMap<object, Validate>();
const byText = new Map<string, Validate>();
let draft7: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function validatorFor(schema: unknown): Validate {
  if (typeof schema === "boolean") return () => schema;
  if (!isJsonObject(schema)) return () => false;
  const cached = compiled.get(schema);
  if (cached) return cached;
  const text = JSON.stringify(schema);
  let validate = byText.get(text);
  if (!validate) {
    const is2020 = typeof schema.$schema === "string" && schema.$schema.includes("2020-12");
    const ajv = is2020
      ? (draft2020 ??= new (ajv2020Class())({ strict: false, allErrors: false }))
      : (draft7 ??= new (ajvClass())({ strict: false, allErrors: false }));
    try {
      const fn = ajv.compile(schema);
      validate = (data) => fn(data) === true;
    } catch {
      validate = () => false; // an invalid schema accepts nothing
    }
    byText.set(text, validate);
  }
  compiled.set(schema, validate);
  return validate;
}

/**
 * Whether a value validates against a JSON Schema. An invalid schema accepts
 * nothing.
 *
 * @param schema The JSON Schema (draft-07, or 2020-12 when `$schema` says so).
 * @param value The value, usually a call's arguments.
 * @returns `true` when the value conforms.
 *
 * @example Usage
 * ```ts
 * import { schemaAccepts } from "./schema_check.ts";
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", required: ["q"], properties: { q: { type: "string" } } };
 * assert.equal(schemaAccepts(schema, { q: "x" }), true);
 * assert.equal(schemaAccepts(schema, {}), false);
 * ```
 */
export function schemaAccepts(schema: unknown, value: unknown): boolean {
  return validatorFor(schema)(value);
}
