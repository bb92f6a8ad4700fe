/**
 * The `claude-code` format: Claude Code and Claude Agent SDK messages.
 *
 * Shapes: the `--output-format stream-json` messages (a JSONL file, a JSON
 * list, or one message): `{"type": "system", "subtype": "init", …}`,
 * `{"type": "assistant"|"user", "message": {role, content: […]},
 * "parent_tool_use_id", "session_id"}`, `{"type": "result", "result", …}`;
 * and the session transcripts Claude Code saves (`{"type": "user"|
 * "assistant", "message", "uuid", "parentUuid", "isSidechain",
 * "sessionId"}` lines). Calls are `tool_use` blocks (also `server_tool_use`
 * and `mcp_tool_use`) `{id, name, input}` in assistant messages; results are
 * `tool_result` blocks `{tool_use_id, content, is_error}` in user messages.
 *
 * Decisions where the format is silent:
 * - Sub-agent calls are kept, in order, and marked: a call in a message
 *   with a non-null `parent_tool_use_id` has `metadata.parent_tool_use_id`
 *   (the id of the `Task`/`Agent` call that started the sub-agent); a call
 *   in a transcript line with `isSidechain: true` has `metadata.sidechain:
 *   true`. The sub-agent's text is never the final answer.
 * - Results are paired by `tool_use_id`. `is_error: true` marks the call
 *   failed with the rendered content as its error (`"tool error"` when
 *   empty); `false` is a known success. Content blocks are rendered to text
 *   (text joined with newlines, an image as `[image]`); text that is JSON is
 *   kept parsed.
 * - The final answer is the `result` of the `result` message; without one,
 *   the main agent's assistant text after its last call. A top-level
 *   `final_answer` wins.
 * - Claude Code writes one line per content block, each repeating its
 *   message's `usage`: usage is counted once per `message.id` (the last line
 *   of that id), summed over messages; the `result` message's `usage` (the
 *   session total) wins when present. `model` is the `system` init model,
 *   else the first assistant message's (`<synthetic>` is skipped).
 * - Neither a session id nor a `system` or `result` message is needed: a
 *   list of `{type, parent_tool_use_id, message}` messages reads (issue 34),
 *   also when a `message` has no `role` but its content is text or typed
 *   blocks (the message's `type` says whose it is); so does a session of
 *   Claude Code on the web as its sessions API serves it (`{loglines:
 *   [{type, timestamp, message}]}`, what `claude-code-transcripts` saves),
 *   found on a real file (issue 34). An early `result` message (`{type,
 *   cost_usd, duration_ms, result}`, no `subtype` or `session_id`) is one too.
 * - Other lines (`system`, `stream_event`, `summary`, hooks…) are skipped;
 *   so are lines of a JSONL file that are not typed objects (a stray string
 *   or number) when the typed lines are a Claude Code session.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Usage } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  FinalAnswer,
  finishTrace,
  idOf,
  makeTrace,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import { attachResult } from "./anthropic.ts";

const CALL_BLOCKS = new Set(["tool_use", "server_tool_use", "mcp_tool_use"]);

/**
 * Whether a value is one Claude Code message (a `stream-json` line or a
 * transcript line that carries a message or the session's result).
 *
 * @param value Any value.
 * @returns `true` for `{type: "assistant"|"user", message: {role?, content}}`,
 * a `result` message or the `system` init message.
 *
 * @example Usage
 * ```ts
 * import { isClaudeCodeMessage } from "./claude_code.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isClaudeCodeMessage({ type: "assistant", message: { role: "assistant", content: [] } }), true);
 * assert.equal(isClaudeCodeMessage({ role: "assistant", content: [] }), false);
 * ```
 */
export function isClaudeCodeMessage(value: unknown): value is JsonObject {
  if (!isJsonObject(value)) return false;
  if (value.type === "assistant" || value.type === "user") {
    const message = value.message;
    if (!isJsonObject(message)) return false;
    const content = message.content;
    // Issue 34: a message without its role is still one when its content is text or typed blocks.
    if (message.role === undefined) {
      return typeof content === "string" ||
        (Array.isArray(content) &&
          content.every((b) => isJsonObject(b) && typeof b.type === "string"));
    }
    return typeof message.role === "string" &&
      (typeof content === "string" || Array.isArray(content));
  }
  if (value.type === "result") {
    const text = typeof value.result === "string";
    // Issue 34: an early Claude Code result, `{type, cost_usd, duration_ms, result}`, names no
    // subtype or session (the claude-code-action's saved execution file).
    return (typeof value.subtype === "string" && (typeof value.session_id === "string" || text)) ||
      (text && typeof value.duration_ms === "number");
  }
  return value.type === "system" && value.subtype === "init" &&
    typeof value.session_id === "string";
}

/**
 * Whether a value is any line of a Claude Code stream or transcript (a
 * message, or another typed line such as `stream_event` or `summary`).
 *
 * @param value Any value.
 * @returns `true` for an object with a string `type` and a session or message.
 *
 * @example Usage
 * ```ts
 * import { isClaudeCodeLine } from "./claude_code.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isClaudeCodeLine({ type: "stream_event", session_id: "s", event: {} }), true);
 * assert.equal(isClaudeCodeLine({ type: "function_call" }), false);
 * ```
 */
export function isClaudeCodeLine(value: unknown): boolean {
  if (isClaudeCodeMessage(value)) return true;
  return isJsonObject(value) && typeof value.type === "string" &&
    (typeof value.session_id === "string" || typeof value.sessionId === "string" ||
      (value.type === "summary" && typeof value.leafUuid === "string"));
}

