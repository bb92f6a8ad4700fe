/**
 * The `openhands` format (issue 35): OpenHands event logs, a list of events
 * each an `action` (`{id, source, action, args, tool_call_metadata?}`) or an
 * `observation` (`{id, cause, observation, content, extras,
 * tool_call_metadata?}`), and the issue resolver's output lines `{issue,
 * instruction, git_patch, history, metrics}` whose `history` is such a list
 * (older events put an action's fields at the top level: `{action: "run",
 * command, thought}`, `{observation: "run", content, exit_code}`). A JSONL
 * file of resolver output is one trace per line, as any JSONL file is.
 *
 * Decisions where OpenHands is silent:
 * - An event log is claimed when every item is an action or an observation
 *   and one has OpenHands' `source` (`agent`, `user`, `environment`) or
 *   `tool_call_metadata`; a resolver line when it has `instruction` and a
 *   `history` of such events.
 * - The calls are the agent's actions other than `message`, `system`,
 *   `recall`, `change_agent_state` and `null`. A call is named by
 *   `tool_call_metadata.function_name` (the function the model called) and
 *   its arguments are that call's in the model response; an action without
 *   metadata is named by its action type (`run`, `run_ipython`, `edit`…)
 *   with its own fields as arguments. `finish` is a call when it is a
 *   function call (it has `tool_call_metadata`), else only the end.
 * - An observation pairs with its `cause` (the action's id), else its
 *   `tool_call_metadata.tool_call_id`, else the last call without one. An
 *   `error` observation failed; a command's `exit_code` (in `extras.metadata`,
 *   `extras` or the event) other than 0 failed, 0 succeeded; any other
 *   observation is the result, outcome as evaluation reads text.
 * - The final answer is a resolver line's `git_patch` when non-empty, else
 *   the text of the agent's last `message` (or the `finish` action's
 *   `final_thought`/`message`) after the last call. Usage is summed over
 *   the distinct model responses in the calls' metadata.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import {
  addUsage,
  attachTextResult,
  FinalAnswer,
  idOf,
  makeTrace,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

const NOT_CALLS = new Set(["message", "system", "recall", "change_agent_state", "null"]);
const SOURCES = new Set(["agent", "user", "environment"]);
const META_KEYS = new Set([
  "id",
  "timestamp",
  "source",
  "message",
  "action",
  "args",
  "timeout",
  "thought",
  "is_confirmed",
  "action_risk",
  "security_risk",
  "keep_prompt",
  "images_urls",
  "image_urls",
  "wait_for_response",
  "kernel_init_code",
  "tool_call_metadata",
  "llm_metrics",
  "hidden",
  "blocking",
  "confirmation_state",
]);

interface Found {
  events: JsonObject[];
  line?: JsonObject;
}

function isEvent(value: unknown): value is JsonObject {
  return isJsonObject(value) &&
    (typeof value.action === "string" || typeof value.observation === "string");
}

function findEvents(value: unknown): Found | undefined {
  if (isJsonObject(value) && typeof value.instruction === "string") {
    const history = value.history;
    if (!Array.isArray(history) || !history.every(isEvent)) return undefined;
    return { events: history as JsonObject[], line: value };
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every(isEvent)) return undefined;
  const events = value as JsonObject[];
  const tagged = events.some((e) =>
    (typeof e.source === "string" && SOURCES.has(e.source)) || isJsonObject(e.tool_call_metadata)
  );
  return tagged ? { events } : undefined;
}

// The arguments the model sent for this call, from the model response in its metadata.
function modelArguments(meta: JsonObject): unknown {
  const response = isJsonObject(meta.model_response) ? meta.model_response : undefined;
  const choice = Array.isArray(response?.choices) ? response.choices[0] : undefined;
  const message = isJsonObject(choice) && isJsonObject(choice.message) ? choice.message : undefined;
  if (!Array.isArray(message?.tool_calls)) return undefined;
  for (const item of message.tool_calls) {
    if (isJsonObject(item) && item.id === meta.tool_call_id && isJsonObject(item.function)) {
      return item.function.arguments;
    }
  }
  return undefined;
}

function ownArgs(event: JsonObject): JsonObject {
  const source = isJsonObject(event.args) ? event.args : event;
  const args: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (!META_KEYS.has(key)) args[key] = value;
  }
  return args;
}

function exitCode(event: JsonObject): number | undefined {
  const extras = isJsonObject(event.extras) ? event.extras : {};
  const metadata = isJsonObject(extras.metadata) ? extras.metadata : {};
  for (const raw of [metadata.exit_code, extras.exit_code, event.exit_code]) {
    if (typeof raw === "number" && Number.isInteger(raw)) return raw;
    if (typeof raw === "string" && /^-?\d{1,9}$/.test(raw)) return Number(raw);
  }
  return undefined;
}

function attachObservation(call: ToolCall, event: JsonObject): void {
  const content = typeof event.content === "string" ? event.content : "";
  attachTextResult(call, content);
  if (event.observation === "error") {
    call.isError = true;
    call.error = content.trim() === "" ? "error" : content;
    return;
  }
  const code = exitCode(event);
  if (code === undefined) return;
  call.metadata = { ...call.metadata, exit_code: code };
  call.isError = code !== 0;
  if (code !== 0 && call.error === undefined) {
    call.error = content.trim() === "" ? `exit code ${code}` : content;
  }
}

function answerText(event: JsonObject): unknown {
  const args = isJsonObject(event.args) ? event.args : event;
  return args.final_thought ?? args.content ?? event.message;
}

/**
 * The `openhands` reader.
 *
 * @example Usage
 * ```ts
 * import { openhandsReader } from "./openhands.ts";
 * import assert from "node:assert/strict";
 *
 * const events = [
 *   { id: 0, source: "user", action: "message", args: { content: "list files" } },
 *   { id: 1, source: "agent", action: "run", args: { command: "ls", thought: "" } },
 *   { id: 2, source: "agent", cause: 1, observation: "run", content: "a.txt", extras: { metadata: { exit_code: 0 } } },
 *   { id: 3, source: "agent", action: "message", args: { content: "One file: a.txt." } },
 * ];
 * const trace = openhandsReader.read(events, "events.json");
 * assert.deepEqual(trace.calls[0]?.args, { command: "ls" });
 * assert.equal(trace.calls[0]?.isError, false);
 * assert.equal(trace.finalAnswer, "One file: a.txt.");
 * ```
 */
