/**
 * The one format detector. Files, `evaluate()`, contracts, regrade,
 * `runsFromTraces` and export all read traces through {@linkcode traceFromValue}
 * and {@linkcode readTrace}.
 *
 * `auto` looks at the whole document and asks each reader in the order of
 * {@linkcode READERS}; the first that claims it reads it. A document no reader
 * claims is an error naming the file and what was seen, never an empty list.
 * The readers, the JSONL line sniffers, their priority order and the file
 * extensions each claims are one table, `SHAPES` in `registry.ts` (issue 34).
 *
 * What issue 13 adds to the design page (`scoring.md` §2), before the readers:
 *
 * - Streams are one trace: a list of one provider's streaming chunks or
 *   events (JSON array, JSONL lines, or raw SSE text, which is recognized
 *   before YAML) is merged into the non-streamed document and read by that
 *   provider's reader (`streams.ts`, `sse.ts`).
 * - Run files are many traces: τ-bench (`tau-bench`), τ²-bench
 *   (`tau2-bench`) and lists of `{…, messages|traj|trajectory}` read as one
 *   trace per run with `trace.run` and `metadata.recorded_reward`
 *   (`runs.ts`). {@linkcode traceFromValue} refuses a file of several runs;
 *   {@linkcode tracesFromValue} and {@linkcode tracesFromText} read them all.
 * - Never a silent zero: a trace of 0 calls read from a document that holds
 *   tool-call content is an error naming where the content is and its shape
 *   (`tool_content.ts`); a genuine chat with no calls gets a `notes` entry.
 *
 * @module
 */

import { describeJson, type FormatName, isJsonObject, type Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { withHeavy } from "../base/_lazy.ts";
import { parseDocument, readTextFile, syntaxOf } from "../base/load.ts";
import { mcpTraceFromLogText } from "./mcp.ts";
import { isMcpLogText } from "./mcp_recordings.ts";
import { otelTraceGroups } from "./otel.ts";
import { langfuseGroups } from "./langfuse.ts";
import { readIfClaimed } from "./reader.ts";
import { FORMATS, LINE_SHAPES, readerFor, READERS } from "./registry.ts";
import { inspectLogSamples } from "./inspect.ts";
import { mergeStream } from "./streams.ts";
import { looksLikeSse, sseEvents } from "./sse.ts";
import { findRunFile, finishRun, readTau2Messages, type RunFile } from "./runs.ts";
import { findToolContent } from "./tool_content.ts";
import { bfclTracesFromText } from "./bfcl.ts";
import {
  isJsonText,
  jsonLines,
  type JsonlRow,
  looksLikeJsonLines,
  mayBeLog,
  parseJsonl,
} from "./jsonl_text.ts";

// The registry's names, where they were before it (issue 34).
export { detectFormat, FORMATS, parseFormatName, READERS } from "./registry.ts";

/** Options for {@linkcode traceFromValue} and {@linkcode readTrace}. */
export interface ReadTraceOptions {
  /**
   * The format; `auto` detects it.
   * @default {"auto"}
   */
  format?: "auto" | FormatName;
  /**
   * The file the value came from, for errors.
   * @default {"<trace>"}
   */
  source?: string;
  /**
   * Called with the error of a run of a run file that cannot be read (it
   * names the file and the run's JSON path, `simulations[10].messages`); the
   * other runs are still read. Without it, the first bad run throws.
   * @default {undefined}
   */
  onRunError?: (error: InputError) => void;
}

/** What a document looks like at the top level, for "not recognized" errors. */
function describeDocument(value: unknown): string {
  const head = describeJson(value);
  if (Array.isArray(value) && value.length > 0) {
    const kinds = new Set(value.slice(0, 50).map(describeJson));
    const first = describeJson(value[0]);
    return kinds.size === 1 ? `${head}, each ${first}` : `${head}, the first ${first}`;
  }
  if (isJsonObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (Array.isArray(inner) && inner.length > 0) {
        return `${head}; ${key} holds ${describeDocument(inner)}`;
      }
    }
  }
  return head;
}

