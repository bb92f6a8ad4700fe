/**
 * Turning trace arguments into traces: files, directories (the one folder
 * walk of `lib/formats/trace_folder.ts`: the files whose extension a reader
 * claims, sorted by name, not recursive) and `-` for standard input. A JSONL file of several traces yields one named trace per
 * line (`runs.jsonl[3]`); a run file (τ-bench…) one per run
 * (`runs.json[task#trial]`).
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import type { FormatName, Trace } from "../scoring/calls.ts";
import { withHeavy } from "../base/_lazy.ts";
import { InputError, ToolscoreError } from "../base/errors.ts";
import { tracesFromText } from "../formats/detect.ts";
import { runLabel } from "../formats/runs.ts";
import { isStrayText, skippedEntriesNote, walkTracePaths } from "../formats/trace_folder.ts";
import { fileError, readUtf8FileSync } from "../base/load.ts";
import { isZipFile, tracesFromEvalZip } from "../formats/inspect_zip.ts";
import { readFileCappedSync } from "../base/read_limits.ts";
import type { CliIO } from "./command.ts";

/** One trace read from an argument. */
export interface NamedTrace {
  /** The file (or `-`), with `[n]` for the n-th trace of a multi-trace file. */
  name: string;
  /** The file the trace came from (`-` for stdin). */
  file: string;
  /** The trace. */
  trace: Trace;
}

/**
 * The files an argument names: itself, or a directory's trace files (the one
 * folder walk, `lib/formats/trace_folder.ts`).
 *
 * @param path A file, a directory or `-`.
 * @returns The file paths.
 * @throws {InputError} When the path does not exist or a directory has no traces.
 *
 * @example Usage
 * ```ts ignore
 * import { expandTraceArgument } from "./inputs.ts";
 *
 * const files = expandTraceArgument("testdata/demo");
 * ```
 */
export function expandTraceArgument(path: string): string[] {
  return walkTracePaths([path]).files;
}

/**
 * The name of the i-th of n traces read from one file: the file itself for
 * one trace, `FILE[task]` or `FILE[task#trial]` for a run of a run file, else
 * `FILE[i]` (1-based).
 *
 * @param source The file name (`<stdin>` for standard input).
 * @param trace The trace.
 * @param index Its 0-based position in the file.
 * @param count How many traces the file holds.
 * @returns The name.
 *
 * @example Usage
 * ```ts
 * import { traceName } from "./inputs.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(traceName("runs.json", { calls: [], format: "tau-bench", run: { task: "3", trial: 0 } }, 0, 2), "runs.json[3#0]");
 * assert.equal(traceName("runs.jsonl", { calls: [], format: "custom" }, 1, 2), "runs.jsonl[2]");
 * ```
 */
export function traceName(source: string, trace: Trace, index: number, count: number): string {
  if (trace.run !== undefined) return `${source}${runLabel(trace.run)}`;
  return count === 1 ? source : `${source}[${index + 1}]`;
}

// Standard input has no extension: JSONL when the whole text is not one JSON document.
function stdinName(text: string): string {
  try {
    JSON.parse(text);
    return "<stdin>.json";
  } catch {
    return text.trim().includes("\n") ? "<stdin>.jsonl" : "<stdin>.json";
  }
}

/** One file read by {@linkcode readTraceFiles}. */
export interface TraceFileRead {
  /** The file (or `-`). */
  file: string;
  /** Its traces; none when it was skipped or could not be read. */
  traces: NamedTrace[];
  /** A file of a folder walk that is clearly not a trace (`package.json`): skipped. */
  stray?: boolean;
  /** A file of a folder walk that holds tool calls and cannot be read: why. */
  error?: ToolscoreError;
}

/** Options for {@linkcode readTraceFiles}. */
export interface ReadTraceFilesOptions {
  /**
   * The files that came from a folder walk: one of them that no reader
   * recognizes is skipped when it holds no tool-call content, and reported
   * (not thrown) when it does. Any other file that cannot be read throws.
   * @default {new Set()}
   */
  walked?: ReadonlySet<string>;
  /**
   * Whether a walked file that holds tool calls and cannot be read is
   * reported in `error` rather than thrown.
   * @default {false}
   */
  collectErrors?: boolean;
  /**
   * Told about each run of a run file that cannot be read (issue 34): the
   * other runs are read. Without it, the first bad run throws.
   * @default {undefined}
   */
  onRunError?: (error: InputError) => void;
}

