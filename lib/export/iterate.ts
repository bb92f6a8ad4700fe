/**
 * Run records from inputs of every kind, mixed: `toolscore agent run` JSONL
 * (streamed line by line, so a file of a million rows is never held whole),
 * trace files in any supported format, and receipts.
 *
 * How an input is recognized: a `.jsonl` file whose first row is an agent-run
 * row (`schema: "toolscore.agent_run/…"`, `arm_id`, `task_id`, or an exported
 * record) is agent-run rows; any other `.jsonl` file is traces. Any other
 * file holding a JSON object with `receipt_version` is a receipt; anything
 * else is a trace. A folder is the trace files of the one folder walk
 * (`lib/formats/trace_folder.ts`, issue 32; before, a folder was an error):
 * its receipts are left out like the gold file, and a file that is clearly
 * not a trace gives no record (`onStray`).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename, resolve } from "node:path";
import { isJsonObject, type Trace } from "../scoring/calls.ts";
import { sha256Hex } from "../base/canonical.ts";
import { InputError, ToolscoreError } from "../base/errors.ts";
import type { EvaluationResult } from "../evaluate/evaluate.ts";
import {
  evaluateExpected,
  type Expected,
  expectedMinScore,
  loadExpected,
} from "../evaluate/expected.ts";
import { tracesFromText, tracesFromValue } from "../formats/detect.ts";
import { runLabel } from "../formats/runs.ts";
import { isStrayText, walkTracePaths } from "../formats/trace_folder.ts";
import { fileLineBlocks, type Line, parseJsonLine, textLines } from "../base/jsonl_lines.ts";
import { decodeUtf8, fileError, parseDocument } from "../base/load.ts";
import { readFileCapped } from "../base/read_limits.ts";
import { fileDigest } from "../receipts/digest.ts";
import { DEFAULT_TASK_PATTERN } from "../stats/traces.ts";
import { isStemNamedRecord, RunRowIndex } from "../stats/duplicates.ts";
import {
  identityOfStem,
  recordFromFieldsAsync,
  recordFromTrace,
  runFields,
  type RunIdentity,
} from "./record.ts";
import { recordFromReceiptFile } from "./receipt.ts";
import type { RecordSource, RunRecord } from "./schema.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** Options for {@linkcode exportRecords} and {@linkcode iterateRecords}. */
export interface ExportRecordsOptions {
  /**
   * A gold file or contract (a path, or one already loaded) to score traces
   * against; receipts carry their own. Without it, trace records are
   * `unknown` with their score fields `null`.
   * @default {undefined}
   */
  gold?: string | Expected;
  /**
   * The variant of traces and receipts (`""` leaves it `null`).
   * @default {""}
   */
  variant?: string;
  /**
   * The passing score of traces and receipts; for traces the contract's
   * `min_score` when absent, else 0.9; receipts keep their own verdict when absent.
   * @default {undefined}
   */
  minScore?: number;
  /**
   * A regex with a `task` group, applied to trace and receipt file stems.
   * @default {"^(?<task>.+?)(?:[-_.]r?\\d+)?$"}
   */
  taskPattern?: string | RegExp;
  /**
   * Told about every file of a folder input that is clearly not a trace (no
   * trace shape, no tool-call content: a `package.json`); it gives no record.
   * @default {undefined}
   */
  onStray?: (path: string) => void;
  /**
   * Told each note: agent-run rows given twice are exported once (the check
   * `compare` uses; two different rows of one run are an error).
   * @default {undefined} (notes are dropped)
   */
  onNote?: (text: string) => void;
}

/** Options for {@linkcode iterateRecords}: the same as {@linkcode ExportRecordsOptions}. */
export type IterateRecordsOptions = ExportRecordsOptions;

/**
 * The former name of {@linkcode ExportRecordsOptions}.
 *
 * @deprecated Use {@linkcode ExportRecordsOptions}; this alias goes in the next release.
 */
export type ExportOptions = ExportRecordsOptions;

/** What every input reader needs. */
interface Context {
  expected: Expected | undefined;
  variant: string | null;
  minScore: number | undefined;
  taskPattern: string | RegExp;
  onStray?: (path: string) => void;
  /** The agent-run rows seen, so that no run is exported twice. */
  rows: RunRowIndex;
}

/** Whether a parsed JSONL row is an agent-run row or an exported record. */
function isRunRow(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (typeof value.schema === "string" && value.schema.startsWith("toolscore.agent_run/")) {
    return true;
  }
  return value.record_type === "run" || "arm_id" in value || "task_id" in value;
}

