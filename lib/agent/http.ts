/**
 * The retry layer every provider posts through: one JSON request over
 * `fetch` with a per-request timeout, retried with exponential backoff and
 * full jitter on 429, 5xx (Anthropic's 529 included) and network errors,
 * honouring `Retry-After` (seconds or an HTTP date). Error messages never
 * hold a key: every text taken from a response passes through the run's
 * {@linkcode Redactor}. Each attempt is told to the endpoint's circuit
 * breaker when one is given (`breaker.ts`): once it is open no attempt is
 * sent and a request waiting or in flight fails at once (`kind: "breaker"`).
 *
 * @module
 */

import { ToolscoreError } from "../base/errors.ts";
import { Redactor } from "./keys.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** Why a provider request failed. */
export type ProviderErrorKind =
  | "http"
  | "network"
  | "timeout"
  | "malformed"
  | "aborted"
  | "breaker";

/** What {@linkcode postJson} tells an endpoint's circuit breaker (`breaker.ts`). */
export interface EndpointBreaker {
  /** Aborts when the breaker opens. */
  readonly signal: AbortSignal;
  /** Whether it is open. */
  isOpen(): boolean;
  /** An attempt is being sent. */
  sent(): void;
  /** An attempt was answered 2xx. */
  success(): void;
  /** An attempt could not connect, timed out or got a 5xx. */
  failure(message: string): void;
  /** Why it is open. */
  reason(): string;
}

/**
 * A provider request that failed for good (after its retries).
 *
 * @example Usage
 * ```ts
 * import { ProviderError } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new ProviderError("http", "api.example.test answered HTTP 401", 401);
 * assert.equal(error.name, "ProviderError");
 * assert.equal(error.status, 401);
 * ```
 */
