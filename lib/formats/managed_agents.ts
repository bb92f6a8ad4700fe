/**
 * Claude Managed Agents session event logs (issue 36), read under
 * `anthropic`: JSONL lines that are `[event-name, payload]` pairs as a
 * session's events are recorded (`["agent.tool_use", {id, name, input}]`),
 * or the events themselves (`{type: "agent.tool_use", …}`). Private to
 * `lib/formats/`.
 *
 * The events (the Managed Agents API's session events, `{domain}.{action}`)
 * are turned into the Messages transcript the `anthropic` reader reads:
 * - `user.message` / `agent.message` content → a user / assistant message;
 * - `agent.tool_use`, `agent.mcp_tool_use`, `agent.custom_tool_use` `{id,
 *   name, input}` → an assistant `tool_use` block;
 * - `agent.tool_result` (`tool_use_id`), `agent.mcp_tool_result`
 *   (`mcp_tool_use_id`), `user.custom_tool_result` (`custom_tool_use_id`)
 *   `{content, is_error}` → a user `tool_result` block;
 * - `user.tool_confirmation` with `result: "deny"` → the call failed, its
 *   error the `deny_message` (a tool the user denied never ran);
 * - every other event (`agent.thinking`, `session.*`, `span.*`,
 *   `user.interrupt`…) is not a call and is not read.
 *
 * Decision where the API is silent: the lines are this shape when every
 * line is such an event and one of them is an `agent.*` event.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";

const EVENT_NAME = /^(user|agent|session|span)\.[a-z_]+$/;

function eventOf(value: unknown): { name: string; payload: JsonObject } | undefined {
  if (
    Array.isArray(value) && value.length === 2 && typeof value[0] === "string" &&
    EVENT_NAME.test(value[0]) && isJsonObject(value[1])
  ) {
    return { name: value[0], payload: value[1] };
  }
  if (isJsonObject(value) && typeof value.type === "string" && EVENT_NAME.test(value.type)) {
    return { name: value.type, payload: value };
  }
  return undefined;
}

const USES = new Set(["agent.tool_use", "agent.mcp_tool_use", "agent.custom_tool_use"]);
const RESULTS: Record<string, string> = {
  "agent.tool_result": "tool_use_id",
  "agent.mcp_tool_result": "mcp_tool_use_id",
  "user.custom_tool_result": "custom_tool_use_id",
};

/**
 * The Messages transcript of a session event log, or `undefined` when the
 * lines are not one.
 *
 * @param values The parsed lines of a JSONL file.
 * @returns The messages, in order.
 *
 * @example Usage
 * ```ts
 * import { managedAgentsMessages } from "./managed_agents.ts";
 * import assert from "node:assert/strict";
 *
 * const messages = managedAgentsMessages([
 *   ["agent.tool_use", { id: "sevt_1", name: "bash", input: { command: "ls" } }],
 *   ["agent.tool_result", { tool_use_id: "sevt_1", content: [{ type: "text", text: "a.txt" }] }],
 *   ["session.status_idle", { stop_reason: { type: "end_turn" } }],
 * ]);
 * assert.equal(messages?.length, 2);
 * assert.equal(managedAgentsMessages([["session.status_idle", {}]]), undefined);
 * ```
 */
export function managedAgentsMessages(values: readonly unknown[]): JsonObject[] | undefined {
  const events = values.map(eventOf);
  if (events.length === 0 || events.some((e) => e === undefined)) return undefined;
  if (!events.some((e) => e!.name.startsWith("agent."))) return undefined;
  const messages: JsonObject[] = [];
  for (const event of events as { name: string; payload: JsonObject }[]) {
    const { name, payload } = event;
    if (name === "user.message" || name === "agent.message") {
      const content = Array.isArray(payload.content) ? payload.content : [];
      messages.push({ role: name === "user.message" ? "user" : "assistant", content });
    } else if (USES.has(name)) {
      messages.push({
        role: "assistant",
        content: [{
          type: "tool_use",
          id: payload.id ?? null,
          name: payload.name ?? null,
          input: payload.input ?? {},
        }],
      });
    } else if (RESULTS[name] !== undefined) {
      const block: JsonObject = {
        type: "tool_result",
        tool_use_id: payload[RESULTS[name]!] ?? null,
        content: payload.content ?? [],
      };
      if (typeof payload.is_error === "boolean") block.is_error = payload.is_error;
      messages.push({ role: "user", content: [block] });
    } else if (name === "user.tool_confirmation" && payload.result === "deny") {
      const reason = typeof payload.deny_message === "string" && payload.deny_message !== ""
        ? `denied: ${payload.deny_message}`
        : "denied by the user";
      messages.push({
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: payload.tool_use_id ?? null,
          content: reason,
          is_error: true,
        }],
      });
    }
  }
  return messages;
}
