/**
 * What evaluating a protocol gives: each rule's {@linkcode RuleOutcome} and
 * the {@linkcode ProtocolResult} with the decision.
 *
 * @module
 */

import type { PairTest } from "./comparison.ts";
import type { ProtocolRule } from "./protocol.ts";

/** A rule's outcome. */
export type RuleStatus = "pass" | "fail" | "unknown";

/** The fields of a {@linkcode RuleOutcome}. */
export interface RuleOutcomeFields {
  /** The rule's id. */
  id: string;
  /** The metric. */
  metric: string;
  /** `pass`, `fail` or `unknown`. */
  status: RuleStatus;
  /** The baseline's value (`null` when unknown or not used). */
  baselineValue: number | null;
  /** The candidate's value (`null` when unknown). */
  candidateValue: number | null;
  /** The p-value of the test that decided (pass_rate `candidate_better` rules only). */
  pValue: number | null;
  /** The test that decided (pass_rate `candidate_better` rules only), else `null`. */
  test?: PairTest | null;
  /** A sentence with the numbers. */
  detail: string;
  /** The rule as declared. */
  rule: ProtocolRule;
}

/**
 * One rule's outcome.
 *
 * @example Usage
 * ```ts
 * import { RuleOutcome } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const outcome = new RuleOutcome({
 *   id: "cost", metric: "cost", status: "unknown", baselineValue: null, candidateValue: 0.1,
 *   pValue: null, detail: "cost of baseline a is unknown", rule: { id: "cost", metric: "cost", max: 1 },
 * });
 * assert.equal(outcome.toJSON().baseline_value, null);
 * ```
 */
export class RuleOutcome implements RuleOutcomeFields {
  /** The rule's id. */
  readonly id: string;
  /** The metric. */
  readonly metric: string;
  /** `pass`, `fail` or `unknown`. */
  readonly status: RuleStatus;
  /** The baseline's value (`null` when unknown or not used). */
  readonly baselineValue: number | null;
  /** The candidate's value (`null` when unknown). */
  readonly candidateValue: number | null;
  /** The p-value of the test that decided (pass_rate `candidate_better` rules only). */
  readonly pValue: number | null;
  /** The test that decided (pass_rate `candidate_better` rules only), else `null`. */
  readonly test: PairTest | null;
  /** A sentence with the numbers. */
  readonly detail: string;
  /** The rule as declared. */
  readonly rule: ProtocolRule;

  /**
   * Create a rule outcome (usually {@linkcode evaluateProtocol} does).
   *
   * @param fields Every field.
   */
  constructor(fields: RuleOutcomeFields) {
    this.id = fields.id;
    this.metric = fields.metric;
    this.status = fields.status;
    this.baselineValue = fields.baselineValue;
    this.candidateValue = fields.candidateValue;
    this.pValue = fields.pValue;
    this.test = fields.test ?? null;
    this.detail = fields.detail;
    this.rule = fields.rule;
  }

  /**
   * The outcome in file shape (snake_case).
   *
   * @returns `{id, metric, status, baseline_value, candidate_value, p_value, test, detail, rule}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      metric: this.metric,
      status: this.status,
      baseline_value: this.baselineValue,
      candidate_value: this.candidateValue,
      p_value: this.pValue,
      test: this.test,
      detail: this.detail,
      rule: structuredClone(this.rule),
    };
  }
}

/** A protocol's decision. */
export type ProtocolDecision = "adopt" | "reject" | "undecided";

/** The fields of a {@linkcode ProtocolResult}. */
export interface ProtocolResultFields {
  /** The protocol's title. */
  title: string;
  /** `jsonSha256` of the protocol as declared. */
  protocolSha256: string;
  /** The baseline variant. */
  baseline: string;
  /** The candidate variant. */
  candidate: string;
  /** Each rule's outcome. */
  rules: RuleOutcome[];
  /** `adopt`, `reject` or `undecided`. */
  decision: ProtocolDecision;
  /** The significance level used. */
  alpha: number;
  /** Runs per variant needed before a rule can pass. */
  minRuns: number;
  /** The k of pass^k. */
  k: number;
}

/**
 * The result of {@linkcode evaluateProtocol}.
 *
 * @example Usage
 * ```ts
 * import { ProtocolResult } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const result = new ProtocolResult({
 *   title: "t", protocolSha256: "0".repeat(64), baseline: "a", candidate: "b",
 *   rules: [], decision: "undecided", alpha: 0.05, minRuns: 10, k: 1,
 * });
 * assert.equal(result.summary, "undecided: 0 pass, 0 fail, 0 unknown");
 * ```
 */
export class ProtocolResult implements ProtocolResultFields {
  /** The protocol's title. */
  readonly title: string;
  /** `jsonSha256` of the protocol as declared (record it before the runs). */
  readonly protocolSha256: string;
  /** The baseline variant. */
  readonly baseline: string;
  /** The candidate variant. */
  readonly candidate: string;
  /** Each rule's outcome, in declaration order. */
  readonly rules: RuleOutcome[];
  /** `adopt` (every rule passed), `reject` (a rule failed) or `undecided` (a rule is unknown, none failed). */
  readonly decision: ProtocolDecision;
  /** The significance level used. */
  readonly alpha: number;
  /** Runs per variant needed before a rule can pass. */
  readonly minRuns: number;
  /** The k of pass^k. */
  readonly k: number;

  /**
   * Create a protocol result (usually {@linkcode evaluateProtocol} does).
   *
   * @param fields Every field.
   */
  constructor(fields: ProtocolResultFields) {
    this.title = fields.title;
    this.protocolSha256 = fields.protocolSha256;
    this.baseline = fields.baseline;
    this.candidate = fields.candidate;
    this.rules = fields.rules;
    this.decision = fields.decision;
    this.alpha = fields.alpha;
    this.minRuns = fields.minRuns;
    this.k = fields.k;
  }

  /** The decision and the rule counts: `adopt: 3 pass, 0 fail, 0 unknown`. */
  get summary(): string {
    const count = (status: RuleStatus) =>
      this.rules.filter((rule) => rule.status === status).length;
    return `${this.decision}: ${count("pass")} pass, ${count("fail")} fail, ${
      count("unknown")
    } unknown`;
  }

  /**
   * A JSON-safe report (snake_case).
   *
   * @returns `{title, protocol_sha256, baseline, candidate, alpha, min_runs, k, decision, summary, rules}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      title: this.title,
      protocol_sha256: this.protocolSha256,
      baseline: this.baseline,
      candidate: this.candidate,
      alpha: this.alpha,
      min_runs: this.minRuns,
      k: this.k,
      decision: this.decision,
      summary: this.summary,
      rules: this.rules.map((rule) => rule.toJSON()),
    };
  }
}