export const openhandsReader: FormatReader = documentReader(
  "openhands",
  findEvents,
  "not an OpenHands event log: expected a list of {action|observation, source, …} events",
  (found) => {
    const calls: ToolCall[] = [];
    const byKey = new Map<string, ToolCall>();
    const answer = new FinalAnswer();
    const responses = new Set<string>();
    let usage: Usage | undefined;
    let model: string | undefined;
    let open: ToolCall | undefined;
    for (const event of found.events) {
      const meta = isJsonObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
      if (typeof event.action === "string") {
        const agent = event.source === undefined || event.source === "agent";
        if (event.action === "message") {
          if (event.source === "agent") {
            answer.message();
            answer.text(answerText(event));
          }
          continue;
        }
        if (!agent || NOT_CALLS.has(event.action)) continue;
        if (event.action === "finish" && meta === undefined) {
          answer.message();
          answer.text(answerText(event));
          continue;
        }
        const name = typeof meta?.function_name === "string" && meta.function_name !== ""
          ? meta.function_name
          : event.action;
        const call: ToolCall = { tool: name };
        const id = idOf(meta?.tool_call_id) ?? idOf(event.id);
        if (id !== undefined) call.id = id;
        const sent = meta === undefined ? undefined : modelArguments(meta);
        setArgs(call, sent ?? ownArgs(event));
        calls.push(call);
        answer.call();
        if (idOf(event.id) !== undefined) byKey.set(`event:${idOf(event.id)}`, call);
        if (idOf(meta?.tool_call_id) !== undefined) {
          byKey.set(`call:${idOf(meta?.tool_call_id)}`, call);
        }
        open = call;
        const response = isJsonObject(meta?.model_response) ? meta.model_response : undefined;
        const responseId = idOf(response?.id);
        if (response !== undefined && responseId !== undefined && !responses.has(responseId)) {
          responses.add(responseId);
          usage = addUsage(usage, usageFromJson(response.usage));
          if (model === undefined && typeof response.model === "string") model = response.model;
        }
        if (event.action === "finish") {
          answer.message();
          answer.text(answerText(event));
        }
      } else {
        const cause = idOf(event.cause);
        const callId = idOf(meta?.tool_call_id);
        const call = (cause !== undefined ? byKey.get(`event:${cause}`) : undefined) ??
          (callId !== undefined ? byKey.get(`call:${callId}`) : undefined) ??
          (cause === undefined && callId === undefined ? open : undefined);
        if (call === undefined || call.result !== undefined) continue;
        if (event.observation === "null" || event.observation === "agent_state_changed") continue;
        attachObservation(call, event);
        if (call === open) open = undefined;
      }
    }
    const patch = found.line?.git_patch;
    const finalAnswer = typeof patch === "string" && patch.trim() !== "" ? patch : answer.value;
    const trace = makeTrace("openhands", calls, { finalAnswer, model, usage });
    if (found.line !== undefined && typeof found.line.success === "boolean") {
      trace.metadata = { success: found.line.success };
    }
    return trace;
  },
);
