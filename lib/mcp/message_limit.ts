/**
 * The MCP message limit on remote servers (issue 42): an HTTP response body
 * that is one JSON message, or one event of an SSE stream (the bytes between
 * two blank lines, so also a `data:` line that never ends), may be at most
 * `TOOLSCORE_MAX_MESSAGE_MIB` (64 MiB). Past it the body stream errors, the
 * transport is closed (which fails the request now, not at its timeout) and
 * the reason is kept for the error message. Before, an endless `data:` line
 * drove the SDK's parser to 3.65 GB and a V8 out-of-memory abort.
 *
 * @module
 */

import { sizeText } from "../base/read_limits.ts";

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * A copy of `response` whose body errors once one message is past `limit`
 * bytes: the whole body for JSON, one event for `text/event-stream`.
 *
 * @param response The response.
 * @param limit The limit in bytes.
 * @param onOver Called once with the reason when the limit is passed.
 * @returns The response to hand to the SDK.
 *
 * @example Usage
 * ```ts
 * import { limitMessages } from "./message_limit.ts";
 * import assert from "node:assert/strict";
 *
 * const reasons: string[] = [];
 * const response = limitMessages(new Response("x".repeat(100)), 10, (why) => reasons.push(why));
 * await assert.rejects(response.text(), /longer than 10 bytes/);
 * assert.equal(reasons.length, 1);
 * ```
 */
export function limitMessages(
  response: Response,
  limit: number,
  onOver: (reason: string) => void,
): Response {
  if (response.body === null || [204, 205, 304].includes(response.status)) return response;
  const sse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  let size = 0;
  let lineStart = true;
  const limited = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let over = false;
        if (!sse) over = (size += chunk.length) > limit;
        else {
          for (let i = 0; i < chunk.length && !over; i++) {
            const byte = chunk[i]!;
            over = ++size > limit;
            if (byte === NEWLINE) {
              if (lineStart) size = 0; // a blank line ends the event
              lineStart = true;
            } else if (byte !== RETURN) lineStart = false;
          }
        }
        if (over) {
          const reason = `${sse ? "an SSE event" : "a JSON message"} from the server is longer ` +
            `than ${
              sizeText(limit)
            } (the MCP message limit; set TOOLSCORE_MAX_MESSAGE_MIB to allow more)`;
          onOver(reason);
          controller.error(new Error(reason));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(limited, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

const OVERSIZED = new WeakMap<object, string>();

/**
 * Note that a transport was closed for a message past the limit.
 *
 * @param transport The transport.
 * @param reason Why.
 *
 * @example Usage
 * ```ts
 * import { noteOversized, oversizedMessage } from "./message_limit.ts";
 * import assert from "node:assert/strict";
 *
 * const transport = {};
 * noteOversized(transport, "too long");
 * assert.equal(oversizedMessage(transport), "too long");
 * ```
 */
export function noteOversized(transport: object, reason: string): void {
  if (!OVERSIZED.has(transport)) OVERSIZED.set(transport, reason);
}

/**
 * Why a transport was closed for a message past the limit, if it was.
 *
 * @param transport The transport.
 * @returns The reason, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { oversizedMessage } from "./message_limit.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(oversizedMessage({}), undefined);
 * ```
 */
export function oversizedMessage(transport: object): string | undefined {
  return OVERSIZED.get(transport);
}