/** The file name without its extension (`.receipt.json` counts as one). */
function stemOf(path: string): string {
  const name = basename(path);
  if (name.toLowerCase().endsWith(".receipt.json")) return name.slice(0, -".receipt.json".length);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The first non-blank line of a file, parsed (`undefined` when there is none or it is not JSON). */
async function firstRow(path: string): Promise<{ found: boolean; value: unknown }> {
  for await (const block of fileLineBlocks(path)) {
    for (const { text } of block) {
      if (text.trim() === "") continue;
      try {
        return { found: true, value: parseJsonLossless(text) };
      } catch {
        return { found: true, value: undefined };
      }
    }
  }
  return { found: false, value: undefined };
}

function located(error: unknown, where: string): unknown {
  if (error instanceof InputError) {
    return new InputError(error.message, where, { cause: error });
  }
  return error;
}

async function* runRowRecords(path: string, rows: RunRowIndex): AsyncGenerator<RunRecord> {
  const { sha256 } = await fileDigest(path);
  const hash = createHash("sha256");
  for await (const block of fileLineBlocks(path, hash)) {
    const pending: Promise<RunRecord>[] = [];
    const lines: number[] = [];
    for (const { text, line } of block) {
      if (text.trim() === "") continue;
      const row = parseJsonLine(text, `${path}:${line}`);
      try {
        const fields = runFields(row, { kind: "agent_run", path, sha256, line });
        const run = {
          variant: fields.variant ?? "",
          task: fields.task ?? "",
          repeat: fields.repeat,
          runId: fields.run_id ?? "",
        };
        if (!rows.add(run, row, { file: path, line }, { stemNamed: isStemNamedRecord(row) })) {
          continue;
        }
        // Hashed together: one await per block rather than one per line.
        pending.push(recordFromFieldsAsync(fields));
        lines.push(line);
      } catch (error) {
        throw located(error, `${path}:${line}`);
      }
    }
    const settled = await Promise.allSettled(pending);
    for (const [i, outcome] of settled.entries()) {
      if (outcome.status === "rejected") throw located(outcome.reason, `${path}:${lines[i]}`);
      yield outcome.value;
    }
  }
  if (hash.digest("hex") !== sha256) {
    throw new InputError("changed while it was being exported; export it again", path);
  }
}

async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return await readFileCapped(path);
  } catch (error) {
    throw fileError(error, path);
  }
}

function evaluateOne(trace: Trace, context: Context, where: string): EvaluationResult | null {
  if (context.expected === undefined) return null;
  try {
    return evaluateExpected(context.expected, trace);
  } catch (error) {
    if (error instanceof ToolscoreError && !(error instanceof InputError)) {
      throw new InputError(`cannot be scored (${error.message})`, where, { cause: error });
    }
    throw located(error, where);
  }
}

function traceRecords(
  path: string,
  bytes: Uint8Array,
  text: string,
  parsed: { ok: true; value: unknown } | { ok: false },
  context: Context,
): RunRecord[] {
  const sha256 = sha256Hex(bytes);
  const stem = stemOf(path);
  const identity = identityOfStem(stem, context.taskPattern);
  const minScore = context.minScore ??
    (context.expected === undefined ? undefined : expectedMinScore(context.expected)) ?? 0.9;
  const traces = parsed.ok
    ? tracesFromValue(parsed.value, { source: path })
    : tracesFromText(text, path);
  // One trace per JSONL line: each line is its own run, hashed on its own.
  const lines: Line[] = [];
  if (traces.length > 1 || path.toLowerCase().endsWith(".jsonl")) {
    for (const line of textLines(text)) if (line.text.trim() !== "") lines.push(line);
  }
  const perLine = traces.length > 1 && traces.length === lines.length;
  return traces.map((trace, i) => {
    const at = perLine ? lines[i]! : undefined;
    const where = at === undefined ? path : `${path}:${at.line}`;
    // A run of a run file (tau-bench…) names its task and trial itself.
    const runIdentity: RunIdentity = trace.run !== undefined
      ? {
        runId: `${stem}${runLabel(trace.run)}`,
        task: trace.run.task,
        repeat: trace.run.trial ?? null,
      }
      : at === undefined
      ? identity
      : { ...identity, runId: `${stem}:${at.line}` };
    const source: RecordSource = { kind: "trace", path, sha256, line: at?.line ?? null };
    try {
      return recordFromTrace(trace, source, {
        identity: runIdentity,
        variant: context.variant,
        result: evaluateOne(trace, context, where),
        minScore,
        traceSha256: at === undefined ? sha256 : sha256Hex(at.text),
      });
    } catch (error) {
      throw located(error, where);
    }
  });
}

