/**
 * The `otel` format: OpenTelemetry traces of every GenAI convention in use.
 *
 * Shapes: an OTLP JSON export `{"resourceSpans": [{"scopeSpans": [{"spans":
 * […]}]}]}` (older `instrumentationLibrarySpans` too), a list of exports (a
 * JSONL file of exports is one trace), a list of spans or `{"spans": […]}`.
 * A span is OTLP JSON (`spanId`, `startTimeUnixNano`, attributes as
 * `[{key, value: AnyValue}]`, `status.code`), the SDKs' console form
 * (`context.span_id`, ISO `start_time`, attributes as an object,
 * `status.status_code`) or the JS SDK's `ReadableSpan` JSON (`spanContext`,
 * `[seconds, nanos]` times; also dumped without its ids, then linked to
 * nothing), or Phoenix's span JSON (`context.span_id`, top-level `span_kind`
 * and `status_code`). One span's attribute map on its own
 * (`{"gen_ai.operation.name": …, …}`, every value an attribute value) is read
 * as one span without times.
 *
 * Conventions (see `otel/conventions.ts` for every attribute): tool
 * execution spans of GenAI (`execute_tool`), MCP (`tools/call`),
 * OpenInference (`openinference.span.kind = TOOL`), the Vercel AI SDK
 * (`ai.toolCall`) and OpenLLMetry (`traceloop.span.kind = tool`); and the
 * calls model spans record in their messages — GenAI
 * `gen_ai.input/output.messages` parts (`tool_call`, `tool_call_response`),
 * OpenLLMetry `gen_ai.completion.N.tool_calls.M.*` / `gen_ai.prompt.N.*`,
 * OpenInference `llm.output_messages.N.message.tool_calls.M.tool_call.*` /
 * `llm.input_messages.*`, AI SDK `ai.response.toolCalls` /
 * `ai.prompt.messages`.
 *
 * Decisions where the conventions are silent:
 * - One logical call is read once. Observations with the same call id are
 *   one call; when one of two observations has no id, they are the same
 *   call when the tool and the canonical arguments are equal (a model's
 *   request matches the first such tool span not yet matched; a history
 *   entry matches the first such call). A tool span whose parent is a tool
 *   span of the same tool (an MCP client span under a GenAI `execute_tool`
 *   span) is the same call too. What a merged call lacks is filled from the
 *   other observations; the tool span's outcome wins.
 * - A tool span with status ERROR (code `2`, `STATUS_CODE_ERROR` or `ERROR`)
 *   or an `error.type` attribute failed; its error is the status message,
 *   else the `exception.message` of an `exception` event, else `error.type`.
 *   A finished tool span without one is a known success (`is_error: false`);
 *   an unfinished one has no outcome. A call seen only in model messages has
 *   the result a later tool message gives it (failed when that result is an
 *   object with an `error`), else no outcome.
 * - Calls are ordered by when they were seen first: a tool span by its start,
 *   a model's request by its span's end, a history entry by its span's start
 *   (document order breaks ties). The duration is the tool span's end −
 *   start on the exact nanoseconds; no convention records cost.
 * - When arguments were not recorded (they are opt-in) the call has no
 *   arguments (`{}`).
 * - Usage is counted once per model call: a span's token counts are added
 *   only when no span below it reports any (a parent repeating its
 *   children's usage is not added again); see `otel/model.ts`. `model` is
 *   the first model span's `gen_ai.response.model` (else the request model,
 *   `llm.model_name`, `ai.model.id`).
 * - One file, one trace per trace id: spans of more than one `traceId`
 *   (an exporter's batch holds every request it saw) are read as one trace
 *   per id, in the order each id first appears, named `FILE[n]` (a trace of
 *   no GenAI span reads as 0 calls with a note). The file is one trace when
 *   any span has no trace id, or when no span's parent is a span of the file
 *   (a test harness's dump of unrelated spans, each with a fresh trace id:
 *   without links there is no trace structure to trust), unless its spans are
 *   Braintrust's (`braintrust.span_attributes`: its exporter sends one root
 *   span per logged row, issue 36; see `otel/braintrust.ts`). A group is read as
 *   a list of spans, so a top-level `final_answer` of the file is not used.
 * - The final answer is the output text of the span that ends last among
 *   those whose output has text and no tool call, when it ends after the last
 *   tool call; text parts are concatenated. A top-level `final_answer` wins.
 *
 * @module
 */

