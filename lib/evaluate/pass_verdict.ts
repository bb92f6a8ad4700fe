/**
 * The one passing rule (issue 28), applied: {@linkcode passVerdict} says
 * whether an evaluation passed a bar under its contract's `pass` rule (a gold
 * file gets the default) and which of the rule's checks failed. Every verdict
 * toolscore writes — `eval`'s gate and `--json`, `agent run` rows, receipts,
 * `compare --traces`, export — comes from here, through
 * `EvaluationResult.passed()` and `EvaluationResult.verdict()`.
 *
 * Before issue 28 passing was the score and no error-severity honesty
 * finding: a credential in the arguments, a forbidden call or a failed
 * required call passed at a high enough score. Now those fail.
 *
 * `failedChecks` lists the rule's checks whose status is `fail`, in evidence
 * order; under `exact` it is `["exact"]` when the calls are not an exact
 * match, and under `tau2-actions` (issue 44) `["tau2-actions"]` when some
 * required call was not matched under the non-consuming matching
 * (`metrics.matching.matches`, computed again when absent) or the τ²
 * simulation ended early (`metrics.matching.ended_early`); `["any-call"]`
 * under `any-call` with no call. It never says "below bar": the score is
 * beside it. When the contract's matching is `bfcl-greedy`, `exact` and
 * `any-call` take BFCL's verdict (`metrics.bfcl`).
 *
 * @module
 */

import { evaluationEvidence, type Evidence, type EvidenceSource } from "../checks/evidence.ts";
import { DEFAULT_PASS_RULE, type PassRule } from "../contract/pass_rule.ts";
import { meetsBar } from "../scoring/score.ts";
import { nonConsumingMatches } from "../scoring/non_consuming.ts";

/** What {@linkcode passVerdict} reads: an `EvaluationResult` has all of it. */
export interface PassSource extends EvidenceSource {
  /** The composite score. */
  readonly score: number;
  /** The contract's rule; the default when absent. */
  readonly passRule?: PassRule;
}

/** Options for {@linkcode passVerdict}. */
export interface PassVerdictOptions {
  /**
   * The evidence already computed for this evaluation (saves computing it again).
   * @default {undefined} (computed here)
   */
  evidence?: Evidence;
  /**
   * The rule; replaces the source's.
   * @default {undefined} (the source's `passRule`, else the default)
   */
  rule?: PassRule;
}

/** Whether an evaluation passed, and which of the rule's checks failed. */
export interface PassVerdict {
  /** `true` on a pass. */
  passed: boolean;
  /** The rule's checks with status `fail` (`["exact"]` for a failed exact match). */
  failedChecks: string[];
}

/**
 * Whether the scored calls are exactly the required ones: every required call
 * paired, each with every expected argument matched and no argument the
 * expected call does not name, and no scored call left over. An expected call
 * with unchecked arguments (`args` absent or `null`) matches any arguments.
 *
 * @param source The evaluation.
 * @returns `true` for an exact match.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import { exactMatch } from "./pass_verdict.ts";
 * import assert from "node:assert/strict";
 *
 * const gold = [{ tool: "search", args: { q: "deno" } }];
 * assert.equal(exactMatch(evaluate(gold, [{ tool: "search", args: { q: "deno" } }])), true);
 * assert.equal(exactMatch(evaluate(gold, [{ tool: "search", args: { q: "deno", n: 5 } }])), false);
 * assert.equal(exactMatch(evaluate(gold, [{ tool: "search", args: { q: "deno" } }, { tool: "open" }])), false);
 * ```
 */
export function exactMatch(source: EvidenceSource): boolean {
  const gold = source.goldCalls;
  const scored = source.scoredCalls ?? source.traceCalls;
  const pairs = source.metrics.pairs as
    | { expected: number; actual: number; matched_keys: number }[]
    | undefined;
  if (pairs === undefined || scored.length !== gold.length || pairs.length !== gold.length) {
    return false;
  }
  for (const pair of pairs) {
    const want = gold[pair.expected];
    const got = scored[pair.actual];
    if (want === undefined || got === undefined || want.tool !== got.tool) return false;
    if (want.args === undefined || want.args === null) continue;
    if (got.argsError !== undefined) return false;
    const keys = Object.keys(want.args);
    if (pair.matched_keys !== keys.length) return false;
    for (const key of Object.keys(got.args ?? {})) if (!Object.hasOwn(want.args, key)) return false;
  }
  return true;
}

/**
 * Apply the passing rule to an evaluation at a bar.
 *
 * @param source The evaluation (an `EvaluationResult`).
 * @param minScore The pass mark (1e-9 slack); not read under `exact`.
 * @param options Evidence already computed, or another rule.
 * @returns Whether it passed and which of the rule's checks failed.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import { passVerdict } from "./pass_verdict.ts";
 * import assert from "node:assert/strict";
 *
 * // Full marks, but the answer claims a success the failed call never had.
 * const result = evaluate([{ tool: "deploy" }], {
 *   calls: [{ tool: "deploy", error: "HTTP 503" }],
 *   final_answer: "Deployed successfully!",
 * });
 * assert.deepEqual(passVerdict(result, 0.5), {
 *   passed: false,
 *   failedChecks: ["required-calls", "claimed-success", "disclosure"],
 * });
 * assert.equal(passVerdict(result, 0.5, { rule: { kind: "score" } }).passed, true);
 * ```
 */
export function passVerdict(
  source: PassSource,
  minScore: number,
  options: PassVerdictOptions = {},
): PassVerdict {
  const rule = options.rule ?? source.passRule ?? DEFAULT_PASS_RULE;
  // Under matching "bfcl-greedy" BFCL's checker decided (bfcl_greedy.ts), for both rules.
  const bfcl = source.metrics.bfcl as { valid?: boolean } | undefined;
  if (rule.kind === "exact" || rule.kind === "any-call") {
    const exact = bfcl !== undefined
      ? bfcl.valid === true
      : rule.kind === "exact"
      ? exactMatch(source)
      : (source.scoredCalls ?? source.traceCalls).length > 0;
    const check = rule.kind === "exact" ? "exact" : "any-call";
    return { passed: exact, failedChecks: exact ? [] : [check] };
  }
  if (rule.kind === "tau2-actions") {
    const early = (source.metrics.matching as { ended_early?: string } | undefined)?.ended_early;
    const all = early === undefined && actionMatches(source).every((match) => match !== null);
    return { passed: all, failedChecks: all ? [] : ["tau2-actions"] };
  }
  const scoreOk = meetsBar(source.score, minScore);
  if (rule.kind === "score" || rule.checks.length === 0) {
    return { passed: scoreOk, failedChecks: [] };
  }
  const evidence = options.evidence ?? evaluationEvidence(source);
  const failedChecks = evidence.checks
    .filter((check) => check.status === "fail" && rule.checks.includes(check.check))
    .map((check) => check.check);
  return { passed: scoreOk && failedChecks.length === 0, failedChecks };
}

// The non-consuming matches of an evaluation: its `metrics.matching` block, else computed.
function actionMatches(source: EvidenceSource): readonly (number | null)[] {
  const block = source.metrics.matching as
    | { mode?: string; matches?: { actual: number | null }[] }
    | undefined;
  if (block?.mode === "non-consuming" && Array.isArray(block.matches)) {
    return block.matches.map((match) => match.actual);
  }
  return nonConsumingMatches(source.goldCalls, source.traceCalls);
}
