/**
 * A protocol decision as one self-contained HTML page: the decision, the
 * protocol's sha256, one row per rule (pass, fail or unknown, with both
 * values and the p-value), then the comparison it was decided on
 * ({@linkcode comparisonSections}).
 *
 * Issue 33: a rule that bounds the candidate (`min`/`max`) reads no baseline,
 * so its baseline cell is "—", not "unknown" beside the baseline's known
 * value in the comparison below; `decide` builds that comparison with the
 * pass-rate rule's test, so its pair verdicts and the rules agree.
 *
 * @module
 */

import type { Comparison } from "../../stats/comparison.ts";
import { formatPValue } from "../../stats/format.ts";
import type { ProtocolResult } from "../../stats/protocol_result.ts";
import { formatMetricValue } from "../../stats/format.ts";
import { escapeHtml } from "../escape.ts";
import { comparisonSections } from "./compare.ts";
import { htmlPage } from "./page.ts";

const STATUS_CLASS = { adopt: "pass", reject: "fail", undecided: "unknown" } as const;

/**
 * A protocol decision as one HTML page.
 *
 * @param result The protocol result.
 * @param comparison The comparison it was decided on.
 * @returns The HTML document.
 *
 * @example Usage
 * ```ts
 * import { decideHtml } from "./decide.ts";
 * import { compareRuns } from "../../stats/compare.ts";
 * import { evaluateProtocol } from "../../stats/evaluate_protocol.ts";
 * import { Run } from "../../stats/runs.ts";
 * import assert from "node:assert/strict";
 *
 * const comparison = compareRuns([new Run("a", "t", "pass"), new Run("b", "t", "pass")]);
 * const result = evaluateProtocol({
 *   protocol_version: 1, baseline: "a", candidate: "b",
 *   rules: [{ id: "r1", metric: "pass_rate", expect: "not_worse" }],
 * }, comparison);
 * assert.match(decideHtml(result, comparison), /toolscore decide: <span class="badge unknown">undecided/);
 * ```
 */
export function decideHtml(result: ProtocolResult, comparison: Comparison): string {
  const rows = result.rules.map((rule) =>
    `<tr><td><span class="badge ${rule.status}">${rule.status}</span></td><th scope="row">${
      escapeHtml(rule.id)
    }</th><td>${escapeHtml(rule.metric)}</td><td class="num">${
      // A bound on the candidate reads no baseline: "—", not "unknown" beside its known value.
      rule.rule.expect === undefined
        ? '<span title="this rule bounds the candidate only">—</span>'
        : escapeHtml(formatMetricValue(rule.metric, rule.baselineValue))}</td><td class="num">${
      escapeHtml(formatMetricValue(rule.metric, rule.candidateValue))
    }</td><td class="num">${rule.pValue === null ? "n/a" : formatPValue(rule.pValue)}</td><td>${
      escapeHtml(rule.detail)
    }</td></tr>`
  );
  const counts = { pass: 0, fail: 0, unknown: 0 };
  for (const rule of result.rules) counts[rule.status]++;
  const body = `<h1>toolscore decide: <span class="badge ${
    STATUS_CLASS[result.decision]
  }">${result.decision}</span></h1>
<p class="summary">${escapeHtml(result.title || "(untitled protocol)")}: candidate ${
    escapeHtml(result.candidate)
  } vs baseline ${
    escapeHtml(result.baseline)
  }; rules ${counts.pass} pass, ${counts.fail} fail, ${counts.unknown} unknown (unknown is never a pass).</p>
<p class="muted">Protocol sha256 ${result.protocolSha256} · alpha = ${result.alpha}, min_runs = ${result.minRuns}, k = ${result.k}</p>
<table>
<caption>Rules</caption>
<thead><tr><th scope="col">status</th><th scope="col">rule</th><th scope="col">metric</th><th scope="col" class="num">baseline</th><th scope="col" class="num">candidate</th><th scope="col" class="num">p-value</th><th scope="col">detail</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
<h2>The comparison</h2>
${comparisonSections(comparison)}`;
  return htmlPage(`toolscore decide: ${result.decision}`, body);
}
