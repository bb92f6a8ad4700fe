/**
 * The `mcp` format: Model Context Protocol sessions as JSON-RPC messages.
 *
 * Shapes: a list of JSON-RPC 2.0 messages (batches allowed), `{"messages":
 * […]}`, or a recorded session `{"format": "mcp", "server": …, "messages":
 * […]}` whose responses may carry `duration_s`. A JSONL file whose lines are
 * JSON-RPC messages is one session. Recorder cassettes, proxy logs and MCP
 * client log text are read as their messages (see `mcp_recordings.ts`).
 * Calls are `tools/call` requests `{id, method, params: {name, arguments}}`.
 *
 * Decisions where the design is silent:
 * - A response is paired with the latest unanswered request of the same
 *   `id`; numeric ids become strings (`7` → `"7"`). A request never answered
 *   has no outcome (unknown, not success).
 * - `result.content` is rendered to text: text items joined with newlines,
 *   an embedded resource as its text (else `[resource URI]`), an image or
 *   audio item as `[image MIME]`, a resource link as `[resource_link URI]`.
 *   Text that is a JSON object or array is kept parsed as the result.
 *   `structuredContent` is kept as `metadata.structured_content`.
 * - `result.isError: true` marks the call failed with the rendered text as
 *   its error (`"tool error"` when empty); `false` is a known success. A
 *   JSON-RPC `error` marks the call failed with its `message`, and its `code`
 *   is kept as `metadata.error_code`. A `notifications/cancelled` for a
 *   pending request fails it with `cancelled: REASON`.
 * - `duration_s` (seconds) or `duration_ms` on a response is the call's
 *   duration (a cassette's `latency_ms` too; in a log with timestamps, the
 *   time from request to response); `cost_usd` its cost.
 * - A log of several servers pairs responses within each server (ids repeat
 *   across servers).
 * - A request logged without its `id` (the GitHub Agentic Workflows MCP
 *   gateway logs requests before it numbers them) is paired with the next
 *   response of its server that answers no logged id, but only while it is
 *   the one such request waiting there; with two or more waiting the
 *   pairing is ambiguous and their outcomes stay unknown. Notifications
 *   (`notifications/…`) are never waiting.
 * - A log line the client cut (`…[N chars truncated]…`, see
 *   `mcp_log_cut.ts`): a cut `tools/call` keeps its tool and id, and its
 *   arguments are unknown (`args_error`, the logged text as `raw_args`)
 *   unless they ended before the cut. A cut response fails when it is a
 *   JSON-RPC `error` or its tail shows `"isError":true`, succeeds when the
 *   tail shows `"isError":false` (the logged text as its result), and
 *   otherwise has no outcome (`metadata.log_cut`), never a guessed success.
 * - MCP has no model turn, so the final answer is unknown unless the session
 *   has a top-level `final_answer`; `model` and `usage` likewise.
 * - Without the `{"format": "mcp"}` envelope every message must say
 *   `"jsonrpc": "2.0"`, so other lists are not mistaken for a session.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  attachExtras,
  finishTrace,
  idOf,
  isEnvelope,
  listOf,
  makeTrace,
  resultFromText,
  setArgs,
} from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import { cassetteEntries, logTextEntries, type McpEntry, proxyEntries } from "./mcp_recordings.ts";
import type { McpCut } from "./mcp_log_cut.ts";

/**
 * Whether a value is one JSON-RPC 2.0 message (or a batch of them).
 *
 * @param value Any value.
 * @returns `true` for a request, notification, response or batch.
 *
 * @example Usage
 * ```ts
 * import { isJsonRpcMessage } from "./mcp.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isJsonRpcMessage({ jsonrpc: "2.0", id: 1, method: "tools/list" }), true);
 * assert.equal(isJsonRpcMessage({ role: "user", content: "hi" }), false);
 * ```
 */
export function isJsonRpcMessage(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isJsonRpcMessage);
  return isJsonObject(value) && value.jsonrpc === "2.0" &&
    (typeof value.method === "string" || value.result !== undefined ||
      value.error !== undefined);
}

function isLooseMessage(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isLooseMessage);
  return isJsonObject(value) &&
    (typeof value.method === "string" ||
      (value.id !== undefined && (value.result !== undefined || value.error !== undefined)));
}