export class ProviderError extends ToolscoreError {
  /**
   * Create the error.
   *
   * @param kind Why it failed.
   * @param message What happened, key values already hidden.
   * @param status The last HTTP status, if any.
   */
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** Options for {@linkcode postJson}. */
export interface PostJsonOptions {
  /**
   * Retries after the first attempt.
   * @default {4}
   */
  retries?: number;
  /**
   * The first backoff, in milliseconds; it doubles with each retry.
   * @default {500}
   */
  baseDelayMs?: number;
  /**
   * The longest wait between attempts (a longer `Retry-After` is cut to it).
   * @default {30000}
   */
  maxDelayMs?: number;
  /**
   * Milliseconds one request may take.
   * @default {120000}
   */
  timeoutMs?: number;
  /**
   * Ends the request (and the waits between attempts) early.
   * @default {undefined}
   */
  signal?: AbortSignal;
  /**
   * Hides key values in messages.
   * @default {new Redactor([])}
   */
  redactor?: Redactor;
  /**
   * A number in [0, 1), for the jitter.
   * @default {Math.random}
   */
  random?: () => number;
  /**
   * Called before each retry with the attempt number and the wait (for tests and logs).
   * @default {undefined}
   */
  onRetry?: (attempt: number, waitMs: number, reason: string) => void;
  /**
   * Called once before the first attempt with the UTF-8 size of the body (the
   * budget reserves the call's worst case here); what it throws ends the call
   * unsent.
   * @default {undefined}
   */
  beforeSend?: (bodyBytes: number) => void;
  /**
   * The endpoint's circuit breaker: told of every attempt; once open, the request fails.
   * @default {undefined}
   */
  breaker?: EndpointBreaker;
}

/** A successful response. */
export interface JsonResponse {
  /** The HTTP status (2xx). */
  status: number;
  /** The parsed body. */
  body: unknown;
  /** How many attempts it took. */
  attempts: number;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;
const BODY_EXCERPT = 300;
/** The largest response body read (a model reply is far smaller). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

// The body as text, refusing one larger than MAX_BODY_BYTES rather than holding it all.
async function boundedText(response: Response, where: string): Promise<string> {
  if (response.body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      await response.body.cancel().catch(() => {});
      throw new ProviderError(
        "malformed",
        `${where} sent a body larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`,
        response.status,
      );
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds or an HTTP
 * date; `undefined` when absent or unreadable.
 *
 * @param value The header value.
 * @param now The current time in milliseconds.
 * @returns The wait, never negative.
 *
 * @example Usage
 * ```ts
 * import { retryAfterMs } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(retryAfterMs("2"), 2000);
 * assert.equal(retryAfterMs("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")), 10_000);
 * assert.equal(retryAfterMs("soon"), undefined);
 * ```
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry `attempt` (1-based): `Retry-After` when given, else
 * full jitter over `base × 2^(attempt−1)`; both capped at `max`.
 *
 * @param attempt The retry number, from 1.
 * @param retryAfter What `Retry-After` asked for, if anything.
 * @param base The first backoff in milliseconds.
 * @param max The cap in milliseconds.
 * @param random A number in [0, 1).
 * @returns Milliseconds.
 *
 * @example Usage
 * ```ts
 * import { backoffMs } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(backoffMs(3, undefined, 500, 30_000, () => 0.5), 1000);
 * assert.equal(backoffMs(1, 90_000, 500, 30_000, () => 0.5), 30_000);
 * ```
 */
export function backoffMs(
  attempt: number,
  retryAfter: number | undefined,
  base: number,
  max: number,
  random: () => number,
): number {
  if (retryAfter !== undefined) return Math.min(max, retryAfter);
  const ceiling = Math.min(max, base * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling * random());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > BODY_EXCERPT ? `${flat.slice(0, BODY_EXCERPT)}…` : flat;
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}

/**
 * POST a JSON body and read a JSON answer, with timeouts and retries.
 *
 * @param url The endpoint.
 * @param headers Request headers (a key header among them is never echoed).
 * @param body The request body.
 * @param options Retries, timeout, cancellation, redaction.
 * @returns The parsed 2xx answer.
 * @throws {ProviderError} After the last retry, on a non-retryable status, or on a body that is not JSON.
 *
 * @example Usage
 * ```ts ignore
 * import { postJson } from "./http.ts";
 *
 * const { body } = await postJson("http://127.0.0.1:8080/v1/chat/completions", {}, { model: "m" });
 * ```
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: PostJsonOptions = {},
): Promise<JsonResponse> {
  const retries = options.retries ?? 4;
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const redactor = options.redactor ?? new Redactor([]);
  const random = options.random ?? Math.random;
  const where = redactor.text(new URL(url).origin + new URL(url).pathname);
  const payload = JSON.stringify(body);
  options.beforeSend?.(new TextEncoder().encode(payload).length);
  let last = "";
  let lastStatus: number | null = null;
  let lastKind: ProviderErrorKind = "network";
  const breaker = options.breaker;
  const tripped = () => new ProviderError("breaker", redactor.text(breaker!.reason()), lastStatus);
  const waitSignal = breaker
    ? AbortSignal.any([options.signal ?? new AbortController().signal, breaker.signal])
    : options.signal;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (options.signal?.aborted) throw new ProviderError("aborted", "the run was stopped");
    if (breaker?.isOpen()) throw tripped();
    let retryAfter: number | undefined;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = waitSignal ? AbortSignal.any([waitSignal, timeout]) : timeout;
    breaker?.sent();
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: payload,
        signal,
      });
      const text = await boundedText(response, where);
      if (response.ok) breaker?.success();
      if (response.ok) {
        try {
          return { status: response.status, body: parseJsonLossless(text), attempts: attempt + 1 };
        } catch {
          throw new ProviderError(
            "malformed",
            `${where} answered ${response.status} with a body that is not JSON: ${
              redactor.text(excerpt(text)) || "(empty)"
            }`,
            response.status,
          );
        }
      }
      lastStatus = response.status;
      lastKind = "http";
      last = `${where} answered HTTP ${response.status}${
        text.trim() === "" ? "" : `: ${redactor.text(excerpt(text))}`
      }`;
      if (!RETRYABLE(response.status)) throw new ProviderError("http", last, response.status);
      if (response.status >= 500) breaker?.failure(last);
      retryAfter = retryAfterMs(response.headers.get("retry-after"));
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (options.signal?.aborted) throw new ProviderError("aborted", "the run was stopped");
      if (breaker?.isOpen()) throw tripped();
      if (timeout.aborted) {
        lastKind = "timeout";
        last = `no answer from ${where} within ${timeoutMs / 1000} s`;
      } else {
        lastKind = "network";
        last = `cannot reach ${where}: ${redactor.text(causeOf(error))}`;
      }
      lastStatus = null;
      breaker?.failure(last);
    }
    if (breaker?.isOpen()) throw tripped();
    if (attempt === retries) break;
    const wait = backoffMs(attempt + 1, retryAfter, base, max, random);
    options.onRetry?.(attempt + 1, wait, last);
    try {
      await sleep(wait, waitSignal);
    } catch {
      if (breaker?.isOpen() && !options.signal?.aborted) throw tripped();
      throw new ProviderError("aborted", "the run was stopped");
    }
  }
  throw new ProviderError(
    lastKind,
    `${last} (gave up after ${retries + 1} attempt${retries === 0 ? "" : "s"})`,
    lastStatus,
  );
}
