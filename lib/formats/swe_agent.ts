/**
 * The `swe-agent` format: SWE-agent's `.traj` files (issue 35), `{trajectory,
 * history, info, environment?, replay_config?}`. `history` is the chat the
 * model saw: assistant messages with OpenAI-style `tool_calls` (function
 * calling) and `tool` messages that carry `tool_call_ids`, a list, instead
 * of `tool_call_id`; every message has SWE-agent's `message_type`
 * (`system_prompt`, `action`, `observation`). `trajectory` is one step per
 * action: `{action, observation, thought, response, execution_time?}`.
 *
 * Decisions where SWE-agent is silent:
 * - Claimed: an object whose `trajectory` is a list of steps with an
 *   `action` text, or whose `history` has a message with a `message_type`.
 * - With function calling (a history message holds `tool_calls`), the calls
 *   are the history's, results paired by the ids of `tool_call_ids`. The
 *   history is saved before the last step runs, so a last trajectory step
 *   whose action is not the last history action (often `submit`) is read
 *   from the trajectory as a text action (below).
 * - Without function calling, each trajectory step is a call of a `bash`
 *   tool with `{command: action}` and `metadata.text_action: true` (SWE-agent
 *   runs the action, its tools included, in the environment's shell); its
 *   observation is the result. SWE-agent records no exit code, so the
 *   outcome is what evaluation reads in the text. A step's
 *   `execution_time` (seconds) is the call's duration.
 * - The final answer is `info.submission` (the patch) when non-empty;
 *   `info.exit_status` is kept in the metadata; `info.model_stats`
 *   (`tokens_sent`, `tokens_received`) is the usage.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall } from "../scoring/calls.ts";
import { attachTextResult, finiteNumber, makeTrace, setArgs } from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";

interface Found {
  steps: JsonObject[];
  history: JsonObject[];
  info?: JsonObject;
}

function isStep(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.action === "string";
}

function findTraj(value: unknown): Found | undefined {
  if (!isJsonObject(value)) return undefined;
  const steps = Array.isArray(value.trajectory) && value.trajectory.every(isStep)
    ? value.trajectory as JsonObject[]
    : undefined;
  const history = Array.isArray(value.history) &&
      value.history.every((m) => isJsonObject(m) && typeof m.role === "string")
    ? value.history as JsonObject[]
    : undefined;
  const typed = history?.some((m) => typeof m.message_type === "string") ?? false;
  if (steps === undefined && !typed) return undefined;
  if (steps === undefined && value.trajectory !== undefined) return undefined;
  const info = isJsonObject(value.info) ? value.info : undefined;
  return { steps: steps ?? [], history: history ?? [], ...(info ? { info } : {}) };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => isJsonObject(part) && typeof part.text === "string" ? part.text : "")
    .join("\n");
}

function stepCall(step: JsonObject): ToolCall {
  const call: ToolCall = {
    tool: "bash",
    args: { command: step.action as string },
    metadata: { text_action: true },
  };
  if (typeof step.observation === "string") attachTextResult(call, step.observation);
  const seconds = finiteNumber(step.execution_time) ??
    (typeof step.execution_time === "string" ? Number(step.execution_time) : undefined);
  if (seconds !== undefined && Number.isFinite(seconds) && seconds >= 0) call.durationS = seconds;
  return call;
}

function historyCalls(history: JsonObject[]): { calls: ToolCall[]; lastAction?: string } {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall>();
  let lastAction: string | undefined;
  for (const message of history) {
    if (message.role === "assistant" && Array.isArray(message.tool_calls)) {
      if (typeof message.action === "string") lastAction = message.action;
      for (const item of message.tool_calls) {
        const fn = isJsonObject(item) && isJsonObject(item.function) ? item.function : undefined;
        if (typeof fn?.name !== "string" || fn.name === "") continue;
        const call: ToolCall = { tool: fn.name };
        const id = (item as JsonObject).id;
        if (typeof id === "string" && id !== "") {
          call.id = id;
          byId.set(id, call);
        }
        setArgs(call, fn.arguments ?? undefined);
        calls.push(call);
      }
    } else if (message.role === "tool") {
      const ids = Array.isArray(message.tool_call_ids)
        ? message.tool_call_ids
        : [message.tool_call_id];
      for (const id of ids) {
        const call = typeof id === "string" ? byId.get(id) : undefined;
        if (call !== undefined && call.result === undefined) {
          attachTextResult(call, textOf(message.content));
        }
      }
    }
  }
  return { calls, ...(lastAction !== undefined ? { lastAction } : {}) };
}

/**
 * The `swe-agent` reader.
 *
 * @example Usage
 * ```ts
 * import { sweAgentReader } from "./swe_agent.ts";
 * import assert from "node:assert/strict";
 *
 * const traj = {
 *   trajectory: [{ action: "ls", observation: "README.md", thought: "look" }],
 *   history: [],
 *   info: { exit_status: "submitted", submission: "diff --git a/x b/x" },
 * };
 * const trace = sweAgentReader.read(traj, "run.traj");
 * assert.deepEqual(trace.calls[0]?.args, { command: "ls" });
 * assert.equal(trace.finalAnswer, "diff --git a/x b/x");
 * ```
 */
export const sweAgentReader: FormatReader = documentReader(
  "swe-agent",
  findTraj,
  "not a SWE-agent trajectory: expected {trajectory: [{action, observation}], history, info}",
  (found) => {
    const functionCalling = found.history.some((m) =>
      m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0
    );
    let calls: ToolCall[];
    if (functionCalling) {
      const read = historyCalls(found.history);
      calls = read.calls;
      const last = found.steps.at(-1);
      if (last !== undefined && last.action !== read.lastAction && last.action !== "") {
        calls.push(stepCall(last));
      }
    } else {
      calls = found.steps.filter((step) => (step.action as string).trim() !== "").map(stepCall);
    }
    const info = found.info;
    const submission = info?.submission;
    const stats = isJsonObject(info?.model_stats) ? info.model_stats : undefined;
    const sent = finiteNumber(stats?.tokens_sent);
    const received = finiteNumber(stats?.tokens_received);
    const trace = makeTrace("swe-agent", calls, {
      ...(typeof submission === "string" && submission.trim() !== ""
        ? { finalAnswer: submission }
        : {}),
      ...(sent !== undefined || received !== undefined
        ? { usage: { inputTokens: sent ?? null, outputTokens: received ?? null } }
        : {}),
    });
    if (typeof info?.exit_status === "string" && info.exit_status !== "") {
      trace.metadata = { exit_status: info.exit_status };
    }
    return trace;
  },
);
