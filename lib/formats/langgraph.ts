/**
 * LangGraph stream output, read by the `langchain` reader.
 *
 * Shapes (a JSON list or a JSONL file of stream items):
 * - `graph.stream(…, stream_mode=[…])` tuples `[mode, payload]` (with
 *   subgraphs `[namespace, mode, payload]`);
 * - the LangGraph SDK / Platform API events `{"event": mode, "data":
 *   payload}` (`values`, `updates`, `messages/complete`, `messages/partial`,
 *   `metadata`…);
 * - `astream_events` events `{"event": "on_tool_start"|"on_tool_end"|
 *   "on_tool_error"|"on_chat_model_end"|…, "run_id", "name", "data"}`;
 * - the LangGraph streaming protocol events (`streamEvents(…, {version:
 *   "v3"})`, the JS SDK's SSE stream) `{"type": "event", "seq", "method":
 *   channel, "params": {"namespace": […], "data"}}` (`values`, `updates`,
 *   `messages`, `tools`, `lifecycle`, `checkpoints`, …);
 * - `stream(…, stream_mode="messages", subgraphs=True)` pairs `[namespace,
 *   [message, metadata]]` (a single mode with subgraphs carries no mode name).
 *
 * Decisions where LangGraph is silent:
 * - With `values`, the last top-level `values` state is the run: its
 *   `messages` are read as LangChain messages (every earlier state is a
 *   prefix of it; role dicts `{role, content}` are read as the messages
 *   LangChain makes of them). Without one, the messages of every `updates` payload
 *   (`{node: {messages: […]}}`) in order; without those, the message events
 *   (`messages/complete`, `messages` tuples `[message, metadata]`), where
 *   chunks of one message id are merged (content concatenated,
 *   `tool_call_chunks` joined by index). Subgraph items (a non-empty
 *   namespace) are skipped: the parent's state holds what they returned.
 *   A stream with no top-level item at all (every item from a subgraph) is
 *   read whole, in order, the same way.
 * - A protocol-event stream without `values` or `updates` is read from its
 *   `tools` channel (from any namespace): `tool-started` is a call
 *   (`tool_name`, `input`), `tool-finished` its result (`output`, read as
 *   `on_tool_end`'s), `tool-error` its failure (`message`), paired by
 *   `tool_call_id`; there is no final answer. Its `messages` channel
 *   (content-block deltas) is not read; a stream with none of these is an
 *   error, never an empty trace.
 * - `astream_events` are read as the tool runs they report: `on_tool_start`
 *   is a call (`data.input` the arguments, `name` the tool), `on_tool_end`
 *   its result (`data.output`, a ToolMessage or a value; `status: "error"`
 *   fails it), `on_tool_error` its failure; paired by `run_id`. The final
 *   answer is the last `on_chat_model_end` output's text after the last
 *   call.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  attachTextResult,
  FinalAnswer,
  finishTrace,
  idOf,
  makeTrace,
  resultFromText,
  setArgs,
} from "./_shared.ts";
import { normalizeMessage, readMessages } from "./langchain_messages.ts";

const MODES = new Set([
  "values",
  "updates",
  "messages",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
  "events",
  "metadata",
  "messages/partial",
  "messages/complete",
  "messages/metadata",
  "error",
  "end",
]);

/** One stream item as `{mode, payload, namespace}`. */
interface Item {
  mode: string;
  payload: unknown;
  sub: boolean;
  raw: JsonObject | unknown[];
  /** A streaming-protocol event (`{type: "event", method, params}`). */
  protocol?: true;
}

/** `[message, metadata]`, the payload of a `messages`-mode item. */
function isMessageTuple(value: unknown): boolean {
  return Array.isArray(value) && value.length === 2 && isJsonObject(value[1]) &&
    normalizeMessage(value[0]) !== undefined;
}

function protocolItem(value: JsonObject): Item | undefined {
  const params = value.params;
  if (
    typeof value.method !== "string" || value.method === "" || !isJsonObject(params) ||
    !Array.isArray(params.namespace) || !("data" in params)
  ) return undefined;
  const sub = params.namespace.length > 0;
  return { mode: value.method, payload: params.data, sub, raw: value, protocol: true };
}

