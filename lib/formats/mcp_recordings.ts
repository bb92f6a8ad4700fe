/**
 * Recorded MCP sessions the `mcp` reader reads besides bare JSON-RPC
 * messages: recorder cassettes, proxy logs and MCP client log text. Each is
 * turned into JSON-RPC messages in order ({@linkcode McpEntry}); `mcp.ts`
 * reads those.
 *
 * - A cassette `{"interactions": [{request, response, latency_ms?}]}` (also
 *   under `session`, as Agent VCR writes it; mcp-recorder writes it at the
 *   top). A `latency_ms` is the response's duration; an entry without a
 *   request (mcp-recorder's `lifecycle` entries) is skipped.
 * - A proxy log: a list (or JSONL file) of objects each with a `direction`
 *   (or `dir`) and the JSON-RPC message under `message`, `msg`, `payload`,
 *   `data`, `body`, `json` or `raw` (an object, or its JSON text); a
 *   `timestamp` (`time`, `ts`; ISO or epoch milliseconds) on both sides gives
 *   the duration; a `server` (`server_name`, `server_id`) keeps each
 *   server's ids apart. MCPSpy's capture lines say the direction as
 *   `transport_type` plus its `stdio_transport` (`from_pid`/`to_pid`) or
 *   `http_transport` (`is_request`) object, and carry the message as `raw`
 *   text; their decoded top-level `params`/`result`/`error` copies (an
 *   empty `error: {}` on every line) are not read. mcp-recorder's session
 *   lines `{seq, t, dir: "c2s" | "s2c", msg}` are proxy lines too: their `t`
 *   is Unix seconds (a line with a `seq` says so), and the trailing
 *   `{"type": "summary", …}` line it writes is not a message (issue 36).
 * - MCP client log text, as Claude Desktop writes `mcp*.log`: lines
 *   `TIME [server] [level] Message from client: {json}` and `… Message from
 *   server: {json}` (anything after the JSON, such as `{ metadata: undefined
 *   }`, is ignored; other lines are skipped). Messages of different servers
 *   in one log are kept apart, and the time between a request and its
 *   response is the duration. A message the client cut
 *   (`…[N chars truncated]…`) is read for what it still shows
 *   (`mcp_log_cut.ts`).
 *
 * @module
 */

import { checkJsonLimits } from "../base/json_limits.ts";
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { cutInString, cutLogMessage, type McpCut } from "./mcp_log_cut.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** One JSON-RPC message of a recording, with where it was and its context. */
export interface McpEntry {
  /** The JSON-RPC message (or batch). */
  message: unknown;
  /** Where it was, for errors (`interactions[3].request`, `line 12`). */
  where: string;
  /** The server it belongs to, when a log holds several (ids are per server). */
  scope?: string;
  /** When it was seen, in milliseconds since the epoch. */
  time?: number;
  /** Set when the log cut the message (`…[N chars truncated]…`): what it still shows. */
  cut?: McpCut;
}

const MESSAGE_KEYS = ["message", "msg", "payload", "data", "body", "json", "raw"];

function timeOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) {
    return value > 1e14 ? value / 1000 : value; // microseconds → ms
  }
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function interactionsOf(value: unknown): unknown[] | undefined {
  if (!isJsonObject(value)) return undefined;
  const holder = isJsonObject(value.session) && Array.isArray(value.session.interactions)
    ? value.session
    : value;
  const list = holder.interactions;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  // Lifecycle entries (a session's DELETE) carry no request: skipped.
  return list.every((item) =>
      isJsonObject(item) && (item.request === null || isJsonObject(item.request))
    ) &&
      list.some((item) => isJsonObject((item as JsonObject).request))
    ? list
    : undefined;
}

/**
 * The messages of a recorder cassette, or `undefined` when the value is not
 * one.
 *
 * @param value A parsed document.
 * @returns The entries, requests and responses in order.
 *
 * @example Usage
 * ```ts
 * import { cassetteEntries } from "./mcp_recordings.ts";
 * import assert from "node:assert/strict";
 *
 * const entries = cassetteEntries({ interactions: [{
 *   request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } },
 *   response: { jsonrpc: "2.0", id: 1, result: { content: [] } },
 *   latency_ms: 4,
 * }] });
 * assert.equal(entries?.length, 2);
 * ```
 */
