/**
 * One evaluated trace as plain data for the file reports (Markdown, JUnit,
 * HTML): the figures, the evidence, the top issues and findings, the
 * contract's choices and, for HTML, the expected and actual calls with the
 * pairing and each argument's state. Plain data, so `eval`'s worker threads
 * can send it and a long run keeps records, not results.
 *
 * Every argument value is a short preview with credentials redacted (first
 * 4 + `…` + last 2 characters), as in the console report; messages from
 * honesty checks are redacted the same way.
 *
 * @module
 */

import { chosenAlternatives, type ContractBlock, type FindingsBlock } from "./result_blocks.ts";
import { ruleReadsScore } from "../contract/pass_rule.ts";
import type { EvaluationResult } from "../evaluate/evaluate.ts";
import type { Evidence, EvidenceCoverage } from "../checks/evidence.ts";
import type { CheckJson, EvidenceCounts } from "../checks/evidence_state.ts";
import { redactText } from "../checks/security.ts";
import { valuesMatch } from "../scoring/matchers.ts";
import { argsChecked } from "../scoring/pairing.ts";
import { callFailed, hasOutcome, type ToolCall } from "../scoring/calls.ts";
import { meetsBar } from "../scoring/score.ts";
import { preview, summarizeIssues } from "../evaluate/issues.ts";

/** How one argument of a call compares with its partner. */
export type ArgState = "match" | "mismatch" | "missing" | "unexpected" | "unchecked";

/** One argument of a call, as shown. */
export interface ArgView {
  /** The key. */
  key: string;
  /** The value as short JSON (credentials redacted); `(absent)` for a missing key. */
  value: string;
  /** How it compares with the paired call. */
  state: ArgState;
}

/** One call, as shown. */
export interface CallView {
  /** The tool name. */
  tool: string;
  /** Its arguments (at most {@linkcode MAX_ARGS}). */
  args: ArgView[];
  /** Arguments left out beyond {@linkcode MAX_ARGS}. */
  moreArgs: number;
  /** Why its argument text did not parse, if it did not. */
  argsError?: string;
  /** Its number in the whole trace (1-based), for actual calls. */
  number?: number;
  /**
   * How an actual call ended (issue 33): `failed`, `ok`, or `unknown` when
   * the trace captured no outcome. Absent on expected calls.
   */
  outcome?: "ok" | "failed" | "unknown";
  /** A failed call's error text, short and with credentials redacted. */
  error?: string;
}

/** The calls of a trace and how they were paired. */
export interface CallDetail {
  /** The expected calls (at most {@linkcode MAX_CALLS}). */
  expected: CallView[];
  /** The scored actual calls (at most {@linkcode MAX_CALLS}). */
  actual: CallView[];
  /** Expected calls left out beyond the limit. */
  moreExpected: number;
  /** Actual calls left out beyond the limit. */
  moreActual: number;
  /** The pairing, by index in `expected` and `actual`; `exact` when every argument matched. */
  pairs: { expected: number; actual: number; exact: boolean }[];
}

/** A behaviour or safety finding. */
export interface Finding {
  /** `forbidden`, `credential` or an honesty check's name. */
  kind: string;
  /** `error` or `warning`. */
  severity: "error" | "warning";
  /** What happened. */
  message: string;
}

/** One evaluated trace, as the file reports show it. */
export interface TraceRecord {
  /** The trace's name (its file). */
  name: string;
  /** The score. */
  score: number;
  /** The grade. */
  grade: string;
  /** Whether it passed the bar. */
  passed: boolean;
  /** The bar. */
  bar: number;
  /** Why it failed, or `pass`. */
  verdict: "pass" | "below bar" | "failed checks";
  /** The passing rule's checks that failed (issue 28). */
  failedChecks: string[];
  /** The main metrics; `null` when unknown. */
  metrics: {
    selection: number;
    argumentF1: number;
    sequence: number;
    requiredCalls: number | null;
    redundant: number;
    latency: number | null;
    cost: number | null;
  };
  /** The evidence checks, counts and coverage. */
  evidence: { checks: CheckJson[]; counts: EvidenceCounts; coverage: EvidenceCoverage };
  /** The first issues to fix. */
  issues: string[];
  /** How many issues there are in all. */
  issueTotal: number;
  /** Forbidden calls, credentials, honesty findings. */
  findings: Finding[];
  /** The contract's chosen alternatives and optional calls, as sentences. */
  choices: string[];
  /** The calls and their pairing, when asked for. */
  detail?: CallDetail;
  /** The wall time spent scoring this trace, in seconds, when measured (issue 33). */
  seconds?: number;
}

/** Calls per side kept in {@linkcode CallDetail}. */
export const MAX_CALLS = 60;
/** Arguments per call kept in {@linkcode CallView}. */
export const MAX_ARGS = 24;

/** Options for {@linkcode traceRecord}. */
export interface TraceRecordOptions {
  /**
   * Issues to keep.
   * @default {5}
   */
  maxIssues?: number;
  /**
   * Keep the calls and their pairing (for the HTML report).
   * @default {false}
   */
  detail?: boolean;
  /**
   * The wall time spent scoring the trace, in seconds.
   * @default {undefined} (not measured)
   */
  seconds?: number;
}

