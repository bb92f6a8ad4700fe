/**
 * The provider APIs inside an HTTP recording (`vcr.ts`): which API one
 * recorded exchange speaks, its conversation messages, and the readers for
 * the two APIs no other format reads.
 *
 * - OpenAI chat completions and the OpenAI-compatible servers (Groq,
 *   Mistral, DeepSeek, OpenRouter, Ollama's `/api/chat`): `choices[0].message`
 *   (Ollama: `message` with `done`, streamed as JSON lines whose text is
 *   joined); requests' `messages`.
 * - OpenAI Responses: `{object: "response", output}`; requests' `input`.
 * - Anthropic Messages: `{type: "message"}`; requests' `messages`.
 * - Gemini generateContent: `candidates[0].content`; requests' `contents`.
 * - Bedrock Converse: `output.message` whose `content[]` holds `text`,
 *   `toolUse {toolUseId, name, input}` and `toolResult {toolUseId, content,
 *   status}` blocks, with a `stopReason`; read as Anthropic messages
 *   (`status: "error"` is a failed result; `json` content is the result).
 * - Cohere v2 chat: `{message: {role, content, tool_calls, tool_plan},
 *   finish_reason}` (`TOOL_CALL`, `COMPLETE`…); tool calls have OpenAI's
 *   shape, tool messages `{role: "tool", tool_call_id, content}` (text or a
 *   list of `text`/`document` blocks); read as OpenAI chat messages.
 *
 * A streamed response (SSE events, or Bedrock's `converse-stream` events) is
 * merged first (`streams.ts`, `vcr_eventstream.ts`) and then read as the
 * non-streamed one.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { mergeStream } from "./streams.ts";
import { mergeConverseStream } from "./vcr_eventstream.ts";
import { pushAll } from "../base/arrays.ts";

/** The provider APIs an HTTP recording is read through. */
export type WireApi =
  | "openai"
  | "openai-responses"
  | "anthropic"
  | "gemini"
  | "bedrock-converse"
  | "cohere";

/** One recorded model call: its API, its request's messages and its response's. */
export interface WireExchange {
  /** The API. */
  api: WireApi;
  /** The messages (or Responses items, or Gemini contents) the request sent. */
  sent: JsonObject[];
  /** The messages (or items, or contents) the response returned. */
  returned: JsonObject[];
  /** The response's token usage object, as sent. */
  usage?: unknown;
  /** The model the response (else the request) names. */
  model?: string;
}

function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

// Gemini's stream chunks (each a response with a piece of the turn) as one response.
function geminiChunksAsOne(chunks: JsonObject[]): JsonObject {
  const parts: unknown[] = [];
  let usage: unknown;
  let model: unknown;
  for (const chunk of chunks) {
    const content = objects(chunk.candidates)[0]?.content;
    if (isJsonObject(content) && Array.isArray(content.parts)) pushAll(parts, content.parts);
    usage = chunk.usageMetadata ?? usage;
    model ??= chunk.modelVersion;
  }
  const doc: JsonObject = { candidates: [{ content: { role: "model", parts } as JsonObject }] };
  if (usage !== undefined) doc.usageMetadata = usage as JsonObject;
  if (typeof model === "string") doc.modelVersion = model;
  return doc;
}

// Ollama's streamed `/api/chat` lines as one response: the text joined, the tool calls kept.
function ollamaChunksAsOne(chunks: JsonObject[]): JsonObject {
  let content = "";
  const calls: unknown[] = [];
  for (const chunk of chunks) {
    const message = chunk.message as JsonObject;
    if (typeof message.content === "string") content += message.content;
    if (Array.isArray(message.tool_calls)) pushAll(calls, message.tool_calls);
  }
  const message: JsonObject = { role: "assistant", content };
  if (calls.length > 0) message.tool_calls = calls as JsonObject[];
  const last = chunks.at(-1) as JsonObject;
  return { model: last.model ?? null, message, done: true };
}

function responseOf(body: unknown, source: string): { api?: WireApi; doc: JsonObject } | undefined {
  const converse = Array.isArray(body) ? mergeConverseStream(body) : undefined;
  if (converse !== undefined) return { api: "bedrock-converse", doc: converse };
  const merged = mergeStream(body, source);
  if (merged !== undefined) {
    if (merged.format === "gemini" && Array.isArray(merged.document)) {
      return { api: "gemini", doc: geminiChunksAsOne(objects(merged.document)) };
    }
    if (!isJsonObject(merged.document)) return undefined;
    const api = merged.format === "openai" || merged.format === "openai-responses" ||
        merged.format === "anthropic" || merged.format === "gemini"
      ? merged.format
      : undefined;
    return api === undefined ? undefined : { api, doc: merged.document };
  }
  if (Array.isArray(body) && body.length > 0) return chunksOf(objects(body), body.length, source);
  return isJsonObject(body) ? { doc: body } : undefined;
}

