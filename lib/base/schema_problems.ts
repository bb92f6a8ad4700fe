/**
 * One readable line per JSON Schema error, as ajv reports them, for the
 * shipped file schemas (receipts, run records): the JSON pointer first, then
 * what to fix (`/cost_usd: must be number or null`, `/producer: is missing`).
 *
 * Internal (not exported from `mod.ts`).
 *
 * @module
 */

import type { ErrorObject } from "ajv/dist/2020.js";

const PATTERNS: Record<string, string> = {
  "^[0-9a-f]{64}$": "64 lowercase hex digits (a SHA-256)",
  "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$": "a UTC time like 2026-11-29T12:00:00Z",
};

/**
 * One ajv error as a line: `POINTER: what is wrong`.
 *
 * @param error The ajv error.
 * @param unknownKey How to call a key the schema does not allow (`a receipt field`).
 * @returns The line.
 *
 * @example Usage
 * ```ts ignore
 * import { schemaErrorLine } from "./schema_problems.ts";
 *
 * const errors = validate(value) ? [] : validate.errors ?? [];
 * const lines = errors.map((e) => schemaErrorLine(e, "a receipt field"));
 * ```
 */
export function schemaErrorLine(error: ErrorObject, unknownKey: string): string {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  switch (error.keyword) {
    case "type": {
      const types = Array.isArray(params.type) ? params.type : [params.type];
      return `${at || "/"}: must be ${types.join(" or ")}`;
    }
    case "required":
      return `${at}/${String(params.missingProperty)}: is missing`;
    case "additionalProperties":
      return `${at}/${String(params.additionalProperty)}: is not ${unknownKey}`;
    case "enum":
      return `${at || "/"}: must be one of ${
        (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")
      }`;
    case "const":
      return `${at || "/"}: must be ${JSON.stringify(params.allowedValue)}`;
    case "pattern": {
      const pattern = String(params.pattern);
      return `${at || "/"}: must be ${PATTERNS[pattern] ?? `text matching ${pattern}`}`;
    }
    default:
      return `${at || "/"}: ${error.message ?? "is invalid"}`;
  }
}
