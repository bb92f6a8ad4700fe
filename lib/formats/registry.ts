/**
 * The registry of trace shapes: one row per shape, in the priority order the
 * detector (`detect.ts`) tries them. Each format's file exports its sniffer:
 * a {@linkcode FormatReader} (whose `claims` recognizes a whole parsed
 * document) or a line test (whether one JSONL line belongs to a stream of
 * that format). A new shape is its file plus one row here.
 *
 * The order, as the detector uses it (issue 34):
 *
 * 1. Text that is not JSON (before any row): raw SSE (`event:`/`data:`
 *    lines, merged into one stream) and MCP client log text.
 * 2. A JSONL file (or a text whose lines each are JSON) is offered to the
 *    rows with a `lines` sniffer, in table order: the first whose sniffer
 *    takes the lines reads them as one trace; else each line is its own
 *    document.
 * 3. A document is first a run file (τ-bench, τ²-bench, generic runs:
 *    `runs.ts`), then a provider stream (`streams.ts`), then offered to the
 *    rows with a `document` reader, in table order; the first that claims
 *    it reads it.
 *
 * Each row names the file extensions its reader claims (lower case, with the
 * dot); {@linkcode TRACE_FILE_EXTENSIONS} is their union, for the folder walk.
 * A `.txt`/`.log` file is a trace only when its text starts like one (the
 * folder walk looks at its head).
 *
 * @module
 */

import type { FormatName } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import type { FormatReader } from "./reader.ts";
import { toolscoreReader } from "./toolscore.ts";
import { openaiReader } from "./openai.ts";
import { openaiResponsesReader } from "./openai_responses.ts";
import { anthropicReader } from "./anthropic.ts";
import { geminiReader } from "./gemini.ts";
import { isJsonRpcMessage, mcpReader } from "./mcp.ts";
import { proxyLogLines } from "./mcp_recordings.ts";
import { claudeCodeReader, claudeCodeRows } from "./claude_code.ts";
import { isVercelChunk, vercelAiReader } from "./vercel_ai.ts";
import { isAgentsExportItem, openaiAgentsReader } from "./openai_agents.ts";
import { langchainReader } from "./langchain.ts";
import { isLangGraphItem } from "./langgraph.ts";
import { isRun } from "./langsmith.ts";
import { isOtelLine, otelReader } from "./otel.ts";
import { customReader } from "./custom.ts";
import { fastAgentReader } from "./fast_agent.ts";
import { adkReader } from "./adk.ts";
import { langfuseReader } from "./langfuse.ts";
import { envelopedChunks } from "./vercel_ai_envelope.ts";
import { managedAgentsMessages } from "./managed_agents.ts";
import { streamFormat } from "./streams.ts";
import { vcrReader } from "./vcr.ts";
import { sweAgentReader } from "./swe_agent.ts";
import { miniSweAgentReader } from "./mini_swe_agent.ts";
import { geminiCliReader, isFakeResponseLine } from "./gemini_cli.ts";
import { openhandsReader } from "./openhands.ts";
import { inspectReader } from "./inspect.ts";
import { bfclReader } from "./bfcl.ts";

/** What a `lines` sniffer found: the format and the lines to read as one trace. */
export interface LinesFound {
  /** The format the lines are read as. */
  format: FormatName;
  /** The lines to read (a sniffer may drop stray lines). */
  lines: unknown[];
}

/** One row of the registry: a shape, how it is recognized, and its file extensions. */
export interface ShapeSniffer {
  /** The shape's name (a format, or a format and a variant: `mcp (proxy log lines)`). */
  shape: string;
  /**
   * The format the shape reads as; `undefined` when the lines say which (a
   * provider's stream). A forced `--format` skips rows of other formats.
   */
  format?: FormatName;
  /** The file extensions the reader claims, lower case with the dot. */
  extensions: readonly string[];
  /** The reader of whole documents of this shape. */
  document?: FormatReader;
  /**
   * Whether the lines of a JSONL file are one trace of this shape.
   *
   * @param values The parsed lines.
   * @returns The format and the lines, or `undefined`.
   */
  lines?(values: unknown[]): LinesFound | undefined;
}

const JSON_FILES = [".json", ".jsonl"] as const;

// Lines that each pass `test` and that `reader` claims together.
function linesOf(
  format: FormatName,
  test: (value: unknown) => boolean,
  reader?: FormatReader,
): (values: unknown[]) => LinesFound | undefined {
  return (values) =>
    values.every(test) && (reader === undefined || reader.claims(values))
      ? { format, lines: values }
      : undefined;
}

