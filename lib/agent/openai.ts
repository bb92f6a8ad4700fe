/**
 * The OpenAI Chat Completions provider over `fetch` (no SDK), for OpenAI and
 * every server that speaks it (`base_url`: vLLM, Ollama, llama.cpp server,
 * LM Studio, OpenRouter…): `POST {base_url}/chat/completions` with
 * `Authorization: Bearer KEY` (no header without a key), `tools` as
 * `{type: "function", function: {name, description, parameters}}`, the
 * arm's `system`, `temperature`, `max_tokens` and `seed`. Tool results go
 * back as `role: "tool"` messages; a failed call's text starts with
 * `Error: `, as the wire format has no error flag.
 *
 * Issue 30: a `type: "custom"` call (`custom: {name, input}`, free text) is a
 * call of `custom.name` with `{input: TEXT}` as its arguments, and its result
 * goes back as a `role: "tool"` message like any other. Missing or `null`
 * `arguments` are `{}`, with a note on the call; a call of another type, or
 * one with no id, is still answered (its id made up when missing, and sent
 * back in the assistant message so that the result answers it). A refusal
 * (`message.refusal`) is kept in the reply and in the conversation. The
 * legacy `function_call` (deprecated; a server may still send it) is a call
 * too, after the `tool_calls`, answered by a `role: "function"` message.
 *
 * @module
 */

