/**
 * Turning trace arguments into traces: files, directories (the `*.json` and
 * `*.jsonl` and `*.sse` files directly in them, and `.txt`/`.log` files that
 * start like a saved stream, sorted by name, not recursive) and `-` for
 * standard input. A JSONL file of several traces yields one named trace per
 * line (`runs.jsonl[3]`); a run file (τ-bench…) one per run
 * (`runs.json[task#trial]`).
 *
 * @module
 */

import type { FormatName, Trace } from "../scoring/calls.ts";
import { withHeavy } from "../base/_lazy.ts";
import { InputError } from "../base/errors.ts";
import { tracesFromText } from "../formats/detect.ts";
import { runLabel } from "../formats/runs.ts";
import { looksLikeSse } from "../formats/sse.ts";
import { fileError, readUtf8FileSync } from "../base/load.ts";
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
 * The files an argument names: itself, or a directory's `*.json` / `*.jsonl`
 * files sorted by name.
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
  if (path === "-") return ["-"];
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    throw fileError(error, path);
  }
  if (!info.isDirectory) return [path];
  const files: string[] = [];
  try {
    for (const entry of Deno.readDirSync(path)) {
      if (!entry.isFile) continue;
      const lower = entry.name.toLowerCase();
      if (lower.endsWith(".json") || lower.endsWith(".jsonl") || lower.endsWith(".sse")) {
        // Receipts sit beside traces; they are not traces.
        if (!lower.endsWith(".receipt.json")) files.push(entry.name);
      } else if (
        (lower.endsWith(".txt") || lower.endsWith(".log")) &&
        looksLikeTraceText(`${path}/${entry.name}`)
      ) {
        // Saved streams: SSE text or JSON lines; a README.txt beside the traces is not one.
        files.push(entry.name);
      }
    }
  } catch (error) {
    throw fileError(error, path);
  }
  if (files.length === 0) {
    throw new InputError(
      "no *.json, *.jsonl or *.sse trace files (or .txt/.log streams) in this directory",
      path,
    );
  }
  files.sort();
  const sep = path.endsWith("/") ? "" : "/";
  return files.map((name) => `${path}${sep}${name}`);
}

/** Whether a .txt/.log file starts like a trace: SSE fields or a JSON value (first 4 KiB). */
function looksLikeTraceText(file: string): boolean {
  let head: string;
  try {
    const handle = Deno.openSync(file);
    try {
      const buffer = new Uint8Array(4096);
      const n = handle.readSync(buffer) ?? 0;
      head = new TextDecoder().decode(buffer.subarray(0, n));
    } finally {
      handle.close();
    }
  } catch (error) {
    throw fileError(error, file);
  }
  const first = head.replace(/^\uFEFF/, "").trimStart()[0];
  return first === "{" || first === "[" || looksLikeSse(head);
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
  for (const file of files) {
    let text: string;
    if (file === "-") text = await io.stdin();
    else {
      text = readUtf8FileSync(file); // strict: invalid UTF-8 is an error
    }
    const source = file === "-" ? "<stdin>" : file;
    const name = file === "-" ? stdinName(text) : file;
    // A JSONC or YAML trace, or a JSON error's position, loads the parsers on demand.
    const traces = await withHeavy(() => tracesFromText(text, name, { format, onRunError }));
    yield traces.map((trace, i) => ({
      name: traceName(source, trace, i, traces.length),
      file,
      trace,
    }));
  }
}

/**
 * Read every trace the arguments name.
 *
 * @param paths Files, directories or `-`.
 * @param io For standard input.
 * @param format The format, or `auto`.
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
): Promise<NamedTrace[]> {
  const out: NamedTrace[] = [];
  for await (const batch of iterateTraceFiles(paths.flatMap(expandTraceArgument), io, format)) {
    out.push(...batch);
  }
  return out;
}
