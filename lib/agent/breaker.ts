/**
 * A circuit breaker per provider endpoint (the arm's provider and its
 * resolved base URL), so that an endpoint that is down stops the runs that
 * need it instead of retrying every run's every call.
 *
 * Each HTTP attempt counts, retries included: one that cannot connect, gets
 * no answer within the request timeout, or gets a 5xx is a failure; a 2xx
 * resets the count; 429 and other 4xx change nothing (the endpoint answered).
 * At `threshold` consecutive failures the breaker opens for the rest of the
 * invocation (no half-open probe: a rerun tries again): its `signal` aborts,
 * which ends the waits and requests in flight to it, no further attempt is
 * sent, and `agent run` starts no new run on the endpoint.
 *
 * @module
 */

import { ANTHROPIC_BASE_URL } from "./anthropic.ts";
import { GEMINI_BASE_URL } from "./gemini.ts";
import { OPENAI_BASE_URL } from "./openai.ts";
import type { AgentArm } from "../spec/agent_spec.ts";

/** The consecutive failures that open a breaker unless `--max-provider-failures` says otherwise. */
export const DEFAULT_MAX_PROVIDER_FAILURES = 5;

/** A breaker's state, as `agent run --json` reports it. */
export interface BreakerState {
  /** `provider base_url`. */
  endpoint: string;
  /** The provider. */
  provider: string;
  /** The resolved base URL. */
  base_url: string;
  /** `open` once it tripped. */
  state: "closed" | "open";
  /** Failures since the last 2xx. */
  consecutive_failures: number;
  /** Attempts sent, in all (those cut short when it opened included). */
  attempts: number;
  /** Attempts that failed, in all. */
  failures: number;
  /** Attempts answered 2xx. */
  successes: number;
  /** The failures that open it. */
  threshold: number;
  /** When it opened (ISO 8601), `null` while closed. */
  opened_at: string | null;
  /** The last failure's message (key values hidden by the caller). */
  last_error: string | null;
}

/**
 * One endpoint's breaker.
 *
 * @example Usage
 * ```ts
 * import { CircuitBreaker } from "./breaker.ts";
 * import assert from "node:assert/strict";
 *
 * const breaker = new CircuitBreaker("openai", "http://127.0.0.1:1/v1", 2);
 * breaker.failure("HTTP 503");
 * breaker.success();
 * breaker.failure("HTTP 503");
 * assert.equal(breaker.isOpen(), false);
 * breaker.failure("HTTP 503");
 * assert.equal(breaker.isOpen(), true);
 * assert.equal(breaker.signal.aborted, true);
 * ```
 */
export class CircuitBreaker {
  readonly #controller = new AbortController();
  #consecutive = 0;
  #attempts = 0;
  #failures = 0;
  #successes = 0;
  #openedAt: string | null = null;
  #lastError: string | null = null;

  /**
   * Create a closed breaker.
   *
   * @param provider The provider.
   * @param baseUrl Its resolved base URL.
   * @param threshold Consecutive failures that open it (at least 1).
   */
  constructor(readonly provider: string, readonly baseUrl: string, readonly threshold: number) {}

  /** Aborts when the breaker opens. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Whether it tripped.
   *
   * @returns `true` once open.
   */
  isOpen(): boolean {
    return this.#openedAt !== null;
  }

  /** An attempt is being sent. */
  sent(): void {
    this.#attempts++;
  }

  /** An attempt was answered 2xx: the count starts over. */
  success(): void {
    this.#successes++;
    this.#consecutive = 0;
  }

  /**
   * An attempt failed (no connection, no answer in time, 5xx).
   *
   * @param message What happened.
   */
  failure(message: string): void {
    this.#failures++;
    this.#lastError = message;
    if (this.isOpen()) return;
    if (++this.#consecutive >= this.threshold) {
      this.#openedAt = new Date().toISOString();
      this.#controller.abort(new Error(this.reason()));
    }
  }

  /**
   * Why it is open, for error rows and runs not started.
   *
   * @returns One line.
   */
  reason(): string {
    return `the provider endpoint ${this.provider} ${this.baseUrl} failed ${this.#consecutive} ` +
      `time(s) in a row (last: ${this.#lastError ?? "?"}); its circuit breaker is open ` +
      `(--max-provider-failures ${this.threshold})`;
  }

  /**
   * Its state.
   *
   * @returns The state, snake_case for JSON.
   */
  state(): BreakerState {
    return {
      endpoint: `${this.provider} ${this.baseUrl}`,
      provider: this.provider,
      base_url: this.baseUrl,
      state: this.isOpen() ? "open" : "closed",
      consecutive_failures: this.#consecutive,
      attempts: this.#attempts,
      failures: this.#failures,
      successes: this.#successes,
      threshold: this.threshold,
      opened_at: this.#openedAt,
      last_error: this.#lastError,
    };
  }
}

/**
 * The resolved base URL an arm posts to (its `base_url`, else the provider's
 * default), without a trailing slash.
 *
 * @param arm The arm.
 * @returns The base URL.
 *
 * @example Usage
 * ```ts
 * import { armBaseUrl } from "./breaker.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(armBaseUrl({ id: "a", provider: "openai", model: "m", baseUrl: "http://h/v1/" }), "http://h/v1");
 * assert.equal(armBaseUrl({ id: "a", provider: "anthropic", model: "m" }), "https://api.anthropic.com");
 * ```
 */
export function armBaseUrl(arm: AgentArm): string {
  const defaults = {
    openai: OPENAI_BASE_URL,
    anthropic: ANTHROPIC_BASE_URL,
    gemini: GEMINI_BASE_URL,
  };
  return (arm.baseUrl ?? defaults[arm.provider]).replace(/\/+$/, "");
}

/**
 * The breakers of one `agent run`, one per endpoint, made on first use.
 *
 * @example Usage
 * ```ts
 * import { Breakers } from "./breaker.ts";
 * import assert from "node:assert/strict";
 *
 * const breakers = new Breakers(5);
 * const a = breakers.of({ id: "a", provider: "openai", model: "m", baseUrl: "http://h/v1" });
 * const b = breakers.of({ id: "b", provider: "openai", model: "n", baseUrl: "http://h/v1/" });
 * assert.equal(a, b);
 * assert.equal(breakers.states().length, 1);
 * ```
 */
export class Breakers {
  readonly #byEndpoint = new Map<string, CircuitBreaker>();

  /**
   * Create the set.
   *
   * @param threshold Consecutive failures that open a breaker.
   */
  constructor(readonly threshold: number = DEFAULT_MAX_PROVIDER_FAILURES) {}

  /**
   * The breaker of an arm's endpoint.
   *
   * @param arm The arm.
   * @returns Its breaker.
   */
  of(arm: AgentArm): CircuitBreaker {
    const base = armBaseUrl(arm);
    const key = `${arm.provider} ${base}`;
    let breaker = this.#byEndpoint.get(key);
    if (breaker === undefined) {
      breaker = new CircuitBreaker(arm.provider, base, this.threshold);
      this.#byEndpoint.set(key, breaker);
    }
    return breaker;
  }

  /**
   * Every breaker's state, in the order first used.
   *
   * @returns The states.
   */
  states(): BreakerState[] {
    return [...this.#byEndpoint.values()].map((breaker) => breaker.state());
  }
}
