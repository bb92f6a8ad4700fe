/**
 * The doctor's report: as JSON ({@linkcode doctorReport}) and as the
 * checklist the CLI prints ({@linkcode formatDoctorReport}).
 *
 * @module
 */

import { type DoctorCheck, type DoctorCheckJson, type DoctorStatus, worstStatus } from "./check.ts";
import { visible } from "./lint_text.ts";
import { ownSequence } from "../base/terminal_safe.ts";

/** The most findings printed under one check (the rest are counted; `--json` has them all). */
export const MAX_FINDING_LINES = 20;

/** The longest finding line printed, in characters. */
const MAX_LINE = 240;

/**
 * The lines a check's findings print as, one each — `CODE PATH: message`,
 * hidden characters shown, long lines cut — at most `limit`, then a count of
 * the rest. A check whose only finding is itself (coded by its name) has none.
 *
 * @param check The check, in the file shape.
 * @param limit How many to print.
 * @returns The lines, without indentation.
 *
 * @example Usage
 * ```ts
 * import { DoctorCheck } from "@toolscore/cli";
 * import { findingLines } from "./report.ts";
 * import assert from "node:assert/strict";
 *
 * const check = new DoctorCheck("tool-lint", "warn", "2 findings", {
 *   findings: [
 *     { code: "lint.unannotated", severity: "warn", path: "/tools/a/annotations", message: "no annotations" },
 *     { code: "lint.unannotated", severity: "warn", path: "/tools/b/annotations", message: "no annotations" },
 *   ],
 * });
 * assert.deepEqual(findingLines(check.toJSON(), 1), [
 *   "lint.unannotated /tools/a/annotations: no annotations",
 *   "… and 1 more (--json lists every finding)",
 * ]);
 * ```
 */
export function findingLines(check: DoctorCheckJson, limit: number = MAX_FINDING_LINES): string[] {
  const own = check.findings.filter((finding) => finding.code !== check.name);
  const lines = own.slice(0, limit).map((finding) => {
    const line = visible(`${finding.code} ${finding.path}: ${finding.message}`);
    return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
  });
  if (own.length > limit) {
    lines.push(`… and ${own.length - limit} more (--json lists every finding)`);
  }
  return lines;
}

/** The JSON-safe report. */
export interface DoctorReport {
  /** The checks, in the order they ran. */
  checks: DoctorCheckJson[];
  /** How many checks have each status. */
  counts: Record<DoctorStatus, number>;
  /** The most severe status (`fail` > `warn` > `pass` > `skip`). */
  worst: DoctorStatus;
}

/**
 * A JSON-safe report: the checks, the counts and the worst status.
 *
 * @param checks The checks, in order.
 * @returns The report.
 *
 * @example Usage
 * ```ts
 * import { DoctorCheck, doctorReport } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const report = doctorReport([
 *   new DoctorCheck("keys", "pass", "OPENAI_API_KEY is set"),
 *   new DoctorCheck("prices", "fail", "no price for llama3.1", { fix: "add it to prices" }),
 * ]);
 * assert.deepEqual(report.counts, { pass: 1, warn: 0, fail: 1, skip: 0 });
 * assert.equal(report.worst, "fail");
 * ```
 */
export function doctorReport(checks: readonly DoctorCheck[]): DoctorReport {
  const counts: Record<DoctorStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const check of checks) counts[check.status]++;
  return { checks: checks.map((check) => check.toJSON()), counts, worst: worstStatus(checks) };
}

const MARKS: Record<DoctorStatus, { mark: string; color: string }> = {
  pass: { mark: "✓", color: "\x1b[32m" },
  warn: { mark: "!", color: "\x1b[33m" },
  fail: { mark: "✗", color: "\x1b[31m" },
  skip: { mark: "-", color: "\x1b[2m" },
};

/** Options for {@linkcode formatDoctorReport}. */
export interface FormatDoctorReportOptions {
  /**
   * Colour the marks with ANSI escapes.
   * @default {false}
   */
  color?: boolean;
}

/**
 * The checklist the CLI prints: one line per check with ✓ (pass), ! (warn),
 * ✗ (fail) or - (skip), one line per finding under it (at most
 * {@linkcode MAX_FINDING_LINES}, then a count), a `fix:` line under each
 * warning and failure, and a closing count.
 *
 * @param report The report.
 * @param options Colour.
 * @returns The text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { DoctorCheck, doctorReport } from "@toolscore/cli";
 * import { formatDoctorReport } from "./report.ts";
 * import assert from "node:assert/strict";
 *
 * const text = formatDoctorReport(doctorReport([
 *   new DoctorCheck("keys", "fail", "OPENAI_API_KEY is not set", { fix: "export OPENAI_API_KEY" }),
 * ]));
 * assert.equal(text, "✗ keys  OPENAI_API_KEY is not set\n    fix: export OPENAI_API_KEY\n\n0 pass, 0 warn, 1 fail, 0 skip\n");
 * ```
 */
export function formatDoctorReport(
  report: DoctorReport,
  options: FormatDoctorReportOptions = {},
): string {
  const width = Math.max(0, ...report.checks.map((check) => check.name.length));
  const paint = (status: DoctorStatus, text: string) =>
    options.color ? `${ownSequence(MARKS[status].color)}${text}${ownSequence("\x1b[0m")}` : text;
  const lines: string[] = [];
  for (const check of report.checks) {
    const name = report.checks.length > 1 ? check.name.padEnd(width) : check.name;
    lines.push(`${paint(check.status, MARKS[check.status].mark)} ${name}  ${check.detail}`);
    for (const line of findingLines(check)) lines.push(`    ${line}`);
    if (check.fix !== null && (check.status === "warn" || check.status === "fail")) {
      lines.push(`    fix: ${check.fix}`);
    }
  }
  const { pass, warn, fail, skip } = report.counts;
  lines.push("", `${pass} pass, ${warn} warn, ${fail} fail, ${skip} skip`);
  return lines.join("\n") + "\n";
}
