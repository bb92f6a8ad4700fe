/**
 * `toolscore eval GOLD TRACE…`: score traces against a gold file or a
 * contract, print the report, and gate.
 *
 * The bar of a trace is, first found: `--min-score` / `--fail-under`, the
 * contract's `min_score`, else 0.9 for reporting only. `passed` is the
 * contract's passing rule (issue 28; `lib/contract/pass_rule.ts`): by default
 * score ≥ bar − 1e-9 and no evidence check but `call-errors` failed; a gold
 * file gets the default. The command exits 1 when any
 * trace fails a bar that was set explicitly, or with `--fail-on-violations`
 * on a forbidden call or a credential; with no explicit bar it reports and
 * exits 0.
 *
 * Output (issue 21): traces are scored and rendered on the main thread or on
 * worker threads (`eval_pool.ts`, a hundred files per worker slice), and every
 * ten traces' texts are joined, escaped and encoded to bytes by the thread
 * that rendered them (`eval_slice.ts`), then dropped, so memory stays flat
 * however many files a run has; the command only writes bytes, in file order. Console
 * blocks stream at once. `--json` documents are held back up to
 * {@linkcode JSON_HOLD_BYTES} (8 MB, about a thousand traces of twenty calls),
 * so a run that fails on an input within that prints nothing on stdout; past
 * it the document streams, and a run that then fails leaves the document
 * unclosed — invalid JSON, never a valid-looking partial result — exits 2 and
 * says on stderr that stdout is incomplete. (The alternative, writing to a
 * temporary file and renaming it, needs a file target and write permission;
 * stdout has neither.)
 *
 * Issue 32: trace folders go through the one folder walk
 * (`lib/formats/trace_folder.ts`), which leaves out the run's gold file,
 * contract and other named files (`--forbidden`, `--honesty`, `--injected`,
 * `--final-answer-file`) with a note; a file named on its own is always read.
 * A folder's file that no reader recognizes and that holds no tool-call
 * content is skipped with one note; one that holds tool calls is `unknown`:
 * the run goes on, the summary counts it, and the exit code is 2 (a file
 * named on its own still stops the run at once). Every output is made ready
 * (folders created, write access and the overwrite rule checked,
 * `--github-summary`'s permissions) before any scoring. The console holds the
 * first 50 traces' blocks; past that it prints the summary first and one line
 * per failing or unknown trace (`eval_console.ts`). With `--json` the console
 * rules do not apply; the summary gains `unknown` when a file was unknown.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { clipErrorLine } from "../base/clip_input.ts";
import { InputError, UsageError } from "../base/errors.ts";
import { formatSummary, type SummaryRow } from "../report/console.ts";
import { type CliIO, type Command, EXIT } from "./command.ts";
import {
  defaultJobs,
  scoreInWorkers,
  SLICE,
  WORKER_THRESHOLD,
  workersAvailable,
} from "./eval_pool.ts";
import { readTraceFiles, strayNote } from "./inputs.ts";
import { skippedEntriesNote, walkTracePaths } from "../formats/trace_folder.ts";
import { configFiles, prepareEvalOutputs, singleDocument } from "./eval_outputs.ts";
import { type Progress, progressLine } from "./progress.ts";
import {
  CONSOLE_BLOCKS,
  countLine,
  type GateInfo,
  gateVerdict,
  traceLine,
  unknownOf,
  type UnknownTrace,
} from "./eval_console.ts";
import { reportFlagsHelp } from "./report_flags.ts";
import { formatNameList } from "../formats/format_table.ts";
import { prepareEval, renderScored } from "./eval_session.ts";
import { RENDER_BATCH, sliceOf } from "./eval_slice.ts";
import { readingNotes } from "./reading_notes.ts";
import type { EvalSession, RenderedResult, RenderedSlice, Scored } from "./eval_types.ts";
import type { TraceRecord } from "../report/trace_record.ts";
import { GOLD_FOLDER_HELP, walkNotes } from "./eval_gold_folder.ts";
import { GoldTally } from "./eval_gold_summary.ts";
import { writeRunScores } from "./eval_bfcl_score.ts";

const HELP = `toolscore eval GOLD TRACE… — score traces against a gold file or a contract

GOLD is a gold file (a list of expected calls) or a contract (JSON, JSONC or YAML), or a
folder of contracts (its index.json's, or every contract file): each trace is then scored
against the one whose id is its task, its BFCL id up to '#', else its file name's stem.
TRACE is a trace file in any supported format, a directory (its *.json, *.jsonl and
*.sse files and .txt/.log streams and MCP logs, sorted; the gold file and the other
files this run names are left out, files that are not traces skipped with a note, a
file that holds tool calls but cannot be read counted unknown), or - for standard
input. A JSONL file of several traces is scored line by line; a run file (tau-bench,
tau2-bench) run by run.

Options:
  --format F               trace format: ${formatNameList({ indent: 27, width: 96, first: 41 })}
  --strict                 compare argument values exactly (same type, no trimming)
  --weight NAME=VALUE      score weight (repeatable): selection_accuracy, argument_f1,
                           sequence_accuracy, redundant_rate, required_call_recall
  --min-score S            fail a trace under S (0..1); a trace also fails when a check of the
                           contract's pass rule fails (by default every check but call-errors)
  --fail-under A-F|0.x     the same, as a grade or a number
  --forbidden FILE         forbidden-call rules (a list of {tool, args?, reason?})
  --fail-on-violations     exit 1 on a forbidden call or a credential in arguments
  --honesty FILE           honesty-check patterns (JSON or YAML) over the defaults
  --injected FILE          faults injected into tool results, for the disclosure check
  --final-answer TEXT      the agent's final answer, when the trace lacks it
  --final-answer-file F    the same, read from a file
  --receipt                write TRACE.receipt.json beside each trace
  --receipt-out PATH       write the receipt here (one trace)
  --receipt-dir DIR        write receipts into DIR (several traces); an existing file is
                           replaced only when it is a toolscore receipt, never an input
  --json                   print one JSON document on stdout, nothing else (streamed past
                           8 MB: a run that then fails leaves it unclosed, and says so)
  -v, --verbose            every metric and every issue (past 50 traces: a line per
                           passing trace too)
  --explain-divergence     BFCL contracts: say where a one-to-one pairing would pass what BFCL's
                           greedy pairing fails (--json: metrics.bfcl.optimal_valid)
  -q, --quiet              one line per failing or unknown trace (name, score, verdict,
                           first reason) and the summary; past 50 traces the default
                           prints the summary first, then the failing traces
  -j, --jobs N             threads for large runs (default: one per core, used from 12,000
                           files up; 1 = one thread)
${GOLD_FOLDER_HELP}
${
  reportFlagsHelp(
    "sortable table, failing filter, expected vs actual calls side by side",
    "one testcase per trace, failing when it fails its bar",
  )
}

Every output (reports, receipts, the step summary) is made ready before scoring: its
folders are created and write access checked.

Exit codes: 0 ok (or no explicit bar), 1 a trace failed its bar or --fail-on-violations
found a violation, 2 usage or input error (also when a folder's file could not be read;
the summary then gives both counts).

Examples:
  toolscore eval gold.json trace.json
  toolscore eval contract.yaml runs/ --fail-under B
  toolscore eval gold.json openai_chat.json --format openai --json
  toolscore eval contract.yaml runs/ --junit junit.xml --markdown report.md --html report.html
  cat trace.json | toolscore eval gold.json - --min-score 0.8
  toolscore eval gold/ results/ --waivers data/bfcl-waivers.json --bfcl-score score/my-model
`;

function receiptsRequested(values: Record<string, unknown>): boolean {
  return values.receipt === true || values["receipt-out"] !== undefined ||
    values["receipt-dir"] !== undefined;
}

/**
 * How much of a `--json` run is held back before anything is written: a run
 * whose documents fit (about a thousand traces of twenty calls) and that fails
 * on an input part-way prints nothing on stdout. A longer run streams its
 * documents as they are scored, so memory stays bounded however many traces
 * there are; should it then fail, stdout holds the start of a document that is
 * never closed — invalid JSON by construction, never a valid-looking partial
 * result — the exit code is 2, and stderr says the output is incomplete. A run
 * killed part-way (Ctrl-C) likewise leaves nothing or an unclosed document.
 */