/**
 * The registry, in detection priority order (see the module doc).
 *
 * @example Usage
 * ```ts
 * import { SHAPES } from "./registry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SHAPES[0]?.shape, "mcp (JSON-RPC lines)");
 * assert.ok(SHAPES.some((row) => row.document?.name === "custom"));
 * ```
 */
export const SHAPES: readonly ShapeSniffer[] = [
  // JSONL lines that are one trace together, most specific first.
  {
    shape: "mcp (JSON-RPC lines)",
    format: "mcp",
    extensions: [".jsonl"],
    lines: linesOf("mcp", isJsonRpcMessage),
  },
  {
    shape: "gemini-cli (fake-response lines)",
    format: "gemini-cli",
    extensions: [".jsonl", ".responses"],
    lines: linesOf("gemini-cli", isFakeResponseLine, geminiCliReader),
  },
  {
    shape: "otel (span lines)",
    format: "otel",
    extensions: [".jsonl"],
    lines: linesOf("otel", isOtelLine),
  },
  {
    shape: "streams (a provider's chunks or events)",
    extensions: [".jsonl", ".ndjson", ".sse", ".txt"],
    lines(values) {
      const format = streamFormat(values);
      return format === undefined ? undefined : { format, lines: values };
    },
  },
  {
    shape: "mcp (proxy log lines)",
    format: "mcp",
    extensions: [".jsonl", ".log"],
    lines(values) {
      const lines = proxyLogLines(values);
      return lines === undefined ? undefined : { format: "mcp", lines };
    },
  },
  {
    shape: "claude-code (stream-json or transcript lines)",
    format: "claude-code",
    extensions: [".jsonl", ".ndjson"],
    lines(values) {
      const lines = claudeCodeRows(values);
      return lines === undefined ? undefined : { format: "claude-code", lines };
    },
  },
  {
    shape: "vercel-ai (chunk lines)",
    format: "vercel-ai",
    extensions: [".jsonl"],
    lines: linesOf("vercel-ai", isVercelChunk, vercelAiReader),
  },
  {
    shape: "anthropic (Claude Managed Agents session event lines)",
    format: "anthropic",
    extensions: [".jsonl"],
    lines(values) {
      const lines = managedAgentsMessages(values);
      return lines === undefined ? undefined : { format: "anthropic", lines };
    },
  },
  {
    shape: "vercel-ai (chunk lines in an envelope)",
    format: "vercel-ai",
    extensions: [".jsonl"],
    lines(values) {
      const lines = envelopedChunks(values);
      return lines === undefined ? undefined : { format: "vercel-ai", lines };
    },
  },
  {
    shape: "openai-agents (export lines)",
    format: "openai-agents",
    extensions: [".jsonl"],
    lines: linesOf("openai-agents", isAgentsExportItem, openaiAgentsReader),
  },
  {
    shape: "langchain (LangGraph stream lines)",
    format: "langchain",
    extensions: [".jsonl"],
    lines: linesOf("langchain", isLangGraphItem, langchainReader),
  },
  {
    shape: "langchain (LangSmith run lines)",
    format: "langchain",
    extensions: [".jsonl"],
    lines: linesOf("langchain", isRun, langchainReader),
  },
  // Whole documents: the providers, then agent frameworks, then the catch-alls.
  {
    shape: "toolscore",
    format: "toolscore",
    extensions: [".json", ".jsonl", ".yaml", ".yml"],
    document: toolscoreReader,
  },
  // Issue 43: a BFCL result line {id, result}; its files are read line by line (bfcl.ts).
  { shape: "bfcl", format: "bfcl", extensions: JSON_FILES, document: bfclReader },
  // Agent harnesses (issue 35), before openai: their files are chats too.
  {
    shape: "swe-agent",
    format: "swe-agent",
    extensions: [".traj", ".json"],
    document: sweAgentReader,
  },
  {
    shape: "mini-swe-agent",
    format: "mini-swe-agent",
    extensions: JSON_FILES,
    document: miniSweAgentReader,
  },
  {
    shape: "gemini-cli",
    format: "gemini-cli",
    extensions: [".json", ".responses"],
    document: geminiCliReader,
  },
  { shape: "openhands", format: "openhands", extensions: JSON_FILES, document: openhandsReader },
  { shape: "inspect", format: "inspect", extensions: [".eval", ".json"], document: inspectReader },
  // Before openai: a fast-agent history is `{messages}` whose tool_calls are keyed by id.
  { shape: "fast-agent", format: "fast-agent", extensions: JSON_FILES, document: fastAgentReader },
  { shape: "openai", format: "openai", extensions: JSON_FILES, document: openaiReader },
  {
    shape: "openai-responses",
    format: "openai-responses",
    extensions: JSON_FILES,
    document: openaiResponsesReader,
  },
  { shape: "anthropic", format: "anthropic", extensions: JSON_FILES, document: anthropicReader },
  { shape: "gemini", format: "gemini", extensions: JSON_FILES, document: geminiReader },
  { shape: "adk", format: "adk", extensions: JSON_FILES, document: adkReader },
  // Before mcp: an HTTP cassette is `interactions` too, with HTTP requests (issue 35).
  { shape: "vcr", format: "vcr", extensions: [".yaml", ".yml", ".json"], document: vcrReader },
  {
    shape: "mcp",
    format: "mcp",
    extensions: [".json", ".jsonl", ".vcr", ".log"],
    document: mcpReader,
  },
  {
    shape: "claude-code",
    format: "claude-code",
    extensions: [".json", ".jsonl", ".ndjson"],
    document: claudeCodeReader,
  },
  { shape: "vercel-ai", format: "vercel-ai", extensions: JSON_FILES, document: vercelAiReader },
  {
    shape: "openai-agents",
    format: "openai-agents",
    extensions: JSON_FILES,
    document: openaiAgentsReader,
  },
  { shape: "langchain", format: "langchain", extensions: JSON_FILES, document: langchainReader },
  { shape: "langfuse", format: "langfuse", extensions: JSON_FILES, document: langfuseReader },
  { shape: "otel", format: "otel", extensions: JSON_FILES, document: otelReader },
  {
    shape: "custom",
    format: "custom",
    extensions: [".json", ".jsonl", ".yaml", ".yml"],
    document: customReader,
  },
];

