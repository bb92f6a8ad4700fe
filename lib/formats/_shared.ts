/**
 * Helpers every reader shares: argument text, result text, usage sums, the
 * final-answer rule and the envelope keys. Private to `lib/formats/`.
 *
 * @module
 */

import { checkJsonLimits, quickWithinLimits } from "../base/json_limits.ts";
import {
  describeJson,
  isJsonObject,
  type JsonObject,
  type SkippedItems,
  type ToolCall,
  type Trace,
  type Usage,
} from "../scoring/calls.ts";
import { numberText, parseJsonLossless } from "../base/lossless_json.ts";

// Whether a character code may be white space to String.prototype.trim (or the text is empty:
// NaN): control characters and space, NBSP, and everything from U+1680 on (checked in full).
function mayBeSpace(code: number): boolean {
  return !(code > 32 && code < 0x1680 && code !== 0xa0);
}

// Hold parsed JSON text to the input limits: most arguments and results are short, and a short
// value is decided by the quick pass (the full check names the path when it is not).
function checkParsed(text: string, value: unknown): void {
  if (text.length > 300 || !quickWithinLimits(value)) checkJsonLimits(value);
}

/**
 * Parse argument text: a JSON object, or the text kept with the parse error.
 * Empty text is no arguments.
 *
 * @param raw The argument text as the provider sent it.
 * @returns `{args}` or `{args: {}, rawArgs, argsError}`.
 *
 * @example Usage
 * ```ts
 * import { parseArgumentText } from "./_shared.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseArgumentText('{"a":1}'), { args: { a: 1 } });
 * assert.equal(parseArgumentText("{a:").rawArgs, "{a:");
 * ```
 */
export function parseArgumentText(
  raw: string,
): Pick<ToolCall, "args" | "rawArgs" | "argsError"> {
  if (mayBeSpace(raw.charCodeAt(0)) && raw.trim() === "") return { args: {} };
  try {
    const parsed = parseJsonLossless(raw);
    checkParsed(raw, parsed); // too deep or 1e400: kept as arguments that did not parse
    if (isJsonObject(parsed)) return { args: parsed };
    return {
      args: {},
      rawArgs: raw,
      argsError: `arguments are ${describeJson(parsed)}, not an object`,
    };
  } catch (error) {
    return { args: {}, rawArgs: raw, argsError: (error as Error).message };
  }
}

/**
 * Arguments from whatever a provider sent: an object is taken as is, a string
 * is parsed, nothing is no arguments, anything else is kept as wrong.
 */
export function argsFromValue(raw: unknown): Pick<ToolCall, "args" | "rawArgs" | "argsError"> {
  if (typeof raw === "string") return parseArgumentText(raw);
  if (isJsonObject(raw)) return { args: raw };
  if (raw === undefined || raw === null) return { args: {} };
  return {
    args: {},
    rawArgs: JSON.stringify(raw),
    argsError: `arguments are ${describeJson(raw)}, not an object`,
  };
}

/** Copy the argument fields onto a call. */
export function setArgs(call: ToolCall, raw: unknown): void {
  // The common case without the result record: object text that parses, within the limits.
  if (typeof raw === "string" && raw.charCodeAt(0) === 123) {
    let value: unknown;
    try {
      value = parseJsonLossless(raw);
      checkParsed(raw, value);
    } catch {
      value = undefined; // parsed again below, for the error message
    }
    // What JSON.parse makes is a plain object, an array or a primitive: no prototype to check.
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      call.args = value as JsonObject;
      return;
    }
  }
  const parsed = argsFromValue(raw);
  call.args = parsed.args;
  if (parsed.rawArgs !== undefined) call.rawArgs = parsed.rawArgs;
  if (parsed.argsError !== undefined) call.argsError = parsed.argsError;
}