function toItem(value: unknown): Item | undefined {
  if (Array.isArray(value)) {
    if (value.length === 2 && typeof value[0] === "string" && MODES.has(value[0])) {
      return { mode: value[0], payload: value[1], sub: false, raw: value };
    }
    if (
      value.length === 2 && Array.isArray(value[0]) &&
      value[0].every((part) => typeof part === "string") && isMessageTuple(value[1])
    ) {
      return { mode: "messages", payload: value[1], sub: value[0].length > 0, raw: value };
    }
    if (
      value.length === 3 && typeof value[1] === "string" && MODES.has(value[1]) &&
      (Array.isArray(value[0]) || typeof value[0] === "string")
    ) {
      return { mode: value[1], payload: value[2], sub: value[0].length > 0, raw: value };
    }
    return undefined;
  }
  if (isJsonObject(value) && value.type === "event" && "params" in value) {
    return protocolItem(value);
  }
  if (!isJsonObject(value) || typeof value.event !== "string") return undefined;
  if (value.event.startsWith("on_")) {
    return { mode: value.event, payload: value.data, sub: false, raw: value };
  }
  const [mode, namespace] = value.event.split("|");
  if (!MODES.has(mode as string) || !("data" in value)) return undefined;
  return { mode: mode as string, payload: value.data, sub: namespace !== undefined, raw: value };
}

/**
 * Whether a value is one LangGraph stream item (a JSONL line of a stream).
 *
 * @param value Any value.
 * @returns `true` for `[mode, payload]`, `[namespace, mode, payload]` or `{event, data}`.
 *
 * @example Usage
 * ```ts
 * import { isLangGraphItem } from "./langgraph.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isLangGraphItem(["values", { messages: [] }]), true);
 * assert.equal(isLangGraphItem({ event: "on_tool_start", run_id: "r", name: "a", data: {} }), true);
 * assert.equal(isLangGraphItem(["a", 1]), false);
 * ```
 */
export function isLangGraphItem(value: unknown): boolean {
  return toItem(value) !== undefined;
}

/**
 * The items of a LangGraph stream document, or `undefined` when it is not
 * one.
 *
 * @param value A parsed document.
 * @returns The items (a list where every entry is a stream item).
 */
export function streamItems(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every(isLangGraphItem) ? value : undefined;
}

function messagesOf(payload: unknown): unknown[] {
  if (Array.isArray(payload)) return payload;
  if (isJsonObject(payload) && Array.isArray(payload.messages)) return payload.messages;
  return [];
}

// Role dicts LangGraph accepts in state (as LangChain's convert_to_messages does).
const ROLE_KINDS: Record<string, string> = {
  user: "human",
  human: "human",
  assistant: "ai",
  ai: "ai",
  tool: "tool",
  system: "system",
  developer: "system",
};

function normalizeAll(list: unknown[], source: string, where: string): JsonObject[] {
  return list.map((item, i) => {
    const role = isJsonObject(item) && typeof item.role === "string" && item.type === undefined
      ? ROLE_KINDS[item.role]
      : undefined;
    const message = role !== undefined
      ? { ...(item as JsonObject), kind: role }
      : normalizeMessage(item);
    if (message === undefined) {
      throw new InputError("not a LangChain message", `${source}: ${where}[${i}]`);
    }
    return message;
  });
}

