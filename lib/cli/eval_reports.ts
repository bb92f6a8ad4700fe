/**
 * `eval`'s file reports: the records each scored trace adds
 * ({@linkcode recordOf}) and the Markdown, HTML and JUnit files written from
 * them at the end ({@linkcode writeEvalReports}).
 *
 * @module
 */

import type { CliIO } from "./command.ts";
import type { EvalSession, Scored } from "./eval_types.ts";
import { evalHtml } from "../report/html/eval.ts";
import { evalJunit } from "../report/junit.ts";
import { evalMarkdown } from "../report/markdown.ts";
import { type EvalRunInfo, type TraceRecord, traceRecord } from "../report/trace_record.ts";
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
  return traceRecord(scored.named.name, scored.result, scored.evidence, session.run.bar, {
    detail: targets.html !== undefined,
    maxIssues: session.values.verbose === true ? 50 : 5,
  });
}

/**
 * Write the reports `eval`'s flags ask for.
 *
 * @param session The eval session.
 * @param records Every trace's record, in run order.
 * @param io For the note when there is no step summary.
 * @throws {InputError} When a report cannot be written.
 */
export async function writeEvalReports(
  session: EvalSession,
  records: TraceRecord[],
  io: Pick<CliIO, "stderr">,
): Promise<void> {
  const targets = reportTargets(session.values);
  if (!anyReport(targets)) return;
  const info: EvalRunInfo = {
    gold: session.run.goldPath,
    bar: session.run.bar,
    barSource: session.barSource,
    version: REPORT_VERSION,
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
