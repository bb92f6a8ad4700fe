/**
 * What a run is expected to cost before it runs: the spec's
 * `budget.estimate_per_run` tokens (else the doctor's default, 20,000 input
 * and 2,000 output tokens) at the arm's price; `null` for an arm whose
 * price is unknown.
 *
 * @module
 */

import { DEFAULT_RUN_ESTIMATE } from "../doctor/checks.ts";
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
