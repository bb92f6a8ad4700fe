/**
 * The `openai-agents` format: OpenAI Agents SDK trace exports and run states.
 *
 * Shapes:
 * - a trace export as the SDK's exporter posts it, `{"data": [trace,
 *   span, …]}`, a list of those objects, or a JSONL file of them: a trace is
 *   `{"object": "trace", "id", "workflow_name", …}`, a span `{"object":
 *   "trace.span", "id", "trace_id", "parent_id", "started_at", "ended_at",
 *   "span_data": {"type", …}, "error"}`;
 * - a serialized `RunState` (`{"$schemaVersion", "generated_items": […],
 *   "model_responses": […]}`), whose items are Responses API items and are
 *   read as the `openai-responses` reader reads them; the JS SDK's camelCase
 *   `RunState` (`generatedItems`, `modelResponses`, `callId`; issue 36) is
 *   read the same way (`openai_agents_js.ts`).
 *
 * A call is a `function` span: `span_data.name` the tool, `input` (a JSON
 * string) the arguments, `output` the result; `mcp_data` is kept as
 * `metadata.mcp_data`.
 *
 * Decisions where the SDK is silent:
 * - A span with an `error` (`{message, data}`) failed; its error is
 *   `data.error` when that is a string, else `message`. A finished span
 *   (`ended_at`) without one is a known success; an unfinished one has no
 *   outcome. The duration is `ended_at − started_at`.
 * - Calls are ordered by `started_at` (document order breaks ties).
 * - `usage` sums the `generation` and `response` spans' `usage`
 *   (`input_tokens`, `output_tokens`) — one per model call; the `task` and
 *   `turn` spans repeat those totals and are used only when no model span
 *   reports usage. `model` is the first `generation` span's `model`.
 * - The final answer is the assistant text of the `generation` span that
 *   ends last, when it ends after the last call and calls no tool (response
 *   spans carry only a response id, so with the Responses API it is
 *   unknown). A top-level `final_answer` wins.
 * - Handoffs (`handoff` spans) are not tool calls of their own.
 * - In a run state, a `tool_approval_item` repeats a call that waits for a
 *   human: the call is kept once, marked `metadata.approval: "requested"`,
 *   with no outcome.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  attachTextResult,
  finishTrace,
  makeTrace,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import { readResponseItems } from "./openai_responses.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import { isJsRunState, pythonRunStates } from "./openai_agents_js.ts";

/**
 * Whether a value is one exported Agents SDK trace or span object (a JSONL
 * line of a trace export).
 *
 * @param value Any value.
 * @returns `true` for `{"object": "trace"|"trace.span", "id"}`.
 *
 * @example Usage
 * ```ts
 * import { isAgentsExportItem } from "./openai_agents.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isAgentsExportItem({ object: "trace", id: "trace_1" }), true);
 * assert.equal(isAgentsExportItem({ object: "response" }), false);
 * ```
 */
export function isAgentsExportItem(value: unknown): boolean {
  if (!isJsonObject(value) || typeof value.id !== "string") return false;
  if (value.object === "trace") return true;
  return value.object === "trace.span" && isJsonObject(value.span_data) &&
    typeof value.span_data.type === "string";
}

function isRunState(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.$schemaVersion === "string" &&
    Array.isArray(value.generated_items);
}

type Document =
  | { kind: "export"; items: JsonObject[] }
  | { kind: "run_state"; state: JsonObject }
  | { kind: "js_run_state"; state: JsonObject };

function readDocument(value: unknown): Document | undefined {
  if (isRunState(value)) return { kind: "run_state", state: value };
  if (isJsRunState(value)) return { kind: "js_run_state", state: value };
  const list = Array.isArray(value)
    ? value
    : isJsonObject(value) && Array.isArray(value.data)
    ? value.data
    : undefined;
  if (list === undefined || list.length === 0) return undefined;
  const items: JsonObject[] = [];
  for (const entry of list) {
    // A list of exporter payloads ({data: […]}) is one export too.
    if (isJsonObject(entry) && Array.isArray(entry.data) && entry.data.every(isAgentsExportItem)) {
      for (const item of entry.data) items.push(item as JsonObject);
    } else if (isAgentsExportItem(entry)) items.push(entry as JsonObject);
    else return undefined;
  }
  return items.some((item) => item.object === "trace.span") ? { kind: "export", items } : undefined;
}

function time(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? "";
  // Keep the microseconds Python writes (Date.parse keeps milliseconds).
  return ms + (fraction.length > 3 ? Number(`0.${fraction.slice(3)}`) : 0);
}

function spanError(error: unknown): string | undefined {
  if (!isJsonObject(error)) return undefined;
  const data = isJsonObject(error.data) ? error.data : {};
  if (typeof data.error === "string" && data.error !== "") return data.error;
  return typeof error.message === "string" && error.message !== "" ? error.message : "error";
}

function generationText(output: unknown): string | undefined {
  if (!Array.isArray(output)) return undefined;
  let text: string | undefined;
  for (const message of output) {
    if (!isJsonObject(message) || message.role !== "assistant") continue;
    if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) return undefined;
    if (typeof message.content === "string" && message.content.trim() !== "") {
      text = message.content;
    }
  }
  return text;
}

