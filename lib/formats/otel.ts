/**
 * The `otel` format: OpenTelemetry traces following the GenAI and MCP
 * semantic conventions.
 *
 * Shapes: an OTLP JSON export `{"resourceSpans": [{"scopeSpans": [{"spans":
 * […]}]}]}` (older `instrumentationLibrarySpans` too), a list of exports (a
 * JSONL file of exports is one trace), a list of spans or `{"spans": […]}`.
 * A span is OTLP JSON (`spanId`, `startTimeUnixNano`, attributes as
 * `[{key, value: AnyValue}]`, `status.code`) or the SDKs' console form
 * (`context.span_id`, ISO `start_time`, attributes as an object,
 * `status.status_code`).
 *
 * A tool call is a span with `gen_ai.operation.name == "execute_tool"` or
 * `mcp.method.name == "tools/call"`: tool `gen_ai.tool.name` (else the older
 * `mcp.tool.name`, else the span name's target), arguments
 * `gen_ai.tool.call.arguments` (a JSON string or structured; else the older
 * `mcp.request.argument.*` attributes), result `gen_ai.tool.call.result`,
 * id `gen_ai.tool.call.id` (else `jsonrpc.request.id`, `mcp.request.id`).
 *
 * Decisions where the design is silent:
 * - Calls are ordered by start time (document order breaks ties); the
 *   duration is end − start, computed on the exact nanoseconds.
 * - A span with status ERROR (code `2`, `STATUS_CODE_ERROR` or `ERROR`) or
 *   an `error.type` attribute failed; its error is the status message, else
 *   the `exception.message` of an `exception` event, else `error.type`. The
 *   conventions require `error.type` on failure, so a finished tool span
 *   without it is a known success (`is_error: false`); an unfinished one has
 *   no outcome.
 * - When arguments were not recorded (they are opt-in) the call has no
 *   arguments (`{}`).
 * - A tool span whose parent is a tool span of the same tool (an MCP client
 *   span under a GenAI `execute_tool` span) is the same call: it is merged
 *   into the parent, filling what the parent lacks, not counted twice.
 * - `model` is the first inference span's `gen_ai.response.model` (else
 *   `gen_ai.request.model`); `usage` sums `gen_ai.usage.input_tokens` and
 *   `gen_ai.usage.output_tokens` over inference spans (`chat`,
 *   `text_completion`, `generate_content`), or over `invoke_agent` spans when
 *   no inference span reports usage.
 * - The final answer is the text of `gen_ai.output.messages` (or the older
 *   `gen_ai.completion.0.content`) of the span that ends last among those
 *   whose output has text and no tool call, when it ends after the last tool
 *   call; text parts are concatenated. A top-level `final_answer` wins.
 * - No convention records cost, so cost is unknown.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { addUsage, finishTrace, idOf, makeTrace, resultFromText, setArgs } from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

/** A span, whichever way it was written. */
interface Span {
  name: string;
  spanId?: string;
  traceId?: string;
  parentId?: string;
  start?: bigint;
  end?: bigint;
  attributes: JsonObject;
  error?: string;
  ok: boolean;
  order: number;
}

const INFERENCE = new Set(["chat", "text_completion", "generate_content"]);

/**
 * Decode an OTLP JSON `AnyValue` (`{"stringValue": "x"}`, `{"intValue":
 * "3"}`, `{"kvlistValue": {"values": […]}}`…) into a plain JSON value.
 *
 * @param value The AnyValue.
 * @returns The plain value; an empty AnyValue is `null`.
 *
 * @example Usage
 * ```ts
 * import { decodeAnyValue } from "./otel.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decodeAnyValue({ intValue: "42" }), 42);
 * assert.deepEqual(
 *   decodeAnyValue({ kvlistValue: { values: [{ key: "a", value: { boolValue: true } }] } }),
 *   { a: true },
 * );
 * ```
 */
export function decodeAnyValue(value: unknown): unknown {
  if (!isJsonObject(value)) return value;
  const v = (camel: string, snake: string) => value[camel] ?? value[snake];
  const string = v("stringValue", "string_value");
  if (string !== undefined) return string;
  const bool = v("boolValue", "bool_value");
  if (bool !== undefined) return bool;
  const int = v("intValue", "int_value");
  if (int !== undefined) return Number(int);
  const double = v("doubleValue", "double_value");
  if (double !== undefined) return Number(double);
  const array = v("arrayValue", "array_value");
  if (array !== undefined) {
    return isJsonObject(array) && Array.isArray(array.values)
      ? array.values.map(decodeAnyValue)
      : [];
  }
  const kvlist = v("kvlistValue", "kvlist_value");
  if (kvlist !== undefined) return decodeAttributes(isJsonObject(kvlist) ? kvlist.values : []);
  const bytes = v("bytesValue", "bytes_value");
  if (bytes !== undefined) return bytes;
  return null;
}

