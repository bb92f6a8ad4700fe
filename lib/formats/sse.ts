/**
 * Raw server-sent-event text, as saved from `curl -N`: `event:` and `data:`
 * lines, events separated by blank lines. Each event's data is one JSON
 * value (the `[DONE]` sentinel ends an OpenAI stream and is dropped); an
 * event name the data does not carry as `type` is added as `type`.
 *
 * @module
 */

import { checkJsonLimits } from "../base/json_limits.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

const FIELD = /^(event|data|id|retry)(:|$)/;

/**
 * Whether a text is SSE: its first non-blank line that is not a `:` comment
 * is an `event:`, `data:`, `id:` or `retry:` field.
 *
 * @param text The file's text.
 * @returns `true` for SSE text.
 *
 * @example Usage
 * ```ts
 * import { looksLikeSse } from "./sse.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(looksLikeSse('event: ping\ndata: {"type":"ping"}\n\n'), true);
 * assert.equal(looksLikeSse('{"data": 1}'), false);
 * ```
 */
export function looksLikeSse(text: string): boolean {
  let start = 0;
  // Look at a bounded number of leading lines: comments and blank lines only.
  for (let n = 0; n < 1000 && start < text.length; n++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, "");
    start = end + 1;
    if (line.trim() === "" || line.startsWith(":")) continue;
    return FIELD.test(line);
  }
  return false;
}

/**
 * The JSON payloads of SSE text, in order.
 *
 * @param text The SSE text.
 * @param source The file name, for errors.
 * @returns One parsed value per event that has data (`[DONE]` dropped).
 * @throws {InputError} When an event's data is not JSON, naming the line.
 *
 * @example Usage
 * ```ts
 * import { sseEvents } from "./sse.ts";
 * import assert from "node:assert/strict";
 *
 * const events = sseEvents('event: message_stop\ndata: {}\n\ndata: [DONE]\n', "s.sse");
 * assert.deepEqual(events, [{ type: "message_stop" }]);
 * assert.throws(() => sseEvents("data: {oops\n\n", "s.sse"), /s\.sse:1/);
 * ```
 */
export function sseEvents(text: string, source: string): unknown[] {
  const out: unknown[] = [];
  let name: string | undefined;
  let data: string[] = [];
  let dataLine = 0;
  const dispatch = () => {
    if (data.length === 0) {
      name = undefined;
      return;
    }
    const payload = data.length === 1 ? data[0] as string : data.join("\n");
    data = [];
    const event = name;
    name = undefined;
    if (payload.trim() === "[DONE]") return;
    let value: unknown;
    try {
      value = parseJsonLossless(payload);
    } catch (error) {
      throw new InputError(
        `the data of this SSE event is not JSON (${(error as Error).message}); ` +
          "fix or remove the event",
        `${source}:${dataLine}`,
      );
    }
    checkJsonLimits(value, `${source}:${dataLine}`);
    if (event !== undefined && isJsonObject(value) && value.type === undefined) {
      value = { type: event, ...value };
    }
    out.push(value);
  };
  let start = 0;
  let line = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    line++;
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end; // CRLF
    const from = start;
    start = end + 1;
    if (stop === from) {
      dispatch();
      continue;
    }
    if (text.charCodeAt(from) === 58) continue; // ":" comment
    // The common case first: "data: " then the payload, sliced once.
    if (text.startsWith("data:", from)) {
      const at = text.charCodeAt(from + 5) === 32 ? from + 6 : from + 5;
      if (data.length === 0) dataLine = line;
      data.push(text.slice(at, stop));
      continue;
    }
    const row = text.slice(from, stop);
    const colon = row.indexOf(":");
    const field = colon === -1 ? row : row.slice(0, colon);
    let value = colon === -1 ? "" : row.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      if (data.length === 0) dataLine = line;
      data.push(value);
    } else if (field === "event") {
      name = value;
    }
  }
  dispatch();
  return out;
}
