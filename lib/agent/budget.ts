/**
 * `budget.max_usd` for `agent run`: before a run starts, the spend so far
 * plus the estimates of the runs in flight and of this run must not pass the
 * budget; the first run that would pass it stops the matrix (it and every run
 * after it are not started, and say why). The estimate is the spec's
 * `budget.estimate_per_run` (else 20,000 input and 2,000 output tokens) at
 * the arm's price. An arm whose price is unknown cannot be budgeted: its
 * runs are not started under a budget unless `allowUnknownPrice`, and then
 * they count as 0 (their cost stays `null`).
 *
 * @module
 */

import { runEstimateUsd } from "./estimate.ts";
import type { AgentArm, AgentSpec } from "../spec/agent_spec.ts";

/** Options for {@linkcode BudgetGate}. */
export interface BudgetGateOptions {
  /**
   * Run unpriced arms under a budget (their cost stays unknown).
   * @default {false}
   */
  allowUnknownPrice?: boolean;
}

/** Whether a run may start. */
export type Admission = { ok: true; estimate: number } | { ok: false; reason: string };

function usd(value: number): string {
  return `$${Number(value.toPrecision(4))}`;
}

/**
 * Decides which runs may start under `budget.max_usd`.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { BudgetGate } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   prices: { m: { input_per_mtok: 1, output_per_mtok: 0 } },
 *   budget: { max_usd: 2.5, estimate_per_run: { input_tokens: 1_000_000, output_tokens: 0 } },
 * });
 * const gate = new BudgetGate(spec);
 * const first = gate.admit(spec.arms[0]!);
 * assert.equal(first.ok, true);
 * gate.settle(1, 1);
 * assert.equal(gate.admit(spec.arms[0]!).ok, true);
 * assert.equal(gate.admit(spec.arms[0]!).ok, false); // 1 spent + 1 in flight + 1 > 2.5
 * ```
 */
export class BudgetGate {
  readonly #spec: AgentSpec;
  readonly #allowUnknownPrice: boolean;
  #spent = 0;
  #inFlight = 0;
  #stopped: string | null = null;

  /**
   * Create the gate.
   *
   * @param spec The spec (budget, prices, estimate).
   * @param options Whether unpriced arms may run under a budget.
   */
  constructor(spec: AgentSpec, options: BudgetGateOptions = {}) {
    this.#spec = spec;
    this.#allowUnknownPrice = options.allowUnknownPrice ?? false;
  }

  /** The known spend so far, USD. */
  get spentUsd(): number {
    return this.#spent;
  }

  /**
   * Whether a run of an arm may start; when it may, its estimate is reserved
   * until {@linkcode BudgetGate.settle}.
   *
   * @param arm The run's arm.
   * @returns `ok` with the reserved estimate, or the reason it may not start.
   */
  admit(arm: AgentArm): Admission {
    const max = this.#spec.budget.maxUsd;
    if (max === null) return { ok: true, estimate: 0 };
    if (this.#stopped !== null) return { ok: false, reason: this.#stopped };
    let estimate = runEstimateUsd(this.#spec, arm);
    if (estimate === null) {
      if (!this.#allowUnknownPrice) {
        return {
          ok: false,
          reason: `no price for ${arm.model}, so budget.max_usd cannot hold; add it under ` +
            `prices, or pass --allow-unknown-price (its cost then stays unknown)`,
        };
      }
      estimate = 0;
    }
    if (this.#spent + this.#inFlight + estimate > max * (1 + 1e-9)) {
      this.#stopped = `budget: ${usd(this.#spent)} spent + ${usd(this.#inFlight)} in flight + ` +
        `${usd(estimate)} estimated for the next run would pass budget.max_usd ${usd(max)}`;
      return { ok: false, reason: this.#stopped };
    }
    this.#inFlight += estimate;
    return { ok: true, estimate };
  }

  /**
   * A run admitted with `estimate` ended: release the estimate, add its cost
   * (the estimate when its cost is unknown, so that missing usage never
   * lets the spend pass the budget unseen).
   *
   * @param estimate What {@linkcode BudgetGate.admit} reserved.
   * @param costUsd What it cost; `null` when unknown.
   */
  settle(estimate: number, costUsd: number | null): void {
    this.#inFlight = Math.max(0, this.#inFlight - estimate);
    this.#spent += costUsd ?? estimate;
  }
}
