/**
 * Streams are one trace: a list of streaming chunks or events (a JSON array,
 * JSONL lines, or the `data:` payloads of raw SSE text) is merged into the
 * document the provider would have returned without streaming, and that
 * document is read by the provider's own reader. So a stream and its
 * non-streamed twin read into the same calls, and a stream keeps its
 * provider's format name.
 *
 * - OpenAI Chat Completions `chat.completion.chunk`s become one
 *   `chat.completion`: `choices[0].delta.content` concatenated,
 *   `delta.tool_calls[]` name and `arguments` fragments concatenated by
 *   `index` (a fragment without `index` starts a new call when it has a new
 *   `id`, else continues the last one), `usage` from the last chunk that has
 *   it.
 * - OpenAI Responses events become one `response`: the response that
 *   `response.completed` (or `.incomplete`/`.failed`) carries when its
 *   `output` is not empty; otherwise the items of `response.output_item.done`
 *   (else `.added`) in `output_index` order, with
 *   `response.function_call_arguments.delta` fragments concatenated and
 *   `.done` arguments winning.
 * - Anthropic Messages events become one Message (a new `message_start`
 *   starts another one): `content_block_start` blocks, `text_delta` text and
 *   `input_json_delta` fragments concatenated per block (parsed at the end;
 *   text that does not parse is kept as the raw arguments with the parse
 *   error), `message_delta` usage and stop reason. Saved from an Anthropic
 *   SDK's `MessageStream` (issue 36), the stream also holds derived events:
 *   a `content_block_stop` carrying the whole `content_block` replaces that
 *   block, a `message_stop` carrying the whole `message` is the message,
 *   and `text` / `input_json` (with its `snapshot`) / `thinking` /
 *   `citation` / `signature` repeat the raw deltas and are not read again.
 * - Gemini `streamGenerateContent` chunks are already responses; the list of
 *   them is read as one transcript (usage from the last chunk of one
 *   `responseId`). Streamed function-call arguments (Vertex AI
 *   `functionCall{name, willContinue}` then `partialArgs[{jsonPath,
 *   stringValue|numberValue|boolValue|nullValue}]` fragments, ended by a part
 *   without `willContinue`) are put together into one `functionCall{name,
 *   args}`; string fragments at one path are concatenated.
 * - Gemini Interactions API events (`interaction.created`, `step.start`,
 *   `step.delta`, `interaction.completed`, …) become one interaction; see
 *   `gemini_interactions_stream.ts`.
 *
 * @module
 */

import { type FormatName, isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { mergeGeminiChunks } from "./gemini_stream.ts";
import { isInteractionStream, mergeInteractionEvents } from "./gemini_interactions_stream.ts";

/** A stream merged into the document its provider's reader reads. */
export interface MergedStream {
  /** The provider format the stream is in. */
  format: FormatName;
  /** The document the provider would have returned without streaming. */
  document: unknown;
}

const ANTHROPIC_EVENTS = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
  "ping",
  "error",
  // The Anthropic SDKs' MessageStream adds derived events (issue 36): read from the raw ones.
  "text",
  "input_json",
  "thinking",
  "citation",
  "signature",
]);

function isChatChunk(value: unknown): boolean {
  return isJsonObject(value) && value.object === "chat.completion.chunk";
}

function isResponsesEvent(value: unknown): boolean {
  return isJsonObject(value) && typeof value.type === "string" &&
    (value.type.startsWith("response.") || value.type === "error");
}

function isAnthropicEvent(value: unknown): boolean {
  return isJsonObject(value) && typeof value.type === "string" && ANTHROPIC_EVENTS.has(value.type);
}

function isGeminiChunk(value: unknown): boolean {
  return isJsonObject(value) && Array.isArray(value.candidates);
}

/**
 * The provider of a list of streaming chunks or events, or `undefined` when
 * the list is not one provider's stream.
 *
 * @param values The chunks or events, in order.
 * @returns The format name.
 *
 * @example Usage
 * ```ts
 * import { streamFormat } from "./streams.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(streamFormat([{ type: "message_start", message: {} }, { type: "message_stop" }]), "anthropic");
 * assert.equal(streamFormat([{ role: "user", content: "hi" }]), undefined);
 * ```
 */