export const JSON_HOLD_BYTES = 8 * 1024 * 1024;

const JSON_HEAD = `{"results": [\n`;

// Writes slices as they come. `--json` documents are held up to JSON_HOLD_BYTES, then stream.
// The console holds the first CONSOLE_BLOCKS traces' blocks; past that it keeps one row per
// trace and prints the summary first (eval_console.ts); `--quiet` streams failing lines.
class EvalReport {
  readonly #io: CliIO;
  readonly #json: boolean;
  readonly #quiet: boolean;
  readonly #verbose: boolean;
  readonly #rows: SummaryRow[] = [];
  readonly #records: { add(record: TraceRecord): void } | undefined;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #blocks: Uint8Array[] = [];
  #lineMode = false;
  #single: string | undefined;
  /** Whether report text has been written to stdout. */
  started = false;
  /** Traces reported so far. */
  get count(): number {
    return this.#rows.length;
  }
  failed = 0;
  violations = 0;
  /** Files of a folder that hold tool calls and could not be read. */
  readonly unknown: UnknownTrace[] = [];
  /** Files of a folder that are clearly not traces, skipped. */
  readonly strays: string[] = [];
  /** Runs of run files that could not be read (issue 34): reported after the rest, exit 2. */
  readonly inputErrors: string[] = [];
  /** The gold folder's summary (issue 43); empty when GOLD is a file. */
  gold = new GoldTally(undefined);