// Streams the stream sniffer leaves (one Gemini chunk; Azure's chunks led by an empty
// `prompt_filter_results` one): read when every event has the provider's shape.
function chunksOf(
  chunks: JsonObject[],
  count: number,
  source: string,
): { api: WireApi; doc: JsonObject } | undefined {
  if (chunks.length !== count) return undefined;
  if (chunks.every((c) => Array.isArray(c.candidates))) {
    return { api: "gemini", doc: geminiChunksAsOne(chunks) };
  }
  if (chunks.every((c) => isJsonObject(c.message) && typeof c.done === "boolean")) {
    return { api: "openai", doc: ollamaChunksAsOne(chunks) };
  }
  if (!chunks.every((c) => Array.isArray(c.choices))) return undefined;
  const kept = chunks.filter((c) => (c.choices as unknown[]).length > 0)
    .map((c) => ({ ...c, object: "chat.completion.chunk" }));
  const merged = kept.length > 0 ? mergeStream(kept, source) : undefined;
  return merged?.format === "openai" && isJsonObject(merged.document)
    ? { api: "openai", doc: merged.document }
    : undefined;
}

function apiOf(doc: JsonObject): WireApi | undefined {
  // Chat completions (a legacy completion's choices hold `text`, no message: not read).
  if (Array.isArray(doc.choices) && objects(doc.choices).some((c) => isJsonObject(c.message))) {
    return "openai";
  }
  if (doc.object === "response" && Array.isArray(doc.output)) return "openai-responses";
  if (doc.type === "message" && doc.role === "assistant") return "anthropic";
  if (Array.isArray(doc.candidates)) return "gemini";
  if (isJsonObject(doc.output) && isJsonObject(doc.output.message)) return "bedrock-converse";
  if (isJsonObject(doc.message) && typeof doc.finish_reason === "string") return "cohere";
  if (isJsonObject(doc.message) && doc.done !== undefined) return "openai"; // Ollama /api/chat
  return undefined;
}

function returnedOf(api: WireApi, doc: JsonObject): JsonObject[] {
  switch (api) {
    case "openai": {
      if (isJsonObject(doc.message)) return [doc.message];
      const choice = objects(doc.choices)[0];
      return isJsonObject(choice?.message) ? [choice.message] : [];
    }
    case "openai-responses":
      return objects(doc.output);
    case "anthropic":
      return [{ role: "assistant", content: Array.isArray(doc.content) ? doc.content : [] }];
    case "gemini": {
      const content = objects(doc.candidates)[0]?.content;
      return isJsonObject(content) && Array.isArray(content.parts) && content.parts.length > 0
        ? [{ role: "model", ...content }]
        : [];
    }
    case "bedrock-converse":
      return [(doc.output as JsonObject).message as JsonObject];
    case "cohere":
      return [doc.message as JsonObject];
  }
}

function sentOf(api: WireApi, request: unknown): JsonObject[] {
  if (!isJsonObject(request)) return [];
  if (api === "gemini") return objects(request.contents);
  if (api === "openai-responses") {
    return typeof request.input === "string"
      ? [{ role: "user", content: request.input }]
      : objects(request.input);
  }
  return objects(request.messages);
}

/**
 * Read one recorded exchange as a model call, when its response is one.
 *
 * @param request The decoded request body.
 * @param response The decoded response body (a document, or SSE events).
 * @param source Where it is, for errors.
 * @returns The exchange, or `undefined` when the response is no model API's.
 *
 * @example Usage
 * ```ts
 * import { wireExchange } from "./vcr_wire.ts";
 * import assert from "node:assert/strict";
 *
 * const exchange = wireExchange(
 *   { messages: [{ role: "user", content: [{ text: "hi" }] }] },
 *   { output: { message: { role: "assistant", content: [{ text: "hello" }] } }, stopReason: "end_turn" },
 *   "c.yaml",
 * );
 * assert.equal(exchange?.api, "bedrock-converse");
 * assert.equal(exchange?.returned.length, 1);
 * ```
 */
export function wireExchange(
  request: unknown,
  response: unknown,
  source: string,
): WireExchange | undefined {
  const found = responseOf(response, source);
  if (found === undefined) return undefined;
  const api = found.api ?? apiOf(found.doc);
  if (api === undefined) return undefined;
  const exchange: WireExchange = {
    api,
    sent: sentOf(api, request),
    returned: returnedOf(api, found.doc),
  };
  const usage = found.doc.usage ?? found.doc.usageMetadata ?? found.doc.prompt_eval_count;
  if (usage !== undefined) {
    exchange.usage = api === "cohere" && isJsonObject(usage)
      ? usage.tokens ?? usage.billed_units
      : usage;
  }
  const model = found.doc.model ?? found.doc.modelVersion ??
    (isJsonObject(request) ? request.model : undefined);
  if (typeof model === "string" && model !== "") exchange.model = model;
  return exchange;
}

