/**
 * The Anthropic Messages provider over `fetch` (no SDK): `POST
 * {base_url}/v1/messages` with `x-api-key` and `anthropic-version:
 * 2023-06-01`; `tools` as `{name, description, input_schema}`; the arm's
 * `system`, `temperature` and `max_tokens` (4096 when the arm sets none: the
 * API requires it). The assistant's content blocks are kept verbatim in the
 * conversation; tool results go back in one user message of `tool_result`
 * blocks, `is_error: true` on a failed call. Messages has no sampling seed:
 * an arm's `seed` is not sent.
 *
 * Issue 30: a `tool_use` block with a missing or `null` `input` is a call
 * with `{}` (noted on the call); text blocks beside `tool_use` blocks are the
 * reply's text, which the loop keeps in the trace with the turn's stop
 * reason.
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
  type ReplyUsage,
  type ToolReply,
} from "./provider.ts";

/** The endpoint used when an `anthropic` arm has no `base_url`. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** The `anthropic-version` header sent. */
export const ANTHROPIC_VERSION = "2023-06-01";

/** `max_tokens` when the arm sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

function usageOfMessage(value: unknown): ReplyUsage {
  if (!isJsonObject(value)) return { inputTokens: null, outputTokens: null };
  const input = count(value.input_tokens);
  // Cached prompt tokens are input too (priced differently; counted here at the input price).
  const cached = (count(value.cache_creation_input_tokens) ?? 0) +
    (count(value.cache_read_input_tokens) ?? 0);
  return {
    inputTokens: input === null ? null : input + cached,
    outputTokens: count(value.output_tokens),
  };
}

/**
 * Read one Messages answer.
 *
 * @param body The parsed response.
 * @param where The endpoint, for errors.
 * @returns The reply, and the content blocks to keep in the conversation.
 * @throws {ProviderError} When the answer has no content list.
 *
 * @example Usage
 * ```ts
 * import { readMessage } from "./anthropic.ts";
 * import assert from "node:assert/strict";
 *
 * const { reply } = readMessage({
 *   type: "message",
 *   model: "claude-x",
 *   content: [
 *     { type: "text", text: "Let me look." },
 *     { type: "tool_use", id: "toolu_1", name: "search", input: { q: "x" } },
 *   ],
 *   stop_reason: "tool_use",
 *   usage: { input_tokens: 12, output_tokens: 7 },
 * }, "test");
 * assert.deepEqual(reply.calls, [{ id: "toolu_1", name: "search", args: { q: "x" } }]);
 * assert.equal(reply.text, "Let me look.");
 * ```
 */
export function readMessage(
  body: unknown,
  where: string,
): { reply: ModelReply; content: unknown[] } {
  if (!isJsonObject(body) || !Array.isArray(body.content)) {
    throw new ProviderError(
      "malformed",
      `${where} answered without a content list (got ${describeJson(body)})`,
    );
  }
  const texts: string[] = [];
  const calls: ModelCall[] = [];
  body.content.forEach((block, i) => {
    if (!isJsonObject(block)) return;
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    if (block.type === "tool_use") {
      const id = typeof block.id === "string" && block.id !== "" ? block.id : `toolu_${i}`;
      const name = typeof block.name === "string" ? block.name : "";
      calls.push(
        isJsonObject(block.input)
          ? { id, name, args: block.input }
          : block.input === undefined || block.input === null
          ? { id, name, args: {}, note: `input was ${describeJson(block.input)}: read as {}` }
          : { id, name, args: null, argsError: `input is ${describeJson(block.input)}` },
      );
    }
  });
  return {
    reply: {
      text: texts.length > 0 ? texts.join("\n") : null,
      calls,
      usage: usageOfMessage(body.usage),
      model: typeof body.model === "string" ? body.model : null,
      stopReason: typeof body.stop_reason === "string" ? body.stop_reason : null,
    },
    // A tool_use block goes back with the input that was run ({} for a missing or null one).
    content: body.content.map((block) =>
      isJsonObject(block) && block.type === "tool_use" &&
        (block.input === undefined || block.input === null)
        ? { ...block, input: {} }
        : block
    ),
  };
}

class AnthropicConversation implements Conversation {
  readonly #options: ProviderOptions;
  readonly #input: ConversationInput;
  readonly #messages: JsonObject[];

  constructor(options: ProviderOptions, input: ConversationInput) {
    this.#options = options;
    this.#input = input;
    this.#messages = [{ role: "user", content: input.prompt }];
  }

  async next(results: ToolReply[]): Promise<ModelReply> {
    if (results.length > 0) {
      this.#messages.push({
        role: "user",
        content: results.map((result) => ({
          type: "tool_result",
          tool_use_id: result.id,
          content: result.text,
          ...(result.isError ? { is_error: true } : {}),
        })),
      });
    }
    const { arm, apiKey, http } = this.#options;
    const url = joinUrl(arm.baseUrl ?? ANTHROPIC_BASE_URL, "/v1/messages");
    const body: JsonObject = {
      model: arm.model,
      max_tokens: arm.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      messages: this.#messages,
    };
    if (arm.system !== undefined) body.system = arm.system;
    if (arm.temperature !== undefined) body.temperature = arm.temperature;
    if (this.#input.tools.length > 0) {
      body.tools = this.#input.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
      }));
    }
    const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
    if (apiKey) headers["x-api-key"] = apiKey;
    const response = await postJson(url, headers, body, http);
    const { reply, content } = readMessage(response.body, new URL(url).host);
    this.#messages.push({ role: "assistant", content });
    return reply;
  }
}

/**
 * The Anthropic Messages provider.
 *
 * @param options The arm, key and HTTP options.
 * @returns The provider.
 *
 * @example Usage
 * ```ts ignore
 * import { anthropicProvider } from "./anthropic.ts";
 *
 * const provider = anthropicProvider({ arm: { id: "a", provider: "anthropic", model: "claude-sonnet-4-5" }, http: {} });
 * const reply = await provider.start({ prompt: "Hi", tools: [] }).next([]);
 * ```
 */
export function anthropicProvider(options: ProviderOptions): Provider {
  return { start: (input) => new AnthropicConversation(options, input) };
}