/**
 * Read a parsed document as a trace.
 *
 * @param value The parsed document (a call list, a provider transcript…), or a trace.
 * @param options The format and the source name.
 * @returns The trace.
 * @throws {InputError} When no reader recognizes the document.
 *
 * @example Usage
 * ```ts
 * import { traceFromValue } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = traceFromValue({ format: "toolscore", calls: [{ tool: "a" }], final_answer: "ok" });
 * assert.equal(trace.calls.length, 1);
 * assert.equal(trace.finalAnswer, "ok");
 * ```
 */
export function traceFromValue(value: unknown, options: ReadTraceOptions = {}): Trace {
  const source = options.source ?? "<trace>";
  if (READ_TRACES.has(value as object)) return value as Trace;
  const runs = runFileOf(value, options.format ?? "auto");
  if (runs !== undefined) {
    const traces = tracesOfRunFile(runs, source, options.format ?? "auto", options.onRunError);
    if (traces.length === 1) return traces[0] as Trace;
    throw new InputError(
      `holds ${traces.length} runs (${runs.kind === "runs" ? "a run file" : runs.kind}); ` +
        "read it as a file (each run is its own trace) or pass one run",
      source,
    );
  }
  return remember(readOne(value, source, options.format ?? "auto"));
}

/**
 * Read a parsed document as traces: one, or one per run of a run file
 * (τ-bench, τ²-bench, or a list of `{…, messages|traj|trajectory}`).
 *
 * @param value The parsed document.
 * @param options The format and the source name.
 * @returns The traces; a run's trace carries its task and trial in `run`.
 * @throws {InputError} When no reader recognizes the document.
 *
 * @example Usage
 * ```ts
 * import { tracesFromValue } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * const traces = tracesFromValue([
 *   { task_id: 1, reward: 1, info: {}, traj: [{ role: "user", content: "hi" }] },
 *   { task_id: 2, reward: 0, info: {}, traj: [{ role: "user", content: "hi" }] },
 * ]);
 * assert.deepEqual(traces.map((t) => t.run?.task), ["1", "2"]);
 * assert.equal(traces[0]?.metadata?.recorded_reward, 1);
 * ```
 */
export function tracesFromValue(value: unknown, options: ReadTraceOptions = {}): Trace[] {
  const source = options.source ?? "<trace>";
  const format = options.format ?? "auto";
  if (READ_TRACES.has(value as object)) return [value as Trace];
  const runs = runFileOf(value, format);
  if (runs !== undefined) return tracesOfRunFile(runs, source, format, options.onRunError);
  // Issue 36: a list of Langfuse exports is one trace per export.
  const exports = format === "auto" || format === "langfuse" ? langfuseGroups(value) : undefined;
  if (exports !== undefined) {
    return exports.map((doc) => remember(readOne(doc, source, "langfuse")));
  }
  // Issue 35: an Inspect log is one trace per sample and epoch.
  const samples = format === "auto" || format === "inspect"
    ? inspectLogSamples(value, source)
    : undefined;
  if (samples !== undefined) return samples.map((doc) => remember(readOne(doc, source, "inspect")));
  const trace = readOne(value, source, format);
  const groups = trace.format === "otel" ? otelTraceGroups(value) : undefined; // one per trace id
  if (groups !== undefined) return groups.map((spans) => remember(readOne(spans, source, "otel")));
  return [remember(trace)];
}

// --- Issue 13: run files, streams and the no-silent-zero rule (local to this block). ---

function runFileOf(value: unknown, format: "auto" | FormatName): RunFile | undefined {
  const runs = findRunFile(value);
  if (runs === undefined) {
    if (format === "tau-bench" || format === "tau2-bench") {
      throw new InputError(
        format === "tau-bench"
          ? "not a tau-bench file: expected a {task_id, reward, info, traj} record or a list of them"
          : "not a tau2-bench file: expected {simulations: [{task_id, messages, …}]}",
      );
    }
    return undefined;
  }
  if ((format === "tau-bench" || format === "tau2-bench") && runs.kind !== format) {
    throw new InputError(
      `not a ${format} file (it looks like ${runs.kind === "runs" ? "a run file" : runs.kind})`,
    );
  }
  return runs;
}