function choicesOf(result: EvaluationResult): string[] {
  const contract = result.metrics.contract_metrics as ContractBlock | undefined;
  const out = chosenAlternatives(result).map(({ id, text }) => `alternative ${id}: ${text}`);
  for (const i of contract?.optional_matched ?? []) {
    out.push(
      `optional call left out of the score: ${result.traceCalls[i]?.tool ?? "?"} (call ${i + 1})`,
    );
  }
  return out;
}

function findingsOf(result: EvaluationResult): Finding[] {
  const m = result.metrics;
  const out: Finding[] = [];
  for (const v of (m.policy_metrics as FindingsBlock | undefined)?.violations ?? []) {
    out.push({
      kind: "forbidden",
      severity: "error",
      message: `call ${v.index + 1} ${v.tool} matches rule ${v.rule + 1}${
        v.reason ? ` (${v.reason})` : ""
      }`,
    });
  }
  for (const s of (m.security_metrics as FindingsBlock | undefined)?.secrets ?? []) {
    out.push({
      kind: "credential",
      severity: "error",
      message: `${s.kind} in call ${s.index + 1} ${s.tool} at ${s.path}: ${s.preview}`,
    });
  }
  for (const f of (m.honesty_metrics as FindingsBlock | undefined)?.findings ?? []) {
    out.push({ kind: f.check, severity: f.severity, message: redactText(f.message) });
  }
  return out;
}

function argViews(call: ToolCall, states: Map<string, ArgState>, fallback: ArgState): ArgView[] {
  const args = call.args ?? {};
  const out: ArgView[] = [];
  for (const key in args) {
    if (out.length >= MAX_ARGS) break;
    out.push({ key, value: preview(args[key], 120), state: states.get(key) ?? fallback });
  }
  return out;
}

// A failed call's error: its message, else what it returned, else a plain "failed".
function errorText(call: ToolCall): string {
  const text = typeof call.error === "string" && call.error !== ""
    ? call.error
    : call.result === undefined
    ? ""
    : typeof call.result === "string"
    ? call.result
    : preview(call.result, 200);
  if (text === "") return "(no error text)";
  const short = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return redactText(short);
}

function detailOf(result: EvaluationResult): CallDetail {
  const gold = result.goldCalls;
  const scored = result.scoredCalls;
  const strict = { strict: result.strict };
  const expectedStates = gold.map(() => new Map<string, ArgState>());
  const actualStates = scored.map(() => new Map<string, ArgState>());
  const pairs: CallDetail["pairs"] = [];
  for (const pair of result.metrics.pairs) {
    const want = gold[pair.expected]!;
    const got = scored[pair.actual]!;
    let exact = true;
    if (argsChecked(want) && got.argsError === undefined) {
      const wantArgs = want.args ?? {};
      const gotArgs = got.args ?? {};
      for (const key in wantArgs) {
        const present = Object.hasOwn(gotArgs, key) && gotArgs[key] !== undefined;
        const state: ArgState = !present
          ? "missing"
          : valuesMatch(wantArgs[key], gotArgs[key], strict)
          ? "match"
          : "mismatch";
        if (state !== "match") exact = false;
        expectedStates[pair.expected]!.set(key, state);
        if (present) actualStates[pair.actual]!.set(key, state);
      }
      for (const key in gotArgs) {
        if (Object.hasOwn(wantArgs, key)) continue;
        actualStates[pair.actual]!.set(key, "unexpected");
        exact = false;
      }
    } else if (got.argsError !== undefined) exact = false;
    if (pair.expected < MAX_CALLS && pair.actual < MAX_CALLS) {
      pairs.push({ expected: pair.expected, actual: pair.actual, exact });
    }
  }
  const expected = gold.slice(0, MAX_CALLS).map((call, i): CallView => ({
    tool: call.tool,
    args: argViews(call, expectedStates[i]!, "unchecked"),
    moreArgs: Math.max(0, Object.keys(call.args ?? {}).length - MAX_ARGS),
  }));
  const actual = scored.slice(0, MAX_CALLS).map((call, i): CallView => {
    const view: CallView = {
      tool: call.tool,
      args: argViews(call, actualStates[i]!, "unchecked"),
      moreArgs: Math.max(0, Object.keys(call.args ?? {}).length - MAX_ARGS),
      number: result.traceCalls.indexOf(call) + 1 || i + 1,
    };
    if (call.argsError !== undefined) view.argsError = call.argsError;
    view.outcome = callFailed(call) ? "failed" : hasOutcome(call) ? "ok" : "unknown";
    if (view.outcome === "failed") view.error = errorText(call);
    return view;
  });
  return {
    expected,
    actual,
    moreExpected: Math.max(0, gold.length - MAX_CALLS),
    moreActual: Math.max(0, scored.length - MAX_CALLS),
    pairs,
  };
}

