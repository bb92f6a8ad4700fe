/**
 * The run record of a receipt (`toolscore eval --receipt`): the verdict,
 * score and evidence it holds, and the hashes of the receipt and its trace.
 *
 * @module
 */

import { describeJson, isJsonObject } from "../scoring/calls.ts";
import { sha256Hex } from "../base/canonical.ts";
import { InputError } from "../base/errors.ts";
import { decodeUtf8, parseDocument } from "../base/load.ts";
import { receiptSha256 } from "../receipts/build.ts";
import { receiptFromJson } from "../receipts/io.ts";
import { meetsBar } from "../scoring/score.ts";
import { recordFromFields, type RunIdentity } from "./record.ts";
import type { RunRecord } from "./schema.ts";

/** What {@linkcode recordFromReceiptFile} needs besides the receipt. */
export interface ReceiptRecordContext {
  /** Run id, task and repeat (from the file stem). */
  identity: RunIdentity;
  /** The variant, or `null`. */
  variant: string | null;
  /** A passing score to re-judge the receipt's score by; its own verdict when absent. */
  minScore: number | undefined;
}

type Json = Record<string, unknown>;

function object(value: unknown, where: string): Json {
  if (!isJsonObject(value)) {
    throw new InputError(
      `expected an object, got ${describeJson(value)}; is this a receipt?`,
      where,
    );
  }
  return value;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The metrics record inside a receipt's result (the full result record or the metrics alone). */
function metricsOf(result: Json): Json {
  const metrics = isJsonObject(result.metrics) ? result.metrics : {};
  return isJsonObject(metrics.metrics) ? metrics.metrics : metrics;
}

/** A cost or latency block's total when every call carries the figure. */
function figureTotal(block: unknown): number | null {
  if (!isJsonObject(block)) return null;
  const { total, known, calls } = block;
  if (typeof calls !== "number" || calls === 0 || known !== calls) return null;
  return numberOrNull(total);
}

function honestyErrors(metrics: Json): number {
  const honesty = isJsonObject(metrics.honesty_metrics) ? metrics.honesty_metrics : {};
  const findings = Array.isArray(honesty.findings) ? honesty.findings : [];
  return findings.filter((f) => isJsonObject(f) && f.severity === "error").length;
}

/**
 * The record of a receipt file's parsed content.
 *
 * @param receipt The parsed receipt.
 * @param path The receipt file, as given.
 * @param bytes The receipt file's bytes (hashed into `source.sha256`).
 * @param context Identity, variant and an optional passing score.
 * @returns The sealed record.
 * @throws {InputError} When the receipt lacks its result block or holds bad values.
 *
 * @example Usage
 * ```ts
 * import { recordFromReceipt } from "./receipt.ts";
 * import { buildReceipt, evaluate } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const receipt = await buildReceipt(evaluate([{ tool: "a" }], [{ tool: "a", result: 1 }]));
 * const bytes = new TextEncoder().encode(JSON.stringify(receipt));
 * const record = recordFromReceipt(receipt, "a-0.receipt.json", bytes, {
 *   identity: { runId: "a-0", task: "a", repeat: 0 },
 *   variant: "mini",
 *   minScore: undefined,
 * });
 * assert.equal(record.outcome, "pass");
 * assert.equal(record.hashes.receipt_sha256, receipt.receipt_sha256);
 * ```
 */
export function recordFromReceipt(
  receipt: unknown,
  path: string,
  bytes: Uint8Array,
  context: ReceiptRecordContext,
): RunRecord {
  const body = receiptFromJson(receipt, path) as unknown as Json;
  if (receiptSha256(body) !== body.receipt_sha256) {
    throw new InputError(
      "receipt_sha256 does not match the receipt; it was changed after it was written " +
        "(toolscore verify shows what)",
      path,
    );
  }
  const result = object(body.result, "result");
  const metrics = metricsOf(result);
  const score = numberOrNull(result.score);
  let passed = typeof result.passed === "boolean" ? result.passed : null;
  let minScore = numberOrNull(result.min_score);
  if (context.minScore !== undefined) {
    minScore = context.minScore;
    // The receipt's passing rule (issue 28): its failed checks stand, the score meets the new
    // bar; `exact` does not read the bar. An older receipt has the older rule: no honesty error.
    const failed = Array.isArray(result.failed_checks) ? result.failed_checks : undefined;
    passed = score === null
      ? null
      : (result.pass_rule === "exact" || result.pass_rule === "tau2-actions" ||
          result.pass_rule === "any-call") &&
          typeof result.passed === "boolean"
      ? result.passed
      : meetsBar(score, minScore) &&
        (failed === undefined ? honestyErrors(metrics) === 0 : failed.length === 0);
  }
  const outcome = passed === null ? "unknown" : passed ? "pass" : "fail";
  const inputs = isJsonObject(body.inputs) ? body.inputs : {};
  const trace = isJsonObject(inputs.trace) ? inputs.trace : {};
  return recordFromFields({
    run_id: context.identity.runId,
    variant: context.variant,
    task: context.identity.task,
    repeat: context.identity.repeat,
    outcome,
    score,
    grade: typeof result.grade === "string" ? result.grade as RunRecord["grade"] : null,
    min_score: minScore,
    cost_usd: figureTotal(metrics.cost),
    duration_s: figureTotal(metrics.latency),
    usage: { input_tokens: null, output_tokens: null },
    evidence: evidenceCounts(result.evidence),
    error: null,
    // The receipt's own failed checks (issue 28); unknown for a receipt older than the rule.
    failed_checks: Array.isArray(result.failed_checks) &&
        result.failed_checks.every((check) => typeof check === "string")
      ? result.failed_checks as string[]
      : null,
    source: { kind: "receipt", path, sha256: sha256Hex(bytes), line: null },
    hashes: {
      trace_sha256: typeof trace.sha256 === "string" ? trace.sha256 : null,
      receipt_sha256: typeof body.receipt_sha256 === "string" ? body.receipt_sha256 : null,
    },
  });
}

function evidenceCounts(value: unknown): RunRecord["evidence"] {
  if (!isJsonObject(value)) return null;
  const { pass, fail, unknown } = value;
  if (![pass, fail, unknown].every((n) => typeof n === "number")) return null;
  return { pass: pass as number, fail: fail as number, unknown: unknown as number };
}

/**
 * The record of a receipt file.
 *
 * @param path The receipt file, as given.
 * @param bytes Its bytes.
 * @param context Identity, variant and an optional passing score.
 * @returns The sealed record.
 * @throws {InputError} When the receipt cannot be parsed or lacks its result, naming the file.
 *
 * @example Usage
 * ```ts
 * import { recordFromReceiptFile } from "./receipt.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('{"receipt_version": 1}');
 * const context = { identity: { runId: "x", task: "x", repeat: null }, variant: null, minScore: undefined };
 * await assert.rejects(recordFromReceiptFile("x.receipt.json", bytes, context), /not a receipt/);
 * ```
 */
export function recordFromReceiptFile(
  path: string,
  bytes: Uint8Array,
  context: ReceiptRecordContext,
): Promise<RunRecord> {
  try {
    const receipt = parseDocument(decodeUtf8(bytes, path), path);
    return Promise.resolve(recordFromReceipt(receipt, path, bytes, context));
  } catch (error) {
    if (error instanceof InputError && !error.message.startsWith(path)) {
      return Promise.reject(new InputError(error.message, path, { cause: error }));
    }
    return Promise.reject(error);
  }
}