export function cassetteEntries(value: unknown): McpEntry[] | undefined {
  const list = interactionsOf(value);
  if (list === undefined) return undefined;
  const entries: McpEntry[] = [];
  list.forEach((item, i) => {
    const interaction = item as JsonObject;
    if (!isJsonObject(interaction.request)) return;
    entries.push({ message: interaction.request, where: `interactions[${i}].request` });
    if (isJsonObject(interaction.response)) {
      const latency = interaction.latency_ms ?? interaction.duration_ms;
      const response = typeof latency === "number" && interaction.response.duration_ms === undefined
        ? { ...interaction.response, duration_ms: latency }
        : interaction.response;
      entries.push({ message: response, where: `interactions[${i}].response` });
    }
  });
  return entries;
}

function proxyMessage(line: JsonObject): unknown {
  for (const key of MESSAGE_KEYS) {
    let inner = line[key];
    if (typeof inner === "string" && inner.trimStart().startsWith("{")) {
      try {
        inner = parseJsonLossless(inner);
        checkJsonLimits(inner); // past the input limits it is not a message
      } catch {
        continue;
      }
    }
    if (isJsonObject(inner) || Array.isArray(inner)) return inner;
  }
  return undefined;
}

/** A `direction`/`dir`, or MCPSpy's `transport_type` with its `<type>_transport` object. */
function hasDirection(line: JsonObject): boolean {
  if (typeof line.direction === "string" || typeof line.dir === "string") return true;
  const transport = line.transport_type;
  return typeof transport === "string" && transport.length <= 32 &&
    isJsonObject(line[`${transport}_transport`]);
}

/**
 * Whether a value is one proxy log line: a `direction` and a JSON-RPC
 * message.
 *
 * @param value Any value.
 * @returns `true` for `{direction, message: {jsonrpc…}}` and the like.
 *
 * @example Usage
 * ```ts
 * import { isProxyLine } from "./mcp_recordings.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isProxyLine({ direction: "client->server", message: { jsonrpc: "2.0", id: 1, method: "ping" } }), true);
 * assert.equal(isProxyLine({ direction: "in" }), false);
 * ```
 */
export function isProxyLine(value: unknown): boolean {
  if (!isJsonObject(value) || !hasDirection(value)) return false;
  const message = proxyMessage(value);
  const one = Array.isArray(message) ? message[0] : message;
  return isJsonObject(one) && (one.jsonrpc === "2.0" || typeof one.method === "string" ||
    one.result !== undefined || one.error !== undefined);
}

/**
 * The messages of a proxy log (a list of lines), or `undefined` when the
 * value is not one.
 *
 * @param value A parsed document (a list of lines, or `{messages: […]}`).
 * @returns The entries in order.
 *
 * @example Usage
 * ```ts
 * import { proxyEntries } from "./mcp_recordings.ts";
 * import assert from "node:assert/strict";
 *
 * const entries = proxyEntries([
 *   { direction: "send", timestamp: "2025-01-01T00:00:00.000Z", message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } } },
 *   { direction: "receive", timestamp: "2025-01-01T00:00:00.250Z", message: { jsonrpc: "2.0", id: 1, result: {} } },
 * ]);
 * assert.equal(entries?.[1]?.time, Date.parse("2025-01-01T00:00:00.250Z"));
 * ```
 */
export function proxyEntries(value: unknown): McpEntry[] | undefined {
  const list = Array.isArray(value)
    ? value
    : isJsonObject(value) && Array.isArray(value.messages)
    ? value.messages
    : undefined;
  if (list === undefined || list.length === 0 || !list.every(isProxyLine)) return undefined;
  return list.map((line, i) => {
    const entry: McpEntry = { message: proxyMessage(line as JsonObject), where: `[${i}]` };
    const object = line as JsonObject;
    // mcp-recorder (`seq` beside `t`) writes Unix seconds; the others milliseconds or ISO text.
    const time = typeof object.seq === "number" && typeof object.t === "number"
      ? object.t * 1000
      : timeOf(object.timestamp ?? object.time ?? object.ts);
    if (time !== undefined) entry.time = time;
    const scope = object.server ?? object.server_name ?? object.server_id;
    if (typeof scope === "string") entry.scope = scope;
    return entry;
  });
}

