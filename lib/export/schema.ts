/**
 * The run record: its JSON Schema (2020-12, shipped as a value so it works
 * from JSR and from a compiled binary), its version and its TypeScript shape.
 *
 * @module
 */

import schema from "../../schemas/run-record.schema.json" with { type: "json" };
import { fileURLToPath } from "node:url";
import { jsonSha256 } from "../base/canonical.ts";

/**
 * The schema version of a run record.
 *
 * @example Usage
 * ```ts
 * import { SCHEMA_VERSION } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SCHEMA_VERSION, "1");
 * ```
 */
export const SCHEMA_VERSION = "1";

/**
 * The JSON Schema of a run record (2020-12), as shipped in
 * `schemas/run-record.schema.json`.
 *
 * @example Usage
 * ```ts
 * import { RUN_RECORD_SCHEMA } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(RUN_RECORD_SCHEMA.$schema, "https://json-schema.org/draft/2020-12/schema");
 * ```
 */
export const RUN_RECORD_SCHEMA: Readonly<Record<string, unknown>> = schema;

const SCHEMA_URL = new URL("../../schemas/run-record.schema.json", import.meta.url);

/**
 * Where the shipped run-record schema file is, for tools that take a schema
 * file (a warehouse loader, `ajv`, a notebook): a file system path when
 * toolscore is loaded from local files, else the file's URL.
 *
 * @example Usage
 * ```ts
 * import { RUN_RECORD_SCHEMA } from "@toolscore/cli";
 * import { RUN_RECORD_SCHEMA_PATH } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(RUN_RECORD_SCHEMA_PATH, /schemas[\\/]run-record\.schema\.json$/);
 * if (!RUN_RECORD_SCHEMA_PATH.includes("://")) {
 *   assert.deepEqual(JSON.parse(Deno.readTextFileSync(RUN_RECORD_SCHEMA_PATH)), RUN_RECORD_SCHEMA);
 * }
 * ```
 */
export const RUN_RECORD_SCHEMA_PATH: string = SCHEMA_URL.protocol === "file:"
  ? fileURLToPath(SCHEMA_URL)
  : SCHEMA_URL.href;

/**
 * The SHA-256 of the run-record schema as canonical JSON (RFC 8785), which a
 * manifest records: the same schema hashes the same whatever its formatting.
 *
 * @example Usage
 * ```ts
 * import { jsonSha256, RUN_RECORD_SCHEMA } from "@toolscore/cli";
 * import { RUN_RECORD_SCHEMA_SHA256 } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(RUN_RECORD_SCHEMA_SHA256, jsonSha256(RUN_RECORD_SCHEMA));
 * ```
 */
export const RUN_RECORD_SCHEMA_SHA256: string = jsonSha256(schema);

/** Where a record came from. */
export interface RecordSource {
  /** `agent_run` (a `toolscore agent run` row), `trace` or `receipt`. */
  kind: "agent_run" | "trace" | "receipt";
  /** The input file, as given. */
  path: string;
  /** SHA-256 of the whole input file. */
  sha256: string;
  /** The 1-based line for JSONL inputs, else `null`. */
  line: number | null;
}

/** One run record (file shape: snake_case keys). Unknown values are `null`. */
export interface RunRecord {
  /** Always {@linkcode SCHEMA_VERSION}. */
  schema_version: "1";
  /** Always `run`. */
  record_type: "run";
  /** The run's identifier. */
  run_id: string | null;
  /** The variant (arm, model, configuration). */
  variant: string | null;
  /** The task. */
  task: string | null;
  /** The repeat number. */
  repeat: number | null;
  /** `pass`, `fail`, `error` (infrastructure failure) or `unknown` (not judged). */
  outcome: "pass" | "fail" | "error" | "unknown";
  /** `true` for a pass, `false` for a fail, `null` otherwise. */
  passed: boolean | null;
  /** The composite score in [0, 1]. */
  score: number | null;
  /** The grade. */
  grade: "A" | "B" | "C" | "D" | "F" | null;
  /** The passing score the run was judged by. */
  min_score: number | null;
  /** Cost in USD. */
  cost_usd: number | null;
  /** Wall-clock seconds. */
  duration_s: number | null;
  /** Token usage; each count `null` when unknown. */
  usage: { input_tokens: number | null; output_tokens: number | null };
  /** Evidence checks per state, or `null` when unknown. */
  evidence: { pass: number; fail: number; unknown: number } | null;
  /** Why the run errored. */
  error: string | null;
  /** Its task's class under its variant over the export's inputs (optional until the v2 record). */
  task_class?: "stable_pass" | "stable_fail" | "flaky" | "single";
  /** Where the record came from. */
  source: RecordSource;
  /** The program that wrote the record. */
  producer: { name: string; version: string };
  /** The record's own hash and the hashes of what it was built from. */
  hashes: {
    record_sha256: string;
    trace_sha256: string | null;
    receipt_sha256: string | null;
  };
}
