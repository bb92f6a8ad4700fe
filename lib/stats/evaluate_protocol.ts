/**
 * Evaluating a protocol declared before the runs against a comparison of
 * them. A rule without enough data is unknown, never a pass.
 *
 * @module
 */

import { jsonSha256 } from "../base/canonical.ts";
import { InputError } from "../base/errors.ts";
import { adjustPValues } from "./adjust.ts";
import { comparePair, type ComparePairOptions } from "./compare_pair.ts";
import type { Comparison, PairTest } from "./comparison.ts";
import { formatMetricValue, formatPValue } from "./format.ts";
import { protocolFromJson, type ProtocolRule } from "./protocol.ts";
import {
  type ProtocolDecision,
  ProtocolResult,
  RuleOutcome,
  type RuleStatus,
} from "./protocol_result.ts";
import { OBJECTIVE_METRICS, type VariantStats } from "./variant_stats.ts";

// Float slack for tolerance comparisons: 0.95 - 0.05 must not fail 0.9.
const EPSILON = 1e-9;

function runsShort(stats: VariantStats, minRuns: number, role: string): string | undefined {
  return stats.n < minRuns
    ? `${role} ${stats.variant} has ${stats.n} run${
      stats.n === 1 ? "" : "s"
    }, fewer than min_runs = ${minRuns}`
    : undefined;
}

function evaluateRule(
  rule: ProtocolRule,
  baseline: VariantStats,
  candidate: VariantStats,
  settings: {
    alpha: number;
    minRuns: number;
    family: VariantStats[];
    adjust: NonNullable<ComparePairOptions["adjust"]>;
    generalize: NonNullable<ComparePairOptions["generalize"]>;
  },
): RuleOutcome {
  const metric = rule.metric;
  const goal = OBJECTIVE_METRICS[metric]!;
  const comparative = rule.expect !== undefined;
  const candidateValue = candidate.metric(metric);
  const baselineValue = comparative ? baseline.metric(metric) : null;
  const show = (value: number | null) => formatMetricValue(metric, value);
  const outcome = (
    status: RuleStatus,
    detail: string,
    pValue: number | null = null,
    test: PairTest | null = null,
  ) =>
    new RuleOutcome({
      test,
      id: rule.id,
      metric,
      status,
      baselineValue,
      candidateValue,
      pValue,
      detail,
      rule,
    });

  const short = [
    comparative ? runsShort(baseline, settings.minRuns, "baseline") : undefined,
    runsShort(candidate, settings.minRuns, "candidate"),
  ].filter((text): text is string => text !== undefined);
  if (short.length > 0) return outcome("unknown", short.join("; "));
  const missing = [
    comparative && baselineValue === null ? `baseline ${baseline.variant}` : undefined,
    candidateValue === null ? `candidate ${candidate.variant}` : undefined,
  ].filter((text): text is string => text !== undefined);
  if (missing.length > 0) {
    return outcome("unknown", `${metric} of ${missing.join(" and ")} is unknown`);
  }
  const c = candidateValue!;
  const values = comparative
    ? `${candidate.variant} ${show(c)} vs ${baseline.variant} ${show(baselineValue)}`
    : `${candidate.variant} ${show(c)}`;

  if (!comparative) {
    const bounds = [
      rule.min !== undefined ? `min ${show(rule.min)}` : undefined,
      rule.max !== undefined ? `max ${show(rule.max)}` : undefined,
    ].filter((text) => text !== undefined).join(", ");
    const within = (rule.min === undefined || c >= rule.min - EPSILON) &&
      (rule.max === undefined || c <= rule.max + EPSILON);
    return outcome(
      within ? "pass" : "fail",
      `${metric}: ${values}, ${within ? "within" : "outside"} ${bounds}`,
    );
  }

  const b = baselineValue!;
  const tolerance = rule.tolerance ?? 0;
  // How much better the candidate is, in the metric's units (negative: worse).
  const gain = goal === "max" ? c - b : b - c;
  const slack = tolerance > 0 ? ` (tolerance ${show(tolerance)})` : "";
  if (rule.expect === "not_worse") {
    const ok = gain >= -tolerance - EPSILON;
    return outcome(
      ok ? "pass" : "fail",
      `${metric}: ${values}, ${ok ? "not worse" : "worse"}${slack}`,
    );
  }
  if (metric === "pass_rate") {
    // A rule without `test` keeps the meaning it had before paired tests existed.
    const options: ComparePairOptions = {
      minN: settings.minRuns,
      alpha: settings.alpha,
      test: rule.test ?? "fisher",
      generalize: settings.generalize,
    };
    // The family is the one pre-registered pair unless the protocol sets adjust: then every
    // variant against the baseline, as compare reports them.
    const family = settings.family.filter((stats) => stats !== baseline);
    let pair = comparePair(baseline, candidate, options);
    if (settings.adjust !== "none" && family.length > 1) {
      const deciding = family.map((stats) => comparePair(baseline, stats, options).decidingPValue);
      const adjusted = adjustPValues(deciding, { method: settings.adjust });
      pair = comparePair(baseline, candidate, {
        ...options,
        adjust: settings.adjust,
        adjustedPValue: adjusted[family.indexOf(candidate)]!,
        family: family.length,
      });
    }
    const ok = pair.distinguishable && gain > tolerance + EPSILON;
    const why = ok ? "better" : pair.distinguishable && gain <= 0 ? "worse" : "not shown better";
    const paired = pair.test !== "fisher" && pair.pairedPValue !== null;
    const adjusted = pair.adjust === "none"
      ? ""
      : `, ${pair.adjust === "holm" ? "Holm" : "BH"}-adjusted p = ${
        formatPValue(pair.adjustedPValue!)
      } over ${family.length} pairs`;
    const evidence = paired
      ? `${pair.test} p = ${formatPValue(pair.pairedPValue!)} over ${pair.pairedTasks} task${
        pair.pairedTasks === 1 ? "" : "s"
      }${adjusted}, alpha = ${settings.alpha}; pooled Fisher p = ${formatPValue(pair.pValue)}`
      : `p = ${formatPValue(pair.pValue)}${adjusted}, alpha = ${settings.alpha}, intervals ${
        pair.overlap ? "overlap" : "do not overlap"
      }${rule.test === undefined || rule.test === "fisher" ? "" : ` (${pair.testReason})`}`;
    return outcome(
      ok ? "pass" : "fail",
      `${metric}: ${values}, ${why}${slack}; ${evidence}`,
      paired ? pair.pairedPValue : pair.pValue,
      pair.test,
    );
  }
  const ok = gain > tolerance + EPSILON;
  return outcome(
    ok ? "pass" : "fail",
    `${metric}: ${values}, ${ok ? "better" : "not better"}${slack}`,
  );
}

