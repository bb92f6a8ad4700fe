/**
 * Building run records: from a `toolscore agent run` row
 * ({@linkcode recordFromRun}), from a scored trace and from a receipt. Every
 * builder redacts credentials, seals the record with its `record_sha256` and
 * checks it against the schema, so a record that leaves this module always
 * validates.
 *
 * @module
 */

import denoJson from "../../deno.json" with { type: "json" };
import { describeJson, isJsonObject, knownTotal, type Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import type { EvaluationResult } from "../evaluate/evaluate.ts";
import { evaluationEvidence } from "../checks/evidence.ts";
import { redactText } from "../checks/security.ts";
import { runFromRow } from "../stats/runs.ts";
import { DEFAULT_TASK_PATTERN, taskOfStem } from "../stats/traces.ts";
import { type RecordSource, type RunRecord, SCHEMA_VERSION } from "./schema.ts";
import { recordSha256, recordSha256Async, schemaProblems } from "./validate.ts";
import { v2Fields } from "./v2_fields.ts";

const PRODUCER = Object.freeze({ name: "toolscore", version: denoJson.version });
const GRADES = ["A", "B", "C", "D", "F"];
const SHA256 = /^[0-9a-f]{64}$/;

/** The fields a record builder decides; the rest (version, type, `passed`, producer, hash) follow. */
export type RecordFields =
  & Omit<
    RunRecord,
    "schema_version" | "record_type" | "passed" | "producer" | "hashes"
  >
  & { hashes: { trace_sha256: string | null; receipt_sha256: string | null } };

function redacted(text: string | null): string | null {
  return text === null ? null : redactText(text);
}

// Records this module sealed. They are frozen, so they still hold the hash
// they were sealed with: writeExport need not check them again.
const SEALED = new WeakSet<object>();

/**
 * Whether a record was built and sealed by this module (and so validates).
 *
 * @param record Any value.
 * @returns `true` for a record from a builder here.
 *
 * @example Usage
 * ```ts
 * import { isSealedRecord } from "./record.ts";
 * import { recordFromRun } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const source = { kind: "agent_run" as const, path: "r.jsonl", sha256: "0".repeat(64), line: 1 };
 * const record = recordFromRun({ arm_id: "mini" }, source);
 * assert.equal(isSealedRecord(record), true);
 * assert.equal(isSealedRecord({ ...record }), false);
 * ```
 */
export function isSealedRecord(record: unknown): boolean {
  return typeof record === "object" && record !== null && SEALED.has(record);
}

function freeze<T extends object>(value: T): T {
  return Object.freeze(value);
}
/** A string value, `null` when absent, null or empty. */
function text(row: Record<string, unknown>, key: string): string | null {
  const value = row[key];
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw new InputError(`expected a string, got ${describeJson(value)}`, key);
}

/** A number value in a range, `null` when absent or null. */
function amount(
  row: Record<string, unknown>,
  key: string,
  options: { max?: number; integer?: boolean } = {},
): number | null {
  const value = row[key];
  if (value === undefined || value === null) return null;
  const max = options.max ?? Infinity;
  if (
    typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > max ||
    (options.integer === true && !Number.isInteger(value))
  ) {
    const kind = options.integer === true ? "a non-negative integer" : "a non-negative number";
    const range = max === Infinity ? "" : ` up to ${max}`;
    throw new InputError(`expected ${kind}${range} or null, got ${describeJson(value)}`, key);
  }
  return value;
}

function hexOf(value: unknown): string | null {
  return typeof value === "string" && SHA256.test(value) ? value : null;
}

function passedOf(outcome: RunRecord["outcome"]): boolean | null {
  return outcome === "pass" ? true : outcome === "fail" ? false : null;
}

function usageOf(value: unknown, where: string): RunRecord["usage"] {
  if (value === undefined || value === null) return { input_tokens: null, output_tokens: null };
  if (!isJsonObject(value)) {
    throw new InputError(`expected an object, got ${describeJson(value)}`, where);
  }
  return {
    input_tokens: amount(value, "input_tokens", { integer: true }),
    output_tokens: amount(value, "output_tokens", { integer: true }),
  };
}

function evidenceOf(value: unknown): RunRecord["evidence"] {
  if (!isJsonObject(value)) return null;
  const { pass, fail, unknown } = value;
  const counts = [pass, fail, unknown];
  if (!counts.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0)) return null;
  return { pass: pass as number, fail: fail as number, unknown: unknown as number };
}

