/**
 * The `anthropic` format: Messages API transcripts.
 *
 * Shapes: a list of messages, `{"messages": […]}` (a request body), one
 * Message `{"type": "message", "role": "assistant", "content": […]}`, a list
 * mixing request messages and Message objects, or a bare list of content
 * blocks. Calls are `tool_use` blocks `{id, name, input}` (also
 * `server_tool_use` and `mcp_tool_use`); results are `tool_result` blocks
 * `{tool_use_id, is_error, content}` (also `mcp_tool_result` and the server
 * tools' `*_tool_result` blocks).
 *
 * Decisions where the design is silent:
 * - Results are paired by `tool_use_id`, never by position.
 * - `content` given as blocks is rendered to text: text blocks joined with
 *   newlines, an image as `[image]`, a document as `[document TITLE]`. Text
 *   that is a JSON object or array is kept parsed as the result.
 * - `is_error: true` marks the call failed with the rendered content as its
 *   error (`"tool error"` when empty); `is_error: false` is kept as a known
 *   success. Anthropic has an explicit flag, so the content is never searched
 *   for an `error` key. A server tool result whose content is a
 *   `*_tool_result_error` block failed with its `error_code`.
 * - Non-standard `duration_s`, `duration_ms` and `cost_usd` keys on a result
 *   block are attached to its call.
 * - The final answer is the text of the last assistant message after its last
 *   `tool_use`; text blocks of one message are concatenated as they are (the
 *   API splits one text into blocks around citations). A top-level
 *   `final_answer` wins.
 * - `usage` (`input_tokens`, `output_tokens`) is summed over the Message
 *   objects; `model` is the first named (Message, else request).
 * - A list of messages whose contents are all plain strings is a plain chat,
 *   read by the `openai` reader (earlier in the table); with no tool calls
 *   either reading gives the same trace.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  attachExtras,
  FinalAnswer,
  finishTrace,
  idOf,
  makeTrace,
  resultFromText,
  setArgs,
  SkippedTypes,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

const CALL_BLOCKS = new Set(["tool_use", "server_tool_use", "mcp_tool_use"]);
const BLOCK_TYPES = new Set([
  "text",
  "image",
  "document",
  "search_result",
  "thinking",
  "redacted_thinking",
  "container_upload",
  "tool_result",
  "mcp_tool_result",
  ...CALL_BLOCKS,
]);

function isBlock(value: unknown): boolean {
  return isJsonObject(value) && typeof value.type === "string" &&
    (BLOCK_TYPES.has(value.type) || value.type.endsWith("_tool_result"));
}

// Issue 13: a block of a type this reader does not know is skipped and listed, not a rejection.
function isAnyBlock(value: unknown): boolean {
  return isJsonObject(value) && typeof value.type === "string" && value.type !== "";
}

function isLooseMessage(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (value.role !== "user" && value.role !== "assistant" && value.role !== "system") return false;
  if (value.type !== undefined && value.type !== "message") return false;
  return typeof value.content === "string" ||
    (Array.isArray(value.content) && value.content.every(isAnyBlock));
}

// A list of loose messages is Anthropic's when one of them is a Message or holds a known block.
function anthropicLooking(messages: unknown[]): boolean {
  return messages.some((m) =>
    isJsonObject(m) && (m.type === "message" ||
      (Array.isArray(m.content) && m.content.some(isBlock)))
  );
}

function isMessage(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (value.role !== "user" && value.role !== "assistant" && value.role !== "system") return false;
  if (value.type !== undefined && value.type !== "message") return false;
  return typeof value.content === "string" ||
    (Array.isArray(value.content) && value.content.every(isBlock));
}

function isResultBlock(block: JsonObject): boolean {
  return block.type === "tool_result" || (block.type as string).endsWith("_tool_result");
}

/** The messages of a document, in order. */
function documentMessages(value: unknown): JsonObject[] | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.every(isMessage)) return value as JsonObject[];
    if (value.every(isLooseMessage) && anthropicLooking(value)) return value as JsonObject[];
    if (value.every(isBlock)) {
      const blocks = value as JsonObject[];
      if (!blocks.some((b) => CALL_BLOCKS.has(b.type as string) || isResultBlock(b))) {
        return undefined;
      }
      return [{ role: "assistant", content: blocks }];
    }
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  if (value.type === "message" && value.role === "assistant" && isLooseMessage(value)) {
    return [value];
  }
  if (Array.isArray(value.messages) && value.messages.every(isMessage)) {
    return value.messages as JsonObject[];
  }
  if (
    Array.isArray(value.messages) && value.messages.every(isLooseMessage) &&
    anthropicLooking(value.messages)
  ) {
    return value.messages as JsonObject[];
  }
  return undefined;
}

