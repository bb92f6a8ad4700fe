/**
 * OpenTelemetry spans as the `otel` reader sees them: OTLP JSON exports, the
 * SDKs' console form, the JS SDK's `ReadableSpan` JSON and Phoenix's span
 * JSON (`context.span_id`, top-level `span_kind` and `status_code`), decoded
 * into one {@linkcode Span} shape. Private to `lib/formats/`.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../../scoring/calls.ts";
import { idOf } from "../_shared.ts";
import { numberText } from "../../base/lossless_json.ts";

/** A span, whichever way it was written. */
export interface Span {
  /** The span name. */
  name: string;
  /** The span id. */
  spanId?: string;
  /** The trace id. */
  traceId?: string;
  /** The parent span id. */
  parentId?: string;
  /** Start, nanoseconds since the epoch. */
  start?: bigint;
  /** End, nanoseconds since the epoch. */
  end?: bigint;
  /** The attributes, decoded to plain values. */
  attributes: JsonObject;
  /** The failure message, when the span failed. */
  error?: string;
  /** Whether the status says OK. */
  ok: boolean;
  /** Position in the document, to break ties. */
  order: number;
}
/**
 * Decode an OTLP JSON `AnyValue` (`{"stringValue": "x"}`, `{"intValue":
 * "3"}`, `{"kvlistValue": {"values": […]}}`…) into a plain JSON value.
 *
 * @param value The AnyValue.
 * @returns The plain value; an empty AnyValue is `null`.
 *
 * @example Usage
 * ```ts
 * import { decodeAnyValue } from "./spans.ts";
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

/** Attributes as a plain object (OTLP `[{key, value}]` lists decoded). */
export function decodeAttributes(attributes: unknown): JsonObject {
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
    const digits = numberText(value); // nanoseconds written as a number, kept exact (issue 42)
    if (digits !== undefined && /^\d+$/.test(digits)) return BigInt(digits);
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

function isHrTime(value: unknown): boolean {
  return Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === "number");
}

/**
 * Whether a value is one span (OTLP JSON, console form or `ReadableSpan`
 * JSON). A span written without its ids (a `ReadableSpan` dump that kept
 * only `name`, `attributes` and `[s, ns]` times, as in OpenInference's
 * Mastra fixture) is a span too when it has attributes and a start time in
 * an OTel form.
 */
export function isSpan(value: unknown): boolean {
  if (!isJsonObject(value) || typeof value.name !== "string") return false;
  if (
    typeof value.spanId === "string" || typeof value.span_id === "string" ||
    (isJsonObject(value.context) && typeof value.context.span_id === "string") ||
    (isJsonObject(value.spanContext) && typeof value.spanContext.spanId === "string")
  ) return true;
  const attributes = value.attributes;
  return (isJsonObject(attributes) || Array.isArray(attributes)) &&
    (isHrTime(value.startTime) || typeof value.startTimeUnixNano === "string");
}

function isExport(value: unknown): value is JsonObject {
  return isJsonObject(value) && Array.isArray(value.resourceSpans);
}

const CONVENTION_KEY = /^(gen_ai|llm|openinference|ai|traceloop|tool|tool_call|mcp)\./;

function isAttributeValue(value: unknown): boolean {
  const t = typeof value;
  if (t === "string" || t === "number" || t === "boolean") return true;
  return Array.isArray(value) &&
    value.every((v) => ["string", "number", "boolean"].includes(typeof v));
}

/**
 * One span's attributes on their own (`{"gen_ai.operation.name": "chat", …}`),
 * as copied from a tracing UI or an instrumentation's test fixture: every
 * value an attribute value, some key a GenAI convention's. Read as one span.
 */
function attributeMap(value: unknown): unknown[] | undefined {
  if (!isJsonObject(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length === 0 || !entries.some(([key]) => CONVENTION_KEY.test(key))) return undefined;
  if (!entries.every(([, v]) => isAttributeValue(v))) return undefined;
  return [{ name: "span", spanId: "attributes", attributes: value }];
}

/**
 * The raw spans of a document: an export, a list of exports or spans,
 * `{spans}`, or one span's attribute map.
 */
export function rawSpans(value: unknown): unknown[] | undefined {
  if (isExport(value)) return exportSpans(value);
  const attributes = attributeMap(value);
  if (attributes !== undefined) return attributes;
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
 * import { isOtelLine } from "./spans.ts";
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

/**
 * A raw span's own, parent and trace ids, in every spelling the reader
 * accepts (OTLP, the SDKs' console form, `ReadableSpan`, Phoenix), without
 * decoding anything else.
 *
 * @param raw A raw span.
 * @returns Its ids, each when present.
 */
export function spanIds(raw: unknown): Pick<Span, "spanId" | "traceId" | "parentId"> {
  const span = raw as JsonObject;
  const context = isJsonObject(span.context)
    ? span.context
    : isJsonObject(span.spanContext)
    ? { span_id: span.spanContext.spanId, trace_id: span.spanContext.traceId }
    : {};
  const parentContext = isJsonObject(span.parentSpanContext) ? span.parentSpanContext : {};
  const out: Pick<Span, "spanId" | "traceId" | "parentId"> = {};
  const spanId = idOf(span.spanId ?? span.span_id ?? context.span_id);
  if (spanId !== undefined) out.spanId = spanId;
  const traceId = idOf(span.traceId ?? span.trace_id ?? context.trace_id);
  if (traceId !== undefined) out.traceId = traceId;
  const parentId = idOf(
    span.parentSpanId ?? span.parent_span_id ?? span.parent_id ?? parentContext.spanId,
  );
  if (parentId !== undefined) out.parentId = parentId;
  return out;
}

/** Decode one raw span; `order` is its place in the document. */
export function toSpan(raw: unknown, order: number): Span {
  const span = raw as JsonObject;
  let attributes = decodeAttributes(span.attributes);
  // Phoenix's span JSON (its REST API, `px` CLI) keeps the OpenInference
  // kind and the status beside the attributes: `span_kind`, `status_code`.
  if (typeof span.span_kind === "string" && attributes["openinference.span.kind"] === undefined) {
    attributes = { ...attributes, "openinference.span.kind": span.span_kind };
  }
  const status = statusError(
    span.status ??
      (typeof span.status_code === "string"
        ? { code: span.status_code, message: span.status_message }
        : undefined),
  );
  const errorType = attributes["error.type"];
  const out: Span = {
    name: span.name as string,
    attributes,
    ok: status.ok,
    order,
    ...spanIds(raw),
  };
  const start = nanos(
    span.startTimeUnixNano ?? span.start_time_unix_nano ?? span.start_time ?? span.startTime,
  );
  if (start !== undefined) out.start = start;
  const end = nanos(
    span.endTimeUnixNano ?? span.end_time_unix_nano ?? span.end_time ?? span.endTime,
  );
  if (end !== undefined && end > 0n) out.end = end;
  if (status.error || (typeof errorType === "string" && errorType !== "")) {
    const exception = attributes["exception.message"]; // some writers set it on the span
    out.error = status.message ?? exceptionMessage(span.events) ??
      (typeof exception === "string" && exception !== "" ? exception : undefined) ??
      (typeof errorType === "string" && errorType !== "" ? errorType : "error");
  }
  return out;
}
/** Order spans by start time; document order breaks ties. */
export function byStart(a: Span, b: Span): number {
  if (a.start !== undefined && b.start !== undefined && a.start !== b.start) {
    return a.start < b.start ? -1 : 1;
  }
  if (a.start === undefined && b.start !== undefined) return 1;
  if (b.start === undefined && a.start !== undefined) return -1;
  return a.order - b.order;
}