function errorText(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string") return value;
  if (isJsonObject(value) && typeof value.message === "string" && value.message !== "") {
    return value.message;
  }
  return JSON.stringify(value);
}

/**
 * Build, redact, seal and check a record from the fields a reader decided:
 * `passed` follows the outcome (`null` for `error` and `unknown`). A record
 * that fails the schema here is a bad input value (a score of 1.5, a negative
 * repeat), reported naming the field.
 *
 * @param fields Everything but the version, type, `passed`, producer and record hash.
 * @returns The sealed, frozen record.
 * @throws {InputError} When a field breaks the schema, naming it.
 *
 * @example Usage
 * ```ts
 * import { recordFromFields } from "./record.ts";
 * import assert from "node:assert/strict";
 *
 * const record = recordFromFields({
 *   run_id: "r1", variant: "mini", task: "refund", repeat: 0, outcome: "error",
 *   score: null, grade: null, min_score: null, cost_usd: null, duration_s: 12.5,
 *   usage: { input_tokens: null, output_tokens: null }, evidence: null, error: "timeout",
 *   source: { kind: "agent_run", path: "r.jsonl", sha256: "0".repeat(64), line: 1 },
 *   hashes: { trace_sha256: null, receipt_sha256: null },
 * });
 * assert.equal(record.passed, null);
 * assert.throws(() => recordFromFields({ ...record, score: 2 }), /score: must be <= 1/);
 * ```
 */
export function recordFromFields(fields: RecordFields): RunRecord {
  const record = unsealed(fields);
  return sealWith(record, recordSha256(record as unknown as Record<string, unknown>));
}

/**
 * {@linkcode recordFromFields} with the hash through Web Crypto, for bulk
 * work (see `recordSha256Async`).
 *
 * @param fields Everything but the version, type, `passed`, producer and record hash.
 * @returns The sealed, frozen record.
 * @throws {InputError} When a field breaks the schema, naming it.
 *
 * @example Usage
 * ```ts
 * import { recordFromFields, recordFromFieldsAsync, runFields } from "./record.ts";
 * import assert from "node:assert/strict";
 *
 * const source = { kind: "agent_run" as const, path: "r.jsonl", sha256: "0".repeat(64), line: 1 };
 * const fields = runFields({ arm_id: "mini", passed: true }, source);
 * assert.deepEqual(await recordFromFieldsAsync(fields), recordFromFields(fields));
 * ```
 */
export async function recordFromFieldsAsync(fields: RecordFields): Promise<RunRecord> {
  const record = unsealed(fields);
  return sealWith(record, await recordSha256Async(record as unknown as Record<string, unknown>));
}

/** The record with an empty `record_sha256`, redacted. */
function unsealed(fields: RecordFields): RunRecord {
  const { usage, source, hashes } = fields;
  // One literal in the schema's order: every line lists its fields the same way.
  const record = {
    schema_version: SCHEMA_VERSION,
    record_type: "run",
    run_id: redacted(fields.run_id),
    variant: redacted(fields.variant),
    task: redacted(fields.task),
    repeat: fields.repeat,
    outcome: fields.outcome,
    passed: passedOf(fields.outcome),
    score: fields.score,
    grade: fields.grade,
    min_score: fields.min_score,
    cost_usd: fields.cost_usd,
    duration_s: fields.duration_s,
    usage: freeze({ input_tokens: usage.input_tokens, output_tokens: usage.output_tokens }),
    evidence: fields.evidence === null ? null : freeze({
      pass: fields.evidence.pass,
      fail: fields.evidence.fail,
      unknown: fields.evidence.unknown,
    }),
    error: redacted(fields.error),
    status: fields.status ?? null,
    failed_checks: fields.failed_checks == null ? null : freeze([...fields.failed_checks]),
    prior_cost_usd: fields.prior_cost_usd ?? null,
    model: redacted(fields.model ?? null),
    turns: fields.turns ?? null,
    stop: fields.stop ?? null,
    server_start_s: fields.server_start_s ?? null,
    error_kind: fields.error_kind ?? null,
    task_class: fields.task_class ?? null,
    source: freeze({
      kind: source.kind,
      path: redactText(source.path),
      sha256: source.sha256,
      line: source.line,
    }),
    producer: PRODUCER,
    hashes: {
      record_sha256: "",
      trace_sha256: hashes.trace_sha256,
      receipt_sha256: hashes.receipt_sha256,
    },
  } as RunRecord;
  return record;
}

