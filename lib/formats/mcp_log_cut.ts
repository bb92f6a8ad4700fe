/**
 * MCP client log messages the client cut short. Claude Desktop keeps the
 * head and the tail of a long message and writes `…[N chars truncated]…`
 * between them, so a real `mcp*.log` is full of lines whose JSON cannot be
 * parsed: every long `tools/list` answer, file written or read.
 *
 * What such a line still says is read and nothing more: the head's whole
 * members (method, id, tool name, the start of `result` or `error`), the
 * request id that ends a request (`…,"jsonrpc":"2.0","id":5}`) and the
 * `isError` flag that ends a result (`…"isError":true}}`). The cut
 * arguments and results are never guessed; `mcp.ts` says how they read.
 * A cut that fell inside one string leaves the JSON whole: arguments that
 * hold the marker are cut all the same, and a result keeps its flags.
 * A line without the marker whose JSON does not parse is still an error.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { completePrefix, memberWhole } from "./json_prefix.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** What a cut log message still shows. */
export interface McpCut {
  /** The message as logged, marker included (its trailing log metadata removed). */
  logged: string;
  /** The marker, e.g. `...[11759 chars truncated]...`. */
  marker: string;
  /** Whether `params.arguments` ended before the cut. */
  argumentsWhole: boolean;
  /** Whether `result` ended before the cut. */
  resultWhole: boolean;
  /** The result's `isError` when the tail ends with it; absent when not seen. */
  isError?: boolean;
}

const MARKER = /\.\.\.\[\d+ chars truncated\]\.\.\./;
// Claude Desktop writes its log record's metadata after the message.
const TRAILER = /\s+\{ metadata: .*\}\s*$/;
const LAST_ID = /(?<!\\)"id":(-?\d+|"(?:[^"\\]|\\.)*")\}$/;
const LAST_FLAG = /(?<!\\)"isError":(true|false)\}\}$/;

/**
 * The readable part of a log message the client cut, or `undefined` when
 * the text has no cut marker or its head is not the start of a JSON object.
 *
 * @param text The log line's text after `Message from client: `.
 * @returns The message made of what the head and tail show, and the cut.
 *
 * @example Usage
 * ```ts
 * import { cutLogMessage } from "./mcp_log_cut.ts";
 * import assert from "node:assert/strict";
 *
 * const read = cutLogMessage(
 *   '{"method":"tools/call","params":{"name":"write_file","arguments":{"content":"== A RE...[8499 chars truncated]...END\\n"}},"jsonrpc":"2.0","id":5} { metadata: undefined }',
 * );
 * assert.deepEqual(read?.message, { method: "tools/call", params: { name: "write_file", arguments: {} }, id: 5 });
 * assert.equal(read?.cut.argumentsWhole, false);
 * ```
 */
export function cutLogMessage(text: string): { message: JsonObject; cut: McpCut } | undefined {
  const marker = MARKER.exec(text);
  if (marker === null) return undefined;
  const head = text.slice(0, marker.index);
  let tail = text.slice(marker.index + marker[0].length);
  // Only the end is searched: the trailer, the last id and flag sit there (bounded work).
  const from = Math.max(0, tail.length - 2000);
  const trailer = TRAILER.exec(tail.slice(from));
  if (trailer !== null) tail = tail.slice(0, from + trailer.index);
  tail = tail.trimEnd();
  const end = tail.slice(-512);
  const prefix = completePrefix(head);
  if (prefix === undefined || !prefix.cut || !isJsonObject(prefix.value)) return undefined;
  const message: JsonObject = { ...prefix.value };
  if (message.id === undefined) {
    const id = LAST_ID.exec(end);
    if (id !== null) message.id = parseJsonLossless(id[1] as string);
  }
  const flag = LAST_FLAG.exec(end);
  const cut: McpCut = {
    logged: head + marker[0] + tail,
    marker: marker[0],
    argumentsWhole: memberWhole(prefix, ["params", "arguments"]),
    resultWhole: memberWhole(prefix, ["result"]),
  };
  if (flag !== null) cut.isError = flag[1] === "true";
  return { message, cut };
}

/**
 * The cut of a log message whose JSON is whole but holds the marker (the cut
 * fell inside one string), or `undefined` when it holds none.
 *
 * @param message The parsed message.
 * @param logged The message's JSON text as logged.
 * @returns The cut: the arguments are whole only when the marker is not in them.
 *
 * @example Usage
 * ```ts
 * import { cutInString } from "./mcp_log_cut.ts";
 * import assert from "node:assert/strict";
 *
 * const text = '{"method":"tools/call","params":{"name":"w","arguments":{"c":"ab...[9 chars truncated]...yz"}},"id":5}';
 * assert.equal(cutInString(JSON.parse(text), text)?.argumentsWhole, false);
 * assert.equal(cutInString({ id: 1 }, '{"id":1}'), undefined);
 * ```
 */
export function cutInString(message: unknown, logged: string): McpCut | undefined {
  const marker = MARKER.exec(logged);
  if (marker === null) return undefined;
  const params = isJsonObject(message) && isJsonObject(message.params) ? message.params : {};
  const args = JSON.stringify(params.arguments ?? null);
  return {
    logged,
    marker: marker[0],
    argumentsWhole: !MARKER.test(args),
    resultWhole: true,
  };
}
