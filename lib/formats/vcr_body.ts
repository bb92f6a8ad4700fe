/**
 * The bodies of HTTP recordings (`vcr.ts`): what a VCR.py / pytest-recording
 * cassette (YAML or JSON) or a Ruby VCR JSON cassette keeps of a request or
 * response body, decoded to the JSON the provider sent.
 *
 * - `parsed_body` (pydantic-ai's cassettes) is the body already parsed.
 * - `body` (or `content`, as older VCR.py httpx stubs write a response) is
 *   a string, `{string}` (VCR.py), `{encoding, string}` or
 *   `{base64_string}` (Ruby VCR), or bytes (YAML `!!binary`, which VCR.py
 *   writes for bytes that are not UTF-8, gzip among them).
 * - A body whose bytes start with the gzip magic (`1f 8b`) or a zlib header
 *   is inflated with `fflate`, at most {@linkcode MAX_INFLATED_BYTES} bytes
 *   and at most {@linkcode MAX_INFLATE_RATIO} times its size (past 1 MiB): a
 *   zip bomb is an error, never an allocation the input controls.
 * - Bytes that are AWS event-stream frames (Bedrock's `converse-stream`)
 *   are read as a list of events (`vcr_eventstream.ts`).
 * - The text is JSON, SSE text (`data:` lines) read as a list of events, or
 *   JSON lines (Ollama's streamed chat) read as a list.
 *
 * @module
 */

import { isJsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { fflateModule } from "../base/_lazy.ts";
import { checkJsonLimits } from "../base/json_limits.ts";
import { looksLikeSse, sseEvents } from "./sse.ts";
import { eventStreamEvents } from "./vcr_eventstream.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** The most bytes a recorded body inflates to. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
/** The most a recorded body inflates by (checked once it is past 1 MiB). */
export const MAX_INFLATE_RATIO = 1000;

const SLICE = 4096; // input pushed at a time: one push inflates to at most ~4 MiB

function latin1Bytes(text: string): Uint8Array | undefined {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 255) return undefined;
    bytes[i] = code;
  }
  return bytes;
}

function base64Bytes(text: string, where: string): Uint8Array {
  try {
    const raw = atob(text.replace(/\s+/g, ""));
    return latin1Bytes(raw) as Uint8Array;
  } catch {
    throw new InputError("the recorded body is not valid base64; fix or remove it", where);
  }
}

function isCompressed(bytes: Uint8Array): "gzip" | "zlib" | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "gzip";
  const [a, b] = [bytes[0] as number, bytes[1] as number];
  return (a & 0x0f) === 8 && (a * 256 + b) % 31 === 0 ? "zlib" : undefined;
}

/**
 * Inflate gzip or zlib bytes with caps on the size and the ratio.
 *
 * @param bytes The compressed bytes.
 * @param kind `gzip` or `zlib`.
 * @param where Where the body is, for errors.
 * @returns The inflated bytes.
 * @throws {InputError} When the data is broken or inflates past the caps.
 *
 * @example Usage
 * ```ts
 * import { inflateCapped } from "./vcr_body.ts";
 * import { gzipSync } from "fflate";
 * import assert from "node:assert/strict";
 *
 * const packed = gzipSync(new TextEncoder().encode('{"a":1}'));
 * assert.equal(new TextDecoder().decode(inflateCapped(packed, "gzip", "x")), '{"a":1}');
 * ```
 */
