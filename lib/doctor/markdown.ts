/**
 * The doctor's report as Markdown, for a pull-request comment or
 * `$GITHUB_STEP_SUMMARY` (`toolscore doctor --markdown FILE`,
 * `--github-summary`): a summary line (counts and the worst status), a table
 * of the checks (status, name, detail), and the fix of every check that did
 * not pass. With `--all`, one section per server after the summary: failing
 * servers first, then those that warn, and the passing ones collapsed in
 * `<details>`.
 *
 * It lives in `lib/doctor`, not `lib/report` as the brief suggested:
 * ARCHITECTURE.md lets doctor import report, not report import doctor. It
 * reuses the reports' escaping ({@linkcode escapeMarkdown}: details, names
 * and fixes come from servers and configs, so they are escaped and cannot
 * mention people or link issues) and their byte budget
 * ({@linkcode MarkdownBudget}: at most 65,536 UTF-8 bytes, whole rows and
 * sections left out and counted in a closing note). Details are printed as
 * the checks hold them, already redacted: no key or input value appears.
 *
 * Changed in issue 38: a word that GitHub would read as a mention or a
 * reference (`@scope/pkg`, `#12`) is put in a code span, where GitHub links
 * nothing, instead of getting a zero-width space that breaks a copied
 * command; finding paths and codes are code spans too; each check's
 * findings follow the table, one line each, at most
 * {@linkcode MAX_FINDING_LINES} per check and then a count.
 *
 * @module
 */

import { escapeMarkdown, showControls, utf8Length } from "../report/escape.ts";
import { MARKDOWN_LIMIT, MarkdownBudget } from "../report/markdown_budget.ts";
import type { DoctorCheckJson, DoctorStatus } from "./check.ts";
import { type DoctorReport, MAX_FINDING_LINES } from "./report.ts";
import { visible } from "./lint_text.ts";
import { maxOf } from "../base/arrays.ts";

// What GitHub would turn into a mention or a link.
const REFERENCE = /@[A-Za-z0-9]|#\d|\bGH-\d/i;

/**
 * Text as a code span: rendered as written, linking nothing (`|` escaped
 * inside a table cell, where GitHub unescapes it), hidden characters shown.
 *
 * @param text The text.
 * @param table Whether it goes in a table cell.
 * @returns The code span.
 *
 * @example Usage
 * ```ts
 * import { codeSpan } from "./markdown.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(codeSpan("npx -y @scope/pkg"), "`npx -y @scope/pkg`");
 * assert.equal(codeSpan("a`b"), "``a`b``");
 * ```
 */