import type { JsonObject, ToolCall } from "../scoring/calls.ts";
import { canonicalJson } from "../base/canonical.ts";
import { attachTextResult, errorInResult, finishTrace, makeTrace } from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import {
  byStart,
  decodeAttributes,
  isSpan,
  rawSpans,
  type Span,
  spanIds,
  toSpan,
} from "./otel/spans.ts";
import { hasBraintrustSpans } from "./otel/braintrust.ts";
import {
  executionCall,
  isToolSpan,
  messageCalls,
  seenValue,
  UnnamedCall,
} from "./otel/conventions.ts";
import { InputError } from "../base/errors.ts";
import { outputText, traceModel, traceUsage } from "./otel/model.ts";

export { decodeAnyValue, isOtelLine } from "./otel/spans.ts";

/** A logical call and what is known of when it happened. */
interface Entry {
  call: ToolCall;
  at: bigint | undefined;
  order: number;
  /** Whether a tool span recorded it (its outcome is authoritative). */
  executed: boolean;
  /** Whether a model's request was matched to it already. */
  requested: boolean;
}

// Canonical argument text per call, computed once (calls are compared often).
const CANONICAL = new WeakMap<ToolCall, string>();

function argsKey(call: ToolCall): string {
  let key = CANONICAL.get(call);
  if (key === undefined) {
    key = canonicalJson(call.args ?? {});
    CANONICAL.set(call, key);
  }
  return key;
}

function sameCall(a: ToolCall, b: ToolCall): boolean {
  return a.tool === b.tool && a.rawArgs === b.rawArgs && argsKey(a) === argsKey(b);
}

function fill(into: ToolCall, from: ToolCall): void {
  if (Object.keys(into.args ?? {}).length === 0 && into.rawArgs === undefined) {
    into.args = from.args ?? {};
    CANONICAL.delete(into);
    if (from.rawArgs !== undefined) into.rawArgs = from.rawArgs;
    if (from.argsError !== undefined) into.argsError = from.argsError;
  }
  if (into.result === undefined && from.result !== undefined) into.result = from.result;
  if (into.id === undefined && from.id !== undefined) into.id = from.id;
  if (from.isError === true && into.isError !== true) {
    into.isError = true;
    into.error = from.error ?? "error";
  }
}

function earlier(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}

class Calls {
  readonly entries: Entry[] = [];
  readonly #byId = new Map<string, Entry>();

  byId(id: string | undefined): Entry | undefined {
    return id === undefined ? undefined : this.#byId.get(id);
  }

  add(call: ToolCall, at: bigint | undefined, executed: boolean): Entry {
    const entry: Entry = {
      call,
      at,
      order: this.entries.length,
      executed,
      requested: !executed,
    };
    this.entries.push(entry);
    if (call.id !== undefined) this.#byId.set(call.id, entry);
    return entry;
  }

  index(entry: Entry): void {
    if (entry.call.id !== undefined && !this.#byId.has(entry.call.id)) {
      this.#byId.set(entry.call.id, entry);
    }
  }