export function streamFormat(values: readonly unknown[]): FormatName | undefined {
  if (values.length === 0) return undefined;
  if (values.every(isChatChunk)) return "openai";
  if (values.every(isResponsesEvent) && values.some((v) => (v as JsonObject).type !== "error")) {
    return "openai-responses";
  }
  if (
    values.every(isAnthropicEvent) &&
    values.some((v) => {
      const type = (v as JsonObject).type;
      return type === "message_start" || type === "content_block_start";
    })
  ) {
    return "anthropic";
  }
  // One Gemini response is not a stream; two or more chunks are.
  if (values.length >= 2 && values.every(isGeminiChunk)) return "gemini";
  if (isInteractionStream(values)) return "gemini";
  return undefined;
}

/**
 * Merge a stream into the document its provider's reader reads.
 *
 * @param value A parsed document: a list of chunks or events.
 * @param source The file name, for errors.
 * @returns The format and the merged document, or `undefined` when the value is not a stream.
 * @throws {InputError} When a streamed tool call never names its tool.
 *
 * @example Usage
 * ```ts
 * import { mergeStream } from "./streams.ts";
 * import assert from "node:assert/strict";
 *
 * const chunk = (delta: object) => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta }] });
 * const merged = mergeStream([
 *   chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "search", arguments: '{"q":' } }] }),
 *   chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
 * ], "s.jsonl");
 * assert.equal(merged?.format, "openai");
 * ```
 */
export function mergeStream(value: unknown, source: string): MergedStream | undefined {
  if (!Array.isArray(value)) return undefined;
  const format = streamFormat(value);
  if (format === undefined) return undefined;
  const events = value as JsonObject[];
  switch (format) {
    case "openai":
      return { format, document: mergeChatChunks(events, source) };
    case "openai-responses":
      return { format, document: mergeResponsesEvents(events, source) };
    case "anthropic":
      return { format, document: mergeAnthropicEvents(events, source) };
    default:
      return {
        format,
        document: isInteractionStream(events)
          ? mergeInteractionEvents(events, source)
          : mergeGeminiChunks(events, source),
      };
  }
}

interface ChatSlot {
  id?: string;
  name: string;
  arguments: string;
  at: number;
}