/**
 * JSON text as its value (integers a double cannot hold keep their digits),
 * or `undefined` when it is not JSON or is past the input limits (too deep,
 * `1e400`). JSON text never parses to `undefined`, so it says "not JSON".
 *
 * @example Usage
 * ```ts
 * import { jsonFromText } from "./_shared.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(jsonFromText('{"a": 1}'), { a: 1 });
 * assert.equal(jsonFromText("null"), null);
 * assert.equal(jsonFromText("{a:"), undefined);
 * assert.equal(jsonFromText("1e400"), undefined);
 * ```
 */
export function jsonFromText(text: string): unknown {
  try {
    const value = parseJsonLossless(text);
    checkParsed(text, value);
    return value;
  } catch {
    return undefined;
  }
}

/**
 * A tool result given as text: a JSON object or array is kept parsed (so
 * `result.status` and row counts can be read); any other text stays text.
 */
export function resultFromText(text: string): unknown {
  const first = text.charCodeAt(0);
  if (first !== 123 && first !== 91) { // not "{" or "[": trimmed only when it may be space
    if (!mayBeSpace(first)) return text;
    const head = text.trimStart()[0];
    if (head !== "{" && head !== "[") return text;
  }
  const value = jsonFromText(text);
  return value === undefined ? text : value; // past the limits it stays text
}

/**
 * The failure a result reports about itself, for formats with no error flag:
 * a JSON object with a non-empty top-level `error` (a string, or an object
 * with a `message`).
 */
export function errorInResult(result: unknown): string | undefined {
  if (!isJsonObject(result)) return undefined;
  const error = result.error;
  if (typeof error === "string") return error.trim() === "" ? undefined : error;
  if (isJsonObject(error)) {
    return typeof error.message === "string" && error.message !== ""
      ? error.message
      : JSON.stringify(error);
  }
  if (error === true) return "error";
  return undefined;
}

/** Attach a flagless text result: parsed when JSON, failed when it says `error`. */
export function attachTextResult(call: ToolCall, text: string): void {
  const result = resultFromText(text);
  call.result = result;
  // Text or what JSON.parse made: only an object with an `error` key can report a failure.
  if (typeof result !== "object" || result === null || !("error" in result)) return;
  const error = errorInResult(result);
  if (error !== undefined) call.error = error;
}

/**
 * The toolscore extension keys a logger may add to a result item or message:
 * `duration_s`, `duration_ms`, `cost_usd`.
 */
export function attachExtras(call: ToolCall, item: JsonObject): void {
  const duration = finiteNumber(item.duration_s) ??
    (finiteNumber(item.duration_ms) !== undefined
      ? (item.duration_ms as number) / 1000
      : undefined);
  if (duration !== undefined && duration >= 0) call.durationS = duration;
  const cost = finiteNumber(item.cost_usd);
  if (cost !== undefined && cost >= 0) call.costUsd = cost;
}

/** A finite number (a number literal kept as its digits counts as its nearest double), or `undefined`. */
export function finiteNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  const text = numberText(value);
  return text === undefined ? undefined : Number(text);
}

/** A provider id (string or number, a 64-bit one by its digits) as a string. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return numberText(value);
}

/**
 * Token usage from `{input_tokens, output_tokens}`, OpenAI's
 * `prompt_tokens`/`completion_tokens`, Gemini's `promptTokenCount`/
 * `candidatesTokenCount`, or camelCase.
 *
 * @param value The usage object.
 * @returns The usage, or `undefined` when the value holds none.
 *
 * @example Usage
 * ```ts
 * import { usageFromJson } from "./_shared.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(usageFromJson({ prompt_tokens: 5 }), { inputTokens: 5, outputTokens: null });
 * ```
 */
export function usageFromJson(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  const number = (...keys: string[]): number | null => {
    for (const key of keys) if (typeof value[key] === "number") return value[key] as number;
    return null;
  };
  const usage = {
    inputTokens: number("input_tokens", "prompt_tokens", "inputTokens", "promptTokenCount"),
    outputTokens: number(
      "output_tokens",
      "completion_tokens",
      "outputTokens",
      "candidatesTokenCount",
    ),
  };
  return usage.inputTokens === null && usage.outputTokens === null ? undefined : usage;
}

