/**
 * `eval` as one self-contained HTML page: the run's summary, a sortable
 * table of every trace with a filter for the failing ones, then per trace
 * its section ({@linkcode traceSection}): figures, evidence, issues,
 * findings, the contract's choices and the calls side by side with their
 * pairing.
 *
 * Sections are written for at most {@linkcode HTML_SECTIONS} traces (failing
 * ones first) so a huge run still gives a page a browser opens quickly; the
 * table always lists every trace, and the page says how many sections were
 * left out.
 *
 * Issue 33: the table and the sections list failing traces first, the worst
 * (lowest score) first, then passing ones in run order; a column title still
 * sorts and the filter still hides passing rows. Each failing verdict says
 * why: its gate (`failed checks` or `below bar 0.90`) and the first reason
 * (the first failed check of the passing rule with its detail, else the first
 * issue to fix).
 *
 * @module
 */

import { summaryLine } from "../../checks/evidence_state.ts";
import { escapeHtml } from "../escape.ts";
import { type EvalRunInfo, gates, runTotals, type TraceRecord } from "../trace_record.ts";
import { traceSection, verdictReason } from "./eval_trace.ts";
import { htmlPage, PAGE_SCRIPT } from "./page.ts";

// Runs this short show every trace's section open.
const OPEN_ALL = 10;

/** The most trace sections one page holds. */
export const HTML_SECTIONS = 2_000;

const fixed = (value: number | null, digits = 2) =>
  value === null ? "unknown" : value.toFixed(digits);
const num = (value: number | null) => value === null ? -1 : value;

/** Failing traces first, the lowest score first; then passing ones, in run order. */
function failuresFirst(records: readonly TraceRecord[]): number[] {
  const order = records.map((_, i) => i);
  return order.sort((a, b) => {
    const x = records[a]!, y = records[b]!;
    return Number(x.passed) - Number(y.passed) || (x.passed ? 0 : x.score - y.score) || a - b;
  });
}

function tableRow(record: TraceRecord, index: number, gated: boolean, linked: boolean): string {
  const m = record.metrics;
  const status = record.passed ? "pass" : "fail";
  const name = linked
    ? `<a href="#trace-${index}">${escapeHtml(record.name)}</a>`
    : escapeHtml(record.name);
  const e = record.evidence.counts;
  return `<tr class="is-${status}"><th scope="row">${name}</th><td class="num" data-v="${record.score}">${
    record.score.toFixed(3)
  }</td><td>${record.grade}</td><td class="num" data-v="${m.selection}">${
    fixed(m.selection)
  }</td><td class="num" data-v="${m.argumentF1}">${
    fixed(m.argumentF1)
  }</td><td class="num" data-v="${m.sequence}">${fixed(m.sequence)}</td><td class="num" data-v="${
    num(m.requiredCalls)
  }">${fixed(m.requiredCalls)}</td><td data-v="${e.fail * 1e6 + e.unknown}">${
    summaryLine(e)
  }</td><td data-v="${record.passed ? 1 : 0}"><span class="badge ${status}">${
    record.passed ? "pass" : gated ? "FAIL" : "would fail"
  }</span>${
    record.passed ? "" : ` <span class="reason">${escapeHtml(verdictReason(record))}</span>`
  }</td></tr>`;
}

const COLUMNS: [string, boolean][] = [
  ["score", true],
  ["grade", false],
  ["selection", true],
  ["args F1", true],
  ["sequence", true],
  ["required", true],
  ["evidence", false],
  ["verdict", false],
];

/**
 * An `eval` run as one HTML page.
 *
 * @param records The traces, in run order.
 * @param info The gold file, the bar and where it came from.
 * @returns The HTML document.
 *
 * @example Usage
 * ```ts
 * import { evalHtml } from "./eval.ts";
 * import { traceRecord } from "../trace_record.ts";
 * import { evaluate } from "../../evaluate/evaluate.ts";
 * import { evaluationEvidence } from "../../checks/evidence.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a" }], [{ tool: "b" }]);
 * const record = traceRecord("<t>.json", result, evaluationEvidence(result), 0.9, { detail: true });
 * const html = evalHtml([record], { gold: "g.json", bar: 0.9, barSource: "flag", version: "0.1.0" });
 * assert.match(html, /1 trace: 0 passed, 1 failed/);
 * assert.match(html, /&lt;t&gt;\.json/);
 * assert.doesNotMatch(html, /https?:|src=/);
 * ```
 */
export function evalHtml(records: readonly TraceRecord[], info: EvalRunInfo): string {
  const totals = runTotals(records);
  const gated = gates(info);
  const unreadable = info.unreadable ?? [];
  const failing = totals.failed > 0 || unreadable.length > 0;
  const verdict = unreadable.length > 0 || (gated && failing)
    ? "FAIL"
    : gated
    ? "PASS"
    : "report only";
  const status = unreadable.length > 0 || (gated && failing) ? "fail" : gated ? "pass" : "unknown";
  // Issue 32: files that hold tool calls but could not be read; their outcome is unknown.
  const unread = unreadable.length === 0
    ? ""
    : `<p class="summary">Could not be read (${unreadable.length}; outcome unknown, exit 2):</p>
<ul>${
      unreadable.map((f) => `<li>${escapeHtml(f.name)}: ${escapeHtml(f.reason)}</li>`).join("")
    }</ul>
`;
  // Rows and sections: failing traces first (worst first), then passing, sections up to the limit.
  const order = failuresFirst(records);
  const sectioned = new Set(order.slice(0, HTML_SECTIONS));
  const rows = order.map((i) => tableRow(records[i]!, i, gated, sectioned.has(i)));
  const heads = COLUMNS.map(([title, numeric]) =>
    `<th scope="col"${numeric ? ' class="num"' : ""}><button type="button">${title}</button></th>`
  );
  const sections = [...sectioned].map((i) =>
    // A short run opens every section; a long one only the failing ones.
    traceSection(records[i]!, i, gated, !records[i]!.passed || records.length <= OPEN_ALL)
  );
  const left = records.length - sectioned.size;
  const body = `<h1>toolscore eval <span class="badge ${status}">${verdict}</span></h1>
<p class="summary">${totals.count} ${
    totals.count === 1 ? "trace" : "traces"
  }: ${totals.passed} passed, ${totals.failed} failed;
mean score ${fixed(totals.meanScore, 3)}; bar ${info.bar.toFixed(2)} (${
    info.barSource === "default"
      ? "default, report only"
      : `from the ${info.barSource === "flag" ? "command line" : "contract"}`
  }).</p>
<p>Evidence over all traces: ${
    summaryLine(totals.evidence)
  } <span class="muted">(a check without the data it needs is unknown, never a pass)</span></p>
${unread}<p class="muted">Gold: ${escapeHtml(info.gold)} · toolscore ${escapeHtml(info.version)}</p>
<div class="controls"><label><input type="checkbox" id="only-failing"> Show only failing traces</label>
<span id="filter-status" role="status" data-on="showing the ${totals.failed} failing traces" data-off="showing all ${totals.count} traces"></span></div>
<table class="sortable" id="summary-table">
<caption>Traces, failing ones first, the worst first (select a column title to sort)</caption>
<thead><tr><th scope="col"><button type="button">trace</button></th>${heads.join("")}</tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
<h2>Traces</h2>
${
    left > 0
      ? `<p class="muted">${left} traces (passing ones first) have no section here (the page holds ${HTML_SECTIONS}); their rows are in the table.</p>`
      : ""
  }
${sections.join("\n")}`;
  return htmlPage(`toolscore eval: ${verdict}`, body, { script: PAGE_SCRIPT });
}