function documentMessages(value: unknown): McpEntry[] | undefined {
  const entries = (list: unknown[]) =>
    list.map((message, i): McpEntry => ({ message, where: `messages[${i}]` }));
  if (isEnvelope(value, "mcp")) {
    return Array.isArray(value.messages) && value.messages.every(isLooseMessage)
      ? entries(value.messages)
      : cassetteEntries(value);
  }
  const cassette = cassetteEntries(value);
  if (cassette !== undefined) return cassette;
  const proxy = proxyEntries(value);
  if (proxy !== undefined) return proxy;
  const list = listOf(value, "messages");
  if (list === undefined || list.length === 0) return undefined;
  return list.every(isJsonRpcMessage) ? entries(list) : undefined;
}

/**
 * MCP tool-result content rendered to text.
 *
 * @param content The `content` list of a `CallToolResult`.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { mcpContentText } from "./mcp.ts";
 * import assert from "node:assert/strict";
 *
 * const text = mcpContentText([
 *   { type: "text", text: "2 rows" },
 *   { type: "image", data: "iVBOR", mimeType: "image/png" },
 * ]);
 * assert.equal(text, "2 rows\n[image image/png]");
 * ```
 */
export function mcpContentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const item of content) {
    if (!isJsonObject(item)) continue;
    const mime = typeof item.mimeType === "string" ? ` ${item.mimeType}` : "";
    if (item.type === "text" && typeof item.text === "string") texts.push(item.text);
    else if (item.type === "image" || item.type === "audio") texts.push(`[${item.type}${mime}]`);
    else if (item.type === "resource" && isJsonObject(item.resource)) {
      const resource = item.resource;
      texts.push(
        typeof resource.text === "string" ? resource.text : `[resource ${String(resource.uri)}]`,
      );
    } else if (item.type === "resource_link") texts.push(`[resource_link ${String(item.uri)}]`);
  }
  return texts.join("\n");
}

function attachResponse(call: ToolCall, message: JsonObject): void {
  if (isJsonObject(message.error)) {
    const error = message.error;
    call.isError = true;
    call.error = typeof error.message === "string" && error.message !== ""
      ? error.message
      : `JSON-RPC error ${String(error.code)}`;
    if (error.code !== undefined) call.metadata = { ...call.metadata, error_code: error.code };
  } else if (isJsonObject(message.result)) {
    const result = message.result;
    const text = mcpContentText(result.content);
    call.result = resultFromText(text);
    if (result.structuredContent !== undefined) {
      call.metadata = { ...call.metadata, structured_content: result.structuredContent };
    }
    if (result.isError === true) {
      call.isError = true;
      call.error = text === "" ? "tool error" : text;
    } else if (result.isError === false) call.isError = false;
  } else {
    call.result = message.result ?? null;
  }
  attachExtras(call, message);
}

// A response the log cut: its outcome only when what is left shows it.
function attachCutResponse(call: ToolCall, message: JsonObject, cut: McpCut): void {
  if (message.error !== undefined) {
    call.isError = true;
    const error = message.error;
    call.error = isJsonObject(error) && typeof error.message === "string" && error.message !== ""
      ? error.message
      : cut.logged;
  } else if (cut.resultWhole) {
    attachResponse(call, message);
  } else if (cut.isError === true) {
    call.isError = true;
    call.error = cut.logged;
  } else if (cut.isError === false) {
    call.isError = false;
    call.result = cut.logged;
  } else {
    call.metadata = { ...call.metadata, log_cut: cut.marker }; // outcome unknown
  }
}

/**
 * The `mcp` reader.
 *
 * @example Usage
 * ```ts
 * import { mcpReader } from "./mcp.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = mcpReader.read([
 *   { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a", arguments: {} } },
 *   { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ok" }] } },
 * ], "trace.json");
 * assert.equal(trace.calls[0]?.result, "ok");
 * ```
 */
export const mcpReader: FormatReader = documentReader(
  "mcp",
  documentMessages,
  'not an MCP session: expected JSON-RPC 2.0 messages, {messages}, {"format": "mcp"}, a cassette or a proxy log',
  (entries, source, value) => readEntries(entries, source, value),
);

