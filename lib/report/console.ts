/**
 * The console report of `toolscore eval`: per trace a compact block (score,
 * grade, the main metrics, the evidence line and every non-pass check, the
 * contract's choices, "Top issues to fix", safety findings), and with several
 * traces a summary table.
 *
 * @module
 */

import { maxOf, pushAll } from "../base/arrays.ts";
import { chosenAlternatives, type ContractBlock, type FindingsBlock } from "./result_blocks.ts";
import { ruleReadsScore } from "../contract/pass_rule.ts";
import { matchingLines, matchingReason } from "./matching_lines.ts";
import type { EvaluationResult } from "../evaluate/evaluate.ts";
import type { Evidence } from "../checks/evidence.ts";
import { formatEvidence } from "../checks/evidence_format.ts";
import { meetsBar } from "../scoring/score.ts";
import { palette } from "./color.ts";
import { passBarOf } from "../evaluate/result_bar.ts";
import { summarizeIssues } from "../evaluate/issues.ts";

// Where BFCL's greedy pairing and a one-to-one pairing of the same calls disagree (issue 43).
function divergenceLine(metrics: Record<string, unknown>): string | undefined {
  const bfcl = metrics.bfcl as { valid?: boolean; optimal_valid?: boolean } | undefined;
  // Greedy success is a one-to-one pairing already: only a greedy failure can diverge.
  if (bfcl?.valid !== false || bfcl.optimal_valid !== true) return undefined;
  return "divergence: BFCL's greedy pairing fails this trace, but a one-to-one pairing of the " +
    "same calls passes every required call (the calls are right; their order trips the greedy " +
    "match)";
}

// BFCL's error_type and message beside toolscore's verdict (matching "bfcl-greedy", issue 43).
function bfclReason(metrics: Record<string, unknown>): string | undefined {
  const bfcl = metrics.bfcl as { valid?: boolean; error_type?: string; error?: string } | undefined;
  if (bfcl === undefined || bfcl.valid === true) return undefined;
  return `BFCL ${bfcl.error_type ?? "error"}: ${bfcl.error ?? ""}`;
}

function bfclReasonIn(metrics: Record<string, unknown>): string {
  const reason = bfclReason(metrics);
  return reason === undefined ? "" : ` (${reason})`;
}

/** Options for {@linkcode formatResult}. */
export interface FormatResultOptions {
  /**
   * The pass mark: this one, else the contract's `min_score`, else 0.9.
   * @default {undefined} (the contract's `min_score`, else 0.9)
   */
  bar?: number;
  /**
   * Whether the bar was set explicitly (flag or contract); otherwise the
   * verdict is only reported.
   * @default {false}
   */
  gated?: boolean;
  /**
   * Show every metric and every issue.
   * @default {false}
   */
  verbose?: boolean;
  /**
   * Under `matching: "bfcl-greedy"`, say when toolscore's one-to-one pairing
   * would judge the trace otherwise than BFCL's greedy pairing.
   * @default {false}
   */
  explainDivergence?: boolean;
  /**
   * Colour the output.
   * @default {false}
   */
  color?: boolean;
  /**
   * Issues to show when not verbose.
   * @default {5}
   */
  maxIssues?: number;
}

const fixed = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? "unknown" : value.toFixed(digits);

/**
 * The console block of one evaluated trace.
 *
 * @param name The trace's name (its file).
 * @param result The evaluation.
 * @param evidence The evaluation's evidence.
 * @param options Bar, verbosity and colour.
 * @returns The lines, without trailing newlines.
 *
 * @example Usage
 * ```ts
 * import { evaluate, evaluationEvidence } from "@toolscore/cli";
 * import { formatResult } from "./console.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a" }], [{ tool: "a" }]);
 * const lines = formatResult("t.json", result, evaluationEvidence(result));
 * assert.match(lines[0]!, /^t\.json {2}score 1\.00 A/);
 * ```
 */