function decodeAttributes(attributes: unknown): JsonObject {
  if (isJsonObject(attributes)) return attributes;
  const out: JsonObject = {};
  if (!Array.isArray(attributes)) return out;
  for (const kv of attributes) {
    if (isJsonObject(kv) && typeof kv.key === "string") out[kv.key] = decodeAnyValue(kv.value);
  }
  return out;
}

/** Nanoseconds since the epoch from unix nanos, an ISO time or an `[s, ns]` pair. */
function nanos(value: unknown): bigint | undefined {
  try {
    if (typeof value === "string" && /^\d+$/.test(value)) return BigInt(value);
    if (typeof value === "number" && Number.isFinite(value)) return BigInt(Math.round(value));
    if (Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === "number")) {
      return BigInt(value[0] as number) * 1_000_000_000n + BigInt(value[1] as number);
    }
    if (typeof value === "string") {
      const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/.exec(value);
      if (match === null) return undefined;
      const ms = Date.parse(`${match[1]}${match[3] ?? "Z"}`);
      if (Number.isNaN(ms)) return undefined;
      const fraction = (match[2] ?? "").slice(0, 9).padEnd(9, "0");
      return BigInt(ms) * 1_000_000n + BigInt(fraction);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function isSpan(value: unknown): boolean {
  if (!isJsonObject(value) || typeof value.name !== "string") return false;
  return typeof value.spanId === "string" || typeof value.span_id === "string" ||
    (isJsonObject(value.context) && typeof value.context.span_id === "string");
}

function isExport(value: unknown): value is JsonObject {
  return isJsonObject(value) && Array.isArray(value.resourceSpans);
}

function rawSpans(value: unknown): unknown[] | undefined {
  if (isExport(value)) return exportSpans(value);
  if (isJsonObject(value) && Array.isArray(value.spans)) {
    return value.spans.length > 0 && value.spans.every(isSpan) ? value.spans : undefined;
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const spans: unknown[] = [];
  for (const item of value) {
    if (isExport(item)) {
      for (const span of exportSpans(item)) spans.push(span);
    } else if (isSpan(item)) spans.push(item);
    else return undefined;
  }
  return spans;
}

function exportSpans(value: JsonObject): unknown[] {
  const spans: unknown[] = [];
  for (const resource of value.resourceSpans as unknown[]) {
    if (!isJsonObject(resource)) continue;
    const scopes = resource.scopeSpans ?? resource.instrumentationLibrarySpans;
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      if (isJsonObject(scope) && Array.isArray(scope.spans)) {
        for (const span of scope.spans) spans.push(span);
      }
    }
  }
  return spans;
}

/**
 * Whether a value is an OTLP export or a span (a JSONL line of an OTel trace).
 *
 * @param value Any value.
 * @returns `true` for `{"resourceSpans": …}` or one span.
 *
 * @example Usage
 * ```ts
 * import { isOtelLine } from "./otel.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isOtelLine({ resourceSpans: [] }), true);
 * assert.equal(isOtelLine({ tool: "a" }), false);
 * ```
 */
export function isOtelLine(value: unknown): boolean {
  return isExport(value) || isSpan(value);
}

function statusError(status: unknown): { error: boolean; ok: boolean; message?: string } {
  if (!isJsonObject(status)) return { error: false, ok: false };
  const code = status.code ?? status.status_code;
  const error = code === 2 || code === "STATUS_CODE_ERROR" || code === "ERROR";
  const ok = code === 1 || code === "STATUS_CODE_OK" || code === "OK";
  const message = status.message ?? status.description;
  return typeof message === "string" && message !== "" ? { error, ok, message } : { error, ok };
}

function exceptionMessage(events: unknown): string | undefined {
  if (!Array.isArray(events)) return undefined;
  for (const event of events) {
    if (!isJsonObject(event) || event.name !== "exception") continue;
    const message = decodeAttributes(event.attributes)["exception.message"];
    if (typeof message === "string" && message !== "") return message;
  }
  return undefined;
}

function toSpan(raw: unknown, order: number): Span {
  const span = raw as JsonObject;
  const context = isJsonObject(span.context) ? span.context : {};
  const attributes = decodeAttributes(span.attributes);
  const status = statusError(span.status);
  const errorType = attributes["error.type"];
  const out: Span = {
    name: span.name as string,
    attributes,
    ok: status.ok,
    order,
  };
  const spanId = idOf(span.spanId ?? span.span_id ?? context.span_id);
  if (spanId !== undefined) out.spanId = spanId;
  const traceId = idOf(span.traceId ?? span.trace_id ?? context.trace_id);
  if (traceId !== undefined) out.traceId = traceId;
  const parentId = idOf(span.parentSpanId ?? span.parent_span_id ?? span.parent_id);
  if (parentId !== undefined) out.parentId = parentId;
  const start = nanos(
    span.startTimeUnixNano ?? span.start_time_unix_nano ?? span.start_time ?? span.startTime,
  );
  if (start !== undefined) out.start = start;
  const end = nanos(
    span.endTimeUnixNano ?? span.end_time_unix_nano ?? span.end_time ?? span.endTime,
  );
  if (end !== undefined && end > 0n) out.end = end;
  if (status.error || (typeof errorType === "string" && errorType !== "")) {
    out.error = status.message ?? exceptionMessage(span.events) ??
      (typeof errorType === "string" && errorType !== "" ? errorType : "error");
  }
  return out;
}

function isToolSpan(span: Span): boolean {
  return span.attributes["gen_ai.operation.name"] === "execute_tool" ||
    span.attributes["mcp.method.name"] === "tools/call";
}

function toolName(span: Span, source: string): string {
  const named = span.attributes["gen_ai.tool.name"] ?? span.attributes["mcp.tool.name"];
  if (typeof named === "string" && named !== "") return named;
  const target = span.name.split(" ").slice(1).join(" ").trim();
  if (target !== "") return target;
  throw new InputError(
    `tool span ${span.spanId ?? span.name} has no gen_ai.tool.name`,
    source,
  );
}

function spanCall(span: Span, source: string): ToolCall {
  const call: ToolCall = { tool: toolName(span, source) };
  const attrs = span.attributes;
  const args = attrs["gen_ai.tool.call.arguments"];
  if (args !== undefined) setArgs(call, args);
  else {
    const prefix = "mcp.request.argument.";
    const found: JsonObject = {};
    for (const [key, value] of Object.entries(attrs)) {
      if (key.startsWith(prefix)) found[key.slice(prefix.length)] = value;
    }
    call.args = found;
  }
  const id = idOf(
    attrs["gen_ai.tool.call.id"] ?? attrs["jsonrpc.request.id"] ?? attrs["mcp.request.id"],
  );
  if (id !== undefined) call.id = id;
  const result = attrs["gen_ai.tool.call.result"];
  if (typeof result === "string") call.result = resultFromText(result);
  else if (result !== undefined) call.result = result;
  if (span.error !== undefined) {
    call.isError = true;
    call.error = span.error;
  } else if (span.end !== undefined || span.ok) call.isError = false;
  if (span.start !== undefined && span.end !== undefined && span.end >= span.start) {
    call.durationS = Number(span.end - span.start) / 1e9;
  }
  const metadata: JsonObject = {};
  if (span.spanId !== undefined) metadata.span_id = span.spanId;
  if (span.traceId !== undefined) metadata.trace_id = span.traceId;
  if (Object.keys(metadata).length > 0) call.metadata = metadata;
  return call;
}

function mergeInto(parent: ToolCall, child: ToolCall): void {
  if (Object.keys(parent.args ?? {}).length === 0 && parent.rawArgs === undefined) {
    parent.args = child.args ?? {};
    if (child.rawArgs !== undefined) parent.rawArgs = child.rawArgs;
    if (child.argsError !== undefined) parent.argsError = child.argsError;
  }
  if (parent.result === undefined && child.result !== undefined) parent.result = child.result;
  if (parent.id === undefined && child.id !== undefined) parent.id = child.id;
  if (child.isError === true && parent.isError !== true) {
    parent.isError = true;
    parent.error = child.error ?? "error";
  }
}

/** Text of output messages, or `undefined` when they call tools or hold no text. */
function outputText(span: Span): string | undefined {
  let messages = span.attributes["gen_ai.output.messages"];
  if (typeof messages === "string") {
    try {
      messages = JSON.parse(messages);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(messages)) {
    const texts: string[] = [];
    for (const message of messages) {
      if (!isJsonObject(message) || !Array.isArray(message.parts)) continue;
      for (const part of message.parts) {
        if (!isJsonObject(part)) continue;
        if (part.type === "tool_call") return undefined;
        if (part.type === "text" && typeof part.content === "string") texts.push(part.content);
      }
    }
    const text = texts.join("");
    return text.trim() === "" ? undefined : text;
  }
  const legacy = span.attributes["gen_ai.completion.0.content"];
  if (span.attributes["gen_ai.completion.0.tool_calls.0.name"] !== undefined) return undefined;
  return typeof legacy === "string" && legacy.trim() !== "" ? legacy : undefined;
}

function byStart(a: Span, b: Span): number {
  if (a.start !== undefined && b.start !== undefined && a.start !== b.start) {
    return a.start < b.start ? -1 : 1;
  }
  if (a.start === undefined && b.start !== undefined) return 1;
  if (b.start === undefined && a.start !== undefined) return -1;
  return a.order - b.order;
}

function spanUsage(spans: Span[]): Usage | undefined {
  let usage: Usage | undefined;
  for (const span of spans) {
    const input = span.attributes["gen_ai.usage.input_tokens"];
    const output = span.attributes["gen_ai.usage.output_tokens"];
    if (typeof input !== "number" && typeof output !== "number") continue;
    usage = addUsage(usage, {
      inputTokens: typeof input === "number" ? input : null,
      outputTokens: typeof output === "number" ? output : null,
    });
  }
  return usage;
}

/**
 * The `otel` reader.
 *
 * @example Usage
 * ```ts
 * import { otelReader } from "./otel.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = otelReader.read([{
 *   spanId: "1",
 *   name: "execute_tool a",
 *   startTimeUnixNano: "1000000000",
 *   endTimeUnixNano: "1500000000",
 *   attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } }],
 * }], "trace.json");
 * assert.equal(trace.calls[0]?.durationS, 0.5);
 * ```
 */
export const otelReader: FormatReader = documentReader(
  "otel",
  rawSpans,
  "not an OpenTelemetry trace: expected {resourceSpans}, a list of exports, or spans",
  (raw, source, value) => {
    const spans = raw.filter(isSpan).map(toSpan).sort(byStart);
    const toolSpans = spans.filter(isToolSpan);
    const byId = new Map<string, { span: Span; call: ToolCall }>();
    const calls: ToolCall[] = [];
    let lastToolEnd: bigint | undefined;
    for (const span of toolSpans) {
      const call = spanCall(span, source);
      const parent = span.parentId === undefined ? undefined : byId.get(span.parentId);
      if (parent !== undefined && parent.call.tool === call.tool) {
        mergeInto(parent.call, call);
        if (span.spanId !== undefined) byId.set(span.spanId, parent);
        continue;
      }
      if (span.spanId !== undefined) byId.set(span.spanId, { span, call });
      calls.push(call);
      const end = span.end ?? span.start;
      if (end !== undefined && (lastToolEnd === undefined || end > lastToolEnd)) lastToolEnd = end;
    }
    const operation = (span: Span) => span.attributes["gen_ai.operation.name"];
    const inference = spans.filter((span) => INFERENCE.has(operation(span) as string));
    const agents = spans.filter((span) => operation(span) === "invoke_agent");
    let model: string | undefined;
    for (const span of [...inference, ...agents]) {
      const name = span.attributes["gen_ai.response.model"] ??
        span.attributes["gen_ai.request.model"];
      if (typeof name === "string" && name !== "") {
        model = name;
        break;
      }
    }
    const usage = spanUsage(inference) ?? spanUsage(agents);
    let finalAnswer: string | undefined;
    let answerEnd: bigint | undefined;
    for (const span of spans) {
      if (isToolSpan(span)) continue;
      const text = outputText(span);
      if (text === undefined) continue;
      const end = span.end ?? span.start ?? 0n;
      if (answerEnd === undefined || end >= answerEnd) {
        finalAnswer = text;
        answerEnd = end;
      }
    }
    if (lastToolEnd !== undefined && answerEnd !== undefined && answerEnd < lastToolEnd) {
      finalAnswer = undefined;
    }
    const trace = makeTrace("otel", calls, { finalAnswer, model, usage });
    return finishTrace(trace, Array.isArray(value) ? undefined : value);
  },
);
