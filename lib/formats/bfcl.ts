/**
 * The `bfcl` trace format (issue 43): the Berkeley Function Calling
 * Leaderboard's result files, `BFCL_v3_<category>_result.json` /
 * `BFCL_v4_…` (JSON Lines despite the name; one `{id, result, …}` per line,
 * as BFCL's `BaseHandler.write` writes them). Each line is one trace, named
 * by its `id`: `run` is `{task, trial}` from the id (`simple_python_3#2` is
 * task `simple_python_3`, trial 2; an id without `#` is the task), and
 * `metadata.bfcl_id` is the full id.
 *
 * `result` takes three forms, as BFCL's model handlers write them:
 *
 * - decoded: `[{name: {param: value}}]` (Gemini and Claude handlers);
 * - function calling: `[{name: "<JSON arguments>"}]` (the OpenAI-style
 *   handlers keep `function.arguments` as the text the model sent), parsed
 *   here with int versus float kept (`5.0` stays a float);
 * - prompting: the model's text, decoded as `default_decode_ast_prompting`
 *   does: `` ` ``, newlines and spaces stripped at both ends, `[`/`]` added
 *   where missing, then Python (`bfcl_python.ts`), Java (`bfcl_java.ts`)
 *   or JavaScript (`bfcl_javascript.ts`) by the id's category, as BFCL's
 *   eval runner picks it: `javascript` in the id → JavaScript, else `java`
 *   → Java, else Python ({@linkcode ReadBfclOptions.language} overrides).
 *
 * Never a silent zero, with one stated exception: an output BFCL cannot
 * decode (a syntax error, an unsupported expression, a text answer, a list
 * that is not call format) is a trace of 0 calls with a `decode_error:` note
 * and `metadata.decode_error` — BFCL counts it invalid in the AST
 * categories and as "no call" (correct) in the irrelevance ones. `[]`,
 * `[{}]` and an empty call list are 0 calls with a `no tool calls:` note. A
 * text that did not decode is also the trace's final answer.
 *
 * A value BFCL decodes that JSON cannot hold (bytes, complex numbers, inf,
 * text `ast.unparse` writes that is not reproduced here) keeps its call,
 * with unreadable arguments (`rawArgs`, `argsError`): BFCL counts the call.
 *
 * Multi-turn and agentic results (a list per turn) and BFCL v4's format
 * sensitivity category (JSON and XML return formats) are out of scope: a
 * decode error says so. Token counts become `usage`.
 *
 * Bounds: a call string longer than 1 MiB is a decode error (not parsed);
 * values nest at most 200 levels (`bfcl_syntax.ts`); lines are held to the
 * one-line cap of `read_limits.ts` and the JSON limits of `json_limits.ts`.
 *
 * @module
 */