function readExport(items: JsonObject[], source: string, envelope: unknown) {
  const spans = items
    .filter((item) => item.object === "trace.span")
    .map((span, order) => ({ span, order, start: time(span.started_at), end: time(span.ended_at) }))
    .sort((a, b) =>
      a.start !== undefined && b.start !== undefined && a.start !== b.start
        ? a.start - b.start
        : a.order - b.order
    );
  const calls: ToolCall[] = [];
  let lastCallEnd = -Infinity;
  let modelUsage: Usage | undefined;
  let totalUsage: Usage | undefined;
  let model: string | undefined;
  let answer: { text: string; end: number } | undefined;
  for (const { span, start, end } of spans) {
    const data = span.span_data as JsonObject;
    if (data.type === "function") {
      if (typeof data.name !== "string" || data.name === "") {
        throw new InputError("function span has no span_data.name", `${source}: span ${span.id}`);
      }
      const call: ToolCall = { tool: data.name, id: span.id as string };
      setArgs(call, data.input);
      if (typeof data.output === "string") attachTextResult(call, data.output);
      else if (data.output !== undefined && data.output !== null) call.result = data.output;
      const error = spanError(span.error);
      if (error !== undefined) {
        call.isError = true;
        call.error = error;
      } else if (end !== undefined) call.isError = false;
      if (start !== undefined && end !== undefined && end >= start) {
        call.durationS = (end - start) / 1000;
      }
      const metadata: JsonObject = { span_id: span.id };
      if (typeof span.trace_id === "string") metadata.trace_id = span.trace_id;
      if (data.mcp_data !== undefined && data.mcp_data !== null) metadata.mcp_data = data.mcp_data;
      call.metadata = metadata;
      calls.push(call);
      lastCallEnd = Math.max(lastCallEnd, end ?? start ?? -Infinity);
    } else if (data.type === "generation" || data.type === "response") {
      modelUsage = addUsage(modelUsage, usageFromJson(data.usage));
      if (model === undefined && typeof data.model === "string" && data.model !== "") {
        model = data.model;
      }
      const text = data.type === "generation" ? generationText(data.output) : undefined;
      const at = end ?? start ?? 0;
      if (text !== undefined && (answer === undefined || at >= answer.end)) {
        answer = { text, end: at };
      }
    } else if (data.type === "custom" && isJsonObject(data.data)) {
      if (data.data.sdk_span_type === "task") {
        totalUsage = addUsage(totalUsage, usageFromJson(data.data.usage));
      }
    }
  }
  const finalAnswer = answer !== undefined && answer.end >= lastCallEnd ? answer.text : undefined;
  const trace = makeTrace("openai-agents", calls, {
    finalAnswer,
    model,
    usage: modelUsage ?? totalUsage,
  });
  return finishTrace(trace, Array.isArray(envelope) ? undefined : envelope);
}

function readRunState(state: JsonObject, source: string) {
  const items: unknown[] = [];
  const awaiting = new Set<string>();
  if (Array.isArray(state.original_input)) {
    for (const item of state.original_input) items.push(item);
  }
  for (const generated of state.generated_items as unknown[]) {
    if (!isJsonObject(generated) || !isJsonObject(generated.raw_item)) continue;
    if (generated.type === "tool_approval_item") {
      // The call again, waiting for a human: mark it, do not count it twice.
      const id = generated.raw_item.call_id ?? generated.raw_item.id;
      if (typeof id === "string") awaiting.add(id);
      continue;
    }
    items.push(generated.raw_item);
  }
  const responses = Array.isArray(state.model_responses)
    ? state.model_responses.filter(isJsonObject)
    : [];
  const trace = readResponseItems(items, responses, "openai-agents", state, source);
  for (const call of trace.calls) {
    if (call.id !== undefined && awaiting.has(call.id) && call.result === undefined) {
      call.metadata = { ...call.metadata, approval: "requested" };
    }
  }
  return trace;
}

// A JS run state: its own calls, then those of agents still running as tools.
function readJsRunState(state: JsonObject, source: string) {
  const [outer, ...nested] = pythonRunStates(state);
  const trace = readRunState(outer!.state, source);
  for (const inner of nested) {
    const read = readRunState(inner.state, source);
    for (const call of read.calls) {
      if (inner.parentCallId !== undefined) {
        call.metadata = { ...call.metadata, parent_call_id: inner.parentCallId };
      }
      trace.calls.push(call);
    }
    trace.usage = addUsage(trace.usage, read.usage);
  }
  if (trace.usage === undefined) delete trace.usage;
  return finishTrace(trace, state);
}

/**
 * The `openai-agents` reader.
 *
 * @example Usage
 * ```ts
 * import { openaiAgentsReader } from "./openai_agents.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = openaiAgentsReader.read({ data: [
 *   { object: "trace", id: "trace_1", workflow_name: "Agent workflow" },
 *   {
 *     object: "trace.span", id: "span_1", trace_id: "trace_1", parent_id: null,
 *     started_at: "2025-01-01T00:00:00.000000+00:00", ended_at: "2025-01-01T00:00:00.500000+00:00",
 *     span_data: { type: "function", name: "get_weather", input: '{"city":"Tokyo"}', output: "sunny" },
 *     error: null,
 *   },
 * ] }, "trace.json");
 * assert.equal(trace.calls[0]?.result, "sunny");
 * assert.equal(trace.calls[0]?.durationS, 0.5);
 * ```
 */
export const openaiAgentsReader: FormatReader = documentReader(
  "openai-agents",
  readDocument,
  'not an OpenAI Agents SDK export: expected {"data": [trace, spans…]} or a run state',
  (doc, source, value) =>
    doc.kind === "run_state"
      ? readRunState(doc.state, source)
      : doc.kind === "js_run_state"
      ? readJsRunState(doc.state, source)
      : readExport(doc.items, source, value),
);