  constructor(
    io: CliIO,
    options: { json: boolean; quiet: boolean; verbose: boolean },
    records: { add(record: TraceRecord): void } | undefined,
  ) {
    this.#io = io;
    this.#json = options.json;
    this.#quiet = options.quiet;
    this.#verbose = options.verbose;
    this.#records = records;
  }

  #write(bytes: Uint8Array): void {
    if (this.#io.stdoutBytes !== undefined) this.#io.stdoutBytes(bytes);
    else this.#io.stdout(new TextDecoder().decode(bytes));
  }

  add(slice: RenderedSlice): void {
    for (const note of slice.notes ?? []) this.#io.stderr(note);
    pushAll(this.strays, slice.strays ?? []);
    for (const unknown of slice.unknown ?? []) {
      this.unknown.push(unknown);
      this.#io.stderr(`toolscore: ${unknown.name}: ${unknown.reason}\n`);
      if (this.#quiet && !this.#json) this.#io.stdout(`${traceLine(unknown)}\n`);
    }
    pushAll(this.inputErrors, slice.inputErrors ?? []);
    this.gold.add(slice.gold);
    if (slice.rows.length === 0) return;
    this.#single = this.#rows.length === 0 ? slice.single : undefined;
    for (const row of slice.rows) {
      if (!row.passed) this.failed++;
      this.#rows.push(row);
    }
    this.violations += slice.violations;
    if (this.#records) { for (const record of slice.records) this.#records.add(record); }
    if (!this.#json) {
      if (this.#quiet) {
        for (const row of slice.rows) if (!row.passed) this.#io.stdout(`${traceLine(row)}\n`);
      } else if (!this.#lineMode) {
        this.#blocks.push(slice.bytes);
        if (this.#rows.length > CONSOLE_BLOCKS) {
          this.#lineMode = true;
          this.#blocks = [];
        }
      }
    } else if (this.started) {
      this.#io.stdout(",\n");
      this.#write(slice.bytes);
    } else {
      this.#held.push(slice.bytes);
      this.#heldBytes += slice.bytes.length;
      if (this.#heldBytes > JSON_HOLD_BYTES) this.#release();
    }
  }

  // The held documents, after the head: from here on the JSON document streams.
  #release(): void {
    this.#io.stdout(JSON_HEAD);
    this.#held.forEach((bytes, i) => {
      if (i > 0) this.#io.stdout(",\n");
      this.#write(bytes);
    });
    this.#held = [];
    this.started = true;
  }