import { describeJson, isJsonObject, type ToolCall, type Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { maxMessageBytes, sizeText } from "../base/read_limits.ts";
import { checkJsonLimits } from "../base/json_limits.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";
import { textLines } from "../base/jsonl_lines.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import { type BfclCall, BfclDecodeError, decodePythonCalls } from "./bfcl_python.ts";
import { decodeJavaCalls } from "./bfcl_java.ts";
import { decodeJavascriptCalls } from "./bfcl_javascript.ts";
import { stripChars } from "./bfcl_syntax.ts";

/** The language a prompting model's call string is decoded in. */
export type BfclLanguage = "python" | "java" | "javascript";

/** Options for {@linkcode readBfcl}. */
export interface ReadBfclOptions {
  /**
   * The language of a prompting model's call string; by default the id's
   * category picks it (`javascript` → JavaScript, `java` → Java, else Python).
   * @default {undefined}
   */
  language?: BfclLanguage;
  /**
   * The file the entry came from, for errors.
   * @default {"<bfcl>"}
   */
  source?: string;
}

/** A BFCL result entry: `{id, result}` and whatever else the handler wrote. */
export interface BfclEntry {
  /** The test entry id (`simple_python_3`, `live_multiple_1-0-1`, `parallel_0#2`). */
  id: string;
  /** The model's output: a call string, or a list of calls. */
  result: unknown;
  [key: string]: unknown;
}

/** The longest call string decoded (1 MiB of text). */
export const MAX_CALL_TEXT = 1024 * 1024;

/**
 * Whether a value is one BFCL result entry: `{id, result}` with a string id
 * and a string or list result (a JSON-RPC response is not one).
 *
 * @param value Any value.
 * @returns `true` for a BFCL result entry.
 *
 * @example Usage
 * ```ts
 * import { isBfclEntry } from "./bfcl.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isBfclEntry({ id: "simple_python_0", result: "[f(a=1)]" }), true);
 * assert.equal(isBfclEntry({ jsonrpc: "2.0", id: "1", result: [] }), false);
 * ```
 */
export function isBfclEntry(value: unknown): value is BfclEntry {
  return isJsonObject(value) && typeof value.id === "string" && value.id !== "" &&
    !("jsonrpc" in value) && (typeof value.result === "string" || Array.isArray(value.result));
}

/**
 * The language BFCL decodes an entry's call string in, from its id.
 *
 * @param id The entry id.
 * @returns `javascript`, `java` or `python`.
 *
 * @example Usage
 * ```ts
 * import { bfclLanguage } from "./bfcl.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(bfclLanguage("simple_javascript_3"), "javascript");
 * assert.equal(bfclLanguage("simple_java_3"), "java");
 * assert.equal(bfclLanguage("live_simple_0-0-0"), "python");
 * ```
 */
export function bfclLanguage(id: string): BfclLanguage {
  const category = id.split("#")[0]!;
  if (category.includes("javascript")) return "javascript";
  return category.includes("java") ? "java" : "python";
}

type Decoded = { calls: BfclCall[]; form: string } | { error: string; form: string };

function wrongFormat(what: string): BfclDecodeError {
  return new BfclDecodeError(`not in function-call format (${what})`);
}

// default_decode_ast_prompting, then the language's decoder.
function decodeText(text: string, language: BfclLanguage): BfclCall[] {
  if (text.length > MAX_CALL_TEXT) {
    throw new BfclDecodeError(`a call string longer than ${sizeText(MAX_CALL_TEXT)}; not decoded`);
  }
  let wrapped = stripChars(text, "`\n ");
  if (!wrapped.startsWith("[")) wrapped = `[${wrapped}`;
  if (!wrapped.endsWith("]")) wrapped = `${wrapped}]`;
  if (language === "python") return decodePythonCalls(wrapped);
  const calls = language === "java" ? decodeJavaCalls(wrapped) : decodeJavascriptCalls(wrapped);
  if (calls === undefined) throw wrongFormat(`no ${language} call found`);
  return calls;
}

function decodeItem(item: unknown, index: number): BfclCall {
  if (!isJsonObject(item) || Object.keys(item).length !== 1) {
    throw wrongFormat(`item ${index} is ${describeJson(item)}, not {name: arguments}`);
  }
  const [name, value] = Object.entries(item)[0]!;
  let args = value;
  if (typeof value === "string") {
    try {
      args = parseJsonLossless(value, { keep: "float-text" });
    } catch (error) {
      throw new BfclDecodeError(
        `item ${index}'s arguments are not JSON: ${(error as Error).message}`,
      );
    }
    try {
      checkJsonLimits(args, `result[${index}].${name}`);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw new BfclDecodeError(error.message);
    }
  }
  if (!isJsonObject(args)) {
    throw wrongFormat(`item ${index}'s arguments are ${describeJson(args)}, not an object`);
  }
  return { name, args };
}

function decode(result: unknown, language: BfclLanguage): Decoded {
  const form = typeof result === "string" ? "prompting" : "calls";
  try {
    if (typeof result === "string") return { calls: decodeText(result, language), form };
    const items = Array.isArray(result) ? result : [result];
    if (items.some(Array.isArray)) {
      throw new BfclDecodeError(
        "a list per turn (a multi-turn or agentic result): out of scope for the bfcl format",
      );
    }
    if (items.length === 1 && isJsonObject(items[0]) && Object.keys(items[0]).length === 0) {
      return { calls: [], form };
    }
    const calls = items.map(decodeItem);
    const json = items.some((item) => typeof Object.values(item as object)[0] === "string");
    return { calls, form: json ? "function-calling" : "decoded" };
  } catch (error) {
    if (!(error instanceof BfclDecodeError)) throw error;
    return { error: error.message, form };
  }
}

function toCall(call: BfclCall): ToolCall {
  if (call.unsupported !== undefined) {
    return {
      tool: call.name,
      args: {},
      rawArgs: call.text,
      argsError: `unsupported value: ${call.unsupported}`,
    };
  }
  return { tool: call.name, args: call.args ?? {} };
}

function usageOf(entry: BfclEntry): Trace["usage"] {
  const input = entry.input_token_count;
  const output = entry.output_token_count;
  if (typeof input !== "number" && typeof output !== "number") return undefined;
  return {
    inputTokens: typeof input === "number" ? input : null,
    outputTokens: typeof output === "number" ? output : null,
  };
}

function runOf(id: string): Trace["run"] {
  const at = id.indexOf("#");
  if (at === -1) return { task: id };
  const trial = id.slice(at + 1);
  return /^\d{1,9}$/.test(trial) ? { task: id.slice(0, at), trial: Number(trial) } : { task: id };
}

/**
 * Read one BFCL result entry as a trace.
 *
 * @param entry The entry, `{id, result, …}`.
 * @param options The language of call strings and the source name.
 * @returns The trace: the decoded calls, or 0 calls with a note saying why.
 * @throws {InputError} When the value is not a BFCL result entry.
 *
 * @example Usage
 * ```ts
 * import { readBfcl } from "./bfcl.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = readBfcl({ id: "simple_python_0", result: "[area(base=10, height=5.0)]" });
 * assert.equal(trace.calls[0]?.tool, "area");
 * assert.equal(JSON.stringify(trace.calls[0]?.args), '{"base":10,"height":5.0}');
 * assert.equal(trace.metadata?.bfcl_id, "simple_python_0");
 * const text = readBfcl({ id: "irrelevance_0", result: "No function fits." });
 * assert.equal(text.calls.length, 0);
 * assert.match(text.notes![0]!, /^decode_error: /);
 * ```
 */
export function readBfcl(entry: unknown, options: ReadBfclOptions = {}): Trace {
  const source = options.source ?? "<bfcl>";
  if (!isBfclEntry(entry)) {
    throw new InputError(
      `not a BFCL result entry: expected {"id": "…", "result": …}, got ${describeJson(entry)}`,
      source,
    );
  }
  const language = options.language ?? bfclLanguage(entry.id);
  const decoded = decode(entry.result, language);
  const metadata: Record<string, unknown> = {
    bfcl_id: entry.id,
    bfcl_language: language,
    bfcl_output_form: decoded.form,
  };
  const trace: Trace = { calls: [], format: "bfcl", run: runOf(entry.id), metadata };
  const usage = usageOf(entry);
  if (usage !== undefined) trace.usage = usage;
  if ("error" in decoded) {
    metadata.decode_error = decoded.error;
    trace.notes = [
      `decode_error: ${decoded.error} (BFCL: invalid in AST categories, no call in irrelevance)`,
    ];
    if (typeof entry.result === "string") trace.finalAnswer = entry.result;
    return trace;
  }
  const nameless = decoded.calls.findIndex((call) => call.name === "");
  if (nameless !== -1) {
    metadata.decode_error = `call ${nameless} has no function name`;
    trace.notes = [`decode_error: ${metadata.decode_error}`];
    return trace;
  }
  trace.calls = decoded.calls.map(toCall);
  if (trace.calls.length === 0) {
    trace.notes = ["no tool calls: the BFCL output is an empty call list (BFCL: no call)"];
  }
  return trace;
}

/**
 * The reader of one BFCL result entry (a parsed line).
 *
 * @example Usage
 * ```ts
 * import { bfclReader } from "./bfcl.ts";
 * import assert from "node:assert/strict";
 *
 * const entry = { id: "parallel_0", result: [{ "spotify.play": '{"artist": "Taylor Swift", "duration": 20}' }] };
 * assert.equal(bfclReader.claims(entry), true);
 * assert.deepEqual(bfclReader.read(entry, "r.json").calls[0]?.args, { artist: "Taylor Swift", duration: 20 });
 * ```
 */
export const bfclReader: FormatReader = documentReader(
  "bfcl",
  (value) => isBfclEntry(value) ? value : undefined,
  'not a BFCL result entry: expected {"id": "…", "result": …}',
  (entry, source) => readBfcl(entry, { source }),
);

const HEAD = /^\s*\{\s*"id"\s*:\s*"/;

/**
 * The traces of a BFCL result file's text, each line parsed with int versus
 * float kept; `undefined` when the text does not look like one (its first
 * line is not `{"id": "…", …"result"…}`) and the format is not forced.
 *
 * @param text The file's text.
 * @param source The file name, for errors and notes.
 * @param forced Whether `--format bfcl` was given (then a line that is not an entry is an error).
 * @returns The traces, one per line, or `undefined`.
 * @throws {InputError} On a bad line when forced, or a line past the one-line cap.
 *
 * @example Usage
 * ```ts
 * import { bfclTracesFromText } from "./bfcl.ts";
 * import assert from "node:assert/strict";
 *
 * const text = '{"id": "simple_python_0", "result": [{"f": {"x": 5.0}}]}\n' +
 *   '{"id": "simple_python_1", "result": "[f(x=2)]"}\n';
 * const traces = bfclTracesFromText(text, "BFCL_v3_simple_result.json", false)!;
 * assert.equal(JSON.stringify(traces[0]?.calls[0]?.args), '{"x":5.0}');
 * assert.equal(traces[1]?.run?.task, "simple_python_1");
 * assert.equal(bfclTracesFromText('{"a": 1}', "x.json", false), undefined);
 * ```
 */
export function bfclTracesFromText(
  text: string,
  source: string,
  forced: boolean,
): Trace[] | undefined {
  const firstEnd = text.indexOf("\n");
  const first = text.slice(0, firstEnd === -1 ? Math.min(text.length, 4096) : firstEnd);
  if (!forced && (!HEAD.test(first) || !first.includes('"result"'))) return undefined;
  const cap = maxMessageBytes();
  const traces: Trace[] = [];
  for (const { text: row, line } of textLines(text)) {
    if (row.trim() === "") continue;
    const where = `${source}:${line}`;
    if (row.length > cap) throw new InputError(`a line longer than ${sizeText(cap)}`, where);
    let value: unknown;
    try {
      value = parseJsonLossless(row, { keep: "float-text" });
    } catch {
      if (!forced) return undefined; // the generic reader names the bad line and column
      throw new InputError("invalid JSON on this line; fix or remove the line", where);
    }
    checkJsonLimits(value, where);
    if (!isBfclEntry(value)) {
      if (!forced) return undefined;
      throw new InputError(
        `not a BFCL result line: expected {"id": "…", "result": …}, got ${describeJson(value)}`,
        where,
      );
    }
    traces.push(readBfcl(value, { source: where }));
  }
  return traces.length > 0 ? traces : undefined;
}
