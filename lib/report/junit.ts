/**
 * JUnit XML for CI test tabs (GitHub, GitLab, Jenkins), valid against
 * Jenkins' `junit-10.xsd` (xUnit plugin; a copy is in `testdata/junit/`).
 *
 * - `eval`: one `<testsuite>` with the run's figures as `<properties>`, one
 *   `<testcase>` per trace, failing (a `<failure>`) when the trace fails its
 *   bar — the given bar, else the contract's, else 0.9. Issue 33: the
 *   failure message leads with the passing rule's failed evidence checks
 *   (`claimed-success: …; call-errors: …`, what Jenkins and GitLab show
 *   first), then the score and its top issues. `classname` is the gold file,
 *   so CI groups the cases of one gold together. A testcase's `time` is the
 *   wall time toolscore spent scoring the trace (absent when not measured),
 *   never the agent's summed tool-call durations: those are in its
 *   `<system-out>` (junit-10.xsd gives testcases no `<properties>`) beside
 *   score, grade, metrics and evidence. The suite has `time` (the run's wall
 *   time), `timestamp` (its start, UTC, ISO 8601 without a zone as Ant's
 *   schema wants) and `hostname` when known.
 * - `decide`: one testcase per rule; a failed rule is a `<failure>`, an
 *   unknown one `<skipped>` (unknown is neither a pass nor a failure). Its
 *   suite has `time`, `timestamp` and `hostname` as `eval`'s does.
 *
 * Text from traces is escaped with {@linkcode escapeXml} (controls shown as
 * `\u001b`, which XML 1.0 could not hold).
 *
 * @module
 */

import { summaryLine } from "../checks/evidence_state.ts";
import type { ProtocolResult } from "../stats/protocol_result.ts";
import { formatMetricValue } from "../stats/format.ts";
import { escapeXml } from "./escape.ts";
import { type EvalRunInfo, gates, runTotals, type TraceRecord } from "./trace_record.ts";

const fixed = (value: number | null, digits = 3) =>
  value === null ? "unknown" : value.toFixed(digits);

function properties(entries: [string, string][]): string {
  return `    <properties>\n${
    entries.map(([name, value]) =>
      `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`
    )
      .join("\n")
  }\n    </properties>`;
}

function systemOut(record: TraceRecord): string {
  const m = record.metrics;
  const lines = [
    `score ${record.score.toFixed(3)}, grade ${record.grade}, bar ${record.bar.toFixed(2)}, ${
      record.passed ? "pass" : `fail (${verdictText(record)})`
    }`,
    `selection ${fixed(m.selection)}, argument F1 ${fixed(m.argumentF1)}, sequence ${
      fixed(m.sequence)
    }, ` +
    `required calls ${fixed(m.requiredCalls)}, redundant ${fixed(m.redundant)}`,
    `evidence: ${summaryLine(record.evidence.counts)}`,
    `tool-call durations in the trace: ${
      record.metrics.latency === null
        ? "unknown (not every call has one)"
        : `${seconds(record.metrics.latency)} s summed`
    }`,
    ...record.evidence.checks.filter((check) => check.status !== "pass").map((check) =>
      `  ${check.status} ${check.check}: ${check.detail}`
    ),
    ...record.findings.map((finding) => `${finding.severity} ${finding.kind}: ${finding.message}`),
    ...record.choices,
  ];
  return escapeXml(lines.join("\n"));
}

// "failed claimed-success, credentials" rather than "failed checks": which ones.
function verdictText(record: TraceRecord): string {
  return record.verdict === "failed checks"
    ? `failed ${record.failedChecks.join(", ")}`
    : record.verdict;
}

// The failed evidence checks, each with its detail: the passing rule's first (why the trace
// failed), then the other failed checks in evidence order.
function failedCheckText(record: TraceRecord): string[] {
  const failed = record.evidence.checks.filter((check) => check.status === "fail");
  const rank = (name: string) => {
    const i = record.failedChecks.indexOf(name);
    return i === -1 ? record.failedChecks.length : i;
  };
  const ordered = failed.map((check, i) => ({ check, i }))
    .sort((a, b) => rank(a.check.check) - rank(b.check.check) || a.i - b.i);
  const out = ordered.map(({ check }) => `${check.check}: ${check.detail}`);
  // A rule check without an evidence line (`exact`) still leads.
  for (const name of record.failedChecks) {
    if (!failed.some((check) => check.check === name)) out.unshift(name);
  }
  return out;
}

