/**
 * Turning trace arguments into traces: files, directories (the `*.json` and
 * `*.jsonl` files directly in them, sorted by name, not recursive) and `-`
 * for standard input. A JSONL file of several traces yields one named trace
 * per line (`runs.jsonl[3]`).
 *
 * @module
 */

import type { FormatName, Trace } from "../scoring/calls.ts";
import { withHeavy } from "../base/_lazy.ts";
import { InputError } from "../base/errors.ts";
import { tracesFromText } from "../formats/detect.ts";
import { fileError } from "../base/load.ts";
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
      if (lower.endsWith(".json") || lower.endsWith(".jsonl")) {
        // Receipts sit beside traces; they are not traces.
        if (!lower.endsWith(".receipt.json")) files.push(entry.name);
      }
    }
  } catch (error) {
    throw fileError(error, path);
  }
  if (files.length === 0) {
    throw new InputError("no *.json or *.jsonl trace files in this directory", path);
  }
  files.sort();
  const sep = path.endsWith("/") ? "" : "/";
  return files.map((name) => `${path}${sep}${name}`);
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
): AsyncGenerator<NamedTrace[]> {
  for (const file of files) {
    let text: string;
    if (file === "-") text = await io.stdin();
    else {
      try {
        text = Deno.readTextFileSync(file);
      } catch (error) {
        throw fileError(error, file);
      }
    }
    const source = file === "-" ? "<stdin>" : file;
    const name = file === "-" ? stdinName(text) : file;
    // A JSONC or YAML trace, or a JSON error's position, loads the parsers on demand.
    const traces = await withHeavy(() => tracesFromText(text, name, { format }));
    yield traces.map((trace, i) => ({
      name: traces.length === 1 ? source : `${source}[${i + 1}]`,
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