/** Merge `messages`-mode chunks by message id. */
function mergeChunks(items: Item[]): unknown[] {
  const order: string[] = [];
  const byId = new Map<string, JsonObject>();
  const anonymous: unknown[] = [];
  for (const item of items) {
    const list = item.mode === "messages" && Array.isArray(item.payload) &&
        item.payload.length === 2 && !Array.isArray(item.payload[0])
      ? [item.payload[0]]
      : messagesOf(item.payload);
    for (const raw of list) {
      const message = normalizeMessage(raw);
      const id = message === undefined ? undefined : idOf(message.id);
      if (message === undefined || id === undefined) {
        anonymous.push(raw);
        continue;
      }
      const known = byId.get(id);
      if (known === undefined || item.mode === "messages/complete") {
        if (known === undefined) order.push(id);
        byId.set(id, { ...message, type: message.kind });
        continue;
      }
      if (typeof known.content === "string" && typeof message.content === "string") {
        known.content += message.content;
      }
      const chunks = [
        ...(Array.isArray(known.tool_call_chunks) ? known.tool_call_chunks : []),
        ...(Array.isArray(message.tool_call_chunks) ? message.tool_call_chunks : []),
      ];
      if (chunks.length > 0) known.tool_call_chunks = chunks;
      if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
        known.tool_calls = message.tool_calls;
      }
      if (message.usage_metadata !== undefined) known.usage_metadata = message.usage_metadata;
    }
  }
  return [
    ...order.map((id) => joinChunks(byId.get(id) as JsonObject)),
    ...anonymous,
  ];
}

/** A message whose `tool_call_chunks` are joined into `tool_calls` (when it has none). */
function joinChunks(message: JsonObject): JsonObject {
  const chunks = Array.isArray(message.tool_call_chunks) ? message.tool_call_chunks : [];
  const hasCalls = Array.isArray(message.tool_calls) &&
    message.tool_calls.some((c) => isJsonObject(c) && typeof c.name === "string" && c.name !== "");
  if (chunks.length === 0 || hasCalls) return message;
  const byIndex = new Map<number, { name: string; args: string; id?: string }>();
  for (const chunk of chunks) {
    if (!isJsonObject(chunk)) continue;
    const index = typeof chunk.index === "number" ? chunk.index : byIndex.size;
    const entry = byIndex.get(index) ?? { name: "", args: "" };
    if (typeof chunk.name === "string") entry.name += chunk.name;
    if (typeof chunk.args === "string") entry.args += chunk.args;
    const id = idOf(chunk.id);
    if (id !== undefined) entry.id = id;
    byIndex.set(index, entry);
  }
  const toolCalls = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, entry]) => {
    const call: JsonObject = { name: entry.name, args: entry.args, type: "tool_call" };
    if (entry.id !== undefined) call.id = entry.id;
    return call;
  });
  return { ...message, tool_calls: toolCalls };
}

/**
 * A protocol stream's `tools` channel as the `astream_events` tool events
 * {@linkcode readEvents} reads.
 */
function protocolToolEvents(items: Item[], source: string): Item[] {
  const events: Item[] = [];
  for (const item of items) {
    if (item.mode !== "tools" || !isJsonObject(item.payload)) continue;
    const data = item.payload;
    const run = idOf(data.tool_call_id);
    if (data.event === "tool-started") {
      const raw = { name: data.tool_name ?? "", run_id: run ?? "" };
      events.push({ mode: "on_tool_start", payload: { input: data.input }, sub: false, raw });
    } else if (data.event === "tool-finished") {
      events.push({
        mode: "on_tool_end",
        payload: { output: data.output },
        sub: false,
        raw: { run_id: run ?? "" },
      });
    } else if (data.event === "tool-error") {
      events.push({
        mode: "on_tool_error",
        payload: { error: data.message },
        sub: false,
        raw: { run_id: run ?? "" },
      });
    }
  }
  if (events.length === 0) {
    throw new InputError(
      "LangGraph protocol stream has no values, updates or tools events to read",
      source,
    );
  }
  return events;
}

