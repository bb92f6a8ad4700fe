/**
 * The `langchain` format: LangChain agents and LangGraph states.
 *
 * Shapes: LangGraph stream output (`[mode, payload]` tuples, `{event,
 * data}` events; see `langgraph.ts`); LangChain / LangSmith run trees
 * (`run_type: "tool"` runs, nested `child_runs`; see `langsmith.ts`); a
 * list of AgentAction dicts `{tool, tool_input, log}`; an
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

import { isJsonObject, type JsonObject, type ToolCall } from "../scoring/calls.ts";
import { attachTextResult, finishTrace, idOf, listOf, makeTrace, setArgs } from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import { normalizeMessage, readMessages, toolCallOf } from "./langchain_messages.ts";
import { readStream, streamItems } from "./langgraph.ts";
import { readRuns, runList } from "./langsmith.ts";

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
  | { kind: "stream"; items: unknown[] }
  | { kind: "runs"; runs: JsonObject[] }
  | { kind: "messages"; messages: JsonObject[] }
  | { kind: "steps"; steps: [JsonObject, unknown][]; output?: unknown }
  | { kind: "actions"; actions: JsonObject[] }
  | { kind: "tool_calls"; toolCalls: JsonObject[] };

function readDocument(value: unknown): Document | undefined {
  const items = streamItems(value);
  if (items !== undefined) return { kind: "stream", items };
  const runs = runList(value);
  if (runs !== undefined) return { kind: "runs", runs };
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
    if (doc.kind === "stream") return readStream(doc.items, source);
    if (doc.kind === "runs") return readRuns(doc.runs, source, value);
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