  /** Print the rest and the summary; the exit code and what set it. */
  finish(single: boolean, gate: GateInfo): number {
    const rows = this.#rows;
    const unknown = this.unknown;
    const verdict = gateVerdict(this.failed - this.gold.waivedFailed, unknown.length, gate);
    const strays = strayNote(this.strays);
    if (strays !== undefined) this.#io.stderr(strays);
    if (this.#json) {
      const errors = this.inputErrors;
      if (
        single && rows.length === 1 && unknown.length === 0 && errors.length === 0 &&
        !this.started && this.#single !== undefined && !this.gold.active
      ) {
        // One trace: its document alone, indented (no name: the command line gave it).
        this.#io.stdout(singleDocument(this.#single));
        return verdict.exit;
      }
      const summary = {
        count: rows.length,
        passed: rows.length - this.failed,
        failed: this.failed,
        ...(unknown.length > 0 ? { unknown: unknown.length } : {}),
        mean_score: rows.length === 0 ? null : rows.reduce((s, r) => s + r.score, 0) / rows.length,
        ...this.gold.summary(),
      };
      if (!this.started) this.#release();
      const listed = errors.length > 0 ? `,\n"input_errors": ${JSON.stringify(errors)}` : "";
      this.#io.stdout(`\n],\n"summary": ${JSON.stringify(summary)}${listed}}\n`);
      return verdict.exit;
    }
    const summary = [countLine(rows, unknown.length), ...this.gold.consoleLines(), verdict.line];
    if (this.#quiet) {
      this.#io.stdout(`${summary.join("\n")}\n`);
      return verdict.exit;
    }
    if (this.#lineMode) {
      // Summary first, then the traces that need a look; passing ones only with -v.
      const lines = [...summary, ""];
      for (const row of rows) if (!row.passed) lines.push(traceLine(row));
      for (const one of unknown) lines.push(traceLine(one));
      if (this.#verbose) { for (const row of rows) if (row.passed) lines.push(traceLine(row)); }
      this.#io.stdout(`${lines.join("\n")}\n`);
      return verdict.exit;
    }
    this.#blocks.forEach((bytes, i) => {
      if (i > 0) this.#io.stdout("\n\n");
      this.#write(bytes);
    });
    if (this.#blocks.length > 0) this.#io.stdout("\n");
    if (rows.length + unknown.length > 1 || unknown.length > 0 || this.gold.active) {
      const table = formatSummary(rows, this.#io.color);
      if (unknown.length > 0) {
        table.pop();
        pushAll(table, unknown.map(traceLine));
        table.push(summary[0]!);
      }
      this.#io.stdout(`\n${[...table, ...summary.slice(1, -1), verdict.line].join("\n")}\n`);
    }
    return verdict.exit;
  }
}

// Scores on this thread. Receipts need every result at once (they are all built before any is
// written); without them each trace is scored, rendered, written in slices and dropped, so
// memory stays flat over many files.
async function scoreHere(
  session: EvalSession,
  files: string[],
  walked: ReadonlySet<string>,
  io: CliIO,
  report: EvalReport,
  progress: Progress,
  receipts: boolean,
  oneTraceOnly: boolean,
): Promise<void> {
  const { values } = session;
  const json = values.json === true;
  const kept: Scored[] = [];
  let pending: RenderedResult[] = [];
  let count = 0;
  let filesDone = 0;
  const onRunError = (error: Error) => report.inputErrors.push(error.message);
  const reads = readTraceFiles(files, io, session.run.settings.format, {
    walked,
    collectErrors: true,
    onRunError,
  });
  for await (const read of reads) {
    progress.update(++filesDone);
    if (read.stray === true || read.error !== undefined) {
      const empty = sliceOf([], json, io.color);
      report.add(
        read.error !== undefined
          ? { ...empty, unknown: [unknownOf(read.file, read.error)] }
          : { ...empty, strays: [read.file] },
      );
      continue;
    }
    const batch = read.traces;
    count += batch.length;
    if (oneTraceOnly && count > 1) {
      throw new UsageError("--final-answer applies to one trace; this run has several");
    }
    if (values["receipt-out"] !== undefined && count > 1) {
      throw new UsageError("--receipt-out takes one trace; use --receipt-dir for several");
    }
    readingNotes(batch, io, session.folder !== undefined);
    for (const named of batch) {
      const scored = session.score(named);
      if (receipts) kept.push(scored);
      else pending.push(renderScored(session, scored, io.color));
    }
    if (pending.length >= RENDER_BATCH) {
      report.add(sliceOf(pending, json, io.color));
      pending = [];
    }
  }
  if (receipts) {
    // Receipt code (hashing, paths) loads only when receipts are asked for.
    const { writeReceipts } = await import("./eval_receipts.ts");
    await writeReceipts(session.run, kept, values, io);
    pending = kept.map((scored) => renderScored(session, scored, io.color));
  }
  report.add(sliceOf(pending, json, io.color));
}

function jobsOf(value: unknown): number {
  if (value === undefined) return defaultJobs();
  const jobs = Number(value);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) {
    throw new UsageError(`--jobs ${value}: expected a whole number from 1 to 64`);
  }
  return jobs;
}