function readBytes(file: string): Uint8Array {
  try {
    return Deno.readFileSync(file);
  } catch (error) {
    throw fileError(error, file);
  }
}

async function readZip(
  file: string,
  format: "auto" | FormatName,
): Promise<{ text: string; traces: NamedTrace[] }> {
  const traces = await withHeavy(() => tracesFromEvalZip(readBytes(file), file, { format }));
  return {
    text: "",
    traces: traces.map((trace, i) => ({
      name: traceName(file, trace, i, traces.length),
      file,
      trace,
    })),
  };
}

async function readOne(
  file: string,
  io: CliIO,
  format: "auto" | FormatName,
  onRunError?: (error: InputError) => void,
): Promise<{ text: string; traces: NamedTrace[] }> {
  // Issue 35: a zip (Inspect's .eval) is told by its bytes. A `.eval` file is looked at before
  // any text decoding; any other file only when it is not UTF-8 or its text starts with the
  // zip's four ASCII bytes, so the common text file pays nothing (the sniff is an extra open).
  const zipped = file !== "-" && file.toLowerCase().endsWith(".eval") && isZipFile(file);
  let text = "";
  if (!zipped) {
    try {
      text = file === "-" ? await io.stdin() : readUtf8FileSync(file); // strict UTF-8
    } catch (error) {
      if (!(error instanceof InputError) || file === "-" || !isZipFile(file)) throw error;
      return await readZip(file, format);
    }
  }
  if (zipped || (file !== "-" && text.startsWith("PK\x03\x04") && isZipFile(file))) {
    return await readZip(file, format);
  }
  const source = file === "-" ? "<stdin>" : file;
  const name = file === "-" ? stdinName(text) : file;
  // A JSONC or YAML trace, or a JSON error's position, loads the parsers on demand.
  const traces = await withHeavy(() => tracesFromText(text, name, { format, onRunError }));
  return {
    text,
    traces: traces.map((trace, i) => ({
      name: traceName(source, trace, i, traces.length),
      file,
      trace,
    })),
  };
}

/**
 * Read the traces of files one file at a time, telling stray files of a
 * folder walk (skipped) and unreadable ones apart.
 *
 * @param files File paths (see {@linkcode walkTracePaths}) or `-`.
 * @param io For standard input.
 * @param format The format, or `auto`.
 * @param options Which files came from a folder walk; whether to collect their errors.
 * @returns Per file, its traces, or why it has none.
 * @throws {InputError} On a file named on its own that cannot be read or recognized.
 *
 * @example Usage
 * ```ts ignore
 * import { readTraceFiles } from "./inputs.ts";
 *
 * for await (const read of readTraceFiles(["a.json"], io, "auto")) console.log(read.traces.length);
 * ```
 */
export async function* readTraceFiles(
  files: readonly string[],
  io: CliIO,
  format: "auto" | FormatName,
  options: ReadTraceFilesOptions = {},
): AsyncGenerator<TraceFileRead> {
  const walked = options.walked ?? new Set<string>();
  for (const file of files) {
    if (!walked.has(file)) {
      yield { file, ...(await readOne(file, io, format, options.onRunError)) };
      continue;
    }
    try {
      yield { file, ...(await readOne(file, io, format, options.onRunError)) };
    } catch (error) {
      if (!(error instanceof ToolscoreError)) throw error;
      let text: string | undefined;
      try {
        text = new TextDecoder().decode(readFileCappedSync(file));
      } catch {
        text = undefined;
      }
      if (text !== undefined && isStrayText(text)) yield { file, traces: [], stray: true };
      else if (options.collectErrors === true) yield { file, traces: [], error };
      else throw error;
    }
  }
}

/**
 * The one note about a folder walk's stray files, or `undefined` when there
 * were none.
 *
 * @param files The skipped files.
 * @returns The stderr line.
 *
 * @example Usage
 * ```ts
 * import { strayNote } from "./inputs.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(strayNote(["runs/package.json"])!, /skipped 1 file that is not a trace .*runs\/package\.json/);
 * assert.equal(strayNote([]), undefined);
 * ```
 */