  /** Add a call seen in a model span, or merge it into the call it is. */
  seen(call: ToolCall, at: bigint | undefined, request: boolean): void {
    let entry = this.byId(call.id);
    if (entry === undefined) {
      // Without a shared id: the same tool with the same arguments, when one side has no id.
      const open = (e: Entry) =>
        (e.call.id === undefined || call.id === undefined) && sameCall(e.call, call);
      entry = request
        ? this.entries.find((e) => e.executed && !e.requested && open(e))
        : this.entries.find(open);
    }
    if (entry === undefined) {
      this.add(call, at, false);
      return;
    }
    if (request) entry.requested = true;
    const outcome = { isError: entry.call.isError, error: entry.call.error };
    fill(entry.call, { ...call, isError: undefined, error: undefined } as ToolCall);
    if (entry.executed) {
      if (outcome.isError !== undefined) entry.call.isError = outcome.isError;
      if (outcome.error !== undefined) entry.call.error = outcome.error;
    }
    entry.at = earlier(entry.at, at);
    this.index(entry);
  }
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
    const spans: Span[] = raw.filter(isSpan).map(toSpan).sort(byStart);
    const calls = new Calls();
    const bySpan = new Map<string, Entry>();
    let lastToolEnd: bigint | undefined;
    // Tool spans first: they carry outcomes and durations.
    for (const span of spans) {
      if (!isToolSpan(span)) continue;
      const call = executionCall(span, source);
      const parent = span.parentId === undefined ? undefined : bySpan.get(span.parentId);
      const same = parent !== undefined && parent.call.tool === call.tool
        ? parent
        : calls.byId(call.id);
      if (same !== undefined && same.executed) {
        fill(same.call, call);
        calls.index(same);
        if (span.spanId !== undefined) bySpan.set(span.spanId, same);
        continue;
      }
      const entry = calls.add(call, span.start, true);
      if (span.spanId !== undefined) bySpan.set(span.spanId, entry);
      const end = span.end ?? span.start;
      if (end !== undefined && (lastToolEnd === undefined || end > lastToolEnd)) lastToolEnd = end;
    }
    // Then what model spans say: requests, history and results.
    const results: { id?: string; tool?: string; value: unknown }[] = [];
    for (const span of spans) {
      if (isToolSpan(span)) continue;
      let seen;
      try {
        seen = messageCalls(span);
      } catch (error) {
        if (!(error instanceof UnnamedCall)) throw error;
        throw new InputError(
          `span ${span.spanId ?? span.name} records a tool call without a name in its messages`,
          source,
        );
      }
      const start = span.start === undefined ? undefined : span.start - 1n;
      for (const call of seen.history) calls.seen(call, start, false);
      for (const call of seen.requests) calls.seen(call, span.end ?? span.start, true);
      for (const result of seen.results) results.push(result);
    }
    for (const result of results) {
      const entry = result.id !== undefined
        ? calls.byId(result.id)
        : calls.entries.find((e) => e.call.tool === result.tool && e.call.result === undefined);
      if (entry === undefined || entry.call.result !== undefined) continue;
      const value = seenValue(result);
      if (typeof result.value === "string") attachTextResult(entry.call, result.value);
      else {
        entry.call.result = value;
        const error = errorInResult(value);
        if (error !== undefined) entry.call.error = error;
      }
    }
    const ordered = [...calls.entries].sort((a, b) => {
      if (a.at !== undefined && b.at !== undefined && a.at !== b.at) return a.at < b.at ? -1 : 1;
      return a.order - b.order;
    });
    for (const entry of ordered) {
      if (entry.executed) continue;
      if (entry.at !== undefined && (lastToolEnd === undefined || entry.at > lastToolEnd)) {
        lastToolEnd = entry.at;
      }
    }
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
    const trace = makeTrace("otel", ordered.map((e) => e.call), {
      finalAnswer,
      model: traceModel(spans),
      usage: traceUsage(spans),
    });
    return finishTrace(trace, Array.isArray(value) ? undefined : value as JsonObject);
  },
);

/**
 * The spans of an OpenTelemetry document grouped by trace id, when it holds
 * more than one trace: each group is a list of spans the `otel` reader reads
 * as one trace. `undefined` when the document is one trace (one id, a span
 * without an id, or no span whose parent is in the file) or not
 * OpenTelemetry.
 *
 * @param value A parsed document.
 * @returns The groups in order of each id's first span, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { otelTraceGroups } from "./otel.ts";
 * import assert from "node:assert/strict";
 *
 * const span = (traceId: string, spanId: string, parentSpanId?: string) => ({
 *   traceId, spanId, parentSpanId, name: "execute_tool", startTimeUnixNano: "1",
 *   attributes: [{ key: "gen_ai.tool.name", value: { stringValue: "search" } }],
 * });
 * const spans = [span("a", "1"), span("b", "2"), span("a", "3", "1")];
 * assert.equal(otelTraceGroups(spans)?.length, 2);
 * assert.equal(otelTraceGroups([span("a", "1"), span("a", "2", "1")]), undefined);
 * // Unlinked spans of fresh trace ids (a harness's dump) stay one trace.
 * assert.equal(otelTraceGroups([span("a", "1"), span("b", "2")]), undefined);
 * ```
 */
export function otelTraceGroups(value: unknown): unknown[][] | undefined {
  const raw = rawSpans(value);
  if (raw === undefined) return undefined;
  const groups = new Map<string, unknown[]>();
  const ownIds = new Set<string>();
  const parentIds: string[] = [];
  const attributes: JsonObject[] = [];
  for (const item of raw) {
    if (!isSpan(item)) continue;
    const span = spanIds(item);
    if (span.traceId === undefined) return undefined;
    if (span.spanId !== undefined) ownIds.add(span.spanId);
    if (span.parentId !== undefined) parentIds.push(span.parentId);
    attributes.push(decodeAttributes((item as JsonObject).attributes));
    const group = groups.get(span.traceId);
    if (group === undefined) groups.set(span.traceId, [item]);
    else group.push(item);
  }
  if (groups.size < 2) return undefined;
  if (!parentIds.some((id) => ownIds.has(id)) && !hasBraintrustSpans(attributes)) return undefined;
  return [...groups.values()];
}