/**
 * Every reader of whole documents, in detection order (the first that claims
 * a document reads it).
 *
 * @example Usage
 * ```ts
 * import { READERS } from "./registry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(READERS[0]?.name, "toolscore");
 * assert.equal(READERS.at(-1)?.name, "custom");
 * ```
 */
export const READERS: readonly FormatReader[] = SHAPES.flatMap((row) =>
  row.document === undefined ? [] : [row.document]
);

/**
 * The rows that read a JSONL file's lines as one trace, in detection order.
 *
 * @example Usage
 * ```ts
 * import { LINE_SHAPES } from "./registry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(LINE_SHAPES[0]?.format, "mcp");
 * ```
 */
export const LINE_SHAPES: readonly ShapeSniffer[] = SHAPES.filter((row) => row.lines);

/**
 * Every file extension a trace reader claims (lower case, with the dot,
 * sorted): what the folder walk picks trace files by. Run files (τ-bench,
 * τ²-bench) are `.json`.
 *
 * @example Usage
 * ```ts
 * import { TRACE_FILE_EXTENSIONS } from "./registry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(TRACE_FILE_EXTENSIONS.includes(".json"));
 * assert.ok(TRACE_FILE_EXTENSIONS.includes(".sse"));
 * ```
 */
export const TRACE_FILE_EXTENSIONS: readonly string[] = [
  ...new Set(SHAPES.flatMap((row) => row.extensions)),
].sort();

/**
 * Every format name `--format` accepts, `auto` first.
 *
 * @example Usage
 * ```ts
 * import { FORMATS } from "./registry.ts";
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
  "claude-code",
  "vercel-ai",
  "openai-agents",
  "fast-agent",
  "adk",
  "langfuse",
  "swe-agent",
  "mini-swe-agent",
  "gemini-cli",
  "openhands",
  "inspect",
  "custom",
  "tau-bench",
  "tau2-bench",
  "vcr",
  "bfcl",
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
 * import { parseFormatName } from "./registry.ts";
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
 * The document reader of a format.
 *
 * @param name The format.
 * @returns Its reader.
 * @throws {InputError} When no row reads documents of that format.
 *
 * @example Usage
 * ```ts
 * import { readerFor } from "./registry.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(readerFor("openai").name, "openai");
 * ```
 */
export function readerFor(name: FormatName): FormatReader {
  const reader = READERS.find((r) => r.name === name);
  if (!reader) throw new InputError(`unknown format ${name}; use one of ${FORMATS.join(", ")}`);
  return reader;
}

/**
 * Which format a parsed document is in.
 *
 * @param value The parsed document.
 * @returns The format name, or `undefined` when no reader claims it.
 *
 * @example Usage
 * ```ts
 * import { detectFormat } from "./registry.ts";
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