/** Tool-result content rendered to text. */
function blocksText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) {
    return content === undefined || content === null ? "" : JSON.stringify(content);
  }
  const texts: string[] = [];
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    if (typeof block.text === "string") texts.push(block.text);
    else if (block.type === "image") texts.push("[image]");
    else if (block.type === "document") {
      texts.push(`[document${typeof block.title === "string" ? ` ${block.title}` : ""}]`);
    } else if (block.type === "search_result") {
      texts.push(blocksText(block.content));
    }
  }
  return texts.join("\n");
}

/**
 * Attach a `tool_result` (or server tool result) block to its call: text
 * content rendered and parsed when JSON, `is_error` as the outcome, a
 * `*_error` content object as a failure. Shared with the Claude Code reader,
 * whose messages hold the same blocks.
 *
 * @param call The call the block answers.
 * @param block The result block.
 */
export function attachResult(call: ToolCall, block: JsonObject): void {
  const content = block.content;
  const rendered = block.type === "tool_result" || block.type === "mcp_tool_result";
  if (
    isJsonObject(content) && typeof content.type === "string" && content.type.endsWith("_error")
  ) {
    call.isError = true;
    call.error = typeof content.error_code === "string" ? content.error_code : content.type;
    call.result = content;
  } else if (rendered) {
    const text = blocksText(content);
    call.result = resultFromText(text);
    if (block.is_error === true) {
      call.isError = true;
      call.error = text === "" ? "tool error" : text;
    } else if (block.is_error === false) call.isError = false;
  } else {
    call.result = content ?? null;
  }
  attachExtras(call, block);
}

/**
 * The `anthropic` Messages reader.
 *
 * @example Usage
 * ```ts
 * import { anthropicReader } from "./anthropic.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = anthropicReader.read([
 *   { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "a", input: {} }] },
 *   { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "no", is_error: true }] },
 * ], "trace.json");
 * assert.equal(trace.calls[0]?.error, "no");
 * ```
 */
export const anthropicReader: FormatReader = documentReader(
  "anthropic",
  documentMessages,
  "not an Anthropic transcript: expected messages, {messages}, or a Message",
  (messages, source, value) => {
    const calls: ToolCall[] = [];
    const byId = new Map<string, ToolCall>();
    const answer = new FinalAnswer("");
    const skipped = new SkippedTypes();
    let usage: Usage | undefined;
    let model: string | undefined;
    messages.forEach((message, index) => {
      if (message.type === "message") {
        usage = addUsage(usage, usageFromJson(message.usage));
        if (model === undefined && typeof message.model === "string") model = message.model;
      }
      const assistant = message.role === "assistant";
      if (assistant) answer.message();
      if (typeof message.content === "string") {
        if (assistant) answer.text(message.content);
        return;
      }
      (message.content as JsonObject[]).forEach((block, j) => {
        const type = block.type as string;
        if (type === "text") {
          if (assistant) answer.text(block.text);
        } else if (CALL_BLOCKS.has(type)) {
          if (typeof block.name !== "string" || block.name === "") {
            throw new InputError(
              `${type} block has no name`,
              `${source}: messages[${index}].content[${j}]`,
            );
          }
          const call: ToolCall = { tool: block.name };
          setArgs(call, block.input);
          const id = idOf(block.id);
          if (id !== undefined) {
            call.id = id;
            byId.set(id, call);
          }
          if (typeof block.server_name === "string") {
            call.metadata = { server_name: block.server_name };
          }
          calls.push(call);
          answer.call();
        } else if (isResultBlock(block)) {
          const call = byId.get(idOf(block.tool_use_id) ?? "");
          if (call !== undefined && call.result === undefined) attachResult(call, block);
        } else if (!isBlock(block)) {
          skipped.add(type);
        }
      });
    });
    const request = Array.isArray(value) ? undefined : value as JsonObject;
    if (model === undefined && typeof request?.model === "string") model = request.model;
    const trace = makeTrace("anthropic", calls, {
      finalAnswer: answer.value,
      model,
      usage,
      skipped,
    });
    return finishTrace(trace, request);
  },
);