function mergeChatChunks(chunks: JsonObject[], source: string): JsonObject {
  const slots = new Map<number, ChatSlot>();
  let last: ChatSlot | undefined;
  let nextKey = 1_000_000; // keys for fragments without an index, after every real index
  let content = "";
  let hasContent = false;
  let legacy: { name: string; arguments: string } | undefined;
  let usage: unknown;
  let model: unknown;
  let id: unknown;
  let finish: unknown = null;
  chunks.forEach((chunk, i) => {
    if (model === undefined && typeof chunk.model === "string") model = chunk.model;
    if (id === undefined && typeof chunk.id === "string") id = chunk.id;
    if (isJsonObject(chunk.usage)) usage = chunk.usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    // The first choice is read, as for a completion with several choices.
    const choice = choices.find((c) => isJsonObject(c) && (c.index ?? 0) === 0);
    if (!isJsonObject(choice)) return;
    if (typeof choice.finish_reason === "string") finish = choice.finish_reason;
    const delta = choice.delta;
    if (!isJsonObject(delta)) return;
    if (typeof delta.content === "string") {
      content += delta.content;
      hasContent = true;
    }
    if (isJsonObject(delta.function_call)) {
      legacy ??= { name: "", arguments: "" };
      if (typeof delta.function_call.name === "string") legacy.name += delta.function_call.name;
      if (typeof delta.function_call.arguments === "string") {
        legacy.arguments += delta.function_call.arguments;
      }
    }
    if (!Array.isArray(delta.tool_calls)) return;
    for (const fragment of delta.tool_calls) {
      if (!isJsonObject(fragment)) continue;
      const fn = isJsonObject(fragment.function) ? fragment.function : {};
      const fragmentId = typeof fragment.id === "string" && fragment.id !== ""
        ? fragment.id
        : undefined;
      let slot: ChatSlot | undefined;
      if (typeof fragment.index === "number") {
        slot = slots.get(fragment.index);
        if (slot === undefined) {
          slot = { name: "", arguments: "", at: i };
          slots.set(fragment.index, slot);
        }
      } else if (last !== undefined && (fragmentId === undefined || fragmentId === last.id)) {
        slot = last;
      } else {
        slot = { name: "", arguments: "", at: i };
        slots.set(nextKey++, slot);
      }
      if (slot.id === undefined && fragmentId !== undefined) slot.id = fragmentId;
      if (typeof fn.name === "string") slot.name += fn.name;
      if (typeof fn.arguments === "string") slot.arguments += fn.arguments;
      last = slot;
    }
  });
  const message: JsonObject = { role: "assistant", content: hasContent ? content : null };
  const ordered = [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([, slot]) => slot);
  if (ordered.length > 0) {
    message.tool_calls = ordered.map((slot) => {
      if (slot.name === "") {
        throw new InputError(
          `a streamed tool call (first seen in chunk ${slot.at}) never names its tool; ` +
            "the stream is cut or not chat.completion.chunk deltas",
          `${source}: [${slot.at}].choices[0].delta.tool_calls`,
        );
      }
      const call: JsonObject = {
        type: "function",
        function: { name: slot.name, arguments: slot.arguments },
      };
      if (slot.id !== undefined) call.id = slot.id;
      return call;
    });
  }
  if (legacy !== undefined && legacy.name !== "") message.function_call = legacy;
  const completion: JsonObject = {
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: finish }],
  };
  if (id !== undefined) completion.id = id;
  if (model !== undefined) completion.model = model;
  if (usage !== undefined) completion.usage = usage;
  return completion;
}

const FINAL_RESPONSE_EVENTS = new Set([
  "response.completed",
  "response.incomplete",
  "response.failed",
  "response.done",
]);

function mergeResponsesEvents(events: JsonObject[], source: string): JsonObject {
  let base: JsonObject | undefined;
  for (const event of events) {
    if (isJsonObject(event.response)) {
      base = event.response;
      if (
        FINAL_RESPONSE_EVENTS.has(event.type as string) && Array.isArray(base.output) &&
        base.output.length > 0
      ) {
        return base;
      }
    }
  }
  const done = new Map<number, JsonObject>();
  const added = new Map<number, JsonObject>();
  const args = new Map<string, string>(); // by item id or "#output_index"
  const doneArgs = new Map<string, string>();
  const texts = new Map<number, string>();
  const keyOf = (event: JsonObject): string =>
    typeof event.item_id === "string" ? event.item_id : `#${event.output_index}`;
  events.forEach((event, i) => {
    const index = typeof event.output_index === "number" ? event.output_index : i;
    switch (event.type) {
      case "response.output_item.added":
        if (isJsonObject(event.item)) added.set(index, event.item);
        break;
      case "response.output_item.done":
        if (isJsonObject(event.item)) done.set(index, event.item);
        break;
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta":
        if (typeof event.delta === "string") {
          args.set(keyOf(event), (args.get(keyOf(event)) ?? "") + event.delta);
          args.set(`#${index}`, args.get(keyOf(event)) as string);
        }
        break;
      case "response.function_call_arguments.done":
        if (typeof event.arguments === "string") {
          doneArgs.set(keyOf(event), event.arguments);
          doneArgs.set(`#${index}`, event.arguments);
        }
        break;
      case "response.output_text.delta":
        if (typeof event.delta === "string") {
          texts.set(index, (texts.get(index) ?? "") + event.delta);
        }
        break;
    }
  });
  const indexes = [...new Set([...added.keys(), ...done.keys()])].sort((a, b) => a - b);
  const output = indexes.map((index) => {
    const finished = done.get(index);
    if (finished !== undefined) return finished;
    const item = { ...(added.get(index) as JsonObject) };
    const key = typeof item.id === "string" ? item.id : `#${index}`;
    const text = doneArgs.get(key) ?? doneArgs.get(`#${index}`) ?? args.get(key) ??
      args.get(`#${index}`);
    if (item.type === "function_call" && text !== undefined) item.arguments = text;
    if (item.type === "custom_tool_call" && text !== undefined) item.input = text;
    if (item.type === "message" && texts.has(index)) {
      item.content = [{ type: "output_text", text: texts.get(index) }];
    }
    return item;
  });
  for (const [index, item] of output.entries()) {
    if (item.type === "function_call" && (typeof item.name !== "string" || item.name === "")) {
      throw new InputError(
        "a streamed function_call item has no name",
        `${source}: output item ${indexes[index]}`,
      );
    }
  }
  return { ...(base ?? {}), object: "response", output };
}

