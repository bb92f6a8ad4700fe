/**
 * The one format detector. Files, `evaluate()`, contracts, regrade,
 * `runsFromTraces` and export all read traces through {@linkcode traceFromValue}
 * and {@linkcode readTrace}.
 *
 * `auto` looks at the whole document and asks each reader in the order of
 * {@linkcode READERS}; the first that claims it reads it. A document no reader
 * claims is an error naming the file and what was seen, never an empty list.
 *
 * @module
 */

import { describeJson, type FormatName, isJsonObject, type Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { withHeavy } from "../base/_lazy.ts";
import { parseDocument, readTextFile, syntaxOf } from "../base/load.ts";
import { checkJsonLimits } from "../base/json_limits.ts";
import { anthropicReader } from "./anthropic.ts";
import { customReader } from "./custom.ts";
import { geminiReader } from "./gemini.ts";
import { langchainReader } from "./langchain.ts";
import { isJsonRpcMessage, mcpReader } from "./mcp.ts";
import { openaiReader } from "./openai.ts";
import { openaiResponsesReader } from "./openai_responses.ts";
import { isOtelLine, otelReader } from "./otel.ts";
import type { FormatReader } from "./reader.ts";
import { toolscoreReader } from "./toolscore.ts";

/**
 * Every reader, in detection order (the first that claims a document reads it).
 *
 * @example Usage
 * ```ts
 * import { READERS } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(READERS[0]?.name, "toolscore");
 * assert.equal(READERS.at(-1)?.name, "custom");
 * ```
 */
export const READERS: readonly FormatReader[] = [
  toolscoreReader,
  openaiReader,
  openaiResponsesReader,
  anthropicReader,
  geminiReader,
  mcpReader,
  langchainReader,
  otelReader,
  customReader,
];

/**
 * Every format name `--format` accepts, `auto` first.
 *
 * @example Usage
 * ```ts
 * import { FORMATS } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(FORMATS[0], "auto");
 * assert.ok(FORMATS.includes("openai-responses"));
 * ```
 */
export const FORMATS: readonly ("auto" | FormatName)[] = [
  "auto",
  "toolscore",
  "openai",
  "openai-responses",
  "anthropic",
  "gemini",
  "mcp",
  "langchain",
  "otel",
  "custom",
];

/**
 * Check a `--format` value.
 *
 * @param value The format name the user gave.
 * @returns The value, typed.
 * @throws {InputError} On an unknown format, listing the known ones.
 *
 * @example Usage
 * ```ts
 * import { parseFormatName } from "./detect.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseFormatName("openai"), "openai");
 * assert.throws(() => parseFormatName("gpt"), /unknown format gpt/);
 * ```
 */
export function parseFormatName(value: string): "auto" | FormatName {
  if ((FORMATS as readonly string[]).includes(value)) return value as "auto" | FormatName;
  throw new InputError(`unknown format ${value}; use one of ${FORMATS.join(", ")}`);
}

/**
 * Which format a parsed document is in.
 *
 * @param value The parsed document.
 * @returns The format name, or `undefined` when no reader claims it.
 *
 * @example Usage
 * ```ts
 * import { detectFormat } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(detectFormat([{ tool: "search", args: { q: "x" } }]), "custom");
 * assert.equal(detectFormat([{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }]), "openai");
 * assert.equal(detectFormat({ hello: "world" }), undefined);
 * ```
 */
export function detectFormat(value: unknown): FormatName | undefined {
  return READERS.find((reader) => reader.claims(value))?.name;
}

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
}

function readerFor(name: FormatName): FormatReader {
  const reader = READERS.find((r) => r.name === name);
  if (!reader) throw new InputError(`unknown format ${name}; use one of ${FORMATS.join(", ")}`);
  return reader;
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
  const format = options.format ?? "auto";
  if (READ_TRACES.has(value as object)) return value as Trace;
  if (format !== "auto") return remember(readerFor(format).read(value, source));
  const reader = READERS.find((r) => r.claims(value));
  if (!reader) {
    throw new InputError(
      `not a trace in any known format (saw ${describeDocument(value)}); ` +
        `pass --format to say which (${FORMATS.slice(1).join(", ")})`,
      source,
    );
  }
  return remember(reader.read(value, source));
}

// Traces this module produced, so readTrace() passes them through unchanged.
const READ_TRACES = new WeakSet<object>();

function remember(trace: Trace): Trace {
  READ_TRACES.add(trace);
  return trace;
}

/** One parsed JSONL line and its 1-based number. */
interface JsonlRow {
  value: unknown;
  line: number;
}

function parseJsonl(text: string, source: string): JsonlRow[] {
  const rows: JsonlRow[] = [];
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    line++;
    const row = text.slice(start, end);
    start = end + 1;
    if (row.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      throw lineError(row, source, line);
    }
    checkJsonLimits(value, `${source}:${line}`);
    rows.push({ value, line });
  }
  return rows;
}

function lineError(row: string, source: string, line: number): InputError {
  try {
    parseDocument(row, "line.json");
  } catch (error) {
    if (!(error instanceof InputError)) throw error; // e.g. the parser is not loaded yet
    if (error.where !== undefined) {
      const column = /:(\d+)$/.exec(error.where)?.[1] ?? "1";
      const what = error.message.slice(error.where.length + 2).replace(/; fix the syntax.*$/, "");
      return new InputError(
        `${what} on this line; fix or remove the line`,
        `${source}:${line}:${column}`,
      );
    }
  }
  return new InputError("invalid JSON on this line; fix or remove the line", `${source}:${line}`);
}

/**
 * The traces of JSONL rows: one MCP session when the lines are JSON-RPC
 * messages, one OTel trace when they are OTLP exports or spans, else one
 * trace per line (errors name the line).
 */
function tracesFromRows(rows: JsonlRow[], source: string, options: ReadTraceOptions): Trace[] {
  const format = options.format ?? "auto";
  const values = rows.map((row) => row.value);
  const whole = (name: "mcp" | "otel", test: (value: unknown) => boolean) =>
    (format === "auto" || format === name) && values.every(test);
  if (whole("mcp", isJsonRpcMessage)) return [traceFromValue(values, { format: "mcp", source })];
  if (whole("otel", isOtelLine)) return [traceFromValue(values, { format: "otel", source })];
  return rows.map((row) =>
    traceFromValue(row.value, { ...options, source: `${source}:${row.line}` })
  );
}

/**
 * Read the traces of a text: one document, or a JSONL file. A JSONL file is
 * looked at whole first: lines that are JSON-RPC messages are one MCP
 * session, lines that are OTLP exports or spans are one OTel trace;
 * otherwise each line is one trace (errors name the line). A `.json` (or
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
    if (rows === undefined) throw error;
    return tracesFromRows(rows, source, options);
  }
  return [traceFromValue(value, { ...options, source })];
}

/** The rows of a text when it has two or more lines that each parse as JSON. */
function jsonLines(text: string): JsonlRow[] | undefined {
  const head = text.trimStart()[0];
  if (head !== "{" && head !== "[") return undefined;
  try {
    const rows = parseJsonl(text, "");
    return rows.length >= 2 ? rows : undefined;
  } catch {
    return undefined;
  }
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
 * import { readTrace } from "@toolscore/cli";
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