function failureMessage(record: TraceRecord): string {
  const checks = failedCheckText(record);
  const head = `score ${record.score.toFixed(3)} ${record.grade}${
    record.verdict === "below bar" ? ", below bar" : ""
  } (bar ${record.bar.toFixed(2)})`;
  let score: string;
  if (record.issueTotal === 0) {
    const errors = record.findings.filter((finding) =>
      finding.severity === "error" && !record.failedChecks.includes(finding.kind)
    );
    score = errors.length === 0
      ? head
      : `${head}: ${errors.map((f) => `${f.kind}: ${f.message}`).join("; ")}`;
  } else {
    const more = record.issueTotal > record.issues.length
      ? `; … and ${record.issueTotal - record.issues.length} more`
      : "";
    score = `${head}: ${record.issues.join("; ")}${more}`;
  }
  return [...checks, score].join("; ");
}

// Ant's and Jenkins' timestamp: ISO 8601 to the second, no zone (this one is UTC).
function timestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}

/** When and where a suite ran: its `timestamp`, `time` and `hostname`, each when known. */
export interface SuiteAttributes {
  /** When the run started (epoch milliseconds). */
  startedAt?: number;
  /** The run's wall time in seconds. */
  seconds?: number;
  /** The machine's name. */
  hostname?: string;
}

function suiteWhereText(where: SuiteAttributes): string {
  return `${where.startedAt === undefined ? "" : ` timestamp="${timestamp(where.startedAt)}"`}${
    where.hostname === undefined ? "" : ` hostname="${escapeXml(where.hostname)}"`
  }`;
}

function seconds(value: number): string {
  return value.toFixed(3);
}

/**
 * An `eval` run as a JUnit XML document.
 *
 * @param records The traces, in run order.
 * @param info The gold file, the bar and where it came from.
 * @returns The XML text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { evalJunit } from "./junit.ts";
 * import { traceRecord } from "./trace_record.ts";
 * import { evaluate } from "../evaluate/evaluate.ts";
 * import { evaluationEvidence } from "../checks/evidence.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a" }], [{ tool: "b" }]);
 * const record = traceRecord("t<1>.json", result, evaluationEvidence(result), 0.9);
 * const xml = evalJunit([record], { gold: "g.json", bar: 0.9, barSource: "flag", version: "0.1.0" });
 * assert.match(xml, /<testsuite name="toolscore eval" tests="1" failures="1" errors="0" skipped="0"/);
 * assert.match(xml, /<testcase name="t&lt;1&gt;\.json"/);
 * ```
 */
