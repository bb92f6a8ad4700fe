/**
 * `eval`'s console at scale (issue 32). Up to {@linkcode CONSOLE_BLOCKS}
 * traces the console prints each trace's block, then the summary table; past
 * that it prints the summary first (at most five lines), then one line per
 * failing or unknown trace, and one line per passing trace only with `-v`.
 * `-q/--quiet` prints the failing and unknown lines as they come and the
 * summary, whatever the count. The summary always says how many traces
 * passed, failed and were unknown (a file of a folder that holds tool calls
 * but cannot be read: its outcome is not known, never a zero), and which
 * gate set the exit code.
 *
 * @module
 */

import type { SummaryRow } from "../report/console.ts";

/**
 * How many traces get their full block on the console by default; past this
 * many the summary comes first and each trace gets one line.
 */
export const CONSOLE_BLOCKS = 50;

/** A file of the run whose outcome is unknown: it could not be read. */
export interface UnknownTrace {
  /** The file. */
  name: string;
  /** Why it could not be read. */
  reason: string;
}

/**
 * The unknown entry of a file that could not be read: the error's message
 * without the file name it starts with.
 *
 * @param file The file.
 * @param error Why it could not be read.
 * @returns The entry.
 *
 * @example Usage
 * ```ts
 * import { unknownOf } from "./eval_console.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(unknownOf("a.json", new Error("a.json:2:1: not JSON")), { name: "a.json", reason: "2:1: not JSON" });
 * ```
 */
export function unknownOf(file: string, error: Error): UnknownTrace {
  const message = error.message;
  const reason = message.startsWith(file)
    ? message.slice(file.length).replace(/^:\s*/, "")
    : message;
  return { name: file, reason };
}

/** What set (or did not set) `eval`'s exit code. */
export interface GateInfo {
  /** Whether the bar was set explicitly (flag or contract). */
  gated: boolean;
  /** Where the bar came from. */
  barSource: "flag" | "contract" | "default";
  /** The bar. */
  bar: number;
  /** Whether `--fail-on-violations` was given, and how many violations were found. */
  violations?: { asked: boolean; count: number };
}

/**
 * One line for a failing or unknown trace: name, score, verdict, first reason.
 *
 * @param row The trace's summary row, or an unknown file.
 * @returns The line, without a newline.
 *
 * @example Usage
 * ```ts
 * import { traceLine } from "./eval_console.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(traceLine({ name: "b.json", reason: "not JSON" }), "b.json  -      unknown  not JSON");
 * ```
 */
export function traceLine(row: SummaryRow | UnknownTrace): string {
  if (!("score" in row)) return `${row.name}  -      unknown  ${row.reason}`;
  const verdict = row.passed ? "pass   " : "fail   ";
  const reason = row.passed ? "" : `  ${row.reason ?? "below bar"}`;
  return `${row.name}  ${row.score.toFixed(3)}  ${verdict}${reason}`.trimEnd();
}

/**
 * The count line: traces passed, failed and unknown, and the mean score.
 *
 * @param rows The scored traces' rows.
 * @param unknown How many files could not be read.
 * @returns The line.
 *
 * @example Usage
 * ```ts
 * import { countLine } from "./eval_console.ts";
 * import assert from "node:assert/strict";
 *
 * const row = { name: "a", score: 1, grade: "A", selection: 1, argumentF1: 1, sequence: 1, requiredCalls: null, passed: true };
 * assert.equal(countLine([row], 1), "2 traces: 1 passed, 0 failed, 1 unknown, mean score 1.000 (of 1 scored)");
 * ```
 */
export function countLine(rows: readonly SummaryRow[], unknown: number): string {
  const passed = rows.filter((row) => row.passed).length;
  const mean = rows.length === 0
    ? "unknown"
    : (rows.reduce((sum, row) => sum + row.score, 0) / rows.length).toFixed(3);
  const scored = unknown > 0 && rows.length > 0 ? ` (of ${rows.length} scored)` : "";
  return `${rows.length + unknown} traces: ${passed} passed, ${rows.length - passed} failed, ` +
    `${unknown} unknown, mean score ${mean}${scored}`;
}

/**
 * The exit code of an `eval` run and the line that says what set it.
 *
 * @param failed Traces that failed their bar.
 * @param unknown Files that could not be read.
 * @param gate The gate.
 * @returns The exit code (0, 1 or 2) and the line.
 *
 * @example Usage
 * ```ts
 * import { gateVerdict } from "./eval_console.ts";
 * import assert from "node:assert/strict";
 *
 * const none = gateVerdict(2, 0, { gated: false, barSource: "default", bar: 0.9 });
 * assert.equal(none.exit, 0);
 * assert.equal(none.line, "no gate set: exit 0; pass --fail-under or a contract's min_score to gate");
 * assert.equal(gateVerdict(2, 1, { gated: true, barSource: "flag", bar: 0.8 }).exit, 2);
 * assert.equal(
 *   gateVerdict(1, 0, { gated: true, barSource: "contract", bar: 0.9 }).line,
 *   "exit 1: 1 trace failed their contract's passing rule (min_score 0.90)",
 * );
 * ```
 */
export function gateVerdict(
  failed: number,
  unknown: number,
  gate: GateInfo,
): { exit: number; line: string } {
  const parts: string[] = [];
  // A contract's passing rule may fail a trace for a check or an exact mismatch at any score, so
  // its traces "failed the passing rule"; the flag's bar is a score bar only.
  const flag = gate.barSource === "flag";
  const by = flag ? "the --min-score/--fail-under bar" : "their contract's passing rule";
  const bar = flag ? gate.bar.toFixed(2) : `min_score ${gate.bar.toFixed(2)}`;
  const gateFails = gate.gated && failed > 0;
  const violations = gate.violations?.asked === true ? gate.violations.count : 0;
  if (unknown > 0) {
    parts.push(
      `exit 2: ${unknown} ${unknown === 1 ? "file" : "files"} could not be read` +
        (gateFails ? ` and ${failed} ${failed === 1 ? "trace" : "traces"} failed ${by}` : ""),
    );
    return { exit: 2, line: parts.join("") };
  }
  if (gateFails) {
    return {
      exit: 1,
      line: `exit 1: ${failed} ${failed === 1 ? "trace" : "traces"} ${flag ? "under" : "failed"} ` +
        `${by} (${bar})`,
    };
  }
  if (violations > 0) {
    return {
      exit: 1,
      line: `exit 1: --fail-on-violations found ${violations} ${
        violations === 1 ? "violation" : "violations"
      }`,
    };
  }
  if (!gate.gated) {
    return {
      exit: 0,
      line: "no gate set: exit 0; pass --fail-under or a contract's min_score to gate",
    };
  }
  return { exit: 0, line: `exit 0: every trace ${flag ? "met" : "passed"} ${by} (${bar})` };
}
