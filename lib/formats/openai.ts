/**
 * The `openai` format: Chat Completions transcripts.
 *
 * Shapes: a list of chat messages, `{"messages": […]}` (a request body, with
 * an optional completion's `choices` appended), a completion
 * `{"choices": [{"message": …}]}`, one assistant message, or a bare list of
 * `tool_calls` entries. Calls come from `tool_calls[].function{name,
 * arguments}`, custom tool calls `tool_calls[].custom{name, input}` (issue
 * 30: the free text input is read as the arguments `{input: TEXT}`, answered
 * by `role: "tool"` messages like function calls), and the legacy
 * `function_call{name, arguments}`.
 *
 * Decisions where the design is silent:
 * - A `role: "tool"` message is paired with its call by `tool_call_id`, never
 *   by position; a tool message naming no known call is ignored. A tool
 *   message without `tool_call_id` (the shape LangChain's trajectory
 *   evaluators document) is paired by order with the calls of the assistant
 *   message before it, only when that is unambiguous: the id-less tool
 *   messages of that turn are exactly as many as its calls still unanswered
 *   (and a tool message that gives a `name` names its call); otherwise they
 *   stay unpaired and the calls' outcomes unknown. A legacy
 *   `role: "function"` message is paired with the earliest unanswered legacy
 *   call of the same name (else the earliest unanswered one).
 * - Chat Completions has no error flag. Tool content that is a JSON object or
 *   array is kept parsed; when it is an object with a non-empty top-level
 *   `error` (a string, or an object with `message`), the call failed with that
 *   message. Any other text is the result as is.
 * - Non-standard `duration_s`, `duration_ms` and `cost_usd` keys on a tool
 *   message (some loggers add them) are attached to its call.
 * - A completion with several `choices` is read from the first one.
 * - `usage` is summed over the completions that report it; `model` is the
 *   first one named (request `model`, else a completion's).
 * - The final answer is the text of the last assistant message after the last
 *   tool call; text in a message that also calls tools came before the calls.
 *   Blank text is no answer. A top-level `final_answer` wins.
 * - A list of messages is claimed only when every item is a chat message
 *   (a `role`, no item `type`) and no content part is another provider's
 *   block (`tool_use`, `tool_result`, `output_text`…). A plain chat with no
 *   tool calls is a trace with 0 calls.
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
  makeTrace,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);
// Content part types of Chat Completions; any other part type is another provider's.
const PART_TYPES = new Set(["text", "image_url", "input_audio", "file", "refusal"]);

function isChatMessage(value: unknown): value is JsonObject {
  if (!isJsonObject(value) || typeof value.role !== "string" || !ROLES.has(value.role)) {
    return false;
  }
  if (value.type !== undefined) return false;
  const content = value.content;
  if (Array.isArray(content)) {
    for (const part of content) {
      if (!isJsonObject(part) || typeof part.type !== "string" || !PART_TYPES.has(part.type)) {
        return false;
      }
    }
  }
  return true;
}

function isToolCallEntry(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (value.type === "custom") {
    return isJsonObject(value.custom) && typeof value.custom.name === "string";
  }
  return value.type === "function" && isJsonObject(value.function) &&
    typeof value.function.name === "string";
}

function isCompletion(value: unknown): value is JsonObject {
  return isJsonObject(value) && Array.isArray(value.choices) && value.choices.length > 0 &&
    value.choices.every((choice) => isJsonObject(choice) && isChatMessage(choice.message));
}

/**
 * The messages of a document, in order, with the completions they came from;
 * every message is a chat message (checked here, once).
 */
function documentMessages(
  value: unknown,
): { messages: JsonObject[]; completions: JsonObject[] } | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isToolCallEntry)) {
      return { messages: [{ role: "assistant", tool_calls: value }], completions: [] };
    }
    if (value.length > 0 && value.every(isCompletion)) {
      return { messages: value.map(firstChoice), completions: value as JsonObject[] };
    }
    return value.length > 0 && value.every(isChatMessage)
      ? { messages: value, completions: [] }
      : undefined;
  }
  if (!isJsonObject(value)) return undefined;
  const list = value.messages;
  if (Array.isArray(list) && !list.every(isChatMessage)) return undefined;
  // A request body alone is read from its own list; with a completion, the choice is appended.
  if (Array.isArray(list) && !isCompletion(value)) return { messages: list, completions: [] };
  const messages: JsonObject[] = [];
  const completions: JsonObject[] = [];
  if (Array.isArray(list)) { for (const message of list) messages.push(message); }
  if (isCompletion(value)) {
    messages.push(firstChoice(value));
    completions.push(value);
  }
  if (messages.length > 0 || Array.isArray(value.messages)) return { messages, completions };
  if (
    value.role === "assistant" && isChatMessage(value) &&
    (Array.isArray(value.tool_calls) || isJsonObject(value.function_call))
  ) {
    return { messages: [value], completions: [] };
  }
  if (
    Array.isArray(value.tool_calls) && value.tool_calls.length > 0 &&
    value.tool_calls.every(isToolCallEntry) && value.role === undefined
  ) {
    return { messages: [{ role: "assistant", tool_calls: value.tool_calls }], completions: [] };
  }
  return undefined;
}

// A completion's first choice's message (isCompletion() checked it is a chat message).
function firstChoice(completion: unknown): JsonObject {
  return ((completion as JsonObject).choices as JsonObject[])[0]!.message as JsonObject;
}

/** The text of a message's content: a string, or its text parts joined. */
function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (isJsonObject(part) && typeof part.text === "string") texts.push(part.text);
    else if (isJsonObject(part) && typeof part.refusal === "string") texts.push(part.refusal);
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

