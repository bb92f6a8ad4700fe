/**
 * Bedrock's streamed Converse responses (`converse-stream`) as an HTTP
 * recording keeps them: AWS event-stream frames (binary: a 12-byte prelude
 * with the total and header lengths, headers, a JSON payload, a CRC). The
 * frames are decoded to events `{type: ":event-type", …payload}` and the
 * events merged into the Converse response they stream
 * (`{output: {message}, stopReason, usage}`).
 *
 * Decisions: the CRCs are not checked (the recording is read, not
 * trusted); a frame that does not fit the bytes, or a payload that is not
 * JSON, ends the decoding as "not an event stream" (`undefined`). At most
 * 100,000 frames are read.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

const MAX_FRAMES = 100_000;

function headersOf(bytes: Uint8Array, view: DataView, start: number, end: number) {
  const headers: Record<string, string> = {};
  let at = start;
  while (at < end) {
    const nameLength = bytes[at] as number;
    const name = new TextDecoder().decode(bytes.subarray(at + 1, at + 1 + nameLength));
    at += 1 + nameLength;
    const type = bytes[at];
    at += 1;
    if (type !== 7) return undefined; // only string headers are written by Bedrock
    const length = view.getUint16(at);
    headers[name] = new TextDecoder().decode(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return at === end ? headers : undefined;
}

/**
 * The events of AWS event-stream bytes, or `undefined` when the bytes are
 * not one.
 *
 * @param bytes The recorded body.
 * @returns The events, each `{type, …payload}`.
 *
 * @example Usage
 * ```ts
 * import { eventStreamEvents } from "./vcr_eventstream.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(eventStreamEvents(new TextEncoder().encode("{}")), undefined);
 * ```
 */
export function eventStreamEvents(bytes: Uint8Array): JsonObject[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const events: JsonObject[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (events.length >= MAX_FRAMES || at + 16 > bytes.length) return undefined;
    const total = view.getUint32(at);
    const headerLength = view.getUint32(at + 4);
    if (total < 16 + headerLength || at + total > bytes.length) return undefined;
    const headers = headersOf(bytes, view, at + 12, at + 12 + headerLength);
    if (headers === undefined || headers[":event-type"] === undefined) return undefined;
    const payload = new TextDecoder().decode(
      bytes.subarray(at + 12 + headerLength, at + total - 4),
    );
    let value: unknown;
    try {
      value = payload.trim() === "" ? {} : parseJsonLossless(payload);
    } catch {
      return undefined;
    }
    if (!isJsonObject(value)) return undefined;
    events.push({ ...value, type: headers[":event-type"] });
    at += total;
  }
  return events.length > 0 ? events : undefined;
}

const CONVERSE_EVENTS = new Set([
  "messageStart",
  "contentBlockStart",
  "contentBlockDelta",
  "contentBlockStop",
  "messageStop",
  "metadata",
]);

/**
 * The Converse response a `converse-stream` event list streams, or
 * `undefined` when the events are not Converse's.
 *
 * @param events The decoded events.
 * @returns `{output: {message: {role, content}}, stopReason?, usage?}`.
 *
 * @example Usage
 * ```ts
 * import { mergeConverseStream } from "./vcr_eventstream.ts";
 * import assert from "node:assert/strict";
 *
 * const merged = mergeConverseStream([
 *   { type: "messageStart", role: "assistant" },
 *   { type: "contentBlockStart", contentBlockIndex: 0, start: { toolUse: { toolUseId: "t", name: "f" } } },
 *   { type: "contentBlockDelta", contentBlockIndex: 0, delta: { toolUse: { input: '{"a":1}' } } },
 *   { type: "messageStop", stopReason: "tool_use" },
 * ]);
 * assert.deepEqual(merged?.output, { message: { role: "assistant", content: [
 *   { toolUse: { toolUseId: "t", name: "f", input: { a: 1 } } },
 * ] } });
 * ```
 */
export function mergeConverseStream(events: readonly unknown[]): JsonObject | undefined {
  if (
    events.length === 0 ||
    !events.every((e) => isJsonObject(e) && CONVERSE_EVENTS.has(e.type as string))
  ) {
    return undefined;
  }
  const blocks = new Map<number, { text?: string; use?: JsonObject; input: string }>();
  const doc: JsonObject = {};
  for (const event of events as JsonObject[]) {
    const index = typeof event.contentBlockIndex === "number" ? event.contentBlockIndex : 0;
    const block = blocks.get(index) ?? { input: "" };
    blocks.set(index, block);
    if (event.type === "contentBlockStart" && isJsonObject(event.start)) {
      if (isJsonObject(event.start.toolUse)) block.use = event.start.toolUse;
    } else if (event.type === "contentBlockDelta" && isJsonObject(event.delta)) {
      if (typeof event.delta.text === "string") block.text = (block.text ?? "") + event.delta.text;
      if (isJsonObject(event.delta.toolUse) && typeof event.delta.toolUse.input === "string") {
        block.input += event.delta.toolUse.input;
      }
    } else if (event.type === "messageStop" && typeof event.stopReason === "string") {
      doc.stopReason = event.stopReason;
    } else if (event.type === "metadata" && isJsonObject(event.usage)) {
      doc.usage = event.usage;
    }
  }
  const content: JsonObject[] = [];
  for (const [, block] of [...blocks].sort((a, b) => a[0] - b[0])) {
    if (block.use !== undefined) {
      let input: unknown = {};
      try {
        input = block.input === "" ? {} : parseJsonLossless(block.input);
      } catch {
        input = block.input; // kept as text: the call's arguments did not parse
      }
      content.push({ toolUse: { ...block.use, input: input as JsonObject } });
    } else if (block.text !== undefined) content.push({ text: block.text });
  }
  doc.output = { message: { role: "assistant", content } };
  return doc;
}