/**
 * Evaluate decision rules declared before the runs.
 *
 * Rules: `expect: candidate_better` (for `pass_rate`: distinguishable at the
 * protocol's `alpha` by the rule's `test` — `fisher`, the default: the
 * pooled Fisher test and the 95% intervals; `paired` or `auto`: as
 * {@linkcode comparePair} decides — and better by more than `tolerance`;
 * for other metrics: better by more than `tolerance`,
 * default 0), `expect: not_worse` (not worse by more than `tolerance`), or
 * `min`/`max` bounds on the candidate's value. `tolerance` is absolute, in
 * the metric's own units. A rule is `unknown`, never a pass, when its metric
 * is unknown or a variant it uses has fewer than `min_runs` runs (default
 * the comparison's `minN`). ProtocolDecision: `adopt` when every rule passes,
 * `reject` when any fails, else `undecided`.
 *
 * @param protocol The protocol as declared (file shape).
 * @param comparison The comparison of the runs, built with the protocol's `k`.
 * @returns The result, with `protocolSha256` = `jsonSha256(protocol)`.
 * @throws {InputError} On unknown keys, variants or metrics, or a comparison built with another k.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, evaluateProtocol, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   ...Array.from({ length: 100 }, (_, i) => new Run("old", "t", i < 50 ? "pass" : "fail")),
 *   ...Array.from({ length: 100 }, (_, i) => new Run("new", "t", i < 90 ? "pass" : "fail")),
 * ];
 * const result = evaluateProtocol({
 *   protocol_version: 1, title: "new prompt", baseline: "old", candidate: "new",
 *   rules: [
 *     { id: "better", metric: "pass_rate", expect: "candidate_better" },
 *     { id: "cost", metric: "cost", max: 0.01 },
 *   ],
 * }, compareRuns(runs));
 * assert.equal(result.rules[0]!.status, "pass");
 * assert.equal(result.rules[1]!.status, "unknown"); // no costs recorded
 * assert.equal(result.decision, "undecided");
 * ```
 */
export function evaluateProtocol(protocol: unknown, comparison: Comparison): ProtocolResult {
  const declared = protocolFromJson(protocol);
  const protocolSha256 = jsonSha256(protocol);
  const baseline = comparison.variant(declared.baseline, "baseline");
  const candidate = comparison.variant(declared.candidate, "candidate");
  const k = declared.k ?? 1;
  if (k !== comparison.k && declared.rules.some((rule) => rule.metric === "pass_hat_k")) {
    throw new InputError(
      `the protocol says k = ${k} but the comparison was built with k = ${comparison.k}; build it with compareRuns(runs, { k: ${k} })`,
      "k",
    );
  }
  const errors = declared.errors ?? "fail";
  if (errors !== comparison.errors) {
    throw new InputError(
      `the protocol says errors = ${errors} but the comparison was built with errors = ${comparison.errors}; build it with compareRuns(runs, { errors: "${errors}" })`,
      "errors",
    );
  }
  const alpha = declared.alpha ?? 0.05;
  const minRuns = declared.min_runs ?? comparison.minN;
  const settings = {
    alpha,
    minRuns,
    family: comparison.variants,
    adjust: declared.adjust ?? "none",
    generalize: declared.generalize ?? "runs",
  };
  const rules = declared.rules.map((rule) => evaluateRule(rule, baseline, candidate, settings));
  const decision: ProtocolDecision = rules.some((rule) => rule.status === "fail")
    ? "reject"
    : rules.some((rule) => rule.status === "unknown")
    ? "undecided"
    : "adopt";
  return new ProtocolResult({
    title: declared.title ?? "",
    protocolSha256,
    baseline: declared.baseline,
    candidate: declared.candidate,
    rules,
    decision,
    alpha,
    minRuns,
    k,
  });
}