/** `toolscore eval`. */
export const evalCommand: Command = {
  name: "eval",
  summary: "score traces against a gold file or contract",
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const session = await prepareEval(args);
    const { values } = session;
    // The one folder walk; the run's own gold, contract and configuration files are left out.
    const walk = walkTracePaths(session.tracePaths, { exclude: configFiles(session) });
    for (const note of walkNotes(session.folder, walk.excluded)) io.stderr(note);
    const skippedNote = skippedEntriesNote(walk.skipped);
    if (skippedNote !== undefined) io.stderr(skippedNote);
    const files = walk.files;
    const oneTraceOnly = session.run.options.finalAnswer !== undefined;
    // Several files are several traces: refuse before scoring any (a JSONL file of several
    // traces is caught as it is read).
    if (oneTraceOnly && files.length > 1) {
      throw new UsageError("--final-answer applies to one trace; this run has several");
    }
    const receipts = receiptsRequested(values);
    const json = values.json === true;
    // The report writers load only when a report flag asks for them.
    const reports = session.recordOf !== undefined ? await import("./eval_reports.ts") : undefined;
    const collector = reports && new reports.RecordCollector();
    const quiet = values.quiet === true;
    if (quiet && json) throw new UsageError("give --quiet or --json, not both");
    const verbose = values.verbose === true;
    if (quiet && verbose) throw new UsageError("give --quiet or --verbose, not both");
    // Every output is made ready (folders created, write access checked) before any scoring.
    await prepareEvalOutputs(session, files);
    // More files than get blocks are more traces than that: one line each, blocks not rendered.
    session.consoleLines = !json && (quiet || files.length > CONSOLE_BLOCKS);
    const report = new EvalReport(io, { json, quiet, verbose }, collector);
    report.gold = new GoldTally(session.folder);
    const progress = progressLine(io, "scoring", files.length);
    const jobs = jobsOf(values.jobs);
    const enough = values.jobs === undefined ? WORKER_THRESHOLD : 2 * SLICE;
    const pooled = !receipts && jobs > 1 && files.length > enough &&
      !files.includes("-") && workersAvailable();
    try {
      if (pooled) {
        let filesDone = 0;
        for await (
          const { slice, files: sliceFiles } of scoreInWorkers(
            session,
            args,
            files,
            io.color,
            jobs,
            walk.walked,
          )
        ) {
          report.add(slice);
          progress.update(filesDone += sliceFiles);
        }
      } else {
        await scoreHere(session, files, walk.walked, io, report, progress, receipts, oneTraceOnly);
      }
    } catch (error) {
      if (json && report.started) {
        io.stderr("toolscore: the --json document on stdout is incomplete: the run stopped here\n");
      }
      throw error;
    }
    progress.done();
    if (report.count === 0 && report.unknown.length === 0 && report.inputErrors.length === 0) {
      io.stderr(strayNote(report.strays) ?? "");
      throw new InputError(
        "no traces: every file found is not a trace (see the note above)",
        session.tracePaths.join(" "),
      );
    }
    const writeReports = async () => {
      if (reports && collector) {
        await reports.writeEvalReports(session, collector.records, io, report.unknown);
      }
    };
    let exit: number;
    try {
      exit = report.finish(files.length === 1 && report.count === 1, {
        gated: session.gated,
        barSource: session.barSource,
        bar: session.run.bar,
        violations: {
          asked: values["fail-on-violations"] === true,
          count: report.violations,
        },
      });
    } catch (error) {
      // The console summary failed (a closed stdout, a bug): the reports asked for are still
      // written (issue 42), then the error is reported.
      await writeReports().catch(() => {});
      throw error;
    }
    await writeReports();
    await writeRunScores(session, report.gold, files, io); // --bfcl-score, with a gold folder
    // Issue 34: a run that could not be read is an input error, after the others were scored.
    for (const message of report.inputErrors) io.stderr(`toolscore: ${clipErrorLine(message)}\n`);
    if (report.inputErrors.length > 0) return EXIT.usage;
    return exit === 2 ? EXIT.usage : exit === 1 ? EXIT.gate : EXIT.ok;
  },
};