/** Set the record's hash, check it against the schema, freeze it. */
function sealWith(record: RunRecord, sha256: string): RunRecord {
  record.hashes = freeze({ ...record.hashes, record_sha256: sha256 });
  const problems = schemaProblems(record);
  if (problems.length > 0) {
    const [pointer, ...rest] = problems[0]!.split(": ");
    throw new InputError(`${rest.join(": ")} in the record it gives`, pointer!.slice(1));
  }
  SEALED.add(freeze(record));
  return record;
}

/**
 * The run record of one `toolscore agent run` row (an exported record is
 * read the same way). Variant, task, outcome, cost and duration are read as
 * `runFromRow` reads them (`arm_id`, `task_id`, `outcome` or
 * `status`/`passed`, `cost_usd`, `duration_s`); `passed` follows the outcome
 * (`null` for `error` and `unknown` runs); `repeat`, `score`, `grade`,
 * `min_score`, `usage`, `evidence` and `error` are taken as they are, absent
 * ones `null`. Credentials in strings are replaced by their previews.
 *
 * @param row The parsed row.
 * @param source Where it came from: `{kind, path, sha256, line}`.
 * @returns The sealed record.
 * @throws {InputError} When the row names no variant or holds a bad value (naming its key).
 *
 * @example Usage
 * ```ts
 * import { recordFromRun } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const record = recordFromRun(
 *   { run_id: "mini-refund-0", arm_id: "mini", task_id: "refund", repeat: 0, status: "ok",
 *     passed: true, outcome: "pass", score: 0.92, grade: "A", min_score: 0.9, cost_usd: 0.0031 },
 *   { kind: "agent_run", path: "runs.jsonl", sha256: "0".repeat(64), line: 1 },
 * );
 * assert.equal(record.variant, "mini");
 * assert.equal(record.duration_s, null);
 * assert.deepEqual(record.usage, { input_tokens: null, output_tokens: null });
 * ```
 */
export function recordFromRun(row: unknown, source: RecordSource): RunRecord {
  return recordFromFields(runFields(row, source));
}

/**
 * The fields of the record of one agent-run row (see {@linkcode recordFromRun}).
 *
 * @param row The parsed row.
 * @param source Where it came from.
 * @returns The fields, to seal with {@linkcode recordFromFields} or {@linkcode recordFromFieldsAsync}.
 * @throws {InputError} When the row names no variant or holds a bad value (naming its key).
 *
 * @example Usage
 * ```ts
 * import { runFields } from "./record.ts";
 * import assert from "node:assert/strict";
 *
 * const source = { kind: "agent_run" as const, path: "r.jsonl", sha256: "0".repeat(64), line: 1 };
 * assert.equal(runFields({ arm_id: "mini", status: "error" }, source).outcome, "error");
 * ```
 */
export function runFields(row: unknown, source: RecordSource): RecordFields {
  const run = runFromRow(row);
  const fields = row as Record<string, unknown>;
  const hashes = isJsonObject(fields.hashes) ? fields.hashes : {};
  const grade = text(fields, "grade");
  if (grade !== null && !GRADES.includes(grade)) {
    throw new InputError(`expected one of ${GRADES.join(", ")} or null, got ${grade}`, "grade");
  }
  return {
    run_id: run.runId === "" ? null : run.runId,
    variant: run.variant,
    task: run.task === "" ? null : run.task,
    repeat: amount(fields, "repeat", { integer: true }),
    outcome: run.outcome,
    score: amount(fields, "score", { max: 1 }),
    grade: grade as RunRecord["grade"],
    min_score: amount(fields, "min_score", { max: 1 }),
    cost_usd: run.cost,
    duration_s: run.latency,
    usage: usageOf(fields.usage, "usage"),
    evidence: evidenceOf(fields.evidence),
    error: errorText(fields.error),
    ...v2Fields(fields),
    source,
    hashes: {
      trace_sha256: hexOf(fields.trace_sha256) ?? hexOf(hashes.trace_sha256),
      receipt_sha256: hexOf(fields.receipt_sha256) ?? hexOf(hashes.receipt_sha256),
    },
  };
}