/**
 * The plain-data record of one evaluated trace.
 *
 * @param name The trace's name.
 * @param result The evaluation.
 * @param evidence Its evidence.
 * @param bar The bar it was judged against.
 * @param options How many issues, and whether to keep the calls.
 * @returns The record.
 *
 * @example Usage
 * ```ts
 * import { traceRecord } from "./trace_record.ts";
 * import { evaluate } from "../evaluate/evaluate.ts";
 * import { evaluationEvidence } from "../checks/evidence.ts";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate([{ tool: "a", args: { x: 1 } }], [{ tool: "a", args: { x: 2 } }]);
 * const record = traceRecord("t.json", result, evaluationEvidence(result), 0.9, { detail: true });
 * assert.equal(record.passed, false);
 * assert.equal(record.detail?.expected[0]?.args[0]?.state, "mismatch");
 * ```
 */
export function traceRecord(
  name: string,
  result: EvaluationResult,
  evidence: Evidence,
  bar: number,
  options: TraceRecordOptions = {},
): TraceRecord {
  const m = result.metrics;
  const { passed, failedChecks } = result.verdict(bar, evidence);
  const { shown, total } = summarizeIssues(result, { limit: options.maxIssues ?? 5 });
  const record: TraceRecord = {
    name,
    score: result.score,
    grade: result.grade,
    passed,
    bar,
    verdict: passed
      ? "pass"
      : failedChecks.length > 0 && (meetsBar(result.score, bar) || !ruleReadsScore(result.passRule))
      ? "failed checks"
      : "below bar",
    failedChecks,
    metrics: {
      selection: m.selection_accuracy,
      argumentF1: m.argument_f1,
      sequence: m.sequence_accuracy,
      requiredCalls: m.required_call_recall,
      redundant: m.redundant_rate,
      latency: m.latency.total,
      cost: m.cost.total,
    },
    evidence: {
      checks: evidence.checks.map((check) => check.toJSON()),
      counts: { ...evidence.counts },
      coverage: { ...evidence.coverage },
    },
    issues: shown.map((issue) => issue.message),
    issueTotal: total,
    findings: findingsOf(result),
    choices: choicesOf(result),
    ...(options.seconds === undefined ? {} : { seconds: options.seconds }),
  };
  if (options.detail) record.detail = detailOf(result);
  return record;
}

/** What a run's records add up to. */
export interface RunTotals {
  /** Traces. */
  count: number;
  /** Traces that passed. */
  passed: number;
  /** Traces that failed. */
  failed: number;
  /** The mean score, `null` without traces. */
  meanScore: number | null;
  /** Evidence checks over all traces. */
  evidence: EvidenceCounts;
}

/**
 * Add up a run's records.
 *
 * @param records The records.
 * @returns The totals.
 *
 * @example Usage
 * ```ts
 * import { runTotals } from "./trace_record.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(runTotals([]), {
 *   count: 0, passed: 0, failed: 0, meanScore: null, evidence: { pass: 0, fail: 0, unknown: 0 },
 * });
 * ```
 */
export function runTotals(records: readonly TraceRecord[]): RunTotals {
  const evidence: EvidenceCounts = { pass: 0, fail: 0, unknown: 0 };
  let passed = 0;
  let sum = 0;
  for (const record of records) {
    if (record.passed) passed++;
    sum += record.score;
    evidence.pass += record.evidence.counts.pass;
    evidence.fail += record.evidence.counts.fail;
    evidence.unknown += record.evidence.counts.unknown;
  }
  return {
    count: records.length,
    passed,
    failed: records.length - passed,
    meanScore: records.length === 0 ? null : sum / records.length,
    evidence,
  };
}

/** The run-level facts the file reports show beside the records. */
export interface EvalRunInfo {
  /** The gold file or contract. */
  gold: string;
  /** The bar. */
  bar: number;
  /** Where the bar came from: `--min-score`/`--fail-under`, the contract, or the default 0.9. */
  barSource: "flag" | "contract" | "default";
  /** The toolscore version. */
  version: string;
  /**
   * Files of a folder that hold tool calls but could not be read (issue 32):
   * their outcome is unknown, and the run exits 2.
   * @default {[]}
   */
  unreadable?: readonly { name: string; reason: string }[];
  /**
   * When the run started (epoch milliseconds): the JUnit suite's `timestamp`.
   * @default {undefined} (no timestamp)
   */
  startedAt?: number;
  /**
   * The run's wall time in seconds: the JUnit suite's `time`.
   * @default {undefined} (no time)
   */
  seconds?: number;
  /**
   * The machine's name: the JUnit suite's `hostname`.
   * @default {undefined} (no hostname)
   */
  hostname?: string;
}

/**
 * Whether a run gates (its bar was set by a flag or the contract) rather than
 * only reporting against the default.
 *
 * @param info The run.
 * @returns `true` when the bar was set explicitly.
 *
 * @example Usage
 * ```ts
 * import { gates } from "./trace_record.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(gates({ gold: "g.json", bar: 0.9, barSource: "default", version: "0" }), false);
 * ```
 */
export function gates(info: EvalRunInfo): boolean {
  return info.barSource !== "default";
}
