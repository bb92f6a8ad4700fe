/**
 * A Transport wrapper that keeps what a server answered, as it answered it,
 * before the SDK's client validates it: so that when the client refuses an
 * `initialize` answer the doctor can say exactly what was wrong with it.
 * Also the remote transports (Streamable HTTP, and legacy HTTP+SSE).
 *
 * @module
 */

import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types";
import { maxMessageBytes } from "../base/read_limits.ts";
import { limitMessages, noteOversized } from "./message_limit.ts";

/** One answer a server sent to one of our requests. */
export interface RecordedAnswer {
  /** The request's method. */
  method: string;
  /** The `result`, when it answered with one. */
  result?: unknown;
  /** The `error`, when it answered with one. */
  error?: { code?: unknown; message?: unknown };
}

/**
 * Wraps a transport and records every answer by request method.
 *
 * @example Usage
 * ```ts ignore
 * import { RecordingTransport } from "./recording_transport.ts";
 *
 * const transport = new RecordingTransport(inner);
 * await client.connect(transport);
 * console.log(transport.lastAnswer("initialize"));
 * ```
 */
export class RecordingTransport implements Transport {
  /** Set by the client. */
  onclose?: () => void;
  /** Set by the client. */
  onerror?: (error: Error) => void;
  /** Set by the client. */
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  #methods = new Map<string | number, string>();
  #answers: RecordedAnswer[] = [];

  /**
   * Wrap a transport.
   *
   * @param inner The transport that does the work.
   */
  constructor(readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
      this.#record(message);
      this.onmessage?.(message, extra);
    };
  }

  /** The inner transport's session id (the client skips `initialize` when it is set). */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /**
   * The last answer to a request of this method.
   *
   * @param method The method, e.g. `initialize`.
   * @returns The answer, or `undefined` when none came.
   */
  lastAnswer(method: string): RecordedAnswer | undefined {
    return this.#answers.findLast((answer) => answer.method === method);
  }

  /**
   * Start the inner transport.
   *
   * @returns When started.
   */
  start(): Promise<void> {
    return this.inner.start();
  }

  /**
   * Send through the inner transport, noting the method of each request.
   *
   * @param message The message.
   * @param options The SDK's send options.
   * @returns When sent.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ("method" in message && "id" in message) this.#methods.set(message.id, message.method);
    return this.inner.send(message, options);
  }

  /**
   * Close the inner transport.
   *
   * @returns When closed.
   */
  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * Pass the negotiated version on (HTTP transports send it as a header).
   *
   * @param version The protocol version.
   */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  #record(message: JSONRPCMessage): void {
    if (!("id" in message) || message.id === undefined || "method" in message) return;
    const method = this.#methods.get(message.id);
    if (method === undefined) return;
    this.#methods.delete(message.id);
    this.#answers.push(
      "result" in message
        ? { method, result: message.result }
        : { method, error: (message as { error?: RecordedAnswer["error"] }).error },
    );
    if (this.#answers.length > 50) this.#answers.shift();
  }
}

/**
 * A remote transport: Streamable HTTP, or the SDK's legacy HTTP+SSE client.
 *
 * @param url The endpoint.
 * @param headers The request headers, expanded.
 * @param sse Whether to speak the legacy HTTP+SSE transport.
 * @returns The transport.
 *
 * @example Usage
 * ```ts ignore
 * import { remoteTransport } from "./recording_transport.ts";
 *
 * const transport = await remoteTransport(new URL("http://127.0.0.1:3001/mcp"), {}, false);
 * ```
 */
export async function remoteTransport(
  url: URL,
  headers: Record<string, string>,
  sse: boolean,
): Promise<Transport> {
  // The last WWW-Authenticate challenge, for the message of a 401 (the SDK's error drops it).
  const seen: { challenge?: string } = {};
  const limit = maxMessageBytes();
  const watched: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const challenge = response.headers.get("www-authenticate");
    if (challenge !== null) seen.challenge = challenge.slice(0, 1000);
    // One message past the limit closes the transport: the request fails now, with the reason.
    return limitMessages(response, limit, (reason) => {
      noteOversized(transport, reason);
      void transport.close().catch(() => {});
    });
  };
  // Loaded only for remote servers; the casts keep the SDK's types (a `.js` subpath alone is `any`).
  let transport: Transport;
  if (sse) {
    const { SSEClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/sse.js"
    ) as typeof import("@modelcontextprotocol/sdk/client/sse");
    transport = new SSEClientTransport(url, { requestInit: { headers }, fetch: watched });
  } else {
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    ) as typeof import("@modelcontextprotocol/sdk/client/streamableHttp");
    transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      fetch: watched,
    });
  }
  CHALLENGES.set(transport, seen);
  return transport;
}

const CHALLENGES = new WeakMap<Transport, { challenge?: string }>();

/**
 * The last `WWW-Authenticate` header a remote server sent on this transport.
 *
 * @param transport A transport from {@linkcode remoteTransport}.
 * @returns The header, or `undefined` (none, or not a remote transport).
 *
 * @example Usage
 * ```ts
 * import { authChallenge, remoteTransport } from "./recording_transport.ts";
 * import assert from "node:assert/strict";
 *
 * const transport = await remoteTransport(new URL("http://127.0.0.1:9/mcp"), {}, false);
 * assert.equal(authChallenge(transport), undefined);
 * ```
 */
export function authChallenge(transport: Transport): string | undefined {
  return CHALLENGES.get(transport)?.challenge;
}

/**
 * End a Streamable HTTP session (the HTTP DELETE the spec asks a client to
 * send when it leaves); a no-op for other transports or without a session.
 *
 * @param transport The remote transport.
 * @param ms How long to wait for the server.
 * @returns Whether a DELETE was sent and answered.
 *
 * @example Usage
 * ```ts ignore
 * import { endSession } from "./recording_transport.ts";
 *
 * await endSession(transport, 2000);
 * ```
 */
export async function endSession(transport: Transport, ms: number): Promise<boolean> {
  const terminate = (transport as { terminateSession?: () => Promise<void> }).terminateSession;
  if (typeof terminate !== "function" || transport.sessionId === undefined) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      terminate.call(transport).then(() => true, () => false),
      new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