function tracesOfRunFile(
  runs: RunFile,
  source: string,
  format: "auto" | FormatName,
  onRunError: ((error: InputError) => void) | undefined,
): Trace[] {
  return runs.runs.flatMap((entry) => {
    const where = `${source}: ${entry.path}`;
    const inner = format === "tau-bench" || format === "tau2-bench" ? "auto" : format;
    try {
      if (entry.failure !== undefined) throw new InputError(entry.failure, where);
      if (!Array.isArray(entry.transcript)) {
        throw new InputError(
          `expected the run's messages as a list, got ${describeJson(entry.transcript)}`,
          where,
        );
      }
      const trace = runs.kind === "tau2-bench" && inner === "auto"
        ? checked(readTau2Messages(entry.transcript as unknown[], where), entry.transcript, where)
        : readOne(entry.transcript, where, inner);
      return [remember(finishRun(trace, entry, runs.kind))];
    } catch (error) {
      // Issue 34: one bad run is its own input error; the caller reads the others.
      if (onRunError === undefined || !(error instanceof InputError)) throw error;
      onRunError(error);
      return [];
    }
  });
}

/** Read one document (merging a stream first), then apply the no-silent-zero rule. */
function readOne(value: unknown, source: string, format: "auto" | FormatName): Trace {
  const stream = mergeStream(value, source);
  if (stream !== undefined && (format === "auto" || format === stream.format)) {
    return checked(readerFor(stream.format).read(stream.document, source), value, source);
  }
  if (format !== "auto") return checked(readerFor(format).read(value, source), value, source);
  for (const reader of READERS) {
    const trace = readIfClaimed(reader, value, source); // its structure found once
    if (trace !== undefined) return checked(trace, value, source);
  }
  throw new InputError(
    `not a trace in any known format (saw ${describeDocument(value)}); ` +
      `pass --format to say which (${FORMATS.slice(1).join(", ")})`,
    source,
  );
}

/**
 * No silent zero: a trace of 0 calls from a document holding tool-call
 * content is an error; a genuine plain chat gets a note saying so.
 */
function checked(trace: Trace, value: unknown, source: string): Trace {
  // Issue 43: a bfcl trace of 0 calls always carries its own note (decode_error or no call).
  if (trace.calls.length > 0 || trace.format === "bfcl") return trace;
  const content = findToolContent(value);
  if (content !== undefined) {
    throw new InputError(
      `read as ${trace.format} with 0 calls, but it holds tool-call content at ` +
        `${content.path === "" ? "the top level" : content.path} (${content.shape}); ` +
        "pass --format to say which format it is, or report the shape",
      source,
    );
  }
  // A trace written by traceToJson and read back already says so.
  if (trace.notes?.some((n) => n.startsWith("no tool calls:"))) return trace;
  const note = `no tool calls: the ${trace.format} transcript holds no tool call`;
  return { ...trace, notes: [...(trace.notes ?? []), note] };
}

// Traces this module produced, so readTrace() passes them through unchanged.
const READ_TRACES = new WeakSet<object>();

function remember(trace: Trace): Trace {
  READ_TRACES.add(trace);
  return trace;
}

/**
 * The traces of JSONL rows: the first registry row whose `lines` sniffer
 * takes them reads them as one trace (an MCP session, OTel spans, a
 * provider's stream, a Claude Code session…), else one trace per line
 * (errors name the line).
 */
function tracesFromRows(rows: JsonlRow[], source: string, options: ReadTraceOptions): Trace[] {
  const format = options.format ?? "auto";
  const values = rows.map((row) => row.value);
  for (const row of LINE_SHAPES) {
    if (format !== "auto" && row.format !== undefined && row.format !== format) continue;
    const found = row.lines?.(values);
    if (found !== undefined && (format === "auto" || found.format === format)) {
      return [traceFromValue(found.lines, { format: found.format, source })];
    }
  }
  return rows.flatMap((row) =>
    tracesFromValue(row.value, { ...options, source: `${source}:${row.line}` })
  );
}

