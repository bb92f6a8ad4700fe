/**
 * The `vcr` format: HTTP recordings of model API calls, as VCR.py and
 * pytest-recording write them (YAML or JSON cassettes, `{interactions:
 * [{request, response}]}`) and as Ruby VCR does (`http_interactions`). One
 * cassette is one trace.
 *
 * A cassette is told apart from an MCP recorder cassette (also
 * `interactions`) by its HTTP shape: every request has a `method` and a
 * `uri` (a JSON-RPC request has no `uri`), every response is an object
 * (`status: {code}`, or `status_code` as older httpx stubs write it). Bodies are decoded by
 * `vcr_body.ts` (parsed, text, base64, gzip, SSE); the provider API of each
 * exchange and its messages come from `vcr_wire.ts`.
 *
 * Decisions where the issue is silent:
 * - The conversation of one API is the first request's messages (a replayed
 *   history counts: the model saw those calls and results), then each
 *   response's messages, and of each later request only the messages after
 *   its last model turn (the new tool results and user turns). So calls come
 *   from the responses and results from the following requests' tool
 *   messages, each once. That conversation is read by the API's reader
 *   (`openai`, `openai-responses`, `anthropic`, `gemini`; Bedrock Converse as
 *   Anthropic messages, Cohere v2 as OpenAI chat messages).
 * - A cassette that calls several APIs is read per API, in the order each
 *   first appears; the calls are joined in that order and the final answer
 *   is that of the API called last. `metadata.apis` lists the APIs.
 * - An interaction whose response is no model API's (an error status, a
 *   token count, a file download, Bedrock's InvokeModel stream) is skipped
 *   and counted in a note, unless its response holds tool-call content: that
 *   is an error naming the interaction, never a silent zero. A cassette with no model API exchange at all is
 *   an error naming the URIs seen.
 * - `usage` is summed over the responses; `model` is the first named.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type Trace, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { addUsage, usageFromJson } from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import { openaiReader } from "./openai.ts";
import { openaiResponsesReader } from "./openai_responses.ts";
import { anthropicReader } from "./anthropic.ts";
import { geminiReader } from "./gemini.ts";
import { decodeBody } from "./vcr_body.ts";
import { findToolContent } from "./tool_content.ts";
import {
  cohereAsOpenai,
  converseAsAnthropic,
  isModelTurn,
  type WireApi,
  wireExchange,
} from "./vcr_wire.ts";
import { pushAll } from "../base/arrays.ts";

function isHttpRequest(value: unknown): boolean {
  return isJsonObject(value) && typeof value.method === "string" && typeof value.uri === "string";
}

// `status: {code}` (VCR.py), `status_code` (older httpx stubs), or a body alone.
function isHttpResponse(value: unknown): boolean {
  return isJsonObject(value) &&
    (isJsonObject(value.status) ? typeof value.status.code === "number" : true);
}

/**
 * The interactions of an HTTP cassette, or `undefined` when the value is
 * not one (an MCP recorder cassette's requests are JSON-RPC messages).
 *
 * @param value A parsed document.
 * @returns The interactions.
 *
 * @example Usage
 * ```ts
 * import { httpInteractions } from "./vcr.ts";
 * import assert from "node:assert/strict";
 *
 * const cassette = { interactions: [{
 *   request: { method: "POST", uri: "https://api.example.com/v1/chat/completions", body: "{}" },
 *   response: { status: { code: 200 }, body: { string: "{}" } },
 * }], version: 1 };
 * assert.equal(httpInteractions(cassette)?.length, 1);
 * assert.equal(httpInteractions({ interactions: [{ request: { jsonrpc: "2.0", id: 1, method: "ping" } }] }), undefined);
 * ```
 */
export function httpInteractions(value: unknown): JsonObject[] | undefined {
  if (!isJsonObject(value)) return undefined;
  const list = value.interactions ?? value.http_interactions;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return list.every((item) =>
      isJsonObject(item) && isHttpRequest(item.request) && isHttpResponse(item.response)
    )
    ? list as JsonObject[]
    : undefined;
}

// Mistral's reasoning models answer with `thinking` content blocks, which no chat reader takes.
function withoutThinking(message: JsonObject): JsonObject {
  if (!Array.isArray(message.content)) return message;
  const content = message.content.filter((b) => !(isJsonObject(b) && b.type === "thinking"));
  return { ...message, content };
}

function readConversation(api: WireApi, messages: JsonObject[], source: string): Trace {
  switch (api) {
    case "openai":
      return openaiReader.read(messages.map(withoutThinking), source);
    case "cohere":
      return openaiReader.read(cohereAsOpenai(messages), source);
    case "anthropic":
      return anthropicReader.read(messages, source);
    case "bedrock-converse":
      return anthropicReader.read(converseAsAnthropic(messages), source);
    case "gemini":
      return geminiReader.read(messages, source);
    case "openai-responses":
      return openaiResponsesReader.read(messages, source);
  }
}