export function strayNote(files: readonly string[]): string | undefined {
  if (files.length === 0) return undefined;
  const shown = files.length <= 10
    ? files.join(", ")
    : `${files.slice(0, 10).join(", ")} and ${files.length - 10} more`;
  const what = files.length === 1
    ? "1 file that is not a trace"
    : `${files.length} files that are not traces`;
  return `toolscore: note: skipped ${what} (no trace shape, no tool calls): ${shown}\n`;
}

/**
 * The one note about files a folder walk left out because the run names them
 * as its gold file, contract or configuration, or `undefined` when none.
 *
 * @param files The files left out.
 * @returns The stderr line.
 *
 * @example Usage
 * ```ts
 * import { excludedNote } from "./inputs.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(excludedNote(["data/gold.json"])!, /left data\/gold\.json out of the traces/);
 * ```
 */
export function excludedNote(files: readonly string[]): string | undefined {
  if (files.length === 0) return undefined;
  return `toolscore: note: left ${files.join(", ")} out of the traces: ` +
    `${
      files.length === 1 ? "it is" : "they are"
    } the gold file, contract or configuration of this run\n`;
}

/**
 * Read the traces of files one file at a time (for long runs that must not
 * hold every trace in memory).
 *
 * @param files File paths (see {@linkcode expandTraceArgument}) or `-`.
 * @param io For standard input.
 * @param format The format, or `auto`.
 * @param onRunError Takes the error of a run of a run file that cannot be
 *   read, the other runs being read (without it, such a run throws).
 * @returns Per file, its traces.
 * @throws {InputError} On the first file that cannot be read or recognized.
 *
 * @example Usage
 * ```ts ignore
 * import { iterateTraceFiles } from "./inputs.ts";
 *
 * for await (const traces of iterateTraceFiles(["a.json"], io, "auto")) console.log(traces.length);
 * ```
 */
export async function* iterateTraceFiles(
  files: string[],
  io: CliIO,
  format: "auto" | FormatName,
  onRunError?: (error: InputError) => void,
): AsyncGenerator<NamedTrace[]> {
  for await (const read of readTraceFiles(files, io, format, { onRunError })) yield read.traces;
}

/** Options for {@linkcode readTraceArguments}. */
export interface ReadTraceArgumentsOptions {
  /**
   * Files a folder walk leaves out (the run's gold file or contract).
   * @default {[]}
   */
  exclude?: readonly (string | undefined)[];
}

/**
 * Read every trace the arguments name. A folder's stray files (no trace
 * shape, no tool calls) are skipped with one note on stderr.
 *
 * @param paths Files, directories or `-`.
 * @param io For standard input and the notes.
 * @param format The format, or `auto`.
 * @param options The files a folder walk leaves out.
 * @returns The traces, in argument order.
 * @throws {InputError} On the first file that cannot be read or recognized.
 *
 * @example Usage
 * ```ts ignore
 * import { readTraceArguments } from "./inputs.ts";
 *
 * const traces = await readTraceArguments(["runs/"], io, "auto");
 * ```
 */
export async function readTraceArguments(
  paths: string[],
  io: CliIO,
  format: "auto" | FormatName,
  options: ReadTraceArgumentsOptions = {},
): Promise<NamedTrace[]> {
  const walk = walkTracePaths(paths, { exclude: options.exclude });
  const excluded = excludedNote(walk.excluded);
  if (excluded !== undefined) io.stderr(excluded);
  const skippedNote = skippedEntriesNote(walk.skipped);
  if (skippedNote !== undefined) io.stderr(skippedNote);
  const out: NamedTrace[] = [];
  const strays: string[] = [];
  for await (const read of readTraceFiles(walk.files, io, format, { walked: walk.walked })) {
    if (read.stray === true) strays.push(read.file);
    pushAll(out, read.traces);
  }
  const note = strayNote(strays);
  if (note !== undefined) io.stderr(note);
  if (out.length === 0 && strays.length > 0) {
    throw new InputError("no traces: every file found is not a trace", paths.join(" "));
  }
  return out;
}
