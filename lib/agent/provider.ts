/**
 * What the run loop needs from a model provider: start a conversation with a
 * prompt and tool definitions, then trade tool results for the model's next
 * reply. Each provider (OpenAI Chat Completions, Anthropic Messages, Gemini
 * `generateContent`) keeps its own wire-format message list.
 *
 * @module
 */

import type { JsonObject } from "../scoring/calls.ts";
import type { PostJsonOptions } from "./http.ts";
import type { AgentArm } from "../spec/agent_spec.ts";

/** A tool as the model is told about it (its name already provider-safe). */
export interface ToolDefinition {
  /** The provider-safe name. */
  name: string;
  /** The description (`""` when the server gave none). */
  description: string;
  /** The input JSON Schema, as the server listed it. */
  inputSchema: JsonObject;
}

/** One tool call the model asked for. */
export interface ModelCall {
  /** The provider's call id (made up when the provider has none). */
  id: string;
  /** The provider-safe tool name. */
  name: string;
  /** The arguments; `null` when they did not parse. */
  args: JsonObject | null;
  /** The raw argument text, when it did not parse. */
  rawArgs?: string;
  /** Why the raw arguments did not parse. */
  argsError?: string;
  /**
   * Set by a provider for a call of a type it does not define (issue 30);
   * the loop marks nameless calls and arguments that did not parse itself.
   */
  malformed?: "unknown-type";
  /** What the trace should say about the call (arguments that were missing, read as `{}`). */
  note?: string;
  /** The wire type, when it is not the provider's usual function call (`custom`). */
  kind?: string;
}

/** Token usage of one reply; `null` when the provider did not say. */
export interface ReplyUsage {
  /** Input tokens. */
  inputTokens: number | null;
  /** Output tokens. */
  outputTokens: number | null;
}

/** One model reply. */
export interface ModelReply {
  /** The text of the reply (`null` when there was none). */
  text: string | null;
  /** The tool calls, in the provider's order. */
  calls: ModelCall[];
  /** Token usage. */
  usage: ReplyUsage;
  /** The model that answered, as the provider named it. */
  model: string | null;
  /** Why the model stopped (`stop`, `tool_use`, `max_tokens`…), when given. */
  stopReason: string | null;
  /** The model's refusal text (OpenAI `refusal`), when it refused. */
  refusal?: string;
}

/** The result of one tool call, as it goes back to the model. */
export interface ToolReply {
  /** The call id it answers. */
  id: string;
  /** The provider-safe tool name. */
  name: string;
  /** The result text (or the error message). */
  text: string;
  /** Whether the call failed. */
  isError: boolean;
}

/** One conversation with a model. */
export interface Conversation {
  /**
   * Send the tool results of the last reply (none on the first turn) and get the next reply.
   *
   * @param results One per call of the last reply, in its order.
   * @returns The model's reply.
   * @throws {ProviderError} When the provider fails for good or answers in a shape it should not.
   */
  next(results: ToolReply[]): Promise<ModelReply>;
}

/** What a provider needs to start a conversation. */
export interface ConversationInput {
  /** The user prompt. */
  prompt: string;
  /** The tools. */
  tools: ToolDefinition[];
}

/** Options every provider takes. */
export interface ProviderOptions {
  /** The arm (model, base URL, temperature, max tokens, system, seed). */
  arm: AgentArm;
  /** The API key, when there is one. */
  apiKey?: string;
  /** Retries, per-request timeout, cancellation, redaction. */
  http: PostJsonOptions;
}

/** A provider: starts conversations. */
export interface Provider {
  /**
   * Start a conversation.
   *
   * @param input The prompt and tools.
   * @returns The conversation; nothing is sent until its first `next([])`.
   */
  start(input: ConversationInput): Conversation;
}

/**
 * Join a base URL and a path without doubling or dropping the slash.
 *
 * @param base The base URL (`http://127.0.0.1:8080/v1/`).
 * @param path The path (`/chat/completions`).
 * @returns The URL.
 *
 * @example Usage
 * ```ts
 * import { joinUrl } from "./provider.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(joinUrl("http://h/v1/", "/chat/completions"), "http://h/v1/chat/completions");
 * ```
 */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/**
 * The counts of a usage block, `null` where a field is missing or not a count.
 *
 * @param value The provider's usage object.
 * @param input The input-token field.
 * @param output The output-token field.
 * @returns The usage.
 *
 * @example Usage
 * ```ts
 * import { usageOf } from "./provider.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(usageOf({ prompt_tokens: 3 }, "prompt_tokens", "completion_tokens"), {
 *   inputTokens: 3,
 *   outputTokens: null,
 * });
 * ```
 */
export function usageOf(value: unknown, input: string, output: string): ReplyUsage {
  const read = (key: string): number | null => {
    const n = (value as Record<string, unknown> | null | undefined)?.[key];
    return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : null;
  };
  return typeof value === "object" && value !== null
    ? { inputTokens: read(input), outputTokens: read(output) }
    : { inputTokens: null, outputTokens: null };
}