const TOOL_BLOCKS = new Set(["tool_use", "server_tool_use", "mcp_tool_use"]);

function mergeAnthropicEvents(events: JsonObject[], source: string): JsonObject | JsonObject[] {
  const messages: JsonObject[] = [];
  let message: JsonObject | undefined;
  let blocks: (JsonObject | undefined)[] = [];
  let fragments = new Map<number, string>();
  const finish = () => {
    if (message === undefined) return;
    blocks.forEach((block, index) => {
      if (block === undefined || !TOOL_BLOCKS.has(block.type as string)) return;
      const text = fragments.get(index);
      if (text === undefined || text.trim() === "") return;
      // As text, the reader parses it (within the input limits) or keeps it as raw arguments.
      block.input = text;
    });
    message.content = blocks.filter((b): b is JsonObject => b !== undefined);
    messages.push(message);
    message = undefined;
  };
  const start = (from: unknown) => {
    finish();
    message = { type: "message", role: "assistant", ...(isJsonObject(from) ? from : {}) };
    blocks = [];
    fragments = new Map();
  };
  events.forEach((event, i) => {
    switch (event.type) {
      case "message_start":
        start(event.message);
        break;
      case "content_block_start": {
        if (message === undefined) start(undefined);
        if (typeof event.index !== "number" || !isJsonObject(event.content_block)) {
          throw new InputError(
            "content_block_start without index or content_block",
            `${source}: [${i}]`,
          );
        }
        blocks[event.index] = { ...event.content_block };
        break;
      }
      case "content_block_delta": {
        const block = typeof event.index === "number" ? blocks[event.index] : undefined;
        const delta = event.delta;
        if (block === undefined || !isJsonObject(delta)) break;
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          block.text = (typeof block.text === "string" ? block.text : "") + delta.text;
        } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
          const index = event.index as number;
          fragments.set(index, (fragments.get(index) ?? "") + delta.partial_json);
        } else if (delta.type === "thinking_delta" && typeof delta.thinking === "string") {
          block.thinking = (typeof block.thinking === "string" ? block.thinking : "") +
            delta.thinking;
        }
        break;
      }
      case "content_block_stop": {
        // The SDK's derived event holds the finished block (its input parsed): it wins.
        if (typeof event.index !== "number" || !isJsonObject(event.content_block)) break;
        if (message === undefined) start(undefined);
        blocks[event.index] = { ...event.content_block };
        fragments.delete(event.index);
        break;
      }
      case "message_stop": {
        // The SDK's derived event holds the whole message snapshot: it is the message.
        if (!isJsonObject(event.message) || !Array.isArray(event.message.content)) break;
        message = { type: "message", role: "assistant", ...event.message };
        blocks = event.message.content.map((b) => isJsonObject(b) ? { ...b } : undefined);
        fragments = new Map();
        break;
      }
      case "message_delta": {
        if (message === undefined) break;
        if (isJsonObject(event.delta) && typeof event.delta.stop_reason === "string") {
          message.stop_reason = event.delta.stop_reason;
        }
        if (isJsonObject(event.usage)) {
          message.usage = { ...(isJsonObject(message.usage) ? message.usage : {}), ...event.usage };
        }
        break;
      }
    }
  });
  finish();
  return messages.length === 1 ? messages[0] as JsonObject : messages;
}