/**
 * The lines of a proxy log to read: every line a proxy line, except one
 * trailing `{"type": "summary"}` line (mcp-recorder's), which is dropped.
 *
 * @param values The parsed lines of a JSONL file.
 * @returns The lines to read, or `undefined` when they are not a proxy log.
 *
 * @example Usage
 * ```ts
 * import { proxyLogLines } from "./mcp_recordings.ts";
 * import assert from "node:assert/strict";
 *
 * const line = { seq: 0, t: 1776658414.952, dir: "c2s", msg: { jsonrpc: "2.0", id: 1, method: "ping" } };
 * assert.equal(proxyLogLines([line, { type: "summary", requests: 1 }])?.length, 1);
 * assert.equal(proxyLogLines([{ type: "summary" }]), undefined);
 * ```
 */
export function proxyLogLines(values: unknown[]): unknown[] | undefined {
  const last = values.at(-1);
  const lines = values.length > 1 && isJsonObject(last) && last.type === "summary" &&
      !isProxyLine(last)
    ? values.slice(0, -1)
    : values;
  return lines.length > 0 && lines.every(isProxyLine) ? lines : undefined;
}

const LOG_LINE = /Message from (client|server): /;
const MAX_LINE = 10_000_000;

/** The length of the JSON object or array at the start of `text` (0 when none). */
function jsonPrefix(text: string): number {
  const open = text[0];
  if (open !== "{" && open !== "[") return 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length && i < MAX_LINE; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return 0;
}

/**
 * Whether a text is MCP client log text (some line says `Message from
 * client: {…}` or `Message from server: {…}`).
 *
 * @param text A file's text.
 * @returns `true` when a line carries an MCP message.
 *
 * @example Usage
 * ```ts
 * import { isMcpLogText } from "./mcp_recordings.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isMcpLogText('2025-01-01T00:00:00.000Z [x] [info] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}'), true);
 * assert.equal(isMcpLogText('{"a": 1}'), false);
 * ```
 */
export function isMcpLogText(text: string): boolean {
  return /Message from (client|server): [{[]/.test(text);
}

/**
 * The messages of MCP client log text.
 *
 * @param text The log's text.
 * @param source The file name, for errors.
 * @returns The entries, one per `Message from …` line.
 * @throws {InputError} When a `Message from …` line's JSON does not parse,
 * naming the line, or when no line carries a message.
 *
 * @example Usage
 * ```ts
 * import { logTextEntries } from "./mcp_recordings.ts";
 * import assert from "node:assert/strict";
 *
 * const entries = logTextEntries(
 *   '2025-04-11T23:03:05.759Z [ably] [info] Message from client: {"method":"tools/call","params":{"name":"a"},"jsonrpc":"2.0","id":24} { metadata: undefined }\n',
 *   "mcp.log",
 * );
 * assert.equal(entries[0]?.scope, "ably");
 * ```
 */
export function logTextEntries(text: string, source: string): McpEntry[] {
  const entries: McpEntry[] = [];
  let line = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    line++;
    const row = text.slice(start, end);
    start = end + 1;
    const match = LOG_LINE.exec(row);
    if (match === null) continue;
    const rest = row.slice(match.index + match[0].length);
    const length = jsonPrefix(rest);
    let message: unknown;
    let cut: McpCut | undefined;
    try {
      const json = length === 0 ? rest : rest.slice(0, length);
      message = parseJsonLossless(json);
      cut = cutInString(message, json);
    } catch {
      const read = cutLogMessage(rest);
      if (read === undefined) {
        throw new InputError(
          `the message after "${match[0].trim()}" is not complete JSON; fix or remove the line`,
          `${source}:${line}`,
        );
      }
      ({ message, cut } = read);
    }
    checkJsonLimits(message, `${source}:${line}`);
    const head = row.slice(0, match.index);
    const entry: McpEntry = { message, where: `line ${line}` };
    if (cut !== undefined) entry.cut = cut;
    const tags = [...head.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1] as string);
    const scope = tags.find((tag) => !/^(info|debug|warn|warning|error|trace)$/i.test(tag));
    if (scope !== undefined) entry.scope = scope;
    const stamp = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?/.exec(head);
    const time = stamp === null ? undefined : timeOf(stamp[0]);
    if (time !== undefined) entry.time = time;
    entries.push(entry);
  }
  if (entries.length === 0) {
    throw new InputError(
      'no MCP messages: no line says "Message from client: {…}" or "Message from server: {…}"',
      source,
    );
  }
  return entries;
}