export function inflateCapped(bytes: Uint8Array, kind: "gzip" | "zlib", where: string): Uint8Array {
  const fflate = fflateModule();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const limit = (size: number) =>
    size > MAX_INFLATED_BYTES ||
    (size > 1024 * 1024 && size > bytes.length * MAX_INFLATE_RATIO);
  const stream = kind === "gzip"
    ? new fflate.Gunzip((chunk) => {
      total += chunk.length;
      if (!limit(total)) chunks.push(chunk);
    })
    : new fflate.Unzlib((chunk) => {
      total += chunk.length;
      if (!limit(total)) chunks.push(chunk);
    });
  try {
    for (let start = 0; start < bytes.length; start += SLICE) {
      stream.push(bytes.subarray(start, start + SLICE), start + SLICE >= bytes.length);
      if (limit(total)) {
        throw new InputError(
          `the recorded ${kind} body inflates past ${MAX_INFLATED_BYTES} bytes or ` +
            `${MAX_INFLATE_RATIO} times its size; remove the interaction or record it uncompressed`,
          where,
        );
      }
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(
      `the recorded ${kind} body is broken (${(error as Error).message}); re-record it`,
      where,
    );
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The raw body of a recorded request or response: text, bytes, or parsed already. */
function rawBody(side: Record<string, unknown>, where: string): unknown {
  if (side.parsed_body !== undefined && side.parsed_body !== null) {
    return { parsed: side.parsed_body };
  }
  // Older VCR.py httpx stubs keep a response's text as `content`.
  let body = side.body ?? side.content;
  if (isJsonObject(body)) {
    if (typeof body.base64_string === "string") {
      return base64Bytes(body.base64_string, `${where}.body.base64_string`);
    }
    body = body.string;
  }
  return body;
}

/**
 * A recorded body decoded: JSON, SSE events (a list), or `undefined` when it
 * is empty or not JSON (an image download, a form).
 *
 * @param side The recorded request or response.
 * @param where Where it is, for errors (`interactions[2].response`).
 * @returns The decoded body.
 * @throws {InputError} On a broken or over-large compressed body, or broken SSE.
 *
 * @example Usage
 * ```ts
 * import { decodeBody } from "./vcr_body.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(decodeBody({ body: { string: '{"a":1}' } }, "r"), { a: 1 });
 * assert.deepEqual(decodeBody({ parsed_body: { a: 2 } }, "r"), { a: 2 });
 * assert.deepEqual(decodeBody({ body: { base64_string: btoa('{"a":3}') } }, "r"), { a: 3 });
 * assert.equal(decodeBody({ body: null }, "r"), undefined);
 * ```
 */
export function decodeBody(side: Record<string, unknown>, where: string): unknown {
  const raw = rawBody(side, where);
  if (isJsonObject(raw) && "parsed" in raw) return raw.parsed;
  let bytes: Uint8Array | undefined;
  let text: string | undefined;
  if (raw instanceof Uint8Array) bytes = raw;
  else if (typeof raw === "string") {
    const latin = raw.length >= 2 && raw.charCodeAt(0) === 0x1f && raw.charCodeAt(1) === 0x8b
      ? latin1Bytes(raw)
      : undefined;
    if (latin !== undefined) bytes = latin;
    else text = raw;
  } else return undefined;
  if (bytes !== undefined) {
    const kind = isCompressed(bytes);
    if (kind !== undefined) bytes = inflateCapped(bytes, kind, `${where}.body`);
    const events = eventStreamEvents(bytes); // Bedrock's converse-stream
    if (events !== undefined) return events;
    text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  }
  if (text === undefined || text.trim() === "") return undefined;
  if (looksLikeSse(text)) return sseEvents(text, `${where}.body`);
  try {
    const value: unknown = parseJsonLossless(text);
    checkJsonLimits(value, `${where}.body`);
    return value;
  } catch (error) {
    if (error instanceof InputError) throw error;
    return jsonLinesOf(text, `${where}.body`);
  }
}

// A body of JSON lines (Ollama's streamed `/api/chat`), or `undefined`.
function jsonLinesOf(text: string, where: string): unknown[] | undefined {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines.length < 2) return undefined;
  const values: unknown[] = [];
  for (const line of lines) {
    try {
      values.push(parseJsonLossless(line));
    } catch {
      return undefined;
    }
  }
  checkJsonLimits(values, where);
  return values;
}
