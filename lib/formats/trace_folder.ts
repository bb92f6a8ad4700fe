/**
 * The one folder walk (issue 32), shared by `eval`, `inspect`,
 * `compare --traces`, `contract init` and `export`: a directory's files whose
 * extension a reader claims ({@linkcode TRACE_EXTENSIONS}: `.json`, `.jsonl`,
 * `.sse` always, `.txt`/`.log` when they start like a trace — a JSON value,
 * SSE fields or MCP client log lines such as Claude Desktop's `mcp*.log`),
 * sorted by name, not recursive. Receipts (`*.receipt.json`) sit beside
 * traces and are not traces; files the run names as its gold file or
 * contract (`exclude`) are left out and listed, so the caller can say so.
 *
 * A file the walk found that no reader recognizes is not always an error: a
 * `package.json`, `tsconfig.json` or lock file beside the traces holds no
 * tool-call content at all ({@linkcode isStrayText}), and the callers skip it
 * with one note. A file that does hold tool-call content (`tool_calls`,
 * `tools/call`, `"calls":`…) and cannot be read stays an error — never a
 * silent zero.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { fileError } from "../base/load.ts";
import { InputError } from "../base/errors.ts";
import { looksLikeSse } from "./sse.ts";
import { isMcpLogText } from "./mcp_recordings.ts";
import { TRACE_EXTENSIONS } from "./trace_extensions.ts";

/** Options for {@linkcode walkTracePaths}. */
export interface WalkTracePathsOptions {
  /**
   * Files a folder walk leaves out: the run's gold file, contract and other
   * configuration files. A file named on its own is kept.
   * @default {[]}
   */
  exclude?: readonly (string | undefined)[];
}

/** What {@linkcode walkTracePaths} found. */
export interface TraceWalk {
  /** The trace files, in argument order, each folder's sorted by name. */
  files: string[];
  /** The files that came from a folder walk (not named on their own). */
  walked: Set<string>;
  /** Files of `exclude` a folder held, left out of the walk. */
  excluded: string[];
}

// How much of a .txt/.log file is looked at: an MCP log's first message may follow a few
// startup lines.
const SNIFF_BYTES = 16 * 1024;

/** Whether a `.txt`/`.log` file starts like a trace: a JSON value, SSE fields or MCP log lines. */
function looksLikeTraceText(file: string): boolean {
  let head: string;
  try {
    const handle = Deno.openSync(file);
    try {
      const buffer = new Uint8Array(SNIFF_BYTES);
      const n = handle.readSync(buffer) ?? 0;
      head = new TextDecoder().decode(buffer.subarray(0, n));
    } finally {
      handle.close();
    }
  } catch (error) {
    throw fileError(error, file);
  }
  const first = head.replace(/^\uFEFF/, "").trimStart()[0];
  return first === "{" || first === "[" || looksLikeSse(head) || isMcpLogText(head);
}

function claimed(name: string): { extension: string; sniffed: boolean } | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith(".receipt.json")) return undefined; // receipts sit beside traces
  return TRACE_EXTENSIONS.find((entry) => lower.endsWith(entry.extension));
}

/**
 * The trace files of a directory (see the module doc), sorted by name.
 *
 * @param folder The directory.
 * @returns The file names (not paths), sorted.
 * @throws {InputError} When the directory cannot be read.
 *
 * @example Usage
 * ```ts
 * import { traceFilesIn } from "./trace_folder.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/b.json`, "[]");
 * Deno.writeTextFileSync(`${dir}/a.jsonl`, "[]\n");
 * Deno.writeTextFileSync(`${dir}/a.receipt.json`, "{}");
 * Deno.writeTextFileSync(`${dir}/README.txt`, "not a trace");
 * assert.deepEqual(traceFilesIn(dir), ["a.jsonl", "b.json"]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function traceFilesIn(folder: string): string[] {
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      if (!entry.isFile) continue;
      const claim = claimed(entry.name);
      if (claim === undefined) continue;
      if (!claim.sniffed || looksLikeTraceText(join(folder, entry.name))) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw fileError(error, folder);
  }
  return names.sort();
}

/**
 * The trace files trace arguments name: a file is itself, `-` is standard
 * input, a directory is its trace files ({@linkcode traceFilesIn}) less the
 * files of `exclude`.
 *
 * @param paths Files, directories or `-`.
 * @param options The files a folder walk leaves out.
 * @returns The files, which came from a folder walk, and which were left out.
 * @throws {InputError} When a path does not exist, or a directory holds no trace file.
 *
 * @example Usage
 * ```ts
 * import { walkTracePaths } from "./trace_folder.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/gold.json`, "[]");
 * Deno.writeTextFileSync(`${dir}/run.json`, "[]");
 * const walk = walkTracePaths([dir], { exclude: [`${dir}/gold.json`] });
 * assert.deepEqual(walk.files, [`${dir}/run.json`]);
 * assert.deepEqual(walk.excluded, [`${dir}/gold.json`]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function walkTracePaths(
  paths: readonly string[],
  options: WalkTracePathsOptions = {},
): TraceWalk {
  const left = new Set<string>();
  for (const path of options.exclude ?? []) {
    if (path !== undefined && path !== "-") left.add(realOrResolved(path));
  }
  const walk: TraceWalk = { files: [], walked: new Set(), excluded: [] };
  for (const path of paths) {
    if (path === "-") {
      walk.files.push(path);
      continue;
    }
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch (error) {
      throw fileError(error, path);
    }
    if (!info.isDirectory) {
      walk.files.push(path);
      continue;
    }
    const names = traceFilesIn(path);
    const sep = path.endsWith("/") ? "" : "/";
    let kept = 0;
    for (const name of names) {
      const file = `${path}${sep}${name}`;
      if (left.size > 0 && left.has(realOrResolved(file))) {
        walk.excluded.push(file);
        continue;
      }
      walk.files.push(file);
      walk.walked.add(file);
      kept++;
    }
    if (kept === 0) {
      throw new InputError(
        names.length === 0
          ? "no *.json, *.jsonl or *.sse trace files (or .txt/.log streams) in this directory"
          : "no trace files in this directory besides the gold file or contract of this run",
        path,
      );
    }
  }
  return walk;
}

function realOrResolved(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return resolve(path);
  }
}

// Words only a trace (or a broken one) holds: a tool call of some reader's shape.
const TOOL_CONTENT =
  /tool_?calls?|tool_?use|tool_?name|tool_?result|function_?call|tools\/call|"(?:calls|tool|arguments|args|function|functionResponse)"\s*:/i;

/**
 * Whether a file's text holds no tool-call content at all — no `tool_calls`,
 * `tool_use`, `functionCall`, `tools/call`, no `"calls"`, `"tool"`,
 * `"arguments"` or `"args"` key — so a folder walk that found it and no
 * reader recognized it may skip it (a `package.json`, `tsconfig.json`, lock
 * file) instead of failing the run. A text with such content that cannot be
 * read stays an error.
 *
 * @param text The file's text.
 * @returns `true` when the text is clearly not a trace.
 *
 * @example Usage
 * ```ts
 * import { isStrayText } from "./trace_folder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isStrayText('{"name": "app", "scripts": {"test": "deno test"}}'), true);
 * assert.equal(isStrayText('{"messages": [{"tool_calls": [{"id": "1"'), false);
 * assert.equal(isStrayText('[{"tool": "search", "args": {}}'), false);
 * ```
 */
export function isStrayText(text: string): boolean {
  return !TOOL_CONTENT.test(text);
}