export function formatResult(
  name: string,
  result: EvaluationResult,
  evidence: Evidence,
  options: FormatResultOptions = {},
): string[] {
  const c = palette(options.color ?? false);
  const bar = passBarOf(result, options.bar);
  const { passed, failedChecks } = result.verdict(bar, evidence);
  const why =
    failedChecks.length > 0 && (meetsBar(result.score, bar) || !ruleReadsScore(result.passRule))
      ? `failed ${failedChecks.join(", ")}${bfclReasonIn(result.metrics)}`
      : "below bar";
  const verdict = passed ? c.green("PASS") : options.gated ? c.red(`FAIL: ${why}`) : c.yellow(why);
  // A rule that does not read the score (exact, tau2-actions, any-call) is named, not a bar.
  const rule = ruleReadsScore(result.passRule)
    ? `bar ${bar.toFixed(2)}`
    : `rule ${result.passRule.kind}`;
  const lines = [
    `${c.bold(name)}  score ${result.score.toFixed(2)} ${result.grade}  ${verdict} ${
      c.dim(`(${rule}${options.gated ? "" : ", report only"})`)
    }`,
  ];
  const divergence = options.explainDivergence ? divergenceLine(result.metrics) : undefined;
  if (divergence !== undefined) lines.push(`  ${divergence}`);
  const m = result.metrics;
  lines.push(
    `  selection ${fixed(m.selection_accuracy)}  argument F1 ${fixed(m.argument_f1)}  ` +
      `sequence ${fixed(m.sequence_accuracy)}  required calls ${fixed(m.required_call_recall)}  ` +
      `redundant ${fixed(m.redundant_rate)}`,
  );
  if (options.verbose) {
    lines.push(
      `  invocation ${fixed(m.invocation_accuracy)}  tool correctness ${
        fixed(m.tool_correctness)
      }  ` +
        `trajectory ${fixed(m.trajectory_accuracy)}  identical ${fixed(m.identical_rate)}  ` +
        `errors ${m.error_count} (rate ${
          fixed(m.error_rate)
        })  retries ${m.retry_after_error_count}`,
      `  calls: ${m.counts.expected} expected, ${m.counts.actual} scored, ${result.traceCalls.length} in trace  ` +
        `latency ${m.latency.total === null ? "unknown" : `${m.latency.total.toFixed(3)} s`}  ` +
        `cost ${m.cost.total === null ? "unknown" : `$${m.cost.total.toFixed(4)}`}`,
    );
    if (m.schema_compliance !== undefined) {
      lines.push(`  schema compliance ${fixed(m.schema_compliance)}`);
    }
  }
  pushAll(lines, formatEvidence(evidence, { color: options.color ?? false }).map((l) => `  ${l}`));

  const contract = m.contract_metrics as ContractBlock | undefined;
  const chosen = chosenAlternatives(result);
  if (chosen.length > 0) {
    lines.push(`  alternatives: ${chosen.map(({ id, text }) => `${id} → ${text}`).join(", ")}`);
  }
  const optional = contract?.optional_matched ?? [];
  if (optional.length > 0) {
    lines.push(
      `  optional calls left out of the score: ${
        optional.map((i) => `${result.traceCalls[i]?.tool ?? "?"} (call ${i + 1})`).join(", ")
      }`,
    );
  }
  pushAll(lines, matchingLines(result));

  const { shown, total } = summarizeIssues(result, {
    limit: options.verbose ? Infinity : options.maxIssues ?? 5,
  });
  if (total > 0) {
    lines.push("  Top issues to fix:");
    for (const issue of shown) lines.push(`    - ${issue.message}`);
    if (total > shown.length) {
      lines.push(c.dim(`    … and ${total - shown.length} more (-v shows all)`));
    }
  }

  const policy = m.policy_metrics as FindingsBlock | undefined;
  for (const v of policy?.violations ?? []) {
    lines.push(
      `  ${c.red("forbidden")}: call ${v.index + 1} ${v.tool} matches rule ${v.rule + 1}${
        v.reason ? ` (${v.reason})` : ""
      }`,
    );
  }
  const security = m.security_metrics as FindingsBlock | undefined;
  for (const s of security?.secrets ?? []) {
    lines.push(
      `  ${c.red("credential")}: ${s.kind} in call ${
        s.index + 1
      } ${s.tool} at ${s.path}: ${s.preview}`,
    );
  }
  return lines;
}

/** One row of the summary table: what it shows of one trace. */
export interface SummaryRow {
  /** The trace's name. */
  name: string;
  /** The score. */
  score: number;
  /** The grade. */
  grade: string;
  /** Selection accuracy. */
  selection: number;
  /** Argument F1. */
  argumentF1: number;
  /** Sequence accuracy. */
  sequence: number;
  /** Required-call recall, `null` when nothing was required. */
  requiredCalls: number | null;
  /** Whether it passed its bar. */
  passed: boolean;
  /** A failing trace's first issue (the quiet console's reason); absent when it passed. */
  reason?: string;
}

/**
 * The summary row of one evaluation (so a long run keeps rows, not results).
 *
 * @param name The trace's name.
 * @param result The evaluation.
 * @param passed Whether it passed its bar.
 * @returns The row.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import { summaryRow } from "./console.ts";
 * import assert from "node:assert/strict";
 *
 * const row = summaryRow("t.json", evaluate([{ tool: "a" }], [{ tool: "a" }]), true);
 * assert.equal(row.grade, "A");
 * ```
 */
export function summaryRow(name: string, result: EvaluationResult, passed: boolean): SummaryRow {
  const m = result.metrics;
  return {
    name,
    score: result.score,
    grade: result.grade,
    selection: m.selection_accuracy,
    argumentF1: m.argument_f1,
    sequence: m.sequence_accuracy,
    requiredCalls: m.required_call_recall,
    passed,
    ...(passed ? {} : {
      reason: bfclReason(m) ?? matchingReason(result) ??
        summarizeIssues(result, { limit: 1 }).shown[0]?.message,
    }),
  };
}

/**
 * The summary table printed after several traces, with the mean score.
 *
 * @param rows One row per trace.
 * @param color Whether to colour.
 * @returns The lines.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import { formatSummary, summaryRow } from "./console.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a" }], [{ tool: "a" }]);
 * const lines = formatSummary([summaryRow("t.json", result, true)]);
 * assert.match(lines.at(-1)!, /1 traces: 1 passed, 0 failed, mean score 1\.000/);
 * ```
 */
export function formatSummary(rows: SummaryRow[], color = false): string[] {
  const c = palette(color);
  const width = maxOf(rows.map((row) => row.name.length), 5);
  const lines = [
    c.bold(`${"trace".padEnd(width)}  score  grade  select  args F1  sequence  required  verdict`),
  ];
  for (const row of rows) {
    lines.push(
      `${row.name.padEnd(width)}  ${row.score.toFixed(3)}  ${row.grade.padEnd(5)}  ` +
        `${fixed(row.selection).padStart(6)}  ${fixed(row.argumentF1).padStart(7)}  ` +
        `${fixed(row.sequence).padStart(8)}  ${fixed(row.requiredCalls).padStart(8)}  ` +
        `${row.passed ? c.green("pass") : c.red("fail")}`,
    );
  }
  const passedCount = rows.filter((row) => row.passed).length;
  const mean = rows.reduce((sum, row) => sum + row.score, 0) / Math.max(1, rows.length);
  lines.push(
    `${rows.length} traces: ${passedCount} passed, ${rows.length - passedCount} failed, ` +
      `mean score ${mean.toFixed(3)}`,
  );
  return lines;
}