interface Conversation {
  messages: JsonObject[];
  started: boolean;
}

function readCassette(list: JsonObject[], source: string): Trace {
  const conversations = new Map<WireApi, Conversation>();
  const uris: string[] = [];
  let usage: Usage | undefined;
  let model: string | undefined;
  let last: WireApi | undefined;
  let skipped = 0;
  list.forEach((interaction, i) => {
    const where = `${source}: interactions[${i}]`;
    const request = interaction.request as JsonObject;
    const response = interaction.response as JsonObject;
    const responseBody = decodeBody(response, `${where}.response`);
    const exchange = wireExchange(decodeBody(request, `${where}.request`), responseBody, where);
    if (exchange === undefined) {
      // Never a silent zero: a response holding tool calls this reader cannot read is an error.
      const content = findToolContent(responseBody);
      if (content !== undefined) {
        throw new InputError(
          `the response holds tool-call content at ${content.path || "the top level"} ` +
            `(${content.shape}) of an API this reader does not know; report the shape`,
          `${where}.response`,
        );
      }
      skipped++;
      if (uris.length < 3) uris.push(String(request.uri).slice(0, 120));
      return;
    }
    const conversation = conversations.get(exchange.api) ?? { messages: [], started: false };
    conversations.set(exchange.api, conversation);
    let sent = exchange.sent;
    if (conversation.started) {
      const lastModel = sent.findLastIndex((m) => isModelTurn(exchange.api, m));
      sent = sent.slice(lastModel + 1);
    }
    conversation.started = true;
    pushAll(pushAll(conversation.messages, sent), exchange.returned);
    usage = addUsage(usage, usageFromJson(exchange.usage));
    model ??= exchange.model;
    last = exchange.api;
  });
  if (conversations.size === 0) {
    const binary = uris.some((uri) => /invoke-with-response-stream\b/.test(uri))
      ? " (Bedrock's InvokeModel stream is not read; record the Converse API)"
      : "";
    throw new InputError(
      `the HTTP cassette holds no model API exchange (${list.length} interactions, ` +
        `such as ${uris.join(", ")})${binary}; record a model API (OpenAI, Anthropic, ` +
        "Gemini, Bedrock Converse, Cohere) or pass --format",
      source,
    );
  }
  const traces = [...conversations].map(([api, c]) => ({
    api,
    trace: readConversation(api, c.messages, source),
  }));
  const trace: Trace = {
    calls: traces.flatMap((t) => t.trace.calls),
    format: "vcr",
    metadata: { apis: traces.map((t) => t.api) },
  };
  const answer = traces.find((t) => t.api === last)?.trace.finalAnswer;
  if (answer !== undefined) trace.finalAnswer = answer;
  if (model !== undefined) trace.model = model;
  if (usage !== undefined) trace.usage = usage;
  const skippedTypes = traces.flatMap((t) => t.trace.skipped ?? []);
  if (skippedTypes.length > 0) trace.skipped = skippedTypes;
  if (skipped > 0) {
    trace.notes = [
      `skipped ${skipped} of ${list.length} interactions that are no model API call`,
    ];
  }
  return trace;
}

/**
 * The `vcr` reader: an HTTP cassette of model API calls, one trace.
 *
 * @example Usage
 * ```ts
 * import { vcrReader } from "./vcr.ts";
 * import assert from "node:assert/strict";
 *
 * const call = { id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } };
 * const cassette = { interactions: [
 *   {
 *     request: { method: "POST", uri: "https://api.groq.com/openai/v1/chat/completions",
 *       body: JSON.stringify({ messages: [{ role: "user", content: "find x" }] }) },
 *     response: { status: { code: 200 }, body: { string: JSON.stringify({
 *       choices: [{ message: { role: "assistant", content: null, tool_calls: [call] } }] }) } },
 *   },
 *   {
 *     request: { method: "POST", uri: "https://api.groq.com/openai/v1/chat/completions",
 *       body: JSON.stringify({ messages: [
 *         { role: "user", content: "find x" },
 *         { role: "assistant", content: null, tool_calls: [call] },
 *         { role: "tool", tool_call_id: "c1", content: "found" },
 *       ] }) },
 *     response: { status: { code: 200 }, body: { string: JSON.stringify({
 *       choices: [{ message: { role: "assistant", content: "x is found" } }] }) } },
 *   },
 * ], version: 1 };
 * const trace = vcrReader.read(cassette, "c.yaml");
 * assert.equal(trace.calls.length, 1);
 * assert.equal(trace.calls[0]?.result, "found");
 * assert.equal(trace.finalAnswer, "x is found");
 * ```
 */
export const vcrReader: FormatReader = documentReader(
  "vcr",
  httpInteractions,
  "not an HTTP cassette: expected {interactions: [{request: {method, uri, body}, " +
    "response: {status, body}}]} (VCR.py, pytest-recording)",
  readCassette,
);
