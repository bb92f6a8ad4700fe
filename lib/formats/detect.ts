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

import { describeJson, type FormatName, type Trace } from "../calls.ts";
import { InputError } from "../errors.ts";
import { parseDocument, readTextFile } from "../load.ts";
import { customReader, toolscoreReader } from "./custom.ts";
import type { FormatReader } from "./reader.ts";

/** Every reader, in detection order (the first that claims a document reads it). */
export const READERS: readonly FormatReader[] = [toolscoreReader, customReader];

/** Every format name `--format` accepts, `auto` first. */
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
 * import { parseFormatName } from "@toolscore/cli";
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
  if (!reader) throw new InputError(`the ${name} format has no reader yet`);
  return reader;
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
 * import { traceFromValue } from "@toolscore/cli";
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
      `not a trace in any known format (saw ${describeJson(value)}); ` +
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

/**
 * Read the traces of a text: one document, or a JSONL file of one trace per
 * line (errors name the line).
 *
 * @param text The file's text.
 * @param source The file name (its extension picks the syntax).
 * @param options The format.
 * @returns The traces, one per document or JSONL line.
 * @throws {InputError} On a parse error or an unrecognized document.
 *
 * @example Usage
 * ```ts
 * import { tracesFromText } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const traces = tracesFromText('[{"tool":"a"}]\n[{"tool":"b"}]\n', "runs.jsonl");
 * assert.deepEqual(traces.map((t) => t.calls[0]?.tool), ["a", "b"]);
 * ```
 */
export function tracesFromText(
  text: string,
  source: string,
  options: ReadTraceOptions = {},
): Trace[] {
  if (source.toLowerCase().endsWith(".jsonl")) {
    const traces: Trace[] = [];
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      const where = `${source}:${i + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new InputError(`invalid JSON on this line (${(error as Error).message})`, where);
      }
      traces.push(traceFromValue(value, { ...options, source: where }));
    });
    if (traces.length === 0) throw new InputError("no traces: the file has no JSON lines", source);
    return traces;
  }
  return [traceFromValue(parseDocument(text, source), { ...options, source })];
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
      return tracesFromText(input, options.source ?? "<text>", options)[0] as Trace;
    }
    const traces = tracesFromText(await readTextFile(input), input, options);
    if (traces.length !== 1) {
      throw new InputError(`holds ${traces.length} traces; read it with tracesFromText`, input);
    }
    return traces[0] as Trace;
  }
  return traceFromValue(input, options);
}
