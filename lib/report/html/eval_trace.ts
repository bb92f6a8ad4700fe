/**
 * One trace's section of the `eval` HTML report: its figures, evidence
 * checks, top issues, findings and the contract's choices, then the expected
 * and the actual calls side by side with the chosen pairing drawn between
 * them (a solid line when every argument matched, dashed otherwise) and each
 * argument marked match, differs, missing or extra — in words as well as
 * colour.
 *
 * @module
 */

import { summaryLine } from "../../checks/evidence_state.ts";
import { escapeHtml, escapeHtmlText as text } from "../escape.ts";
import type { ArgView, CallDetail, CallView, TraceRecord } from "../trace_record.ts";

// Fixed box heights let the pairing lines be drawn without measuring the page.
const BOX = 112;
const GAP = 8;
const LANE = 64;

const MARK: Record<ArgView["state"], string> = {
  match: "✓ match",
  mismatch: "≠ differs",
  missing: "✗ missing",
  unexpected: "+ extra",
  unchecked: "",
};

const fixed = (value: number | null, digits = 2) =>
  value === null ? "unknown" : value.toFixed(digits);

function callBox(
  call: CallView,
  side: "expected" | "actual",
  index: number,
  paired: boolean,
): string {
  const label = side === "expected"
    ? `expected call ${index + 1}`
    : `call ${call.number ?? index + 1}`;
  const args = call.args.map((arg) =>
    `<li class="a-${arg.state}"><i>${MARK[arg.state]}</i>${text(arg.key)}: ${text(arg.value)}</li>`
  );
  if (call.moreArgs > 0) args.push(`<li class="muted">… ${call.moreArgs} more arguments</li>`);
  if (call.argsError !== undefined) {
    args.push(`<li class="a-mismatch">arguments did not parse: ${text(call.argsError)}</li>`);
  }
  if (args.length === 0) args.push(`<li class="muted">no arguments</li>`);
  const note = paired ? "" : side === "expected" ? " — not called" : " — extra call";
  // Issue 33: how the call ended, in words as well as colour (red failed, grey unknown).
  const outcome = call.outcome === "failed"
    ? `<div class="outcome">✗ failed: ${text(call.error ?? "(no error text)")}</div>`
    : call.outcome === "unknown"
    ? `<div class="outcome">? outcome unknown (no result in the trace)</div>`
    : "";
  const state = call.outcome === "failed"
    ? " call-failed"
    : call.outcome === "unknown"
    ? " call-unknown"
    : "";
  // Long names are cut with an ellipsis; the title attribute holds the whole name.
  return `<div class="call${paired ? "" : " unpaired"}${state}"><div class="tool" title="${
    escapeHtml(call.tool)
  }">${
    text(call.tool)
  } <span class="muted">${label}${note}</span></div>${outcome}<ul tabindex="0" aria-label="arguments of ${label}">${
    args.join("")
  }</ul></div>`;
}

function pairingSvg(detail: CallDetail): string {
  const rows = Math.max(detail.expected.length, detail.actual.length, 1);
  const height = rows * (BOX + GAP);
  const y = (i: number) => i * (BOX + GAP) + BOX / 2;
  const lines = detail.pairs.map((pair) =>
    `<path class="pair${pair.exact ? "" : " partial"}" d="M0 ${y(pair.expected)} C${LANE / 2} ${
      y(pair.expected)
    } ${LANE / 2} ${y(pair.actual)} ${LANE} ${y(pair.actual)}"/>`
  );
  return `<svg viewBox="0 0 ${LANE} ${height}" width="${LANE}" height="${height}" role="img" aria-label="pairing: ${
    detail.pairs.map((p) =>
      `expected ${p.expected + 1} to actual ${p.actual + 1}${p.exact ? "" : " (arguments differ)"}`
    ).join(", ") ||
    "none"
  }">${lines.join("")}</svg>`;
}

function callsGrid(detail: CallDetail): string {
  const pairedExpected = new Set(detail.pairs.map((p) => p.expected));
  const pairedActual = new Set(detail.pairs.map((p) => p.actual));
  const expected = detail.expected.map((call, i) =>
    callBox(call, "expected", i, pairedExpected.has(i))
  );
  const actual = detail.actual.map((call, i) => callBox(call, "actual", i, pairedActual.has(i)));
  const more = [
    detail.moreExpected > 0 ? `${detail.moreExpected} more expected calls` : "",
    detail.moreActual > 0 ? `${detail.moreActual} more actual calls` : "",
  ].filter((s) => s !== "");
  return `<div class="calls"><div class="side"><div class="side-title">Expected (${
    detail.expected.length + detail.moreExpected
  })</div>${expected.join("")}</div><div class="side"><div class="side-title"></div>${
    pairingSvg(detail)
  }</div><div class="side"><div class="side-title">Actual (${
    detail.actual.length + detail.moreActual
  })</div>${actual.join("")}</div></div>${
    more.length > 0 ? `<p class="muted">Not drawn: ${more.join(", ")}.</p>` : ""
  }`;
}