function newCall(fn: JsonObject, id: unknown): ToolCall {
  const call: ToolCall = { tool: typeof fn.name === "string" && fn.name !== "" ? fn.name : "" };
  setArgs(call, fn.arguments);
  const callId = idOf(id);
  if (callId !== undefined) call.id = callId;
  return call;
}

// A custom tool call ({type: "custom", custom: {name, input}}): free text input, as {input}.
function customCall(custom: JsonObject, id: unknown): ToolCall {
  const call: ToolCall = { tool: typeof custom.name === "string" ? custom.name : "" };
  if (typeof custom.input === "string") call.args = { input: custom.input };
  else setArgs(call, custom.input);
  const callId = idOf(id);
  if (callId !== undefined) call.id = callId;
  return call;
}

/**
 * Pair tool messages without `tool_call_id` with a turn's unanswered calls,
 * in order, when that is unambiguous (as many messages as calls, and every
 * `name` given matches); otherwise leave them unpaired.
 */
function pairAnonymous(turn: ToolCall[], messages: JsonObject[]): void {
  if (messages.length === 0) return;
  const open = turn.filter((call) => call.result === undefined && call.error === undefined);
  if (open.length !== messages.length) return;
  const named = (message: JsonObject, call: ToolCall) =>
    typeof message.name !== "string" || message.name === call.tool;
  if (!messages.every((message, i) => named(message, open[i] as ToolCall))) return;
  messages.forEach((message, i) => {
    const call = open[i] as ToolCall;
    attachTextResult(call, contentText(message.content) ?? "");
    attachExtras(call, message);
  });
}

/**
 * The `openai` Chat Completions reader.
 *
 * @example Usage
 * ```ts
 * import { openaiReader } from "./openai.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = openaiReader.read([
 *   { role: "user", content: "hi" },
 *   { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "a", arguments: "{}" } }] },
 *   { role: "tool", tool_call_id: "c1", content: "done" },
 * ], "trace.json");
 * assert.equal(trace.calls[0]?.result, "done");
 * ```
 */
export const openaiReader: FormatReader = documentReader(
  "openai",
  documentMessages,
  "not an OpenAI chat transcript: expected chat messages, {messages}, or a completion with choices",
  (found, source, value) => {
    const calls: ToolCall[] = [];
    const legacy: ToolCall[] = []; // unanswered legacy function calls, in order
    let turn: ToolCall[] = []; // the calls of the latest assistant message
    let anonymous: JsonObject[] = []; // tool messages without tool_call_id since then
    const answer = new FinalAnswer();
    let byId: Map<string, ToolCall> | undefined; // every call by id, made at the first need
    // The latest call with an id. Tool messages mostly answer the latest turn, whose calls are
    // the latest ones: a short turn is searched first, from its end.
    const callWithId = (id: string): ToolCall | undefined => {
      if (turn.length <= 16) {
        for (let k = turn.length - 1; k >= 0; k--) if (turn[k]!.id === id) return turn[k];
      }
      if (byId === undefined) {
        byId = new Map();
        for (const call of calls) if (call.id !== undefined) byId.set(call.id, call);
      }
      return byId.get(id);
    };
    found.messages.forEach((message, index) => {
      if (message.role === "assistant") {
        pairAnonymous(turn, anonymous);
        turn = [];
        anonymous = [];
        answer.message();
        answer.text(contentText(message.content));
        const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        toolCalls.forEach((entry, j) => {
          if (!isJsonObject(entry)) return;
          const call = entry.type === "custom" && isJsonObject(entry.custom)
            ? customCall(entry.custom, entry.id)
            : isJsonObject(entry.function)
            ? newCall(entry.function, entry.id)
            : undefined;
          if (call === undefined) return;
          if (call.tool === "") {
            throw new InputError(
              entry.type === "custom"
                ? "custom tool call has no name"
                : "tool call has no function name",
              `${source}: messages[${index}].tool_calls[${j}]`,
            );
          }
          calls.push(call);
          turn.push(call);
          answer.call();
          if (call.id !== undefined) byId?.set(call.id, call);
        });
        if (isJsonObject(message.function_call)) {
          const call = newCall(message.function_call, undefined);
          if (call.tool !== "") {
            calls.push(call);
            legacy.push(call);
            answer.call();
          }
        }
      } else if (message.role === "tool") {
        const id = idOf(message.tool_call_id);
        if (id === undefined) {
          anonymous.push(message);
          return;
        }
        const call = callWithId(id);
        if (call === undefined || call.result !== undefined) return;
        attachTextResult(call, contentText(message.content) ?? "");
        attachExtras(call, message);
      } else if (message.role === "function") {
        const at = Math.max(0, legacy.findIndex((call) => call.tool === message.name));
        const call = legacy[at];
        if (call === undefined) return;
        legacy.splice(at, 1);
        attachTextResult(call, contentText(message.content) ?? "");
        attachExtras(call, message);
      }
    });
    pairAnonymous(turn, anonymous);
    let usage: Usage | undefined;
    let model = isJsonObject(value) && typeof value.model === "string" ? value.model : undefined;
    for (const completion of found.completions) {
      usage = addUsage(usage, usageFromJson(completion.usage));
      if (model === undefined && typeof completion.model === "string") model = completion.model;
    }
    const trace = makeTrace("openai", calls, { finalAnswer: answer.value, model, usage });
    return finishTrace(trace, Array.isArray(value) ? undefined : value);
  },
);
