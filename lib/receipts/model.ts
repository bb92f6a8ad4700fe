/**
 * The receipt file format (snake_case, as written to disk) and its JSON
 * Schema. A receipt is the proof of one evaluation: its inputs by hash, the
 * settings that changed the result, and the result.
 *
 * @module
 */

import schema from "../../schemas/receipt.schema.json" with { type: "json" };
import type { EvidenceCounts } from "../checks/evidence_state.ts";

/**
 * The receipt format version this module writes and reads.
 *
 * @example Usage
 * ```ts
 * import { RECEIPT_VERSION } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(RECEIPT_VERSION, 1);
 * ```
 */
export const RECEIPT_VERSION = 1;

/**
 * The input roles, in the order a receipt lists them; other roles follow in
 * the order given.
 *
 * @example Usage
 * ```ts
 * import { INPUT_ROLES } from "./model.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(INPUT_ROLES.slice(0, 2), ["gold", "trace"]);
 * ```
 */
export const INPUT_ROLES: readonly string[] = Object.freeze([
  "gold",
  "trace",
  "forbidden",
  "honesty_config",
  "injected",
]);

/** One input file of a receipt. */
export interface ReceiptInput {
  /** The path, relative to the receipt's folder when the writer chose so. */
  path: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
  /** The file's size in bytes. */
  bytes: number;
  /** For a file holding several traces: which one (1-based, as `eval` names them `file[n]`). */
  index?: number;
}

/** What changed the result. */
export interface ReceiptSettings {
  /** The trace format asked for (`auto` or a format name). */
  format: string;
  /** Whether argument values were compared exactly. */
  strict: boolean;
  /** The normalized weights. */
  weights: Record<string, number>;
  /** Other settings (e.g. `honesty_sha256` for a configuration given as a value). */
  [key: string]: unknown;
}

/** The outcome of the evaluation, as a receipt records it. */
export interface ReceiptResult {
  /** The composite score. */
  score: number;
  /** The grade letter. */
  grade: string;
  /** Whether the evaluation passed `min_score` under its passing rule. */
  passed: boolean;
  /**
   * The passing rule's checks that failed (issue 28; absent in older receipts).
   */
  failed_checks?: string[];
  /**
   * The passing rule: `"score"`, `"exact"`, `"tau2-actions"` or `{checks: [...]}` (issue 28;
   * absent in older receipts, whose `passed` was the score and no honesty error).
   */
  pass_rule?: "score" | "exact" | "tau2-actions" | "any-call" | { checks: string[] };
  /** The bar it was held to. */
  min_score: number;
  /** Required calls made and not failed / required calls; `null` when none were required. */
  required_call_recall: number | null;
  /** Expected and actual call counts. */
  counts: { expected: number; actual: number };
  /** Evidence checks by state. */
  evidence: EvidenceCounts;
  /** The full metrics record, credentials redacted. */
  metrics: Record<string, unknown>;
}

/** The program that wrote a receipt. */
export interface ReceiptProducer {
  /** `toolscore`. */
  name: string;
  /** Its version. */
  version: string;
  /** The runtime, e.g. `deno 2.9.6`. */
  runtime?: string;
}

/** Where a regraded receipt came from. */
export interface RegradedFrom {
  /** The old receipt's path (relative to the new receipt's folder when possible). */
  path: string;
  /** The old receipt's `receipt_sha256`. */
  receipt_sha256: string;
}

/** A receipt, as written to disk. */
export interface Receipt {
  /** Always {@linkcode RECEIPT_VERSION}. */
  receipt_version: number;
  /** Who wrote it. */
  producer: ReceiptProducer;
  /** When (UTC, ISO 8601). */
  created_at: string;
  /** Input files by role. */
  inputs: Record<string, ReceiptInput>;
  /** What changed the result. */
  settings: ReceiptSettings;
  /** SHA-256 of a final answer given from outside the trace, else `null`. */
  final_answer_sha256: string | null;
  /** The outcome. */
  result: ReceiptResult;
  /** The receipt this one was regraded from, if any. */
  regraded_from?: RegradedFrom;
  /** `jsonSha256` of the receipt without this key; written last. */
  receipt_sha256: string;
}

/**
 * The JSON Schema of a receipt file (2020-12), also shipped as
 * `schemas/receipt.schema.json`.
 *
 * @example Usage
 * ```ts
 * import { RECEIPT_SCHEMA } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(RECEIPT_SCHEMA.$schema, "https://json-schema.org/draft/2020-12/schema");
 * ```
 */
export const RECEIPT_SCHEMA: Readonly<Record<string, unknown>> = schema;