function readEvents(items: Item[], source: string): Trace {
  const calls: ToolCall[] = [];
  const byRun = new Map<string, ToolCall>();
  const answer = new FinalAnswer("");
  items.forEach((item, index) => {
    const event = item.raw as JsonObject;
    const data = isJsonObject(item.payload) ? item.payload : {};
    const run = idOf(event.run_id) ?? "";
    if (item.mode === "on_tool_start") {
      if (typeof event.name !== "string" || event.name === "") {
        throw new InputError("on_tool_start event has no name", `${source}: [${index}]`);
      }
      const call: ToolCall = { tool: event.name };
      const input = data.input;
      if (typeof input === "string" && !input.trimStart().startsWith("{")) call.args = { input };
      else setArgs(call, input);
      calls.push(call);
      answer.call();
      if (run !== "") byRun.set(run, call);
    } else if (item.mode === "on_tool_end") {
      const call = byRun.get(run);
      if (call === undefined || call.result !== undefined) return;
      const output = normalizeMessage(data.output);
      if (output !== undefined && output.kind === "tool") {
        const text = typeof output.content === "string" ? output.content : "";
        call.result = resultFromText(text);
        const id = idOf(output.tool_call_id);
        if (id !== undefined) call.id = id;
        if (output.status === "error") {
          call.isError = true;
          call.error = text === "" ? "tool error" : text;
        } else if (output.status === "success") call.isError = false;
      } else if (typeof data.output === "string") attachTextResult(call, data.output);
      else call.result = data.output ?? null;
    } else if (item.mode === "on_tool_error") {
      const call = byRun.get(run);
      if (call === undefined) return;
      call.isError = true;
      call.error = typeof data.error === "string" && data.error !== "" ? data.error : "tool error";
    } else if (item.mode === "on_chat_model_end") {
      const output = normalizeMessage(data.output);
      if (output === undefined || output.kind !== "ai") return;
      if (Array.isArray(output.tool_calls) && output.tool_calls.length > 0) return;
      answer.message();
      answer.text(typeof output.content === "string" ? output.content : undefined);
    }
  });
  return makeTrace("langchain", calls, { finalAnswer: answer.value });
}

/**
 * Read a LangGraph stream as one `langchain` trace.
 *
 * @param list The stream items.
 * @param source The file name, for errors.
 * @returns The trace.
 * @throws {InputError} When a state's message is not a LangChain message.
 *
 * @example Usage
 * ```ts
 * import { readStream } from "./langgraph.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = readStream([
 *   ["values", { messages: [{ type: "human", content: "hi" }] }],
 *   ["values", { messages: [
 *     { type: "human", content: "hi" },
 *     { type: "ai", content: "", tool_calls: [{ name: "a", args: {}, id: "c1", type: "tool_call" }] },
 *     { type: "tool", content: "ok", tool_call_id: "c1" },
 *   ] }],
 * ], "stream.jsonl");
 * assert.equal(trace.calls.length, 1);
 * ```
 */
export function readStream(list: unknown[], source: string): Trace {
  const items = list.map(toItem).filter((item): item is Item => item !== undefined);
  if (items.some((item) => item.mode.startsWith("on_"))) {
    return readEvents(items.filter((item) => item.mode.startsWith("on_")), source);
  }
  const top = items.some((item) => !item.sub) ? items.filter((item) => !item.sub) : items;
  const values = top.filter((item) => item.mode === "values");
  if (
    items.some((item) => item.protocol) && values.length === 0 &&
    !top.some((item) => item.mode === "updates")
  ) {
    return readEvents(protocolToolEvents(items, source), source);
  }
  let messages: unknown[];
  let where: string;
  if (values.length > 0) {
    messages = messagesOf(values.at(-1)?.payload);
    where = `values[${values.length - 1}].messages`;
  } else if (top.some((item) => item.mode === "updates")) {
    messages = [];
    for (const item of top) {
      if (item.mode !== "updates" || !isJsonObject(item.payload)) continue;
      for (const update of Object.values(item.payload)) {
        for (const message of messagesOf(update)) messages.push(message);
      }
    }
    where = "updates";
  } else {
    messages = mergeChunks(top.filter((item) => item.mode.startsWith("messages")));
    where = "messages";
  }
  const read = readMessages(normalizeAll(messages, source, where), source);
  const trace = makeTrace("langchain", read.calls, {
    finalAnswer: read.finalAnswer,
    model: read.model,
    usage: read.usage,
  });
  return finishTrace(trace, undefined);
}
