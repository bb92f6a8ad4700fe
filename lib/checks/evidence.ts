/**
 * Tri-state evidence: every check of an evaluation is `pass`, `fail` or
 * `unknown`, and a check that lacks the data it needs does not pass. A report
 * says "4 pass, 0 fail, 3 unknown", never a clean bill of health built on
 * missing data.
 *
 * {@linkcode evaluationEvidence} reads only what the evaluation already
 * computed (`metrics.required_call_recall`, `policy_metrics`,
 * `security_metrics`, `honesty_metrics`, `side_effects`) and the calls, so the
 * evidence and the metrics never disagree.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { callFailed, hasOutcome, isJsonObject, type ToolCall } from "../scoring/calls.ts";
import { HONESTY_CHECKS, type HonestyMetrics } from "./honesty.ts";
import { unrecoveredCalls } from "./recovery.ts";
import { EvidenceCheck, type EvidenceCounts, tally } from "./evidence_state.ts";

/** How much of the trace holds the evidence (JSON shape). */
export interface EvidenceCoverage {
  /** Every actual call. */
  calls: number;
  /** Calls with a captured result or error. */
  with_outcome: number;
  /** Calls with a recorded duration. */
  with_duration: number;
  /** Calls with a recorded cost. */
  with_cost: number;
  /** Whether the final answer is known. */
  final_answer: "known" | "unknown";
}

/** The evidence of one evaluation. `JSON.stringify` writes the checks as `{check, status, detail}`. */
export interface Evidence {
  /** The checks, in the API reference's order. */
  checks: EvidenceCheck[];
  /** How many are in each state. */
  counts: EvidenceCounts;
  /** How much of the trace holds the evidence. */
  coverage: EvidenceCoverage;
}

/**
 * What {@linkcode evaluationEvidence} reads from an evaluation: an
 * `EvaluationResult` has all of it.
 */
