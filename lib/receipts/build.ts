/**
 * `buildReceipt()`: the receipt of one evaluation — its inputs by hash, the
 * settings that changed the result, the result block — sealed with
 * `receipt_sha256`. Every string in it passes through `redactSecrets` before
 * hashing, so no detected credential appears in clear.
 *
 * @module
 */

import denoJson from "../../deno.json" with { type: "json" };
import { canonicalValue, jsonSha256, sha256Hex } from "../base/canonical.ts";
import { InputError } from "../base/errors.ts";
import type { EvaluationResult } from "../evaluate/evaluate.ts";
import { evaluationEvidence } from "../checks/evidence.ts";
import { redactSecrets } from "../checks/security.ts";
import { type FileDigest, fileDigest } from "./digest.ts";
import {
  INPUT_ROLES,
  type Receipt,
  RECEIPT_VERSION,
  type ReceiptInput,
  type ReceiptResult,
  type RegradedFrom,
} from "./model.ts";
import { storedPath } from "./paths.ts";
import { passBarOf } from "../evaluate/result_bar.ts";
import { passRuleToJson } from "../contract/pass_rule.ts";
import { recordOrigin } from "./origin.ts";

/** An input file with more to say than its path. */
export interface ReceiptInputSpec {
  /** The file, as the caller knows it (relative to the working directory, or absolute). */
  path: string;
  /** For a file holding several traces: which one (1-based). */
  index?: number;
}

/** Options for {@linkcode buildReceipt}. */
export interface BuildReceiptOptions {
  /**
   * Input files by role (`gold`, `trace`, `forbidden`, `honesty_config`,
   * `injected`…); `null` and `undefined` entries are left out.
   * @default {{}}
   */
  inputs?: Record<string, string | ReceiptInputSpec | null | undefined>;
  /**
   * Settings that changed the result (`format`, `strict`…). The normalized
   * weights are always added, from the result.
   * @default {{format: "auto", strict: result.strict}}
   */
  settings?: Record<string, unknown>;
  /**
   * A final answer given from outside the trace; only its SHA-256 is stored.
   * @default {undefined} (the result's, when its source is `external`)
   */
  finalAnswer?: string;
  /**
   * The bar `passed` is measured against: this one, else the contract's
   * `min_score` when the result came from a contract, else 0.9 (the library's
   * one rule).
   * @default {undefined} (the contract's `min_score`, else 0.9)
   */
  minScore?: number;
  /**
   * The folder the receipt will be written to: input paths are stored
   * relative to it.
   * @default {undefined} (paths stored as given)
   */
  relativeTo?: string;
  /**
   * When the receipt was made.
   * @default {new Date()}
   */
  createdAt?: Date;
  /**
   * The receipt this evaluation regraded.
   * @default {undefined}
   */
  regradedFrom?: RegradedFrom;
  /**
   * Digests already computed, by path as given; files read are added, so
   * receipts of many traces sharing a gold file (or a JSONL file) read each once.
   * @default {undefined}
   */
  digests?: Map<string, FileDigest>;
}

/**
 * The hash that seals a receipt: {@linkcode jsonSha256} of the receipt
 * without its `receipt_sha256` key.
 *
 * @param receipt A receipt, sealed or not.
 * @returns 64 lowercase hex digits.
 *
 * @example Usage
 * ```ts
 * import { jsonSha256 } from "@toolscore/cli";
 * import { receiptSha256 } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(receiptSha256({ a: 1, receipt_sha256: "x" }), jsonSha256({ a: 1 }));
 * ```
 */
export function receiptSha256(receipt: object): string {
  const { receipt_sha256: _, ...body } = receipt as Record<string, unknown>;
  return jsonSha256(body);
}

function orderedRoles(inputs: Record<string, unknown>): string[] {
  const given = Object.keys(inputs);
  return [
    ...INPUT_ROLES.filter((role) => given.includes(role)),
    ...given.filter((role) => !INPUT_ROLES.includes(role)),
  ];
}

