/**
 * Checking run records against the shipped JSON Schema (with ajv, a
 * maintained validator) and against their own `record_sha256`.
 *
 * @module
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import { canonicalJson, jsonSha256 } from "../base/canonical.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { schemaErrorLine } from "../base/schema_problems.ts";
import { RUN_RECORD_SCHEMA } from "./schema.ts";

let validator: ReturnType<Ajv2020["compile"]> | undefined;

function compiled(): ReturnType<Ajv2020["compile"]> {
  validator ??= new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true })
    .compile(RUN_RECORD_SCHEMA);
  return validator;
}

/**
 * The schema problems of a value, without the hash check.
 *
 * @param record Any value.
 * @returns Readable problems (`/cost_usd: must be number or null`), empty when it conforms.
 *
 * @example Usage
 * ```ts
 * import { schemaProblems } from "./validate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(schemaProblems({}).slice(0, 1), ["/schema_version: is missing"]);
 * ```
 */
export function schemaProblems(record: unknown): string[] {
  const validate = compiled();
  if (validate(record)) return [];
  return (validate.errors ?? []).map((e) => schemaErrorLine(e, "a field of a run record"));
}

/**
 * The SHA-256 a record's `hashes.record_sha256` must hold: `jsonSha256` of
 * the record without that one field.
 *
 * @param record A record (its other fields as they are).
 * @returns 64 lowercase hex digits.
 *
 * @example Usage
 * ```ts
 * import { recordSha256 } from "./validate.ts";
 * import assert from "node:assert/strict";
 *
 * const a = recordSha256({ run_id: "r", hashes: { record_sha256: "x", trace_sha256: null } });
 * const b = recordSha256({ run_id: "r", hashes: { trace_sha256: null } });
 * assert.equal(a, b);
 * ```
 */
export function recordSha256(record: Readonly<Record<string, unknown>>): string {
  return jsonSha256(withoutRecordHash(record));
}

function withoutRecordHash(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const hashes = isJsonObject(record.hashes) ? { ...record.hashes } : record.hashes;
  if (isJsonObject(hashes)) delete hashes.record_sha256;
  return { ...record, hashes };
}

const encoder = new TextEncoder();

/**
 * {@linkcode recordSha256} through Web Crypto, for bulk work: each
 * `node:crypto` hash object holds native memory until a major collection,
 * which a million records in a row would pay for in resident memory; Web
 * Crypto digests hold none.
 *
 * @param record A record.
 * @returns 64 lowercase hex digits, the same as {@linkcode recordSha256}.
 *
 * @example Usage
 * ```ts
 * import { recordSha256, recordSha256Async } from "./validate.ts";
 * import assert from "node:assert/strict";
 *
 * const record = { run_id: "r", hashes: { record_sha256: "x", trace_sha256: null } };
 * assert.equal(await recordSha256Async(record), recordSha256(record));
 * ```
 */
export async function recordSha256Async(
  record: Readonly<Record<string, unknown>>,
): Promise<string> {
  const bytes = encoder.encode(canonicalJson(withoutRecordHash(record)));
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).toHex();
}

/**
 * Check a record against the shipped JSON Schema, and check that
 * `hashes.record_sha256` matches the record.
 *
 * @param record A parsed record.
 * @returns Readable problems, each starting with the JSON pointer of the
 *   field (`/cost_usd: must be number or null`); empty when the record conforms.
 *
 * @example Usage
 * ```ts
 * import { recordFromRun, validateRecord } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const record = recordFromRun(
 *   { arm_id: "mini", task_id: "refund", repeat: 0, outcome: "pass", cost_usd: 0.003 },
 *   { kind: "agent_run", path: "runs.jsonl", sha256: "0".repeat(64), line: 1 },
 * );
 * assert.deepEqual(validateRecord(record), []);
 * assert.match(validateRecord({ ...record, score: 0.5 })[0]!, /^\/hashes\/record_sha256: /);
 * assert.deepEqual(validateRecord({ ...record, cost_usd: "3" }).slice(0, 1), [
 *   "/cost_usd: must be number or null",
 * ]);
 * ```
 */
export function validateRecord(record: unknown): string[] {
  const problems = schemaProblems(record);
  const stated = statedHash(record);
  if (stated !== undefined && stated !== recordSha256(record as Record<string, unknown>)) {
    problems.push(HASH_MISMATCH);
  }
  return problems;
}

const HASH_MISMATCH =
  "/hashes/record_sha256: does not match the record; a field was changed after export";

function statedHash(record: unknown): string | undefined {
  if (!isJsonObject(record) || !isJsonObject(record.hashes)) return undefined;
  const stated = record.hashes.record_sha256;
  return typeof stated === "string" ? stated : undefined;
}

/**
 * {@linkcode validateRecord} with the hash through Web Crypto, for bulk checks.
 *
 * @param record A parsed record.
 * @returns The same problems as {@linkcode validateRecord}.
 *
 * @example Usage
 * ```ts
 * import { validateRecordAsync } from "./validate.ts";
 * import { recordFromRun } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const source = { kind: "agent_run" as const, path: "r.jsonl", sha256: "0".repeat(64), line: 1 };
 * const record = recordFromRun({ arm_id: "mini", score: 0.5 }, source);
 * assert.deepEqual(await validateRecordAsync(record), []);
 * assert.equal((await validateRecordAsync({ ...record, score: 0.6 })).length, 1);
 * ```
 */
export async function validateRecordAsync(record: unknown): Promise<string[]> {
  const problems = schemaProblems(record);
  const stated = statedHash(record);
  if (
    stated !== undefined && stated !== await recordSha256Async(record as Record<string, unknown>)
  ) {
    problems.push(HASH_MISMATCH);
  }
  return problems;
}
