/**
 * `eval`'s file reports: the records each scored trace adds
 * ({@linkcode recordOf}, kept by {@linkcode RecordCollector}) and the
 * Markdown, HTML and JUnit files written from them at the end
 * ({@linkcode writeEvalReports}). Loaded only when a report flag is given.
 *
 * @module
 */

import type { CliIO } from "./command.ts";
import type { EvalSession, Scored } from "./eval_types.ts";
import { evalHtml, HTML_SECTIONS } from "../report/html/eval.ts";
import { evalJunit } from "../report/junit.ts";
import { evalMarkdown } from "../report/markdown.ts";
import { type EvalRunInfo, type TraceRecord, traceRecord } from "../report/trace_record.ts";
import { hostnameInfo, suiteWhere } from "./host_name.ts";
import { anyReport, REPORT_VERSION, reportTargets, writeReports } from "./report_flags.ts";

/**
 * The report record of one scored trace, or `undefined` when no file report
 * is asked for.
 *
 * @param session The eval session.
 * @param scored The scored trace.
 * @returns The record.
 */
export function recordOf(session: EvalSession, scored: Scored): TraceRecord | undefined {
  const targets = reportTargets(session.values);
  if (!anyReport(targets)) return undefined;
  const bar = scored.gold?.bar ?? session.run.bar; // a gold folder's contract sets its own
  return traceRecord(scored.named.name, scored.result, scored.evidence, bar, {
    detail: targets.html !== undefined,
    maxIssues: session.values.verbose === true ? 50 : 5,
    ...(scored.seconds === undefined ? {} : { seconds: scored.seconds }),
  });
}

/**
 * Write the reports `eval`'s flags ask for.
 *
 * @param session The eval session.
 * @param records Every trace's record, in run order.
 * @param io For the note when there is no step summary.
 * @param unreadable The folder files that could not be read (their outcome unknown).
 * @throws {InputError} When a report cannot be written.
 */
export async function writeEvalReports(
  session: EvalSession,
  records: TraceRecord[],
  io: Pick<CliIO, "stderr">,
  unreadable: readonly { name: string; reason: string }[] = [],
): Promise<void> {
  const targets = reportTargets(session.values);
  if (!anyReport(targets)) return;
  const info: EvalRunInfo = {
    gold: session.run.goldPath,
    bar: session.run.bar,
    barSource: session.barSource,
    version: REPORT_VERSION,
    ...(unreadable.length > 0 ? { unreadable } : {}),
    ...(session.startedAt === undefined ? hostnameInfo() : suiteWhere(session.startedAt)),
  };
  await writeReports(
    targets,
    {
      markdown: () => evalMarkdown(records, info),
      html: () => evalHtml(records, info),
      junit: () => evalJunit(records, info),
    },
    io,
    [session.run.goldPath, ...records.map((r) => r.name)],
  );
}

/**
 * The records of an `eval` run for its reports. Every record is kept; the
 * calls of a trace (only the HTML report shows them) are kept for at most
 * {@linkcode HTML_SECTIONS} failing and as many passing traces, so memory
 * stays bounded on huge runs.
 */
export class RecordCollector {
  /** The records, in run order. */
  readonly records: TraceRecord[] = [];
  #failingDetail = 0;
  #passingDetail = 0;

  /**
   * Keep a record.
   *
   * @param record The record, or `undefined` when no report is asked for.
   */
  add(record: TraceRecord | undefined): void {
    if (record === undefined) return;
    if (record.detail !== undefined) {
      const kept = record.passed ? this.#passingDetail++ : this.#failingDetail++;
      if (kept >= HTML_SECTIONS) delete record.detail;
    }
    this.records.push(record);
  }
}