async function digestInputs(
  inputs: Record<string, string | ReceiptInputSpec | null | undefined>,
  relativeTo: string | undefined,
  digests: Map<string, FileDigest> | undefined,
): Promise<Record<string, ReceiptInput>> {
  const out: Record<string, ReceiptInput> = {};
  for (const role of orderedRoles(inputs)) {
    const spec = inputs[role];
    if (spec === null || spec === undefined) continue;
    const { path, index } = typeof spec === "string" ? { path: spec, index: undefined } : spec;
    if (index !== undefined && !(Number.isInteger(index) && index >= 1)) {
      throw new InputError(`index must be a whole number >= 1, got ${index}`, `inputs.${role}`);
    }
    const digest = digests?.get(path) ?? await fileDigest(path);
    digests?.set(path, digest);
    out[role] = {
      path: storedPath(path, relativeTo),
      sha256: digest.sha256,
      bytes: digest.bytes,
      ...(index !== undefined ? { index } : {}),
    };
  }
  return out;
}

function resultBlock(result: EvaluationResult, minScore: number): ReceiptResult {
  const evidence = evaluationEvidence(result);
  const { pass, fail, unknown } = evidence.counts;
  const verdict = result.verdict(minScore, evidence);
  return {
    score: result.score,
    grade: result.grade,
    passed: verdict.passed,
    failed_checks: verdict.failedChecks,
    pass_rule: passRuleToJson(result.passRule),
    min_score: minScore,
    required_call_recall: result.requiredCallRecall,
    counts: { expected: result.goldCalls.length, actual: result.traceCalls.length },
    evidence: { pass, fail, unknown },
    metrics: result.metrics,
  };
}

/**
 * Build the receipt of one evaluation: inputs digested (streamed), settings
 * with the normalized weights, an external final answer as its hash only,
 * the result block (score, grade, passed, failed_checks, pass_rule, min_score, required_call_recall,
 * counts, evidence, the full metrics), credentials redacted, and
 * `receipt_sha256` last.
 *
 * @param result The evaluation.
 * @param options Inputs, settings, final answer, bar, where the receipt goes.
 * @returns The sealed receipt.
 * @throws {InputError} When an input file cannot be read, or on a bad bar or index.
 *
 * @example Usage
 * ```ts
 * import { buildReceipt, evaluate } from "@toolscore/cli";
 * import { receiptSha256 } from "./build.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "search" }], [{ tool: "search", args: { key: "AKIAIOSFODNN7EXAMPLE" } }]);
 * const receipt = await buildReceipt(result, { minScore: 0.8 });
 * assert.equal(receipt.result.passed, false); // a credential in the arguments fails the run
 * assert.deepEqual(receipt.result.failed_checks, ["credentials"]);
 * assert.equal(receipt.receipt_sha256, receiptSha256(receipt));
 * assert.ok(!JSON.stringify(receipt).includes("AKIAIOSFODNN7EXAMPLE"));
 * ```
 */
export async function buildReceipt(
  result: EvaluationResult,
  options: BuildReceiptOptions = {},
): Promise<Receipt> {
  const minScore = passBarOf(result, options.minScore);
  if (typeof minScore !== "number" || !(minScore >= 0 && minScore <= 1)) {
    throw new InputError(`minScore must be a number between 0 and 1, got ${minScore}`);
  }
  const inputs = await digestInputs(options.inputs ?? {}, options.relativeTo, options.digests);
  const external = options.finalAnswer ??
    (result.finalAnswerSource === "external" ? result.finalAnswer : null);
  const createdAt = (options.createdAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z");
  const body = {
    receipt_version: RECEIPT_VERSION,
    producer: {
      name: "toolscore",
      version: denoJson.version,
      runtime: `deno ${Deno.version.deno}`,
    },
    created_at: createdAt,
    inputs,
    settings: {
      format: "auto",
      strict: result.strict,
      ...options.settings,
      weights: result.weights,
    },
    final_answer_sha256: external === null ? null : sha256Hex(external),
    result: resultBlock(result, minScore),
    ...(options.regradedFrom ? { regraded_from: options.regradedFrom } : {}),
  };
  // Plain JSON first (matchers to operator objects, unknowns dropped), then redact, then seal.
  const sealed = redactSecrets(canonicalValue(body)) as Record<string, unknown>;
  const receipt = { ...sealed, receipt_sha256: jsonSha256(sealed) } as unknown as Receipt;
  const stored = Object.fromEntries(Object.entries(inputs).map(([role, e]) => [role, e.path]));
  recordOrigin(receipt, options.relativeTo ?? ".", stored);
  return receipt;
}