import { describeJson, isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { postJson, ProviderError } from "./http.ts";
import {
  type Conversation,
  type ConversationInput,
  joinUrl,
  type ModelCall,
  type ModelReply,
  type Provider,
  type ProviderOptions,
  type ToolReply,
  usageOf,
} from "./provider.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** The endpoint used when an `openai` arm has no `base_url`. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

function parseArguments(id: string, name: string, raw: unknown): ModelCall {
  if (isJsonObject(raw)) return { id, name, args: raw };
  if (raw === undefined || raw === null) {
    return { id, name, args: {}, note: `arguments were ${describeJson(raw)}: read as {}` };
  }
  if (typeof raw !== "string") {
    return { id, name, args: null, argsError: `arguments were ${describeJson(raw)}, not a string` };
  }
  if (raw.trim() === "") return { id, name, args: {} };
  try {
    const value = parseJsonLossless(raw);
    if (isJsonObject(value)) return { id, name, args: value };
    return {
      id,
      name,
      args: null,
      rawArgs: raw,
      argsError: `arguments are ${describeJson(value)}, not an object`,
    };
  } catch (error) {
    return { id, name, args: null, rawArgs: raw, argsError: (error as Error).message };
  }
}

// One tool_calls entry: a function call, a custom call (free text input, read as {input}), or
// a call of a type Chat Completions does not define (made a failed call by the loop).
function readToolCall(call: unknown, id: string): ModelCall {
  const type = isJsonObject(call) ? call.type : undefined;
  if (isJsonObject(call) && type === "custom" && isJsonObject(call.custom)) {
    const { name, input } = call.custom;
    const named = typeof name === "string" ? name : "";
    if (typeof input === "string") return { id, name: named, args: { input }, kind: "custom" };
    return { ...parseArguments(id, named, input), kind: "custom" };
  }
  if (
    isJsonObject(call) && (type === "function" || type === undefined) && isJsonObject(call.function)
  ) {
    const fn = call.function;
    return parseArguments(id, typeof fn.name === "string" ? fn.name : "", fn.arguments);
  }
  const inner = isJsonObject(call) && typeof type === "string" ? call[type] : undefined;
  const name = isJsonObject(inner) && typeof inner.name === "string" ? inner.name : "";
  return {
    id,
    name,
    args: null,
    malformed: "unknown-type",
    argsError: `a tool call of type ${
      typeof type === "string" ? JSON.stringify(type) : describeJson(type)
    } (not function or custom)`,
  };
}

// The id given to a message's legacy function_call, which has none; tool_calls ids are the
// provider's or call_N.
const LEGACY_ID = "function_call";

// The call as it goes back in the assistant message: with the id made up when it had none (so
// that its result answers it), and missing or null function arguments as "{}" (what was run).
function echoedCall(call: unknown, id: string): unknown {
  if (!isJsonObject(call)) return call;
  const fn = call.function;
  const bare = isJsonObject(fn) && (fn.arguments === undefined || fn.arguments === null);
  if (call.id === id && !bare) return call;
  return { ...call, id, ...(bare ? { function: { ...fn, arguments: "{}" } } : {}) };
}

/**
 * Read one Chat Completions answer.
 *
 * @param body The parsed response.
 * @param where The endpoint, for errors.
 * @returns The reply, and the assistant message to keep in the conversation.
 * @throws {ProviderError} When the answer has no choice or message.
 *
 * @example Usage
 * ```ts
 * import { readChatCompletion } from "./openai.ts";
 * import assert from "node:assert/strict";
 *
 * const { reply } = readChatCompletion({
 *   model: "m",
 *   choices: [{ message: { role: "assistant", content: null, tool_calls: [
 *     { id: "c1", type: "function", function: { name: "add", arguments: "{\"a\":1}" } },
 *   ] }, finish_reason: "tool_calls" }],
 *   usage: { prompt_tokens: 10, completion_tokens: 5 },
 * }, "test");
 * assert.deepEqual(reply.calls, [{ id: "c1", name: "add", args: { a: 1 } }]);
 * assert.equal(reply.usage.inputTokens, 10);
 * ```
 */
export function readChatCompletion(
  body: unknown,
  where: string,
): { reply: ModelReply; message: JsonObject } {
  const choice = isJsonObject(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isJsonObject(choice) ? choice.message : undefined;
  if (!isJsonObject(message)) {
    throw new ProviderError(
      "malformed",
      `${where} answered without choices[0].message (got ${describeJson(body)})`,
    );
  }
  const calls: ModelCall[] = [];
  const rawCalls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((call, i) => {
    const id = isJsonObject(call) && typeof call.id === "string" && call.id !== ""
      ? call.id
      : `call_${i}`;
    calls.push(readToolCall(call, id));
    return echoedCall(call, id);
  });
  // The legacy function_call (deprecated, still sent by some servers) is a call too.
  const legacy = message.function_call;
  if (isJsonObject(legacy)) {
    const name = typeof legacy.name === "string" ? legacy.name : "";
    calls.push({ ...parseArguments(LEGACY_ID, name, legacy.arguments), kind: "function_call" });
  }
  const text = typeof message.content === "string" ? message.content : null;
  const record = body as JsonObject;
  const refusal = typeof message.refusal === "string" && message.refusal !== ""
    ? message.refusal
    : undefined;
  return {
    reply: {
      text,
      calls,
      usage: usageOf(record.usage, "prompt_tokens", "completion_tokens"),
      model: typeof record.model === "string" ? record.model : null,
      stopReason: isJsonObject(choice) && typeof choice.finish_reason === "string"
        ? choice.finish_reason
        : null,
      ...(refusal !== undefined ? { refusal } : {}),
    },
    message: {
      role: "assistant",
      content: text,
      ...(refusal !== undefined ? { refusal } : {}),
      ...(rawCalls.length > 0 ? { tool_calls: rawCalls } : {}),
      ...(isJsonObject(legacy)
        ? {
          function_call: legacy.arguments === undefined || legacy.arguments === null
            ? { ...legacy, arguments: "{}" }
            : legacy,
        }
        : {}),
    },
  };
}

class OpenAIConversation implements Conversation {
  readonly #options: ProviderOptions;
  readonly #input: ConversationInput;
  readonly #messages: JsonObject[] = [];

  constructor(options: ProviderOptions, input: ConversationInput) {
    this.#options = options;
    this.#input = input;
    const { arm } = options;
    if (arm.system !== undefined) this.#messages.push({ role: "system", content: arm.system });
    this.#messages.push({ role: "user", content: input.prompt });
  }

  async next(results: ToolReply[]): Promise<ModelReply> {
    for (const result of results) {
      const content = result.isError ? `Error: ${result.text}` : result.text;
      // A legacy function_call is answered by a role "function" message that names it.
      this.#messages.push(
        result.id === LEGACY_ID
          ? { role: "function", name: result.name, content }
          : { role: "tool", tool_call_id: result.id, content },
      );
    }
    const { arm, apiKey, http } = this.#options;
    const url = joinUrl(arm.baseUrl ?? OPENAI_BASE_URL, "/chat/completions");
    const body: JsonObject = { model: arm.model, messages: this.#messages };
    if (this.#input.tools.length > 0) {
      body.tools = this.#input.tools.map((tool) => ({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }));
    }
    if (arm.temperature !== undefined) body.temperature = arm.temperature;
    if (arm.maxTokens !== undefined) body.max_tokens = arm.maxTokens;
    if (arm.seed !== undefined) body.seed = arm.seed;
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    const response = await postJson(url, headers, body, http);
    const { reply, message } = readChatCompletion(response.body, new URL(url).host);
    this.#messages.push(message);
    return reply;
  }
}

/**
 * The OpenAI Chat Completions provider.
 *
 * @param options The arm, key and HTTP options.
 * @returns The provider.
 *
 * @example Usage
 * ```ts ignore
 * import { openaiProvider } from "./openai.ts";
 *
 * const provider = openaiProvider({ arm: { id: "a", provider: "openai", model: "gpt-4.1-mini" }, http: {} });
 * const reply = await provider.start({ prompt: "Hi", tools: [] }).next([]);
 * ```
 */
export function openaiProvider(options: ProviderOptions): Provider {
  return { start: (input) => new OpenAIConversation(options, input) };
}