/**
 * Read the traces of a text: raw SSE text, one document, or a JSONL file.
 * SSE text (`event:`/`data:` lines) is one stream, whatever the extension. A
 * JSONL file is looked at whole first: lines that are JSON-RPC messages are
 * one MCP session, lines that are OTLP exports or spans are one OTel trace,
 * lines that are one provider's streaming chunks are one merged trace;
 * otherwise each line is one trace (errors name the line). A run file gives
 * one trace per run. A `.json` (or
 * unnamed) text that is not one JSON document but whose lines each are is
 * read as JSONL.
 *
 * @param text The file's text.
 * @param source The file name (its extension picks the syntax).
 * @param options The format.
 * @returns The traces, one per document or JSONL line.
 * @throws {InputError} On a parse error (naming file, line and column) or an
 * unrecognized document.
 *
 * @example Usage
 * ```ts
 * import { tracesFromText } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * const traces = tracesFromText('[{"tool":"a"}]\n[{"tool":"b"}]\n', "runs.jsonl");
 * assert.deepEqual(traces.map((t) => t.calls[0]?.tool), ["a", "b"]);
 * assert.throws(() => tracesFromText('[{"tool":"a"}]\n[{"tool":\n', "runs.jsonl"), /runs\.jsonl:2:/);
 * ```
 */
export function tracesFromText(
  text: string,
  source: string,
  options: ReadTraceOptions = {},
): Trace[] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Issue 13: raw SSE text (`event:`/`data:` lines) is looked for before YAML.
  if (looksLikeSse(text)) {
    const events = sseEvents(text, source);
    if (events.length === 0) {
      throw new InputError("no traces: the SSE text has no data events", source);
    }
    return tracesFromValue(events, { ...options, source });
  }
  // Issue 14: MCP client log text (`… Message from client: {json}` lines),
  // when the text is not JSON or JSONL itself (a log line may start with "[").
  const format = options.format ?? "auto";
  if (
    (format === "auto" || format === "mcp") && mayBeLog(text) && isMcpLogText(text) &&
    !isJsonText(text)
  ) {
    // Remembered, so evaluating it does not read the trace again as a call list.
    return [remember(checked(mcpTraceFromLogText(text, source), undefined, source))];
  }
  // Issue 43: BFCL result lines, parsed with int versus float kept (bfcl.ts).
  const bfcl = format === "auto" || format === "bfcl"
    ? bfclTracesFromText(text, source, format === "bfcl")
    : undefined;
  if (bfcl !== undefined) return bfcl.map(remember);
  if (source.toLowerCase().endsWith(".jsonl")) {
    const rows = parseJsonl(text, source);
    if (rows.length === 0) throw new InputError("no traces: the file has no JSON lines", source);
    return tracesFromRows(rows, source, options);
  }
  let value: unknown;
  try {
    value = parseDocument(text, source);
  } catch (error) {
    const rows = syntaxOf(source) === "yaml" ? undefined : jsonLines(text);
    if (rows === undefined) {
      // Issue 13: lines that start as JSON lines (a saved stream) get the bad line's own error.
      if (syntaxOf(source) !== "yaml" && looksLikeJsonLines(text)) parseJsonl(text, source);
      throw error;
    }
    return tracesFromRows(rows, source, options);
  }
  return tracesFromValue(value, { ...options, source });
}

/**
 * Read one trace from a file path, a text or a parsed value.
 *
 * A string that starts with `{` or `[` is read as text; any other string is a
 * file path. A JSONL file must hold exactly one trace here (use
 * {@linkcode tracesFromText} for many).
 *
 * @param input A file path, raw JSON text, or a parsed document.
 * @param options The format.
 * @returns The trace.
 * @throws {InputError} When the input cannot be read or recognized.
 *
 * @example Usage
 * ```ts
 * import { readTrace } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = await readTrace('[{"tool": "search", "args": {"q": "x"}}]');
 * assert.equal(trace.format, "custom");
 * ```
 */
export async function readTrace(input: unknown, options: ReadTraceOptions = {}): Promise<Trace> {
  if (typeof input === "string") {
    const head = input.trimStart()[0];
    if (head === "{" || head === "[") {
      const source = options.source ?? "<text>";
      return (await withHeavy(() => tracesFromText(input, source, options)))[0] as Trace;
    }
    const text = await readTextFile(input);
    const traces = await withHeavy(() => tracesFromText(text, input, options));
    if (traces.length !== 1) {
      throw new InputError(`holds ${traces.length} traces; read it with tracesFromText`, input);
    }
    return traces[0] as Trace;
  }
  return traceFromValue(input, options);
}
