/**
 * The `fast-agent` format: conversation histories fast-agent saves
 * (`/save_history`, `save_messages`, its `PromptMessageExtended` JSON;
 * issue 36).
 *
 * Shapes: `{"messages": [message…]}`, a list of messages, or one message.
 * A message is `{role: "user" | "assistant", content: [MCP content
 * blocks], tool_calls?, tool_results?, channels?, stop_reason?,
 * is_template?}` where `tool_calls` is an object keyed by call id whose
 * values are MCP `CallToolRequest`s (`{method: "tools/call", params: {name,
 * arguments}}`), and `tool_results` an object keyed by the same ids whose
 * values are MCP `CallToolResult`s (`{content, isError, structuredContent?}`).
 *
 * Decisions where fast-agent is silent:
 * - A document is claimed when its messages are all user/assistant messages
 *   and one of them has what only fast-agent writes: `tool_calls` or
 *   `tool_results` as an object (not a list), or a `channels` object, or an
 *   `is_template` flag. Any other role (`system`, `tool`) is not fast-agent.
 * - Calls are in message order, and within a message in the order of its
 *   `tool_calls` keys. A result pairs with its call by id only; a result
 *   naming no call is ignored.
 * - `isError: true` failed (the error is the result text), `isError: false`
 *   succeeded; a result without `isError` leaves the outcome unknown, as the
 *   `mcp` reader does. A call without a result has no outcome.
 * - The final answer is the text of the last assistant message after the
 *   last call (text beside calls came before them); a `stop_reason` of
 *   `maxTokens` marks it cut short.
 * - Usage and the model come from the `fast-agent-usage` channel of each
 *   assistant message (JSON text `{turn: {model, input_tokens,
 *   output_tokens}}`), summed over the turns; timing channels are not read.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  FinalAnswer,
  finishTrace,
  makeTrace,
  resultFromText,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import type { Usage } from "../scoring/calls.ts";
import { mcpContentText } from "./mcp.ts";
import { documentReader, type FormatReader } from "./reader.ts";

const ROLES = new Set(["user", "assistant"]);

function isMessage(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.role === "string" && ROLES.has(value.role) &&
    (value.content === undefined || Array.isArray(value.content));
}

function isFastAgentMessage(message: JsonObject): boolean {
  return isJsonObject(message.tool_calls) || isJsonObject(message.tool_results) ||
    isJsonObject(message.channels) || typeof message.is_template === "boolean";
}

function findMessages(value: unknown): JsonObject[] | undefined {
  const list = Array.isArray(value)
    ? value
    : isJsonObject(value) && Array.isArray(value.messages)
    ? value.messages
    : isJsonObject(value) && typeof value.role === "string"
    ? [value]
    : undefined;
  if (list === undefined || list.length === 0 || !list.every(isMessage)) return undefined;
  const messages = list as JsonObject[];
  return messages.some(isFastAgentMessage) ? messages : undefined;
}

function readCall(id: string, request: unknown, where: string, source: string): ToolCall {
  const params = isJsonObject(request) && isJsonObject(request.params) ? request.params : {};
  if (typeof params.name !== "string" || params.name === "") {
    throw new InputError(`${where}.tool_calls.${id} names no tool (no params.name)`, source);
  }
  const call: ToolCall = { tool: params.name, id };
  setArgs(call, params.arguments ?? undefined);
  return call;
}

function attachResult(call: ToolCall, result: JsonObject): void {
  const text = mcpContentText(result.content);
  call.result = resultFromText(text);
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    call.metadata = { ...call.metadata, structured_content: result.structuredContent };
  }
  if (result.isError === true) {
    call.isError = true;
    call.error = text === "" ? "tool error" : text;
  } else if (result.isError === false) call.isError = false;
}

// The turn fast-agent's usage channel records: `{turn: {model, input_tokens, output_tokens}}`.
function usageTurn(message: JsonObject): JsonObject | undefined {
  const channel = isJsonObject(message.channels) ? message.channels["fast-agent-usage"] : undefined;
  const block = Array.isArray(channel) ? channel[0] : undefined;
  if (!isJsonObject(block) || typeof block.text !== "string") return undefined;
  const parsed = resultFromText(block.text);
  return isJsonObject(parsed) && isJsonObject(parsed.turn) ? parsed.turn : undefined;
}

/**
 * The `fast-agent` reader.
 *
 * @example Usage
 * ```ts
 * import { fastAgentReader } from "./fast_agent.ts";
 * import assert from "node:assert/strict";
 *
 * const history = {
 *   messages: [
 *     { role: "user", content: [{ type: "text", text: "weather?" }] },
 *     {
 *       role: "assistant",
 *       content: [],
 *       tool_calls: { c1: { method: "tools/call", params: { name: "weather", arguments: { city: "Paris" } } } },
 *     },
 *     { role: "user", content: [], tool_results: { c1: { content: [{ type: "text", text: "sunny" }], isError: false } } },
 *     { role: "assistant", content: [{ type: "text", text: "It is sunny." }] },
 *   ],
 * };
 * const trace = fastAgentReader.read(history, "history.json");
 * assert.equal(trace.calls[0]?.tool, "weather");
 * assert.equal(trace.calls[0]?.isError, false);
 * assert.equal(trace.finalAnswer, "It is sunny.");
 * ```
 */
export const fastAgentReader: FormatReader = documentReader(
  "fast-agent",
  findMessages,
  "not a fast-agent history: expected {messages: [{role, content, tool_calls: {id: …}}]}",
  (messages, source, value) => {
    const calls: ToolCall[] = [];
    const byId = new Map<string, ToolCall>();
    const answer = new FinalAnswer();
    let truncated = false;
    let model: string | undefined;
    let usage: Usage | undefined;
    messages.forEach((message, i) => {
      const where = Array.isArray(value) ? `[${i}]` : isJsonObject(value) &&
          Array.isArray(value.messages)
        ? `messages[${i}]`
        : "message";
      if (message.role === "assistant") {
        answer.message();
        const turn = usageTurn(message);
        if (turn !== undefined) {
          if (model === undefined && typeof turn.model === "string") model = turn.model;
          usage = addUsage(usage, usageFromJson(turn));
        }
        for (const block of (message.content ?? []) as unknown[]) {
          if (isJsonObject(block) && block.type === "text") answer.text(block.text);
        }
        truncated = message.stop_reason === "maxTokens";
        if (isJsonObject(message.tool_calls)) {
          for (const [id, request] of Object.entries(message.tool_calls)) {
            const call = readCall(id, request, where, source);
            calls.push(call);
            byId.set(id, call);
            answer.call();
            truncated = false;
          }
        }
      }
      if (isJsonObject(message.tool_results)) {
        for (const [id, result] of Object.entries(message.tool_results)) {
          const call = byId.get(id);
          if (call !== undefined && call.result === undefined && isJsonObject(result)) {
            attachResult(call, result);
          }
        }
      }
    });
    const trace = makeTrace("fast-agent", calls, { finalAnswer: answer.value, model, usage });
    if (truncated && trace.finalAnswer !== undefined) trace.finalAnswerTruncated = true;
    return finishTrace(trace, Array.isArray(value) ? undefined : value);
  },
);
