/**
 * The JSON Schema (2020-12) of the contract file format, shipped as a value
 * so it works from JSR and from a compiled binary. Editors can point a
 * contract's `$schema` at it; {@linkcode contractFromMapping} does the
 * validation toolscore relies on (with JSON paths in its errors).
 *
 * @module
 */

import schema from "../../schemas/contract.schema.json" with { type: "json" };

/**
 * The JSON Schema of a contract file (2020-12).
 *
 * @example Usage
 * ```ts
 * import { CONTRACT_SCHEMA } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CONTRACT_SCHEMA.$schema, "https://json-schema.org/draft/2020-12/schema");
 * ```
 */
export const CONTRACT_SCHEMA: Readonly<Record<string, unknown>> = schema;
