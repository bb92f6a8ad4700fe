/**
 * What a run is expected to cost before it runs: the spec's
 * `budget.estimate_per_run` tokens (else the doctor's default, 20,000 input
 * and 2,000 output tokens) at the arm's price; `null` for an arm whose
 * price is unknown.
 *
 * And what one model call may cost at worst, reserved before it is sent:
 * `ceil(UTF-8 bytes of the request body / 3)` input tokens plus the arm's
 * `max_tokens` (else 4096) output tokens, at the arm's price. There is no
 * tokenizer offline: a token per three bytes is more tokens than the usual
 * BPE tokenizers count for English and JSON (about four bytes a token), so
 * the input part is rarely below the truth (text in other scripts can be);
 * the output part is a true bound, as the provider stops at `max_tokens`.
 *
 * @module
 */

import { DEFAULT_RUN_ESTIMATE } from "../doctor/checks.ts";
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from "./anthropic.ts";
import { costUsd, lookupPrice, type TokenCounts } from "../spec/prices.ts";
import type { AgentArm, AgentSpec } from "../spec/agent_spec.ts";

/**
 * The tokens one run is estimated to use.
 *
 * @param spec The spec.
 * @returns `budget.estimate_per_run`, else the default.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { runEstimateTokens } from "./estimate.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "gpt-4.1-mini" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 * });
 * assert.deepEqual(runEstimateTokens(spec), { inputTokens: 20_000, outputTokens: 2_000 });
 * ```
 */
export function runEstimateTokens(spec: AgentSpec): TokenCounts {
  return spec.budget.estimatePerRun ?? DEFAULT_RUN_ESTIMATE;
}

/**
 * The estimated cost of one run of an arm.
 *
 * @param spec The spec (prices, estimate).
 * @param arm The arm.
 * @returns USD, or `null` when the arm's price is unknown.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { runEstimateUsd } from "./estimate.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   prices: { m: { input_per_mtok: 1, output_per_mtok: 10 } },
 * });
 * assert.equal(runEstimateUsd(spec, spec.arms[0]!), 0.04);
 * ```
 */
export function runEstimateUsd(spec: AgentSpec, arm: AgentArm): number | null {
  const match = lookupPrice(arm.model, { overrides: spec.prices });
  return match === null ? null : costUsd(match.price, runEstimateTokens(spec));
}

/** Bytes of request body counted as one input token in a call's reservation. */
export const BYTES_PER_TOKEN = 3;

/** The worst case of one model call. */
export interface CallReservation {
  /** Input tokens: `ceil(bytes / 3)`. */
  inputTokens: number;
  /** Output tokens: the arm's `max_tokens`, else 4096. */
  outputTokens: number;
  /** Their cost at the arm's price; `null` when the price is unknown. */
  usd: number | null;
}

/**
 * The worst case of one model call, reserved before it is sent.
 *
 * @param spec The spec (prices).
 * @param arm The arm (model, `max_tokens`).
 * @param requestBytes The UTF-8 bytes of the request body.
 * @returns The tokens and their cost.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { callReservation } from "./estimate.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m", max_tokens: 500 }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   prices: { m: { input_per_mtok: 1, output_per_mtok: 10 } },
 * });
 * assert.deepEqual(callReservation(spec, spec.arms[0]!, 3001), {
 *   inputTokens: 1001,
 *   outputTokens: 500,
 *   usd: 0.006001,
 * });
 * ```
 */
export function callReservation(
  spec: AgentSpec,
  arm: AgentArm,
  requestBytes: number,
): CallReservation {
  const inputTokens = Math.ceil(requestBytes / BYTES_PER_TOKEN);
  const outputTokens = arm.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  const match = lookupPrice(arm.model, { overrides: spec.prices });
  const usd = match === null ? null : costUsd(match.price, { inputTokens, outputTokens });
  return { inputTokens, outputTokens, usd };
}