/**
 * Whether a message (or Responses item) is the model's: where a request's
 * replay of earlier turns ends.
 *
 * @param api The API.
 * @param message The message.
 * @returns `true` for an assistant (model) message or output item.
 *
 * @example Usage
 * ```ts
 * import { isModelTurn } from "./vcr_wire.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isModelTurn("gemini", { role: "model", parts: [] }), true);
 * assert.equal(isModelTurn("openai", { role: "tool", content: "ok" }), false);
 * ```
 */
export function isModelTurn(api: WireApi, message: JsonObject): boolean {
  if (api === "gemini") return message.role === "model";
  if (api === "openai-responses") {
    return message.role === "assistant" ||
      (typeof message.type === "string" && message.type !== "message" &&
        !message.type.endsWith("_output") && message.type !== "mcp_approval_response");
  }
  return message.role === "assistant";
}

// --- Bedrock Converse, read as Anthropic messages. ---

function converseResultContent(content: unknown): unknown {
  const blocks = objects(content);
  if (blocks.length === 1 && blocks[0]?.json !== undefined) return JSON.stringify(blocks[0].json);
  return blocks.map((block) =>
    typeof block.text === "string"
      ? { type: "text", text: block.text }
      : block.json !== undefined
      ? { type: "text", text: JSON.stringify(block.json) }
      : isJsonObject(block.image)
      ? { type: "image" }
      : isJsonObject(block.document)
      ? { type: "document", title: String(block.document.name ?? "") }
      : { type: "text", text: JSON.stringify(block) }
  );
}

function converseBlock(block: JsonObject): JsonObject | undefined {
  if (typeof block.text === "string") return { type: "text", text: block.text };
  if (isJsonObject(block.toolUse)) {
    const use = block.toolUse;
    return { type: "tool_use", id: use.toolUseId, name: use.name, input: use.input ?? {} };
  }
  if (isJsonObject(block.toolResult)) {
    const result = block.toolResult;
    return {
      type: "tool_result",
      tool_use_id: result.toolUseId,
      content: converseResultContent(result.content),
      ...(result.status === "error" ? { is_error: true } : {}),
    };
  }
  if (isJsonObject(block.reasoningContent)) return { type: "thinking", thinking: "" };
  if (isJsonObject(block.image)) return { type: "image" };
  if (isJsonObject(block.document)) return { type: "document" };
  return undefined;
}

/**
 * Bedrock Converse messages as Anthropic Messages messages.
 *
 * @param messages Converse messages `{role, content: [{text|toolUse|toolResult…}]}`.
 * @returns The messages with Anthropic content blocks.
 *
 * @example Usage
 * ```ts
 * import { converseAsAnthropic } from "./vcr_wire.ts";
 * import assert from "node:assert/strict";
 *
 * const [message] = converseAsAnthropic([{ role: "assistant", content: [
 *   { toolUse: { toolUseId: "t1", name: "get", input: { q: 1 } } },
 * ] }]);
 * assert.deepEqual(message?.content, [{ type: "tool_use", id: "t1", name: "get", input: { q: 1 } }]);
 * ```
 */
export function converseAsAnthropic(messages: readonly JsonObject[]): JsonObject[] {
  return messages.map((message) => ({
    role: message.role === "assistant" ? "assistant" : "user",
    content: objects(message.content).flatMap((block) => converseBlock(block) ?? []),
  }));
}

// --- Cohere v2 chat, read as OpenAI chat messages. ---

function cohereText(content: unknown): unknown {
  if (typeof content === "string" || content === undefined || content === null) return content;
  return objects(content).map((block) =>
    typeof block.text === "string"
      ? block.text
      : isJsonObject(block.document)
      ? (typeof block.document.data === "string"
        ? block.document.data
        : JSON.stringify(block.document.data ?? block.document))
      : ""
  ).join("\n");
}

/**
 * Cohere v2 chat messages as OpenAI chat messages: content blocks joined to
 * text; `tool_calls` (already OpenAI's shape) and `tool_call_id` kept.
 *
 * @param messages Cohere v2 messages.
 * @returns OpenAI chat messages.
 *
 * @example Usage
 * ```ts
 * import { cohereAsOpenai } from "./vcr_wire.ts";
 * import assert from "node:assert/strict";
 *
 * const [tool] = cohereAsOpenai([{ role: "tool", tool_call_id: "c1", content: [
 *   { type: "document", document: { data: "sunny" } },
 * ] }]);
 * assert.deepEqual(tool, { role: "tool", tool_call_id: "c1", content: "sunny" });
 * ```
 */
export function cohereAsOpenai(messages: readonly JsonObject[]): JsonObject[] {
  return messages.map((message) => {
    const out: JsonObject = { role: message.role ?? "user" };
    const content = cohereText(message.content);
    out.content = content === undefined ? null : content as JsonObject[keyof JsonObject];
    if (Array.isArray(message.tool_calls)) out.tool_calls = message.tool_calls;
    if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
    return out;
  });
}