/** The identity of a run read from a file: run id, task and repeat from its stem. */
export interface RunIdentity {
  /** The run id. */
  runId: string;
  /** The task. */
  task: string;
  /** The repeat number, or `null` when the stem has none. */
  repeat: number | null;
}

/**
 * A run's identity from a file stem: the task through the task pattern (as
 * `runsFromTraces` does), the repeat from the number the pattern left off.
 *
 * @param stem The file name without its extension.
 * @param pattern A regex with a `task` group.
 * @returns The run id (the stem), the task and the repeat.
 *
 * @example Usage
 * ```ts
 * import { identityOfStem } from "./record.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(identityOfStem("refund-3"), { runId: "refund-3", task: "refund", repeat: 3 });
 * assert.deepEqual(identityOfStem("refund"), { runId: "refund", task: "refund", repeat: null });
 * ```
 */
export function identityOfStem(
  stem: string,
  pattern: string | RegExp = DEFAULT_TASK_PATTERN,
): RunIdentity {
  const task = taskOfStem(stem, pattern);
  const rest = stem.startsWith(task) ? stem.slice(task.length) : "";
  const digits = /(\d+)$/.exec(rest)?.[1];
  const repeat = digits === undefined ? null : Number(digits);
  return { runId: stem, task, repeat: Number.isSafeInteger(repeat) ? repeat : null };
}

/** What {@linkcode recordFromTrace} needs besides the trace. */
export interface TraceRecordContext {
  /** Run id, task and repeat. */
  identity: RunIdentity;
  /** The variant, or `null` when none was given. */
  variant: string | null;
  /** The evaluation against the gold file or contract, or `null` when there is none. */
  result: EvaluationResult | null;
  /** The passing score (used with `result`). */
  minScore: number;
  /** SHA-256 of the trace's own text (the file, or its JSONL line). */
  traceSha256: string;
}

/**
 * The record of one trace: scored when there is an evaluation, else
 * `unknown` with the score fields `null`; cost and duration are the sums over
 * the trace's calls when every call has one.
 *
 * @param trace The trace as read.
 * @param source Where it came from.
 * @param context Identity, variant, evaluation and hashes.
 * @returns The sealed record.
 *
 * @example Usage
 * ```ts
 * import { identityOfStem, recordFromTrace } from "./record.ts";
 * import { evaluate } from "@toolscore/cli";
 * import { sha256Hex } from "../base/canonical.ts";
 * import { traceFromValue } from "../formats/detect.ts";
 * import assert from "node:assert/strict";
 *
 * const text = '[{"tool": "search", "args": {"q": "x"}, "result": "ok", "cost_usd": 0.002}]';
 * const trace = traceFromValue(JSON.parse(text));
 * const record = recordFromTrace(
 *   trace,
 *   { kind: "trace", path: "search-1.json", sha256: sha256Hex(text), line: null },
 *   {
 *     identity: identityOfStem("search-1"),
 *     variant: "mini",
 *     result: evaluate([{ tool: "search" }], trace),
 *     minScore: 0.9,
 *     traceSha256: sha256Hex(text),
 *   },
 * );
 * assert.equal(record.outcome, "pass");
 * assert.equal(record.cost_usd, 0.002);
 * ```
 */
export function recordFromTrace(
  trace: Trace,
  source: RecordSource,
  context: TraceRecordContext,
): RunRecord {
  const { result, identity } = context;
  // The contract's passing rule (issue 28): the verdict and the checks that failed it.
  const verdict = result === null ? null : result.verdict(context.minScore);
  const outcome = verdict === null ? "unknown" : verdict.passed ? "pass" : "fail";
  return recordFromFields({
    run_id: identity.runId,
    variant: context.variant,
    task: identity.task,
    repeat: identity.repeat,
    outcome,
    score: result === null ? null : result.score,
    grade: result === null ? null : result.grade,
    min_score: result === null ? null : context.minScore,
    cost_usd: knownTotal(trace.calls, (call) => call.costUsd),
    duration_s: knownTotal(trace.calls, (call) => call.durationS),
    usage: {
      input_tokens: trace.usage?.inputTokens ?? null,
      output_tokens: trace.usage?.outputTokens ?? null,
    },
    evidence: result === null ? null : { ...evaluationEvidence(result).counts },
    error: null,
    failed_checks: verdict === null ? null : verdict.failedChecks,
    source,
    hashes: { trace_sha256: context.traceSha256, receipt_sha256: null },
  });
}
