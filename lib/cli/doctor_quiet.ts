/**
 * `doctor --quiet` (issue 32): only the checks that need a look — one line
 * per warning or failure, with its fix, and under it its warning and failing
 * findings one a line (issue 38) — and the closing count; passing and
 * skipped checks are left out.
 *
 * @module
 */

import { type DoctorReport, findingLines } from "../doctor/report.ts";

/**
 * The quiet form of a doctor report.
 *
 * @param report The report.
 * @param server The server's name, put before each line when several are checked (`--all`).
 * @returns The text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { DoctorCheck, doctorReport } from "@toolscore/cli";
 * import { quietDoctorReport } from "./doctor_quiet.ts";
 * import assert from "node:assert/strict";
 *
 * const report = doctorReport([
 *   new DoctorCheck("keys", "fail", "OPENAI_API_KEY is not set", { fix: "export OPENAI_API_KEY" }),
 *   new DoctorCheck("spec", "pass", "ok"),
 * ]);
 * assert.equal(quietDoctorReport(report), "✗ keys  OPENAI_API_KEY is not set (fix: export OPENAI_API_KEY)\n1 pass, 0 warn, 1 fail, 0 skip\n");
 * ```
 */
export function quietDoctorReport(report: DoctorReport, server?: string): string {
  const lines: string[] = [];
  const before = server === undefined ? "" : `${server}: `;
  for (const check of report.checks) {
    if (check.status !== "warn" && check.status !== "fail") continue;
    const mark = check.status === "fail" ? "✗" : "!";
    const fix = check.fix === null ? "" : ` (fix: ${check.fix})`;
    lines.push(`${before}${mark} ${check.name}  ${check.detail}${fix}`);
    // What needs a look: the warnings and failures among its findings, one a line (issue 38).
    const serious = { ...check, findings: check.findings.filter((f) => f.severity !== "info") };
    for (const line of findingLines(serious)) lines.push(`${before}    ${line}`);
  }
  const { pass, warn, fail, skip } = report.counts;
  lines.push(`${before}${pass} pass, ${warn} warn, ${fail} fail, ${skip} skip`);
  return `${lines.join("\n")}\n`;
}