/**
 * Why a trace failed, in one line: the gate (`failed CHECK` or `below bar
 * 0.90 (score …)`), then its first reason (the failed check's detail, else
 * the first issue to fix).
 *
 * @param record The trace's record.
 * @returns `""` for a pass.
 *
 * @example Usage
 * ```ts
 * import { verdictReason } from "./eval_trace.ts";
 * import { traceRecord } from "../trace_record.ts";
 * import { evaluate } from "../../evaluate/evaluate.ts";
 * import { evaluationEvidence } from "../../checks/evidence.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a" }], [{ tool: "b" }]);
 * const record = traceRecord("t.json", result, evaluationEvidence(result), 0.9);
 * assert.match(verdictReason(record), /^below bar 0\.90 \(score 0\.\d+\): step 1: expected a, got b/);
 * ```
 */
export function verdictReason(record: TraceRecord): string {
  if (record.passed) return "";
  const check = record.failedChecks[0];
  if (record.verdict === "failed checks" && check !== undefined) {
    const detail = record.evidence.checks.find((c) => c.check === check && c.status === "fail");
    return `failed ${check}${detail === undefined ? "" : `: ${detail.detail}`}`;
  }
  const gate = `below bar ${record.bar.toFixed(2)} (score ${record.score.toFixed(3)})`;
  const first = record.issues[0] ?? record.findings.find((f) => f.severity === "error")?.message;
  return first === undefined ? gate : `${gate}: ${first}`;
}

/**
 * The section of one trace.
 *
 * @param record The trace's record.
 * @param index Its position (for the anchor `trace-N`).
 * @param gated Whether the bar gates.
 * @param open Whether the section starts open (default: when the trace failed).
 * @returns The HTML.
 *
 * @example Usage
 * ```ts
 * import { traceSection } from "./eval_trace.ts";
 * import { traceRecord } from "../trace_record.ts";
 * import { evaluate } from "../../evaluate/evaluate.ts";
 * import { evaluationEvidence } from "../../checks/evidence.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a", args: { x: 1 } }], [{ tool: "a", args: { x: 2 } }]);
 * const html = traceSection(traceRecord("t.json", result, evaluationEvidence(result), 0.9, { detail: true }), 0, true);
 * assert.match(html, /≠ differs<\/i>x: 1/);
 * assert.match(html, /class="pair partial"/);
 * ```
 */
export function traceSection(
  record: TraceRecord,
  index: number,
  gated: boolean,
  open = !record.passed,
): string {
  const status = record.passed ? "pass" : "fail";
  const verdict = record.passed
    ? "PASS"
    : gated
    ? `FAIL: ${verdictReason(record)}`
    : `would fail: ${verdictReason(record)} (report only)`;
  const m = record.metrics;
  const checks = record.evidence.checks.map((check) =>
    `<li><span class="badge ${check.status}">${check.status}</span> ${text(check.check)}: ${
      text(check.detail)
    }</li>`
  );
  const parts = [
    `<p>selection ${fixed(m.selection)} · argument F1 ${fixed(m.argumentF1)} · sequence ${
      fixed(m.sequence)
    } · ` +
    `required calls ${fixed(m.requiredCalls)} · redundant ${fixed(m.redundant)} · latency ${
      m.latency === null ? "unknown" : `${m.latency.toFixed(3)} s`
    } · cost ${m.cost === null ? "unknown" : `$${m.cost.toFixed(4)}`}</p>`,
    `<p><strong>Evidence:</strong> ${summaryLine(record.evidence.counts)}</p><ul class="checks">${
      checks.join("")
    }</ul>`,
  ];
  if (record.issueTotal > 0) {
    const more = record.issueTotal > record.issues.length
      ? `<li class="muted">… and ${record.issueTotal - record.issues.length} more</li>`
      : "";
    parts.push(
      `<p><strong>Top issues to fix</strong></p><ul>${
        record.issues.map((issue) => `<li>${text(issue)}</li>`).join("")
      }${more}</ul>`,
    );
  }
  if (record.findings.length > 0) {
    parts.push(
      `<p><strong>Findings</strong></p><ul>${
        record.findings.map((f) =>
          `<li><span class="badge ${
            f.severity === "error" ? "fail" : "unknown"
          }">${f.severity}</span> ${text(f.kind)}: ${text(f.message)}</li>`
        ).join("")
      }</ul>`,
    );
  }
  if (record.choices.length > 0) {
    parts.push(
      `<p><strong>Contract</strong></p><ul>${
        record.choices.map((c) => `<li>${text(c)}</li>`).join("")
      }</ul>`,
    );
  }
  if (record.detail !== undefined) parts.push(callsGrid(record.detail));
  return `<details class="trace is-${status}" id="trace-${index}"${
    open ? " open" : ""
  }><summary><h3>${text(record.name)}</h3> score ${
    record.score.toFixed(2)
  } ${record.grade} <span class="badge ${status}">${text(verdict)}</span></summary>\n${
    parts.join("\n")
  }\n</details>`;
}