export function codeSpan(text: string, table = false): string {
  let clean = visible(showControls(text)).replace(/\r?\n/g, " ");
  if (table) clean = clean.replaceAll("|", "\\|");
  const longest = maxOf([...clean.matchAll(/`+/g)].map((m) => m[0].length), 0);
  const fence = "`".repeat(longest + 1);
  const pad = clean.startsWith("`") || clean.endsWith("`") ? " " : "";
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** Escaped text whose mention-like words are code spans (nothing invisible inserted). */
function mdText(text: string, table = false): string {
  return text.split(/( +)/).map((part, i) =>
    i % 2 === 1 ? part : REFERENCE.test(part) ? codeSpan(part, table) : escapeMarkdown(part)
  ).join("");
}

/** A check's own findings, one list line each (capped, then counted). */
function findingBlock(check: DoctorCheckJson): string | null {
  const own = check.findings.filter((finding) => finding.code !== check.name);
  if (own.length === 0) return null;
  const lines = own.slice(0, MAX_FINDING_LINES).map((finding) =>
    `- ${codeSpan(finding.code)} ${finding.path === "" ? "" : `${codeSpan(finding.path)}: `}${
      mdText(finding.message.length > 240 ? `${finding.message.slice(0, 239)}…` : finding.message)
    }`
  );
  if (own.length > MAX_FINDING_LINES) {
    lines.push(`- … and ${own.length - MAX_FINDING_LINES} more (--json lists every finding)`);
  }
  return `Findings of ${escapeMarkdown(check.name)} (${own.length}):\n\n${lines.join("\n")}`;
}

/** Options for {@linkcode doctorMarkdown} and {@linkcode doctorAllMarkdown}. */
export interface DoctorMarkdownOptions {
  /**
   * The byte limit of the whole text.
   * @default {65536}
   */
  limit?: number;
  /**
   * Warnings fail (`--fail-on-warn`): the verdict says FAIL on a warning.
   * @default {false}
   */
  failOnWarn?: boolean;
}

/** One server's report, for {@linkcode doctorAllMarkdown}. */
export interface DoctorMarkdownServer {
  /** The server's name (its config entry). */
  name: string;
  /** Its report. */
  report: DoctorReport;
}

const MARK: Record<DoctorStatus, string> = {
  fail: "✗ **fail**",
  warn: "! **warn**",
  pass: "✓ pass",
  skip: "- skip",
};

const SEVERITY: Record<DoctorStatus, number> = { fail: 0, warn: 1, pass: 2, skip: 3 };

function verdict(worst: DoctorStatus, failOnWarn: boolean): string {
  if (worst === "fail" || (failOnWarn && worst === "warn")) return "FAIL";
  return worst === "warn" ? "PASS with warnings" : "PASS";
}

function countLine(report: DoctorReport): string {
  const { pass, warn, fail, skip } = report.counts;
  const total = pass + warn + fail + skip;
  return `${total} ${
    total === 1 ? "check" : "checks"
  }: ${pass} pass, ${warn} warn, ${fail} fail, ${skip} skip; worst: ${report.worst}`;
}

const TABLE_HEAD = ["| status | check | detail |", "| --- | --- | --- |"];

function rows(report: DoctorReport): string[] {
  return report.checks.map((check) =>
    `| ${MARK[check.status]} | ${escapeMarkdown(check.name)} | ${mdText(check.detail, true)} |`
  );
}

function fixLines(report: DoctorReport): string[] {
  return report.checks
    .filter((check) => check.fix !== null && (check.status === "fail" || check.status === "warn"))
    .map((check) => `- ${MARK[check.status]} ${escapeMarkdown(check.name)}: ${mdText(check.fix!)}`);
}

/** The checks of one report into the budget: the table, then the fixes. */
function checksInto(budget: MarkdownBudget, report: DoctorReport, share: number): void {
  budget.table(TABLE_HEAD, rows(report), "check rows", share);
  for (const check of report.checks) {
    const block = findingBlock(check);
    if (block !== null) budget.block(block, "finding lists");
  }
  const fixes = fixLines(report);
  if (fixes.length > 0) budget.block(`Fixes:\n\n${fixes.join("\n")}`, "fix lists");
}

/** One server's section as a whole block (for the collapsed passing servers). */
function wholeSection(server: DoctorMarkdownServer): string {
  return [
    `#### ${escapeMarkdown(server.name)}: ${server.report.worst}`,
    "",
    countLine(server.report),
    "",
    ...TABLE_HEAD,
    ...rows(server.report),
  ].join("\n");
}

/**
 * One doctor run as Markdown.
 *
 * @param report The report ({@linkcode doctorReport}).
 * @param name The server's name, when one was checked.
 * @param options The byte limit; whether warnings fail.
 * @returns The Markdown text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { doctorMarkdown } from "./markdown.ts";
 * import { DoctorCheck } from "./check.ts";
 * import { doctorReport } from "./report.ts";
 * import assert from "node:assert/strict";
 *
 * const text = doctorMarkdown(doctorReport([
 *   new DoctorCheck("tools-list", "pass", "1 tool: a|b"),
 *   new DoctorCheck("tool-lint", "warn", "a|b: no description", { fix: "describe it" }),
 * ]), "srv");
 * assert.match(text, /^### toolscore doctor srv: PASS with warnings\n/);
 * assert.match(text, /^\| ✓ pass \| tools-list \| 1 tool: a\\\|b \|$/m);
 * assert.match(text, /^- ! \*\*warn\*\* tool-lint: describe it$/m);
 * ```
 */
export function doctorMarkdown(
  report: DoctorReport,
  name = "",
  options: DoctorMarkdownOptions = {},
): string {
  const budget = new MarkdownBudget(options.limit ?? MARKDOWN_LIMIT);
  const who = name === "" ? "" : ` ${escapeMarkdown(name)}`;
  budget.block(
    `### toolscore doctor${who}: ${verdict(report.worst, options.failOnWarn === true)}\n\n` +
      countLine(report),
  );
  checksInto(budget, report, 0.8);
  return budget.text("The console output and --json list every check.");
}

/**
 * A `doctor --all` run as Markdown: the summary (how many servers have each
 * worst status, and each server's), then one section per server — failing
 * first, then warning, then the passing ones collapsed in `<details>`.
 *
 * @param servers Every server's report, in config order.
 * @param options The byte limit; whether warnings fail.
 * @returns The Markdown text, ending with a newline.
 *
 * @example Usage
 * ```ts
 * import { doctorAllMarkdown } from "./markdown.ts";
 * import { DoctorCheck } from "./check.ts";
 * import { doctorReport } from "./report.ts";
 * import assert from "node:assert/strict";
 *
 * const text = doctorAllMarkdown([
 *   { name: "ok", report: doctorReport([new DoctorCheck("handshake", "pass", "fine")]) },
 *   { name: "bad", report: doctorReport([new DoctorCheck("handshake", "fail", "refused")]) },
 * ]);
 * assert.match(text, /^### toolscore doctor --all: FAIL\n\n2 servers: 1 fail, 0 warn, 1 pass, 0 skip/);
 * assert.ok(text.indexOf("#### bad: fail") < text.indexOf("<summary>Passing servers (1)</summary>"));
 * ```
 */
export function doctorAllMarkdown(
  servers: readonly DoctorMarkdownServer[],
  options: DoctorMarkdownOptions = {},
): string {
  const budget = new MarkdownBudget(options.limit ?? MARKDOWN_LIMIT);
  const counts: Record<DoctorStatus, number> = { fail: 0, warn: 0, pass: 0, skip: 0 };
  let worst: DoctorStatus = "skip";
  for (const { report } of servers) {
    counts[report.worst]++;
    if (SEVERITY[report.worst] < SEVERITY[worst]) worst = report.worst;
  }
  const each = servers.map((server) => `${escapeMarkdown(server.name)}: ${server.report.worst}`);
  budget.block(
    `### toolscore doctor --all: ${verdict(worst, options.failOnWarn === true)}\n\n` +
      `${servers.length} ${servers.length === 1 ? "server" : "servers"}: ${counts.fail} fail, ` +
      `${counts.warn} warn, ${counts.pass} pass, ${counts.skip} skip; worst: ${worst}`,
  );
  budget.block(`Servers: ${each.join(", ")}`, "server lists");
  // A stable sort: failing, then warning servers, each in config order.
  const open = servers.filter((s) => s.report.worst === "fail" || s.report.worst === "warn")
    .sort((a, b) => SEVERITY[a.report.worst] - SEVERITY[b.report.worst]);
  // Each section whole (doctor's details are capped, so one always fits the limit): a cut
  // falls between sections, never inside a table.
  let shown = 0;
  for (const server of open) {
    const fixes = fixLines(server.report);
    const findings = server.report.checks.flatMap((check) => findingBlock(check) ?? []);
    const section = wholeSection(server) +
      findings.map((block) => `\n\n${block}`).join("") +
      (fixes.length > 0 ? `\n\nFixes:\n\n${fixes.join("\n")}` : "");
    if (!budget.block(section)) break;
    shown++;
  }
  budget.omit("server sections", open.length - shown);

  const passing = servers.filter((s) => s.report.worst === "pass" || s.report.worst === "skip");
  if (passing.length > 0) {
    const head = `<details>\n<summary>Passing servers (${passing.length})</summary>\n\n`;
    const tail = "\n\n</details>";
    const sections: string[] = [];
    let room = budget.free - utf8Length(head + tail) - 2;
    for (const server of passing) {
      const section = wholeSection(server);
      const size = utf8Length(section) + 2;
      if (size > room) break;
      sections.push(section);
      room -= size;
    }
    if (sections.length > 0) budget.block(`${head}${sections.join("\n\n")}${tail}`);
    budget.omit("passing-server sections", passing.length - sections.length);
  }
  return budget.text("The console output and --json list every server and check.");
}