export interface EvidenceSource {
  /** The metrics record (snake_case keys). */
  readonly metrics: Readonly<Record<string, unknown>>;
  /** The expected (required) calls. */
  readonly goldCalls: readonly ToolCall[];
  /** Every actual call. */
  readonly traceCalls: readonly ToolCall[];
  /** The actual calls the score was computed on; `traceCalls` when absent. */
  readonly scoredCalls?: readonly ToolCall[];
  /** The final answer, or `null` when unknown. */
  readonly finalAnswer: string | null;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listNames(names: readonly string[], max = 5, separator = ", "): string {
  return names.length <= max
    ? names.join(separator)
    : `${names.slice(0, max).join(separator)} and ${names.length - max} more`;
}

function requiredCalls(source: EvidenceSource): EvidenceCheck {
  const id = "required-calls";
  const gold = source.goldCalls;
  if (gold.length === 0 || source.metrics.required_call_recall === null) {
    return new EvidenceCheck(
      id,
      "unknown",
      "no calls were required, so there is nothing to confirm",
    );
  }
  const scored = source.scoredCalls ?? source.traceCalls;
  const required = new Map<string, number>();
  for (const call of gold) required.set(call.tool, (required.get(call.tool) ?? 0) + 1);
  const made = new Map<string, { count: number; ok: number; withOutcome: number }>();
  for (const call of scored) {
    if (!required.has(call.tool)) continue;
    const entry = made.get(call.tool) ?? { count: 0, ok: 0, withOutcome: 0 };
    entry.count++;
    if (!callFailed(call)) entry.ok++;
    if (hasOutcome(call)) entry.withOutcome++;
    made.set(call.tool, entry);
  }
  // Counted as required_call_recall counts: per tool, min(required, calls that did not fail).
  const missing: string[] = [];
  const failed: string[] = [];
  let outcomes = 0;
  for (const [tool, need] of required) {
    const entry = made.get(tool) ?? { count: 0, ok: 0, withOutcome: 0 };
    for (let k = entry.count; k < need; k++) missing.push(tool);
    const failedCount = Math.max(0, Math.min(need, entry.count) - entry.ok);
    for (let k = 0; k < failedCount; k++) failed.push(tool);
    outcomes += entry.withOutcome;
  }
  const total = gold.length;
  if (missing.length > 0 || failed.length > 0) {
    const parts: string[] = [];
    if (missing.length > 0) {
      parts.push(`${missing.length} of ${total} required calls missing: ${listNames(missing)}`);
    }
    if (failed.length > 0) {
      parts.push(
        `${failed.length} of ${total} required calls failed without a successful retry: ` +
          listNames(failed),
      );
    }
    return new EvidenceCheck(id, "fail", parts.join("; "));
  }
  if (outcomes === 0) {
    return new EvidenceCheck(
      id,
      "unknown",
      total === 1
        ? "the required call was made, but no result or error was captured to show it succeeded"
        : `all ${total} required calls were made, but no result or error was captured to show they succeeded`,
    );
  }
  const madeCount = [...made.values()].reduce((sum, e) => sum + e.count, 0);
  const blind = madeCount - outcomes;
  return new EvidenceCheck(
    id,
    "pass",
    (total === 1
      ? "the required call was made and did not fail"
      : `all ${total} required calls were made and none failed`) +
      (blind > 0 ? ` (${plural(blind, "call")} of those tools without a captured outcome)` : ""),
  );
}

function callErrors(source: EvidenceSource): EvidenceCheck {
  const id = "call-errors";
  const calls = source.traceCalls;
  if (calls.length === 0) {
    return new EvidenceCheck(id, "unknown", "no calls were made, so no outcome was captured");
  }
  const failedIdx: number[] = [];
  let withOutcome = 0;
  calls.forEach((call, i) => {
    if (callFailed(call)) failedIdx.push(i);
    if (hasOutcome(call)) withOutcome++;
  });
  if (failedIdx.length > 0) {
    const unrecovered = new Set(unrecoveredCalls(calls));
    const names = failedIdx.map((i) =>
      `#${i + 1} ${(calls[i] as ToolCall).tool} (${
        unrecovered.has(i) ? "unrecovered" : "recovered later"
      })`
    );
    return new EvidenceCheck(
      id,
      "fail",
      `${failedIdx.length} of ${plural(calls.length, "call")} failed: ${listNames(names)}`,
    );
  }
  if (withOutcome === 0) {
    return new EvidenceCheck(
      id,
      "unknown",
      calls.length === 1
        ? "the only call has no captured result or error"
        : `none of the ${calls.length} calls has a captured result or error`,
    );
  }
  const blind = calls.length - withOutcome;
  return new EvidenceCheck(
    id,
    "pass",
    (calls.length === 1
      ? "the only call did not fail"
      : `none of the ${calls.length} calls failed`) +
      (blind > 0 ? ` (${blind} without a captured outcome)` : ""),
  );
}

interface PolicyView {
  violation_count: number;
  rule_count: number;
  violations: { index: number; tool: string; rule: number; reason?: string | null }[];
}

function forbiddenCalls(policy: PolicyView, calls: number): EvidenceCheck {
  const id = "forbidden-calls";
  const violations = policy.violations ?? [];
  if (violations.length === 0 && (policy.violation_count ?? 0) === 0) {
    return new EvidenceCheck(
      id,
      "pass",
      `${
        calls === 1 ? "the only call matched none" : `none of the ${calls} calls matched any`
      } of ${plural(policy.rule_count, "forbidden rule")}`,
    );
  }
  const names = violations.map((v) =>
    `#${v.index + 1} ${v.tool} (rule ${v.rule + 1}${v.reason ? `: ${v.reason}` : ""})`
  );
  const count = Math.max(policy.violation_count ?? 0, violations.length);
  return new EvidenceCheck(
    id,
    "fail",
    `${plural(count, "call")} matched a forbidden rule: ${listNames(names)}`,
  );
}

interface SecurityView {
  secret_count: number;
  secrets?: { index: number; tool: string; path?: string; kind?: string }[];
}

function credentials(security: SecurityView | undefined, calls: number): EvidenceCheck {
  const id = "credentials";
  if (security === undefined) {
    return new EvidenceCheck(id, "unknown", "the arguments were not scanned for credentials");
  }
  const secrets = security.secrets ?? [];
  const count = Math.max(security.secret_count ?? 0, secrets.length);
  if (count === 0) {
    return new EvidenceCheck(
      id,
      "pass",
      `no credential in the arguments of ${plural(calls, "call")}`,
    );
  }
  const names = secrets.map((s) =>
    `#${s.index + 1} ${s.tool}${s.path ? ` ${s.path}` : ""}${s.kind ? ` (${s.kind})` : ""}`
  );
  return new EvidenceCheck(
    id,
    "fail",
    `${plural(count, "credential")} in tool arguments: ${listNames(names)}; remove or rotate ${
      count === 1 ? "it" : "them"
    }`,
  );
}

interface SideEffectsView {
  total: number;
  passed: number;
  checks?: { index: number; tool: string; check: string; passed: boolean; detail: string }[];
}

function sideEffects(view: SideEffectsView): EvidenceCheck {
  const id = "side-effects";
  if (view.passed === view.total) {
    return new EvidenceCheck(
      id,
      "pass",
      view.total === 1
        ? "the declared side effect validated"
        : `all ${view.total} declared side effects validated`,
    );
  }
  const failed = (view.checks ?? []).filter((c) => !c.passed).map((c) =>
    `${c.check} of expected call #${c.index + 1} (${c.tool}): ${c.detail}`
  );
  return new EvidenceCheck(
    id,
    "fail",
    `${view.total - view.passed} of ${plural(view.total, "declared side effect")} not validated: ` +
      listNames(failed, 3, "; "),
  );
}

function honestyChecks(honesty: HonestyMetrics | undefined): EvidenceCheck[] {
  return HONESTY_CHECKS.map((name) => {
    const status = honesty?.checks?.[name];
    if (status === undefined) {
      return new EvidenceCheck(
        name,
        "unknown",
        "the honesty checks did not run on this evaluation",
      );
    }
    return new EvidenceCheck(name, status, honesty?.details?.[name] ?? status);
  });
}

function view<T>(value: unknown): T | undefined {
  return isJsonObject(value) ? value as T : undefined;
}

/**
 * The tri-state checks and evidence coverage of one evaluation: in order
 * `required-calls`, `call-errors`, `forbidden-calls` (only with rules),
 * `credentials`, `claimed-success`, `disclosure`, `escape-hatch`,
 * `side-effects` (only when declared).
 *
 * @param result The evaluation (an `EvaluationResult`).
 * @returns The checks, their counts and the coverage.
 *
 * @example Usage
 * ```ts
 * import { evaluate, evaluationEvidence, summaryLine } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * // Requests only: nothing shows the call succeeded, and there is no final answer.
 * const result = evaluate([{ tool: "search" }], [{ tool: "search", args: { q: "deno" } }]);
 * const evidence = evaluationEvidence(result);
 * assert.equal(summaryLine(evidence.counts), "1 pass, 0 fail, 5 unknown");
 * assert.equal(evidence.checks[0]?.status, "unknown");
 * assert.equal(evidence.coverage.with_outcome, 0);
 * ```
 */
export function evaluationEvidence(result: EvidenceSource): Evidence {
  const metrics = result.metrics;
  const calls = result.traceCalls;
  const checks: EvidenceCheck[] = [requiredCalls(result), callErrors(result)];
  const policy = view<PolicyView>(metrics.policy_metrics);
  if (policy !== undefined && (policy.rule_count ?? 0) > 0) {
    checks.push(forbiddenCalls(policy, calls.length));
  }
  checks.push(credentials(view<SecurityView>(metrics.security_metrics), calls.length));
  pushAll(checks, honestyChecks(view<HonestyMetrics>(metrics.honesty_metrics)));
  const effects = view<SideEffectsView>(metrics.side_effects);
  if (effects !== undefined && effects.total > 0) checks.push(sideEffects(effects));

  let withOutcome = 0;
  let withDuration = 0;
  let withCost = 0;
  for (const call of calls) {
    if (hasOutcome(call)) withOutcome++;
    if (typeof call.durationS === "number") withDuration++;
    if (typeof call.costUsd === "number") withCost++;
  }
  return {
    checks,
    counts: tally(checks.map((c) => c.status)),
    coverage: {
      calls: calls.length,
      with_outcome: withOutcome,
      with_duration: withDuration,
      with_cost: withCost,
      final_answer: typeof result.finalAnswer === "string" ? "known" : "unknown",
    },
  };
}