/**
 * Read MCP client log text (`… Message from client: {json}` lines) as an
 * `mcp` trace.
 *
 * @param text The log's text.
 * @param source The file name, for errors.
 * @returns The trace.
 * @throws {InputError} When a message line does not parse or none is there.
 *
 * @example Usage
 * ```ts
 * import { mcpTraceFromLogText } from "./mcp.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = mcpTraceFromLogText([
 *   '2025-01-01T00:00:00.000Z [db] [info] Message from client: {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"q","arguments":{}}}',
 *   '2025-01-01T00:00:01.500Z [db] [info] Message from server: {"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"ok"}]}}',
 * ].join("\n"), "mcp-server-db.log");
 * assert.equal(trace.calls[0]?.durationS, 1.5);
 * ```
 */
export function mcpTraceFromLogText(text: string, source: string): Trace {
  return readEntries(logTextEntries(text, source), source, undefined);
}

type Waiting = { call?: ToolCall; time?: number };

function readEntries(entries: McpEntry[], source: string, value: unknown): Trace {
  const calls: ToolCall[] = [];
  const pending = new Map<string, Waiting & { call: ToolCall }>();
  // Requests logged without an id, per server, until a response answers them.
  const unnumbered = new Map<string, Waiting[]>();
  const answer = (
    open: Waiting & { call: ToolCall },
    message: JsonObject,
    time?: number,
    cut?: McpCut,
  ) => {
    if (cut === undefined) attachResponse(open.call, message);
    else attachCutResponse(open.call, message, cut);
    if (open.call.durationS === undefined && open.time !== undefined && time !== undefined) {
      const seconds = (time - open.time) / 1000;
      if (seconds >= 0) open.call.durationS = seconds;
    }
  };
  const visit = (
    message: unknown,
    where: string,
    scope: string,
    time: number | undefined,
    cut?: McpCut,
  ) => {
    if (Array.isArray(message)) {
      message.forEach((m, i) => visit(m, `${where}[${i}]`, scope, time));
      return;
    }
    if (!isJsonObject(message)) return;
    const id = idOf(message.id);
    const key = (of: string) => `${scope}\u0000${of}`;
    const waiting: Waiting = time === undefined ? {} : { time };
    if (
      id === undefined && typeof message.method === "string" &&
      !message.method.startsWith("notifications/")
    ) {
      const list = unnumbered.get(scope) ?? [];
      list.push(waiting);
      unnumbered.set(scope, list);
    }
    if (message.method === "tools/call") {
      const params = isJsonObject(message.params) ? message.params : {};
      if (typeof params.name !== "string" || params.name === "") {
        const why = cut === undefined ? "" : ` (the log cut the message before it: ${cut.marker})`;
        throw new InputError(`tools/call has no params.name${why}`, `${source}: ${where}`);
      }
      const call: ToolCall = { tool: params.name };
      if (cut === undefined || cut.argumentsWhole) setArgs(call, params.arguments);
      else {
        call.args = {};
        call.rawArgs = cut.logged;
        call.argsError = `the log cut this message (${cut.marker}): its arguments are not known`;
      }
      if (scope !== "") call.metadata = { server: scope };
      if (id !== undefined) {
        call.id = id;
        pending.set(key(id), { ...waiting, call });
      } else waiting.call = call;
      calls.push(call);
    } else if (message.method === "notifications/cancelled" && isJsonObject(message.params)) {
      const cancelled = key(idOf(message.params.requestId) ?? "");
      const call = pending.get(cancelled)?.call;
      if (call === undefined) return;
      pending.delete(cancelled);
      const reason = message.params.reason;
      call.isError = true;
      call.error = typeof reason === "string" && reason !== ""
        ? `cancelled: ${reason}`
        : "cancelled";
    } else if (message.method === undefined && id !== undefined) {
      const open = pending.get(key(id));
      if (open !== undefined) {
        pending.delete(key(id));
        answer(open, message, time, cut);
        return;
      }
      const list = unnumbered.get(scope);
      if (list === undefined || list.length === 0) return;
      if (list.length > 1) {
        list.length = 0; // ambiguous: which request this answers is not known
        return;
      }
      const [only] = list.splice(0, 1);
      if (only?.call !== undefined) answer({ ...only, call: only.call }, message, time, cut);
    }
  };
  for (const entry of entries) {
    visit(entry.message, entry.where, entry.scope ?? "", entry.time, entry.cut);
  }
  return finishTrace(makeTrace("mcp", calls, {}), Array.isArray(value) ? undefined : value);
}
