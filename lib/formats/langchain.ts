/**
 * The `langchain` format: LangChain agents and LangGraph states.
 *
 * Shapes: a list of AgentAction dicts `{tool, tool_input, log}`; an
 * AgentExecutor result `{"intermediate_steps": [[action, observation], …],
 * "output"}` (or the bare list of pairs); a list of tool-call dicts
 * `{name, args, id, type: "tool_call"}`; LangGraph message dicts
 * (`{"messages": […]}` or a list) with `type` `human`/`ai`/`tool`/`system`,
 * including the `{"type", "data"}` form of `messages_to_dict` and the
 * `{"lc": 1, "type": "constructor", "id": […, "AIMessage"], "kwargs"}` form.
 *
 * Decisions where the design is silent:
 * - A `ToolMessage` is paired with its call by `tool_call_id`. `status:
 *   "error"` marks the call failed with the message content as its error;
 *   `status: "success"` is a known success. Without a status, content that is
 *   a JSON object with a non-empty `error` key marks it failed (as in the
 *   `openai` reader). Content that is a JSON object or array is kept parsed.
 * - An AI message's `invalid_tool_calls` (arguments the model produced that
 *   did not parse) are calls with `raw_args` and `args_error`, never
 *   dropped. When an AI message has no `tool_calls` key, OpenAI-style
 *   `additional_kwargs.tool_calls` are read instead.
 * - An AgentAction whose `tool_input` is a string (a single-input tool) has
 *   `args: {"input": TEXT}`, unless the text is a JSON object, which is
 *   parsed. An observation is the call's result.
 * - The final answer is the text of the last AI message after the last tool
 *   call, or an AgentExecutor's `output`; a top-level `final_answer` wins.
 * - `usage` is summed over the AI messages' `usage_metadata`; `model` is the
 *   first `response_metadata.model_name` (or `model`).
 * - A bare `{name, args}` list without `type: "tool_call"` is left to the
 *   `custom` reader, which reads it the same way.
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
  finishTrace,
  idOf,
  listOf,
  makeTrace,
  resultFromText,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

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

/** A message dict in any serialized form, as `{kind, …fields}`. */
function normalizeMessage(value: unknown): JsonObject | undefined {
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

function isAgentAction(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.tool === "string" && value.tool_input !== undefined;
}

function isStep(value: unknown): boolean {
  return Array.isArray(value) && value.length === 2 && isAgentAction(value[0]);
}

function isToolCallDict(value: unknown): boolean {
  return isJsonObject(value) && typeof value.name === "string" &&
    (value.type === "tool_call" || value.type === "invalid_tool_call");
}

type Document =
  | { kind: "messages"; messages: JsonObject[] }
  | { kind: "steps"; steps: [JsonObject, unknown][]; output?: unknown }
  | { kind: "actions"; actions: JsonObject[] }
  | { kind: "tool_calls"; toolCalls: JsonObject[] };

function readDocument(value: unknown): Document | undefined {
  if (isJsonObject(value) && Array.isArray(value.intermediate_steps)) {
    return value.intermediate_steps.every(isStep)
      ? {
        kind: "steps",
        steps: value.intermediate_steps as [JsonObject, unknown][],
        output: value.output,
      }
      : undefined;
  }
  const list = listOf(value, "messages");
  if (list === undefined || list.length === 0) return undefined;
  if (Array.isArray(value)) {
    if (list.every(isAgentAction)) return { kind: "actions", actions: list as JsonObject[] };
    if (list.every(isStep)) return { kind: "steps", steps: list as [JsonObject, unknown][] };
    if (list.every(isToolCallDict)) return { kind: "tool_calls", toolCalls: list as JsonObject[] };
  }
  const messages: JsonObject[] = [];
  for (const item of list) {
    const message = normalizeMessage(item);
    if (message === undefined) return undefined;
    messages.push(message);
  }
  return { kind: "messages", messages };
}

function contentText(content: unknown): string | undefined {
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

function toolCallOf(entry: JsonObject, source: string, where: string): ToolCall {
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

function actionCall(action: JsonObject): ToolCall {
  const call: ToolCall = { tool: action.tool as string };
  const input = action.tool_input;
  if (typeof input === "string" && !input.trimStart().startsWith("{")) {
    call.args = { input };
  } else setArgs(call, input);
  const id = idOf(action.tool_call_id);
  if (id !== undefined) call.id = id;
  return call;
}

function attachObservation(call: ToolCall, observation: unknown): void {
  if (typeof observation === "string") attachTextResult(call, observation);
  else call.result = observation ?? null;
}

function readMessages(messages: JsonObject[], source: string) {
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

/**
 * The `langchain` reader.
 *
 * @example Usage
 * ```ts
 * import { langchainReader } from "./langchain.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = langchainReader.read({
 *   messages: [
 *     { type: "ai", content: "", tool_calls: [{ name: "a", args: {}, id: "1", type: "tool_call" }] },
 *     { type: "tool", content: "boom", tool_call_id: "1", status: "error" },
 *   ],
 * }, "trace.json");
 * assert.equal(trace.calls[0]?.error, "boom");
 * ```
 */
export const langchainReader: FormatReader = documentReader(
  "langchain",
  readDocument,
  "not a LangChain trace: expected AgentActions, intermediate_steps, tool calls or messages",
  (doc, source, value) => {
    const envelope = Array.isArray(value) ? undefined : value;
    if (doc.kind === "messages") {
      return finishTrace(
        makeTrace("langchain", ...split(readMessages(doc.messages, source))),
        envelope,
      );
    }
    if (doc.kind === "tool_calls") {
      const calls = doc.toolCalls.map((entry, i) => toolCallOf(entry, source, `[${i}]`));
      return finishTrace(makeTrace("langchain", calls, {}), envelope);
    }
    if (doc.kind === "actions") {
      return finishTrace(makeTrace("langchain", doc.actions.map(actionCall), {}), envelope);
    }
    const calls = doc.steps.map(([action, observation]) => {
      const call = actionCall(action);
      attachObservation(call, observation);
      return call;
    });
    const finalAnswer = typeof doc.output === "string" && doc.output.trim() !== ""
      ? doc.output
      : undefined;
    return finishTrace(makeTrace("langchain", calls, { finalAnswer }), envelope);
  },
);

function split(read: ReturnType<typeof readMessages>): [ToolCall[], Omit<typeof read, "calls">] {
  const { calls, ...extras } = read;
  return [calls, extras];
}
