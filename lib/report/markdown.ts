/**
 * `eval` as Markdown, for a pull-request comment or `$GITHUB_STEP_SUMMARY`:
 * a summary line, the evidence line, the score table (failing traces first),
 * per failing trace its evidence, top issues and findings, and the passing
 * traces collapsed in `<details>`. The whole text stays within
 * {@linkcode MARKDOWN_LIMIT} bytes: whole rows and blocks are left out,
 * counted in a closing note, never cut in the middle.
 *
 * Everything that comes from a trace or a file name goes through
 * {@linkcode escapeMarkdown}; the only raw HTML is `<details>`/`<summary>`.
 *
 * @module
 */

import { summaryLine } from "../checks/evidence_state.ts";
import { escapeMarkdown } from "./escape.ts";
import { MARKDOWN_LIMIT, MarkdownBudget } from "./markdown_budget.ts";
import { type EvalRunInfo, gates, runTotals, type TraceRecord } from "./trace_record.ts";

/** Options for the Markdown reports. */
export interface MarkdownOptions {
  /**
   * The byte limit of the whole text.
   * @default {65536}
   */
  limit?: number;
}

const fixed = (value: number | null, digits = 2) =>
  value === null ? "unknown" : value.toFixed(digits);

const BAR_SOURCE = {
  flag: "set on the command line",
  contract: "from the contract",
  default: "default, report only",
};

/** Failing traces first, the lowest score first; passing traces after, in run order. */
function failingFirst(records: readonly TraceRecord[]): TraceRecord[] {
  const failing = records.filter((record) => !record.passed).sort((a, b) => a.score - b.score);
  return [...failing, ...records.filter((record) => record.passed)];
}

function verdictText(record: TraceRecord, gated: boolean): string {
  if (record.passed) return "pass";
  return gated ? `**FAIL** (${record.verdict})` : record.verdict;
}

function row(record: TraceRecord, gated: boolean): string {
  const m = record.metrics;
  return `| ${escapeMarkdown(record.name)} | ${record.score.toFixed(3)} | ${record.grade} | ${
    fixed(m.selection)
  } | ${fixed(m.argumentF1)} | ${fixed(m.sequence)} | ${fixed(m.requiredCalls)} | ${
    summaryLine(record.evidence.counts)
  } | ${verdictText(record, gated)} |`;
}

function failingBlock(record: TraceRecord, gated: boolean): string {
  const lines = [
    `#### ${escapeMarkdown(record.name)}: ${record.score.toFixed(2)} ${record.grade}, ${
      gated ? "FAIL" : "would fail"
    } (${record.verdict}, bar ${record.bar.toFixed(2)})`,
    "",
    `Evidence: ${summaryLine(record.evidence.counts)}`,
  ];
  const open = record.evidence.checks.filter((check) => check.status !== "pass");
  if (open.length > 0) {
    lines.push("");
    for (const check of open) {
      lines.push(
        `- ${check.status} ${escapeMarkdown(check.check)}: ${escapeMarkdown(check.detail)}`,
      );
    }
  }
  if (record.issueTotal > 0) {
    lines.push("", "Top issues to fix:", "");
    for (const issue of record.issues) lines.push(`- ${escapeMarkdown(issue)}`);
    if (record.issueTotal > record.issues.length) {
      lines.push(`- … and ${record.issueTotal - record.issues.length} more`);
    }
  }
  if (record.findings.length > 0) {
    lines.push("", "Findings:", "");
    for (const finding of record.findings) {
      lines.push(
        `- ${finding.severity} ${escapeMarkdown(finding.kind)}: ${escapeMarkdown(finding.message)}`,
      );
    }
  }
  if (record.choices.length > 0) {
    lines.push("", `Contract: ${record.choices.map(escapeMarkdown).join("; ")}`);
  }
  return lines.join("\n");
}

/**
 * An `eval` run as Markdown.
 *
 * @param records The traces, in run order.
 * @param info The gold file, the bar and where it came from.
 * @param options The byte limit.
 * @returns The Markdown text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { evalMarkdown } from "./markdown.ts";
 * import { traceRecord } from "./trace_record.ts";
 * import { evaluate } from "../evaluate/evaluate.ts";
 * import { evaluationEvidence } from "../checks/evidence.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a" }], [{ tool: "b" }]);
 * const record = traceRecord("t.json", result, evaluationEvidence(result), 0.9);
 * const text = evalMarkdown([record], { gold: "g.json", bar: 0.9, barSource: "flag", version: "0.1.0" });
 * assert.match(text, /^### toolscore eval: FAIL/);
 * assert.match(text, /- step 1: expected a, got b/);
 * ```
 */
export function evalMarkdown(
  records: readonly TraceRecord[],
  info: EvalRunInfo,
  options: MarkdownOptions = {},
): string {
  const budget = new MarkdownBudget(options.limit ?? MARKDOWN_LIMIT);
  const totals = runTotals(records);
  const gated = gates(info);
  const unreadable = info.unreadable ?? [];
  const verdict = unreadable.length > 0
    ? "FAIL"
    : !gated
    ? "report only"
    : totals.failed > 0
    ? "FAIL"
    : "PASS";
  budget.block(
    `### toolscore eval: ${verdict}\n\n` +
      `${totals.count} ${
        totals.count === 1 ? "trace" : "traces"
      }: ${totals.passed} passed, ${totals.failed} failed; ` +
      `mean score ${fixed(totals.meanScore, 3)}; bar ${info.bar.toFixed(2)} (${
        BAR_SOURCE[info.barSource]
      }); ` +
      `gold ${escapeMarkdown(info.gold)}\n\n` +
      `Evidence: ${summaryLine(totals.evidence)} (checks over all traces; unknown is not a pass)`,
  );
  if (unreadable.length > 0) {
    // Issue 32: files that hold tool calls but could not be read; their outcome is unknown.
    budget.block(
      `Could not be read (${unreadable.length}; outcome unknown, exit 2):\n\n` +
        unreadable.map((file) => `- ${escapeMarkdown(file.name)}: ${escapeMarkdown(file.reason)}`)
          .join("\n"),
    );
  }
  const ordered = failingFirst(records);
  budget.table(
    [
      "| trace | score | grade | selection | args F1 | sequence | required | evidence | verdict |",
      "| --- | ---: | :---: | ---: | ---: | ---: | ---: | --- | --- |",
    ],
    ordered.map((record) => row(record, gated)),
    "table rows",
    0.4,
  );
  const failing = ordered.filter((record) => !record.passed);
  if (failing.length > 0) {
    budget.block(`Failing traces (${failing.length}):`);
    let i = 0;
    for (; i < failing.length; i++) {
      if (!budget.block(failingBlock(failing[i]!, gated))) break;
    }
    budget.omit("failing-trace sections", failing.length - i);
  }
  const passing = records.filter((record) => record.passed);
  if (passing.length > 0) {
    budget.details(
      `Passing traces (${passing.length})`,
      passing.map((record) =>
        `${escapeMarkdown(record.name)}: ${record.score.toFixed(2)} ${record.grade}, evidence ${
          summaryLine(record.evidence.counts)
        }`
      ),
      "passing traces",
    );
  }
  return budget.text("The HTML and JUnit reports list every trace.");
}
