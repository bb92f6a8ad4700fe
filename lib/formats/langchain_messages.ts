/**
 * LangChain message dicts: the serialized forms, and reading a message list
 * into calls, results, final answer, usage and model. Shared by the
 * `langchain` reader, LangGraph streams and LangSmith run trees. Private to
 * `lib/formats/`.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  attachExtras,
  attachTextResult,
  FinalAnswer,
  idOf,
  resultFromText,
  setArgs,
  usageFromJson,
} from "./_shared.ts";

// Message `type` values (and serialized class names) → the kind of message.
const MESSAGE_KINDS: Record<string, string> = {
  human: "human",
  ai: "ai",
  tool: "tool",
  system: "system",
  function: "function",
  chat: "chat",
  developer: "system",
  AIMessageChunk: "ai",
  HumanMessageChunk: "human",
  ToolMessageChunk: "tool",
  SystemMessageChunk: "system",
  AIMessage: "ai",
  HumanMessage: "human",
  ToolMessage: "tool",
  SystemMessage: "system",
  FunctionMessage: "function",
  ChatMessage: "chat",
};

/**
 * A LangChain message dict in any serialized form, as `{kind, …fields}`
 * (`kind` one of `human`, `ai`, `tool`, `system`, `function`, `chat`).
 *
 * @param value Any value.
 * @returns The message, or `undefined` when the value is not one.
 *
 * @example Usage
 * ```ts
 * import { normalizeMessage } from "./langchain_messages.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(normalizeMessage({ type: "ai", content: "hi" })?.kind, "ai");
 * ```
 */
export function normalizeMessage(value: unknown): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  if (value.type === "constructor" && Array.isArray(value.id) && isJsonObject(value.kwargs)) {
    const kind = MESSAGE_KINDS[String(value.id.at(-1))];
    return kind === undefined ? undefined : { ...value.kwargs, kind };
  }
  if (typeof value.type !== "string" || !Object.hasOwn(MESSAGE_KINDS, value.type)) {
    return undefined;
  }
  const kind = MESSAGE_KINDS[value.type] as string;
  if (isJsonObject(value.data) && value.content === undefined) return { ...value.data, kind };
  if (value.content === undefined && value.tool_calls === undefined) return undefined;
  return { ...value, kind };
}

/** The text of message content: a string, or its text blocks joined. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") texts.push(block);
    else if (isJsonObject(block) && block.type === "text" && typeof block.text === "string") {
      texts.push(block.text);
    }
  }
  return texts.join("");
}

/** A call from a tool-call dict (`{name, args, id}`, or OpenAI-style `{function}`). */
export function toolCallOf(entry: JsonObject, source: string, where: string): ToolCall {
  const fn = isJsonObject(entry.function) ? entry.function : entry;
  if (typeof fn.name !== "string" || fn.name === "") {
    throw new InputError("tool call has no name", `${source}: ${where}`);
  }
  const call: ToolCall = { tool: fn.name };
  if (entry.type === "invalid_tool_call") {
    setArgs(call, fn.args ?? fn.arguments);
    if (call.argsError === undefined) {
      call.rawArgs = typeof fn.args === "string" ? fn.args : JSON.stringify(fn.args ?? null);
      call.argsError = typeof entry.error === "string" && entry.error !== ""
        ? entry.error
        : "invalid tool call";
    }
  } else setArgs(call, fn.args ?? fn.arguments);
  const id = idOf(entry.id);
  if (id !== undefined) call.id = id;
  return call;
}

/**
 * Read normalized LangChain messages (see {@linkcode normalizeMessage}):
 * calls, results paired by `tool_call_id`, final answer, usage and model.
 *
 * @param messages The messages, normalized.
 * @param source The file name, for errors.
 * @returns The calls and what else the messages say.
 *
 * @example Usage
 * ```ts
 * import { readMessages } from "./langchain_messages.ts";
 * import assert from "node:assert/strict";
 *
 * const read = readMessages([{ kind: "ai", content: "done" }], "t.json");
 * assert.equal(read.finalAnswer, "done");
 * ```
 */
export function readMessages(messages: JsonObject[], source: string): {
  calls: ToolCall[];
  finalAnswer: string | undefined;
  usage: Usage | undefined;
  model: string | undefined;
} {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall>();
  const answer = new FinalAnswer("");
  let usage: Usage | undefined;
  let model: string | undefined;
  messages.forEach((message, index) => {
    if (message.kind === "ai") {
      answer.message();
      answer.text(contentText(message.content));
      usage = addUsage(usage, usageFromJson(message.usage_metadata));
      const meta = isJsonObject(message.response_metadata) ? message.response_metadata : {};
      const name = meta.model_name ?? meta.model;
      if (model === undefined && typeof name === "string" && name !== "") model = name;
      const extra = isJsonObject(message.additional_kwargs) ? message.additional_kwargs : {};
      const entries = [
        ...(Array.isArray(message.tool_calls)
          ? message.tool_calls
          : Array.isArray(extra.tool_calls)
          ? extra.tool_calls
          : []),
        ...(Array.isArray(message.invalid_tool_calls)
          ? message.invalid_tool_calls.map((e) =>
            isJsonObject(e) ? { ...e, type: "invalid_tool_call" } : e
          )
          : []),
      ];
      entries.forEach((entry, j) => {
        if (!isJsonObject(entry)) return;
        const call = toolCallOf(entry, source, `messages[${index}].tool_calls[${j}]`);
        calls.push(call);
        answer.call();
        if (call.id !== undefined) byId.set(call.id, call);
      });
    } else if (message.kind === "tool") {
      const call = byId.get(idOf(message.tool_call_id) ?? "");
      if (call === undefined || call.result !== undefined) return;
      const text = contentText(message.content) ?? "";
      if (message.status === "error") {
        call.result = resultFromText(text);
        call.isError = true;
        call.error = text === "" ? "tool error" : text;
      } else if (message.status === "success") {
        call.result = resultFromText(text);
        call.isError = false;
      } else attachTextResult(call, text);
      attachExtras(call, message);
    }
  });
  return { calls, finalAnswer: answer.value, usage, model };
}