export function evalJunit(records: readonly TraceRecord[], info: EvalRunInfo): string {
  const totals = runTotals(records);
  const classname = escapeXml(info.gold);
  const cases = records.map((record) => {
    const attrs = `name="${escapeXml(record.name)}" classname="${classname}"${
      record.seconds === undefined ? "" : ` time="${seconds(record.seconds)}"`
    }`;
    const failure = record.passed
      ? ""
      : `\n      <failure type="${
        record.verdict === "below bar" ? "below-bar" : "failed-checks"
      }" message="${escapeXml(failureMessage(record))}">${
        escapeXml(record.issues.join("\n"))
      }</failure>`;
    return `    <testcase ${attrs}>${failure}\n      <system-out>${
      systemOut(record)
    }</system-out>\n    </testcase>`;
  });
  const props = properties([
    ["toolscore.version", info.version],
    ["gold", info.gold],
    ["bar", info.bar.toFixed(2)],
    ["bar_source", info.barSource],
    ["gated", String(gates(info))],
    ["traces", String(totals.count)],
    ["passed", String(totals.passed)],
    ["failed", String(totals.failed)],
    ["mean_score", fixed(totals.meanScore)],
    ["evidence_pass", String(totals.evidence.pass)],
    ["evidence_fail", String(totals.evidence.fail)],
    ["evidence_unknown", String(totals.evidence.unknown)],
  ]);
  // A file that could not be read is an errored testcase: its outcome is unknown (issue 32).
  const unreadable = info.unreadable ?? [];
  for (const file of unreadable) {
    cases.push(
      `    <testcase name="${escapeXml(file.name)}" classname="${classname}">\n` +
        `      <error type="unreadable" message="${escapeXml(file.reason)}"/>\n    </testcase>`,
    );
  }
  const tests = totals.count + unreadable.length;
  const errors = unreadable.length;
  const suiteTime = info.seconds === undefined ? "" : ` time="${seconds(info.seconds)}"`;
  const suiteWhere = suiteWhereText(info);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="toolscore" tests="${tests}" failures="${totals.failed}" errors="${errors}"${suiteTime}>
  <testsuite name="toolscore eval" tests="${tests}" failures="${totals.failed}" errors="${errors}" skipped="0"${suiteTime}${suiteWhere}>
${props}
${cases.join("\n")}
  </testsuite>
</testsuites>
`;
}

/**
 * A protocol decision as a JUnit XML document: one testcase per rule.
 *
 * @param result The protocol result.
 * @param where When the run started, its wall time and the machine's name (the suite's
 * `timestamp`, `time` and `hostname`; each left out when absent).
 * @returns The XML text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { decideJunit } from "./junit.ts";
 * import { compareRuns } from "../stats/compare.ts";
 * import { evaluateProtocol } from "../stats/evaluate_protocol.ts";
 * import { Run } from "../stats/runs.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluateProtocol({
 *   protocol_version: 1, baseline: "a", candidate: "b",
 *   rules: [{ id: "r1", metric: "pass_rate", expect: "not_worse" }],
 * }, compareRuns([new Run("a", "t", "pass"), new Run("b", "t", "pass")]));
 * assert.match(decideJunit(result), /<skipped message="unknown: baseline a has 1 run/);
 * ```
 */
export function decideJunit(result: ProtocolResult, where: SuiteAttributes = {}): string {
  const failures = result.rules.filter((rule) => rule.status === "fail").length;
  const skipped = result.rules.filter((rule) => rule.status === "unknown").length;
  const cases = result.rules.map((rule) => {
    const values = `${rule.metric}: baseline ${
      formatMetricValue(rule.metric, rule.baselineValue)
    }, candidate ${formatMetricValue(rule.metric, rule.candidateValue)}${
      rule.pValue === null ? "" : `, p = ${rule.pValue}`
    }\n${rule.detail}`;
    const outcome = rule.status === "fail"
      ? `\n      <failure type="rule-failed" message="${escapeXml(rule.detail)}"/>`
      : rule.status === "unknown"
      ? `\n      <skipped message="${escapeXml(`unknown: ${rule.detail}`)}"/>`
      : "";
    return `    <testcase name="${
      escapeXml(rule.id)
    }" classname="toolscore.decide">${outcome}\n      <system-out>${
      escapeXml(values)
    }</system-out>\n    </testcase>`;
  });
  const props = properties([
    ["title", result.title],
    ["protocol_sha256", result.protocolSha256],
    ["baseline", result.baseline],
    ["candidate", result.candidate],
    ["decision", result.decision],
    ["alpha", String(result.alpha)],
    ["min_runs", String(result.minRuns)],
    ["k", String(result.k)],
  ]);
  const n = result.rules.length;
  const time = where.seconds === undefined ? "" : ` time="${seconds(where.seconds)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="toolscore" tests="${n}" failures="${failures}" errors="0"${time}>
  <testsuite name="toolscore decide" tests="${n}" failures="${failures}" errors="0" skipped="${skipped}"${time}${
    suiteWhereText(where)
  }>
${props}
${cases.join("\n")}
  </testsuite>
</testsuites>
`;
}
