/**
 * The data of an `eval` run that its parts share: the session, a scored
 * trace, its rendered report, and the messages of the worker threads. Types
 * only, so the command, the session, the pool, the worker, receipts and file
 * reports all depend on this module and none on each other in a circle.
 *
 * @module
 */

import type { FormatName } from "../scoring/calls.ts";
import type { EvaluateOptions, EvaluationResult } from "../evaluate/evaluate.ts";
import type { Evidence } from "../checks/evidence.ts";
import type { Expected } from "../evaluate/expected.ts";
import type { SummaryRow } from "../report/console.ts";
import type { TraceRecord } from "../report/trace_record.ts";
import type { NamedTrace } from "./inputs.ts";
import type { UnknownTrace } from "./eval_console.ts";
import type { GoldFolderRun, GoldRow, TraceGold } from "./eval_gold_types.ts";

/** One scored trace. */
export interface Scored {
  named: NamedTrace;
  result: EvaluationResult;
  evidence: Evidence;
  passed: boolean;
  /** The passing rule's checks that failed (issue 28). */
  failedChecks: string[];
  violations: number;
  /** The wall time spent scoring it, in seconds (its JUnit `time`, issue 33). */
  seconds?: number;
  /** Its own contract and bar, when GOLD is a folder of contracts (issue 43). */
  gold?: TraceGold;
}

/** The settings that changed the result, as receipts record them. */
export interface EvalSettings {
  /** The trace format asked for. */
  format: "auto" | FormatName;
  /** Strict comparison. */
  strict: boolean;
  /** The weights given on the command line, if any. */
  weights?: Record<string, number>;
}

/** Everything an evaluation used, for receipts. */
export interface EvalRun {
  /** The gold file or contract path. */
  goldPath: string;
  /** The gold file or contract. */
  expected: Expected;
  /** The options evaluate ran with. */
  options: EvaluateOptions;
  /** Optional input files by role. */
  inputs: { forbidden?: string; honesty_config?: string; injected?: string };
  /** Settings that changed the result. */
  settings: EvalSettings;
  /** The bar. */
  bar: number;
}

/** A prepared `eval` run: its inputs loaded, ready to score traces. */
export interface EvalSession {
  /** When the run started (epoch milliseconds): the JUnit suite's `timestamp` and `time`. */
  startedAt?: number;
  /** Everything the evaluation uses (for receipts). */
  run: EvalRun;
  /** The trace arguments. */
  tracePaths: string[];
  /** Whether the bar was set explicitly. */
  gated: boolean;
  /** Where the bar came from. */
  barSource: "flag" | "contract" | "default";
  /** The parsed flags' values. */
  values: Record<string, unknown>;
  /** Score one trace. */
  score(named: NamedTrace): Scored;
  /** The file reports' record of a scored trace; absent when no report is asked for. */
  recordOf?: (scored: Scored) => TraceRecord | undefined;
  /**
   * The console prints one line per trace (`--quiet`, or more files than
   * get blocks): the blocks are not rendered.
   */
  consoleLines?: boolean;
  /** GOLD as a folder of contracts (issue 43): each trace is scored against its own. */
  folder?: GoldFolderRun;
}

/** One trace's report, rendered (so worker threads can send it as plain data). */
export interface RenderedResult {
  /** The console block, or the JSON document with `--json`. */
  text: string;
  /** Its summary row. */
  row: SummaryRow;
  /** Forbidden-rule violations plus credential findings. */
  violations: number;
  /** The file reports' record, when one is asked for. */
  record?: TraceRecord;
  /** Its row of the gold folder's summary (issue 43). */
  gold?: GoldRow;
}

/**
 * The reports of consecutive traces, ready to write: what a worker thread
 * sends back (its bytes transferred, not copied) and what the command writes.
 */
export interface RenderedSlice {
  /**
   * The traces' texts joined (`,\n` between JSON documents, a blank line
   * between console blocks), control characters escaped as `runCli` escapes
   * stdout, UTF-8 encoded. Empty when the slice holds no trace.
   */
  bytes: Uint8Array;
  /** The traces' summary rows, in order. */
  rows: SummaryRow[];
  /** Forbidden-rule violations plus credential findings, summed. */
  violations: number;
  /** The file reports' records, when one is asked for. */
  records: TraceRecord[];
  /** The text of the slice's only trace, when it holds exactly one (unescaped). */
  single?: string;
  /** What the readers said about the slice's files: stderr lines, in file order. */
  notes?: string[];
  /** Files of a folder that are clearly not traces, skipped (issue 32). */
  strays?: string[];
  /** Files of a folder that hold tool calls and could not be read: outcome unknown. */
  unknown?: UnknownTrace[];
  /** Runs of run files that could not be read (issue 34), for the command to report. */
  inputErrors?: string[];
  /** The traces' rows of the gold folder's summary, in order (issue 43). */
  gold?: GoldRow[];
}

/** What a worker is asked to do. */
export interface WorkerRequest {
  /** The `eval` arguments, to prepare the session. */
  args: string[];
  /** The slice's files. */
  files: string[];
  /** Those of them that came from a folder walk (see `readTraceFiles`). */
  walked: string[];
  /** The console prints one line per trace: blocks are not rendered. */
  consoleLines: boolean;
  /** Whether to colour console output. */
  color: boolean;
  /** The slice's position. */
  id: number;
}

/** What a worker answers. */
export type WorkerReply =
  | { id: number; slice: RenderedSlice }
  | { id: number; error: { name: string; message: string } };