/** The sum of two usages; a side unknown in both stays unknown. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const add = (x: number | null, y: number | null) => x === null ? y : y === null ? x : x + y;
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
  };
}

/**
 * The final-answer rule: the assistant text after the last tool call. Text
 * parts of one message (or of one run of model turns) are joined with
 * `separator`; a call forgets the text before it; blank text is no text.
 * Pieces joined with `""` are a stream's deltas: a blank delta after text
 * (the space or newline between words) is part of the text, never dropped.
 */
export class FinalAnswer {
  #parts: string[] = [];
  #answer: string | undefined;

  /** @param separator How text parts of one message are joined. */
  constructor(readonly separator: string = "\n") {}

  /** A new assistant message starts. */
  message(): void {
    if (this.#parts.length > 0) this.#parts = [];
  }

  /** Assistant text. */
  text(text: unknown): void {
    if (typeof text !== "string") return;
    if (text.trim() === "") {
      if (this.separator !== "" || this.#parts.length === 0) return;
      this.#parts.push(text);
      return;
    }
    this.#parts.push(text);
    this.#answer = this.#parts.join(this.separator);
  }

  /** A tool call: the text so far came before it. */
  call(): void {
    if (this.#parts.length > 0) this.#parts = [];
    this.#answer = undefined;
  }

  /** The final answer, or `undefined` when unknown. */
  get value(): string | undefined {
    return this.#answer;
  }
}

/**
 * Finish a trace: an explicit top-level `final_answer` (or `finalAnswer`) wins over the one
 * found in the transcript; `model` and `usage` are taken from the envelope
 * when the reader found none.
 */
export function finishTrace(trace: Trace, envelope: unknown): Trace {
  if (!isJsonObject(envelope)) return trace;
  const answer = envelope.final_answer ?? envelope.finalAnswer;
  if (typeof answer === "string") trace.finalAnswer = answer;
  if (trace.model === undefined && typeof envelope.model === "string" && envelope.model !== "") {
    trace.model = envelope.model;
  }
  if (trace.usage === undefined) {
    const usage = usageFromJson(envelope.usage);
    if (usage) trace.usage = usage;
  }
  return trace;
}

/** A trace with only the defined optional fields set. */
export function makeTrace(
  format: Trace["format"],
  calls: ToolCall[],
  extras: { finalAnswer?: string; model?: string; usage?: Usage; skipped?: SkippedTypes },
): Trace {
  const trace: Trace = { calls, format };
  if (extras.finalAnswer !== undefined) trace.finalAnswer = extras.finalAnswer;
  if (extras.model !== undefined) trace.model = extras.model;
  if (extras.usage !== undefined) trace.usage = extras.usage;
  const skipped = extras.skipped?.list();
  if (skipped !== undefined) trace.skipped = skipped;
  return trace;
}

/**
 * Item types of a known format a reader did not read: counted by type, so
 * `inspect` can say "skipped 1 item of type X" instead of the document being
 * rejected whole.
 */
export class SkippedTypes {
  #counts = new Map<string, number>();

  /** One item of this type was skipped. */
  add(type: string): void {
    this.#counts.set(type, (this.#counts.get(type) ?? 0) + 1);
  }

  /** The skipped types in first-seen order, or `undefined` when none. */
  list(): SkippedItems[] | undefined {
    if (this.#counts.size === 0) return undefined;
    return [...this.#counts].map(([type, count]) => ({ type, count }));
  }
}

/** The list a document holds under `key`, or the document when it is a list. */
export function listOf(value: unknown, key: string): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isJsonObject(value) && Array.isArray(value[key])) return value[key] as unknown[];
  return undefined;
}

/** Whether some item of a list passes, looking at every item. */
export function someItem(list: readonly unknown[], test: (item: unknown) => boolean): boolean {
  for (const item of list) if (test(item)) return true;
  return false;
}

/** Whether a document is an envelope `{"format": name, …}`. */
export function isEnvelope(value: unknown, name: string): value is JsonObject {
  return isJsonObject(value) && value.format === name;
}
