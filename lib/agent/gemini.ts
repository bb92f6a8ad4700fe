/**
 * The Gemini `generateContent` provider over `fetch` (no SDK): `POST
 * {base_url}/v1beta/models/{model}:generateContent` with `x-goog-api-key`;
 * tools as one `functionDeclarations` list with each MCP input schema passed
 * as `parametersJsonSchema`; the arm's `system` as `systemInstruction` and
 * `temperature`, `max_tokens` and `seed` in `generationConfig`. The model's
 * content is kept verbatim in the conversation (thought signatures
 * included); tool results go back as `functionResponse` parts, `{result}` or
 * `{error}`, with the call's `id` when it had one. Thought parts are not
 * part of the reply's text; thought tokens count as output.
 *
 * Issue 30: a `functionCall` with missing or `null` `args` is a call with
 * `{}` (noted on the call). A call with no name cannot be answered with a
 * `functionResponse`, which needs one: its error goes back as a text part
 * (`Error: …`) in the same user turn, and the run goes on.
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

/** The endpoint used when a `gemini` arm has no `base_url`. */
export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

function usageOfResponse(value: unknown): ReplyUsage {
  if (!isJsonObject(value)) return { inputTokens: null, outputTokens: null };
  const output = count(value.candidatesTokenCount);
  return {
    inputTokens: count(value.promptTokenCount),
    // An absent candidatesTokenCount stays unknown (never 0).
    outputTokens: output === null ? null : output + (count(value.thoughtsTokenCount) ?? 0),
  };
}

/**
 * Read one `generateContent` answer.
 *
 * @param body The parsed response.
 * @param where The endpoint, for errors.
 * @returns The reply, and the model's content to keep in the conversation.
 * @throws {ProviderError} When there is no candidate content (a blocked prompt says why).
 *
 * @example Usage
 * ```ts
 * import { readGenerateContent } from "./gemini.ts";
 * import assert from "node:assert/strict";
 *
 * const { reply } = readGenerateContent({
 *   candidates: [{ content: { role: "model", parts: [
 *     { functionCall: { name: "search", args: { q: "x" } } },
 *   ] }, finishReason: "STOP" }],
 *   usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3 },
 *   modelVersion: "gemini-x",
 * }, "test");
 * assert.deepEqual(reply.calls, [{ id: "call_0", name: "search", args: { q: "x" } }]);
 * assert.deepEqual(reply.usage, { inputTokens: 9, outputTokens: 3 });
 * ```
 */
export function readGenerateContent(
  body: unknown,
  where: string,
): { reply: ModelReply; content: JsonObject } {
  const candidate = isJsonObject(body) && Array.isArray(body.candidates)
    ? body.candidates[0]
    : undefined;
  const content = isJsonObject(candidate) ? candidate.content : undefined;
  if (!isJsonObject(content)) {
    const feedback = isJsonObject(body) && body.promptFeedback !== undefined
      ? ` (promptFeedback: ${JSON.stringify(body.promptFeedback)})`
      : ` (got ${describeJson(body)})`;
    throw new ProviderError("malformed", `${where} answered without candidate content${feedback}`);
  }
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const texts: string[] = [];
  const calls: ModelCall[] = [];
  parts.forEach((part, i) => {
    if (!isJsonObject(part)) return;
    if (typeof part.text === "string" && part.thought !== true) texts.push(part.text);
    const call = part.functionCall;
    if (isJsonObject(call)) {
      const id = typeof call.id === "string" && call.id !== "" ? call.id : `call_${i}`;
      const name = typeof call.name === "string" ? call.name : "";
      const args = call.args ?? {};
      const note = call.args === undefined || call.args === null
        ? { note: `args were ${describeJson(call.args)}: read as {}` }
        : {};
      calls.push(
        isJsonObject(args)
          ? { id, name, args, ...note }
          : { id, name, args: null, argsError: `args is ${describeJson(args)}` },
      );
    }
  });
  const record = body as JsonObject;
  return {
    reply: {
      text: texts.length > 0 ? texts.join("") : null,
      calls,
      usage: usageOfResponse(record.usageMetadata),
      model: typeof record.modelVersion === "string" ? record.modelVersion : null,
      stopReason: isJsonObject(candidate) && typeof candidate.finishReason === "string"
        ? candidate.finishReason
        : null,
    },
    content: { ...content, role: "model" },
  };
}

class GeminiConversation implements Conversation {
  readonly #options: ProviderOptions;
  readonly #input: ConversationInput;
  readonly #contents: JsonObject[];
  // The provider's own call ids, when it sent any (made-up ids are not sent back).
  readonly #sentIds = new Set<string>();

  constructor(options: ProviderOptions, input: ConversationInput) {
    this.#options = options;
    this.#input = input;
    this.#contents = [{ role: "user", parts: [{ text: input.prompt }] }];
  }

  async next(results: ToolReply[]): Promise<ModelReply> {
    if (results.length > 0) {
      this.#contents.push({
        role: "user",
        parts: results.map((result) =>
          // A functionResponse needs a name: a nameless call's error goes back as text.
          result.name === "" ? { text: `Error: ${result.text}` } : {
            functionResponse: {
              ...(this.#sentIds.has(result.id) ? { id: result.id } : {}),
              name: result.name,
              response: result.isError ? { error: result.text } : { result: result.text },
            },
          }
        ),
      });
    }
    const { arm, apiKey, http } = this.#options;
    const model = arm.model.startsWith("models/") ? arm.model.slice("models/".length) : arm.model;
    const url = joinUrl(
      arm.baseUrl ?? GEMINI_BASE_URL,
      `/v1beta/models/${encodeURIComponent(model)}:generateContent`,
    );
    const body: JsonObject = { contents: this.#contents };
    if (arm.system !== undefined) body.systemInstruction = { parts: [{ text: arm.system }] };
    if (this.#input.tools.length > 0) {
      body.tools = [{
        functionDeclarations: this.#input.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: tool.inputSchema,
        })),
      }];
    }
    const config: JsonObject = {};
    if (arm.temperature !== undefined) config.temperature = arm.temperature;
    if (arm.maxTokens !== undefined) config.maxOutputTokens = arm.maxTokens;
    if (arm.seed !== undefined) config.seed = arm.seed;
    if (Object.keys(config).length > 0) body.generationConfig = config;
    const headers: Record<string, string> = apiKey ? { "x-goog-api-key": apiKey } : {};
    const response = await postJson(url, headers, body, http);
    const { reply, content } = readGenerateContent(response.body, new URL(url).host);
    for (const part of (content.parts ?? []) as unknown[]) {
      const call = isJsonObject(part) ? part.functionCall : undefined;
      if (isJsonObject(call) && typeof call.id === "string" && call.id !== "") {
        this.#sentIds.add(call.id);
      }
    }
    this.#contents.push(content);
    return reply;
  }
}

/**
 * The Gemini `generateContent` provider.
 *
 * @param options The arm, key and HTTP options.
 * @returns The provider.
 *
 * @example Usage
 * ```ts ignore
 * import { geminiProvider } from "./gemini.ts";
 *
 * const provider = geminiProvider({ arm: { id: "g", provider: "gemini", model: "gemini-2.5-flash" }, http: {} });
 * const reply = await provider.start({ prompt: "Hi", tools: [] }).next([]);
 * ```
 */
export function geminiProvider(options: ProviderOptions): Provider {
  return { start: (input) => new GeminiConversation(options, input) };
}
