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
 * Symbolic links (issue 42) are followed to the file they name, so a link to
 * a failing trace is scored like the file itself; a link to a directory is
 * not walked (the walk is not recursive). Loops are harmless: a link is
 * resolved by `stat`, which refuses a loop (`ELOOP`), and a file reached
 * twice in one folder (a link beside its target, two links to one file) is
 * read once. Every entry with a trace extension that is not read — a FIFO,
 * socket or device, a dangling link, a link loop, a second name of the same
 * file — is listed in {@linkcode TraceWalk.skipped} with its reason, and the
 * callers name them all in one note ({@linkcode skippedEntriesNote}); never
 * a silent drop. A FIFO is never opened (sniffing it would hang).
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
  /** Entries of a folder with a trace extension that are not read, with why. */
  skipped: SkippedEntry[];
}

/** An entry of a folder a walk did not read (see the module doc). */
export interface SkippedEntry {
  /** The entry's path. */
  path: string;
  /** Why: `FIFO`, `socket`, `device`, `dangling link`, `link loop`, `same file as …`. */
  reason: string;
}

/** What {@linkcode scanTraceFolder} found in one directory. */
export interface TraceFolderScan {
  /** The trace file names (not paths), sorted. */
  names: string[];
  /** The entries with a trace extension that are not read, by name, sorted. */
  skipped: SkippedEntry[];
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
  return scanTraceFolder(folder).names;
}

function specialKind(info: Deno.FileInfo): string {
  if (info.isFifo === true) return "FIFO";
  if (info.isSocket === true) return "socket";
  if (info.isCharDevice === true || info.isBlockDevice === true) return "device";
  return "not a regular file";
}

function linkTarget(path: string): Deno.FileInfo | string {
  try {
    return Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "dangling link";
    if (error instanceof Error && /ELOOP|too many levels|symbolic links/i.test(error.message)) {
      return "link loop";
    }
    throw error;
  }
}

/**
 * The trace files of a directory and the entries with a trace extension it
 * does not read (see the module doc): links are followed to regular files,
 * FIFOs, sockets, devices, dangling links, link loops and second names of one
 * file are listed with their reason.
 *
 * @param folder The directory.
 * @returns The file names, sorted, and the skipped entries.
 * @throws {InputError} When the directory cannot be read.
 *
 * @example Usage
 * ```ts
 * import { scanTraceFolder } from "./trace_folder.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.json`, "[]");
 * Deno.symlinkSync(`${dir}/a.json`, `${dir}/b.json`);
 * Deno.symlinkSync(`${dir}/gone.json`, `${dir}/c.json`);
 * const scan = scanTraceFolder(dir);
 * assert.deepEqual(scan.names, ["a.json"]);
 * assert.deepEqual(scan.skipped.map((s) => s.reason), ["same file as a.json", "dangling link"]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function scanTraceFolder(folder: string): TraceFolderScan {
  const found: { name: string; real: string; link: boolean }[] = [];
  const skipped: SkippedEntry[] = [];
  try {
    for (const entry of Deno.readDirSync(folder)) {
      if (entry.isDirectory) continue;
      const claim = claimed(entry.name);
      if (claim === undefined) continue;
      const path = join(folder, entry.name);
      let info: Deno.FileInfo | string = entry.isSymlink ? linkTarget(path) : Deno.lstatSync(path);
      if (typeof info !== "string" && !info.isFile) {
        if (info.isDirectory) continue; // a link to a directory: the walk is not recursive
        info = specialKind(info);
      }
      if (typeof info === "string") {
        skipped.push({ path: entry.name, reason: info });
      } else if (!claim.sniffed || looksLikeTraceText(path)) {
        found.push({ name: entry.name, real: realOrResolved(path), link: entry.isSymlink });
      }
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw fileError(error, folder);
  }
  // A file reached twice (a link beside its target, two links to one file) is read once:
  // under its own name when the folder holds it, else under the first link's name.
  const byName = (a: { name: string }, b: { name: string }) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  const kept = new Map<string, string>();
  for (const file of [...found].sort((a, b) => Number(a.link) - Number(b.link) || byName(a, b))) {
    if (!kept.has(file.real)) kept.set(file.real, file.name);
  }
  const names: string[] = [];
  for (const file of found.sort(byName)) {
    const first = kept.get(file.real)!;
    if (first === file.name) names.push(file.name);
    else skipped.push({ path: file.name, reason: `same file as ${first}` });
  }
  skipped.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return { names, skipped };
}

/**
 * The one note about the entries folder walks did not read ({@linkcode TraceWalk.skipped}),
 * or `undefined` when there are none.
 *
 * @param skipped The skipped entries.
 * @returns The note, one line ending in a newline.
 *
 * @example Usage
 * ```ts
 * import { skippedEntriesNote } from "./trace_folder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   skippedEntriesNote([{ path: "runs/p.json", reason: "FIFO" }]),
 *   "toolscore: note: skipped 1 entry that is not a regular file: runs/p.json (FIFO)\n",
 * );
 * assert.equal(skippedEntriesNote([]), undefined);
 * ```
 */
export function skippedEntriesNote(skipped: readonly SkippedEntry[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const listed = skipped.slice(0, 10).map((entry) => `${entry.path} (${entry.reason})`);
  const shown = skipped.length <= 10
    ? listed.join(", ")
    : `${listed.join(", ")} and ${skipped.length - 10} more`;
  const what = skipped.length === 1
    ? "1 entry that is not a regular file"
    : `${skipped.length} entries that are not regular files`;
  return `toolscore: note: skipped ${what}: ${shown}\n`;
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
  const walk: TraceWalk = { files: [], walked: new Set(), excluded: [], skipped: [] };
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
    const scan = scanTraceFolder(path);
    const names = scan.names;
    const sep = path.endsWith("/") ? "" : "/";
    for (const entry of scan.skipped) {
      walk.skipped.push({ path: `${path}${sep}${entry.path}`, reason: entry.reason });
    }
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
