/**
 * AI SDK UI message stream chunks saved inside an envelope (issue 36): JSONL
 * lines `{timestamp, session_id, …, chunk}` as chunk loggers write them (one
 * line per chunk the client received or the server sent), with the UI chunk
 * under `chunk` and the stream's end as `chunk: "[DONE]"`. Private to
 * `lib/formats/`.
 *
 * Decisions where the loggers are silent: the lines are one trace when every
 * line has a `chunk` that is a UI chunk or the `"[DONE]"` marker, and the
 * chunks together are what the `vercel-ai` reader reads; the markers are
 * dropped (a new `start` chunk begins the next message). The envelope's
 * other keys (times, sequence numbers, direction) are not read.
 *
 * @module
 */

import { isJsonObject } from "../scoring/calls.ts";
import { isVercelChunk, vercelAiReader } from "./vercel_ai.ts";

/**
 * The UI chunks of enveloped chunk lines, or `undefined` when the lines are
 * not that shape.
 *
 * @param values The parsed lines of a JSONL file.
 * @returns The chunks in order, without the `"[DONE]"` markers.
 *
 * @example Usage
 * ```ts
 * import { envelopedChunks } from "./vercel_ai_envelope.ts";
 * import assert from "node:assert/strict";
 *
 * const line = (chunk: unknown) => ({ timestamp: 1, session_id: "s", chunk });
 * const chunks = envelopedChunks([
 *   line({ type: "tool-input-available", toolCallId: "c1", toolName: "a", input: {} }),
 *   line({ type: "tool-output-available", toolCallId: "c1", output: 1 }),
 *   line("[DONE]"),
 * ]);
 * assert.equal(chunks?.length, 2);
 * assert.equal(envelopedChunks([{ chunk: { type: "tool-input-available" } }, { x: 1 }]), undefined);
 * ```
 */
export function envelopedChunks(values: readonly unknown[]): unknown[] | undefined {
  const chunks: unknown[] = [];
  for (const value of values) {
    if (!isJsonObject(value) || !("chunk" in value)) return undefined;
    if (value.chunk === "[DONE]") continue;
    if (!isVercelChunk(value.chunk)) return undefined;
    chunks.push(value.chunk);
  }
  return chunks.length > 0 && vercelAiReader.claims(chunks) ? chunks : undefined;
}