/**
 * The lines of a JSONL file that are one Claude Code session, or
 * `undefined`: every line that is a JSON object with a `type` is a Claude
 * Code line, at least one is a message, and they are at least half the
 * lines. Other lines (a stray string, number or untyped object) are dropped.
 *
 * @param values The parsed lines.
 * @returns The Claude Code lines, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { claudeCodeRows } from "./claude_code.ts";
 * import assert from "node:assert/strict";
 *
 * const rows = claudeCodeRows([
 *   { type: "assistant", message: { role: "assistant", content: [] }, session_id: "s" },
 *   "stray text",
 * ]);
 * assert.equal(rows?.length, 1);
 * ```
 */
export function claudeCodeRows(values: readonly unknown[]): unknown[] | undefined {
  const typed = values.filter((v) => isJsonObject(v) && typeof v.type === "string");
  if (typed.length === 0 || typed.length * 2 < values.length) return undefined;
  if (!typed.every(isClaudeCodeLine) || !typed.some(isClaudeCodeMessage)) return undefined;
  return typed;
}

function documentMessages(value: unknown): unknown[] | undefined {
  if (isClaudeCodeMessage(value)) return [value];
  const list = Array.isArray(value)
    ? value
    : isJsonObject(value) && Array.isArray(value.messages)
    ? value.messages
    : isJsonObject(value) && Array.isArray(value.loglines) // a Claude Code on the web session
    ? value.loglines
    : undefined;
  if (list === undefined || list.length === 0) return undefined;
  return list.every(isClaudeCodeLine) && list.some(isClaudeCodeMessage) ? list : undefined;
}

/**
 * The `claude-code` reader.
 *
 * @example Usage
 * ```ts
 * import { claudeCodeReader } from "./claude_code.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = claudeCodeReader.read([
 *   { type: "assistant", parent_tool_use_id: "toolu_task", session_id: "s", message: {
 *     role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "a" } }],
 *   } },
 *   { type: "user", parent_tool_use_id: "toolu_task", session_id: "s", message: {
 *     role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x", is_error: false }],
 *   } },
 * ], "stream.jsonl");
 * assert.equal(trace.calls[0]?.metadata?.parent_tool_use_id, "toolu_task");
 * assert.equal(trace.calls[0]?.isError, false);
 * ```
 */
export const claudeCodeReader: FormatReader = documentReader(
  "claude-code",
  documentMessages,
  'not a Claude Code stream: expected {"type": "assistant"|"user"|"result", "message"|"result"} lines',
  (lines, source, value) => {
    const calls: ToolCall[] = [];
    const byId = new Map<string, ToolCall>();
    const answer = new FinalAnswer("");
    const usageById = new Map<string, Usage>();
    let anonymousUsage: Usage | undefined;
    let resultUsage: Usage | undefined;
    let resultText: string | undefined;
    let model: string | undefined;
    let initModel: string | undefined;
    let lastMessageId: string | undefined;
    lines.forEach((line, index) => {
      if (!isClaudeCodeMessage(line)) return;
      if (line.type === "system") {
        if (typeof line.model === "string" && line.model !== "") initModel ??= line.model;
        return;
      }
      if (line.type === "result") {
        if (typeof line.result === "string" && line.is_error !== true) resultText = line.result;
        resultUsage = usageFromJson(line.usage) ?? resultUsage;
        return;
      }
      const message = line.message as JsonObject;
      const parent = idOf(line.parent_tool_use_id);
      const sidechain = line.isSidechain === true;
      const main = parent === undefined && !sidechain;
      const content = Array.isArray(message.content) ? message.content : [];
      if (line.type === "assistant") {
        const messageId = idOf(message.id);
        if (main && (messageId === undefined || messageId !== lastMessageId)) answer.message();
        if (main) lastMessageId = messageId;
        const usage = usageFromJson(message.usage);
        if (usage !== undefined) {
          if (messageId !== undefined) usageById.set(messageId, usage);
          else anonymousUsage = addUsage(anonymousUsage, usage);
        }
        const name = message.model;
        if (model === undefined && typeof name === "string" && name !== "<synthetic>") {
          model = name;
        }
        content.forEach((block, j) => {
          if (!isJsonObject(block)) return;
          if (block.type === "text") {
            if (main) answer.text(block.text);
            return;
          }
          if (!CALL_BLOCKS.has(block.type as string)) return;
          if (typeof block.name !== "string" || block.name === "") {
            throw new InputError(
              `${String(block.type)} block has no name`,
              `${source}: [${index}].message.content[${j}]`,
            );
          }
          const call: ToolCall = { tool: block.name };
          setArgs(call, block.input);
          const id = idOf(block.id);
          if (id !== undefined) {
            call.id = id;
            byId.set(id, call);
          }
          if (parent !== undefined) call.metadata = { parent_tool_use_id: parent };
          else if (sidechain) call.metadata = { sidechain: true };
          calls.push(call);
          if (main) answer.call();
        });
      } else {
        for (const block of content) {
          if (!isJsonObject(block) || block.type !== "tool_result") continue;
          const call = byId.get(idOf(block.tool_use_id) ?? "");
          if (call !== undefined && call.result === undefined) attachResult(call, block);
        }
      }
    });
    let usage = resultUsage;
    if (usage === undefined) {
      usage = anonymousUsage;
      for (const each of usageById.values()) usage = addUsage(usage, each);
    }
    const trace = makeTrace("claude-code", calls, {
      finalAnswer: resultText ?? answer.value,
      model: initModel ?? model,
      usage,
    });
    return finishTrace(
      trace,
      Array.isArray(value) || isClaudeCodeMessage(value) ? undefined : value,
    );
  },
);