async function* inputRecords(
  path: string,
  context: Context,
  walked: boolean,
): AsyncGenerator<RunRecord> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    throw fileError(error, path);
  }
  if (info.isDirectory) throw new InputError("is a directory, expected a file", path);
  if (path.toLowerCase().endsWith(".jsonl")) {
    const first = await firstRow(path);
    // An empty file is not "no runs happened": an export of nothing would hide it.
    if (!first.found) throw new InputError("no records: the file has no JSON lines", path);
    if (isRunRow(first.value)) {
      yield* runRowRecords(path, context.rows);
      return;
    }
  }
  const bytes = await readBytes(path);
  const text = decodeUtf8(bytes, path);
  let parsed: { ok: true; value: unknown } | { ok: false };
  try {
    parsed = { ok: true, value: parseDocument(text, path) };
  } catch {
    parsed = { ok: false };
  }
  if (parsed.ok && isJsonObject(parsed.value) && "receipt_version" in parsed.value) {
    const stem = stemOf(path);
    yield await recordFromReceiptFile(path, bytes, {
      identity: identityOfStem(stem, context.taskPattern),
      variant: context.variant,
      minScore: context.minScore,
    });
    return;
  }
  let records: RunRecord[];
  try {
    records = traceRecords(path, bytes, text, parsed, context);
  } catch (error) {
    // A file of a folder that is clearly not a trace (a package.json) gives no record.
    if (walked && error instanceof ToolscoreError && isStrayText(text)) {
      context.onStray?.(path);
      return;
    }
    throw error;
  }
  yield* records;
}

/**
 * The run records of agent-run JSONL files, trace files and receipts, as an
 * async iterable: agent-run files are streamed, so memory stays bounded
 * however many rows they hold. Pass it to {@linkcode writeExport}.
 *
 * @param inputs The files, in order; a file given twice is read once.
 * @param options Gold file, variant, passing score, task pattern.
 * @returns The records, in input order (then line order).
 * @throws {InputError} On an unreadable input, a bad row or an unrecognized
 *   trace, naming the file (and line); nothing is skipped silently.
 *
 * @example Usage
 * ```ts ignore
 * import { iterateRecords, writeExport } from "@toolscore/cli";
 *
 * const inputs = ["runs.jsonl"];
 * await writeExport("out.jsonl", iterateRecords(inputs), inputs);
 * ```
 */
export async function* iterateRecords(
  inputs: Iterable<string>,
  options: IterateRecordsOptions = {},
): AsyncGenerator<RunRecord> {
  // A file given twice (a glob and its name, `a.jsonl` and `./a.jsonl`) is read once:
  // its runs counted twice would skew every rate computed from the export.
  const gold = options.gold;
  // A folder is the one folder walk's trace files (issue 32), the gold file left out.
  const walk = walkTracePaths([...inputs], {
    exclude: [typeof gold === "string" ? gold : undefined],
  });
  const seen = new Set<string>();
  const paths = walk.files.filter((path) => !seen.has(resolve(path)) && seen.add(resolve(path)));
  const context: Context = {
    expected: gold === undefined
      ? undefined
      : typeof gold === "string"
      ? await loadExpected(gold)
      : gold,
    variant: options.variant === undefined || options.variant === "" ? null : options.variant,
    minScore: options.minScore,
    taskPattern: options.taskPattern ?? DEFAULT_TASK_PATTERN,
    onStray: options.onStray,
    rows: new RunRowIndex(),
  };
  for (const path of paths) yield* inputRecords(path, context, walk.walked.has(path));
  for (const note of context.rows.notes()) options.onNote?.(note);
}

/**
 * The run records of agent-run JSONL files, trace files and receipts, as a
 * list (use {@linkcode iterateRecords} for large inputs).
 *
 * @param inputs The files, in order; a file given twice is read once.
 * @param options Gold file, variant, passing score, task pattern.
 * @returns The records, in input order.
 * @throws {InputError} On an unreadable input, naming it.
 *
 * @example Usage
 * ```ts ignore
 * import { exportRecords } from "@toolscore/cli";
 *
 * const records = await exportRecords(["traces/run-1.json"], { gold: "contract.yaml", variant: "mini" });
 * console.log(records[0]?.score);
 * ```
 */
export async function exportRecords(
  inputs: Iterable<string>,
  options: ExportRecordsOptions = {},
): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  for await (const record of iterateRecords(inputs, options)) records.push(record);
  return records;
}
