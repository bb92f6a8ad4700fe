/**
 * The run record: its JSON Schema (2020-12, shipped as a value so it works
 * from JSR and from a compiled binary), its version and its TypeScript shape.
 *
 * Since issue 29 records are written at `schema_version: "2"`, which adds
 * `status` (`stopped` too), `failed_checks`, `prior_cost_usd`, `model`,
 * `turns`, `stop`, `server_start_s`, `error_kind` and `task_class` (each
 * `null` when unknown; later issues fill them). One schema validates both
 * versions: a v2 record carries every one of those fields, a v1 record none.
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
 * assert.equal(SCHEMA_VERSION, "2");
 * ```
 */
export const SCHEMA_VERSION = "2";

/**
 * The schema versions read and validated: v1 records and exports stay valid.
 *
 * @example Usage
 * ```ts
 * import { SCHEMA_VERSIONS } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...SCHEMA_VERSIONS], ["1", "2"]);
 * ```
 */
export const SCHEMA_VERSIONS: readonly ["1", "2"] = ["1", "2"];

/**
 * The canonical SHA-256 of the v1 run-record schema, which the manifests of
 * v1 exports record (the v2 schema validates their records too).
 *
 * @example Usage
 * ```ts
 * import { RUN_RECORD_SCHEMA_V1_SHA256 } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(RUN_RECORD_SCHEMA_V1_SHA256, /^[0-9a-f]{64}$/);
 * ```
 */
export const RUN_RECORD_SCHEMA_V1_SHA256 =
  "2efa856d8b3fda68929264efaf6e52f58c466e8f9cdffc65e013a2f804ff2adc";

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
  /** {@linkcode SCHEMA_VERSION} when written; `"1"` in a v1 record read back. */
  schema_version: "1" | "2";
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
  /** The agent run's status (`ok`, `error`, `stopped`); absent in a v1 record. */
  status?: "ok" | "error" | "stopped" | null;
  /** The checks that failed the run under the contract's passing rule; absent in a v1 record. */
  failed_checks?: string[] | null;
  /** What earlier attempts of this run cost, USD; absent in a v1 record. */
  prior_cost_usd?: number | null;
  /** The model the run used; absent in a v1 record. */
  model?: string | null;
  /** Model turns the run took; absent in a v1 record. */
  turns?: number | null;
  /** Why the run ended (`final`, `max_turns`, `timeout`, `budget`…); absent in a v1 record. */
  stop?: string | null;
  /** Seconds the MCP server took to start; absent in a v1 record. */
  server_start_s?: number | null;
  /** What failed in an error run (`provider`, `server`…); absent in a v1 record. */
  error_kind?: string | null;
  /** `stable_pass`, `stable_fail`, `flaky` or `single`; absent in a v1 record. */
  task_class?: "stable_pass" | "stable_fail" | "flaky" | "single" | null;
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
