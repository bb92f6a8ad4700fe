/**
 * The budget of `agent run`, a hard cap.
 *
 * - **Before every model call** its worst case is reserved (see
 *   `estimate.ts`: `ceil(request bytes / 3)` input tokens plus `max_tokens`
 *   output tokens at the arm's price). When the spend so far plus the
 *   reservations in flight plus this one would pass the cap, the call is not
 *   made ({@linkcode BudgetStop}, `stop: "budget"`): the real spend passes
 *   the cap by at most one call's actual cost above its reservation. Once a
 *   call was refused no new cell starts.
 * - **A cell is admitted whole** (issue 28): before the runs of one (task,
 *   repeat) start, the estimates of all its arms' runs (`budget.
 *   estimate_per_run`, else 20,000 input and 2,000 output tokens, at each
 *   arm's price) are held together, beside what the cells in flight still
 *   hold; a cell that does not fit is not started, nor is any after it.
 *   With good estimates a stop leaves only complete cells; when they are too
 *   low, the per-call cap still holds and the run is written as stopped.
 * - **Per-run limits** `budget.max_usd_per_run` and
 *   `budget.max_tokens_per_run` use the same rule on one run's spend and
 *   tokens (`stop: "run_budget"`).
 * - The spend counted is the ledger's (`ledger.ts`): every call of every
 *   invocation on this output, so a rerun continues the same budget. A reply
 *   without usage counts as its reservation; a call that failed with an HTTP
 *   status counts 0 (nothing was generated), one that timed out or broke
 *   counts its reservation.
 * - An arm whose price is unknown cannot be budgeted: under a cap its runs
 *   are not started unless `allowUnknownPrice`, and then they count as 0.
 *
 * @module
 */

import { ToolscoreError } from "../base/errors.ts";
import { callReservation, runEstimateUsd } from "./estimate.ts";
import { ProviderError } from "./http.ts";
import type { ReplyUsage } from "./provider.ts";
import { costUsd, lookupPrice } from "../spec/prices.ts";
import type { AgentArm, AgentSpec } from "../spec/agent_spec.ts";

/**
 * A model call the budget did not allow; the run ends with `stop`.
 *
 * @example Usage
 * ```ts
 * import { BudgetStop } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * const stop = new BudgetStop("run_budget", "budget.max_usd_per_run $0.05 reached");
 * assert.equal(stop.name, "BudgetStop");
 * assert.equal(stop.stop, "run_budget");
 * ```
 */
export class BudgetStop extends ToolscoreError {
  /**
   * Create the error.
   *
   * @param stop `budget` (the matrix or shard cap) or `run_budget` (a per-run limit).
   * @param message Why the call was not made.
   */
  constructor(readonly stop: "budget" | "run_budget", message: string) {
    super(message);
    this.name = "BudgetStop";
  }
}

/** Options for {@linkcode BudgetGate}. */
export interface BudgetGateOptions {
  /**
   * Run unpriced arms under a budget (their cost stays unknown).
   * @default {false}
   */
  allowUnknownPrice?: boolean;
  /**
   * The cap in USD (a shard's share under `--shard`); `null` for none.
   * @default {spec.budget.maxUsd}
   */
  capUsd?: number | null;
  /**
   * What the ledger already holds for these runs, USD.
   * @default {0}
   */
  priorSpendUsd?: number;
}

/** One model call's spend, as the ledger records it. */
export interface CallSpend {
  /** USD counted against the budget. */
  costUsd: number;
  /** Whether it is the reservation, not a reported usage. */
  estimated: boolean;
  /** Input tokens reported (`null` when unknown). */
  inputTokens: number | null;
  /** Output tokens reported (`null` when unknown). */
  outputTokens: number | null;
}

/** What a cell holds while its runs go. */
export interface CellTicket {
  /** The estimates of its runs, USD. */
  readonly estimate: number;
  /** Spent by its calls so far. */
  spent: number;
  /** Reserved by its calls in flight. */
  inFlight: number;
}

/** Whether a cell may start. */
export type CellAdmission = { ok: true; ticket: CellTicket } | { ok: false; reason: string };

function usd(value: number): string {
  return `$${Number(value.toPrecision(4))}`;
}

const SLACK = 1 + 1e-9;

/**
 * Decides which cells may start and which model calls may be made.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { BudgetGate, BudgetStop } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m", max_tokens: 100 }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   prices: { m: { input_per_mtok: 1, output_per_mtok: 100 } },
 *   budget: { max_usd: 0.025, estimate_per_run: { input_tokens: 1000, output_tokens: 100 } },
 * });
 * const gate = new BudgetGate(spec);
 * const cell = gate.admitCell(spec.arms);
 * assert.ok(cell.ok);
 * const meter = gate.meter(spec.arms[0]!, cell.ticket, () => {});
 * meter.reserve(3000); // 1,000 input + 100 output tokens: $0.011 reserved
 * meter.settle({ inputTokens: 1000, outputTokens: 100 }); // $0.011 spent
 * meter.reserve(3000);
 * meter.settle({ inputTokens: 1000, outputTokens: 100 }); // $0.022 spent
 * assert.throws(() => meter.reserve(3000), BudgetStop); // $0.022 + $0.011 > $0.025
 * assert.equal(gate.admitCell(spec.arms).ok, false);
 * ```
 */
export class BudgetGate {
  readonly #spec: AgentSpec;
  readonly #allowUnknownPrice: boolean;
  readonly #cap: number | null;
  #spent: number;
  #calls = 0;
  readonly #cells = new Set<CellTicket>();
  #stopped: string | null = null;

  /**
   * Create the gate.
   *
   * @param spec The spec (budget, prices, estimate).
   * @param options The cap, the spend already in the ledger, unpriced arms.
   */
  constructor(spec: AgentSpec, options: BudgetGateOptions = {}) {
    this.#spec = spec;
    this.#allowUnknownPrice = options.allowUnknownPrice ?? false;
    this.#cap = options.capUsd === undefined ? spec.budget.maxUsd : options.capUsd;
    this.#spent = options.priorSpendUsd ?? 0;
  }

  /** The cap, USD; `null` when there is none. */
  get capUsd(): number | null {
    return this.#cap;
  }

  /** The spend counted so far (the ledger's before this invocation included), USD. */
  get spentUsd(): number {
    return this.#spent;
  }

  /** Why the budget stopped the matrix; `null` while it has not. */
  get stopped(): string | null {
    return this.#stopped;
  }

  /**
   * Why an arm cannot run under the cap (its price is unknown), or `null`.
   *
   * @param arm The arm.
   * @returns The reason, or `null` when it may run.
   */
  refusal(arm: AgentArm): string | null {
    if (this.#cap === null || this.#allowUnknownPrice) return null;
    if (lookupPrice(arm.model, { overrides: this.#spec.prices }) !== null) return null;
    return `no price for ${arm.model}, so budget.max_usd cannot hold; add it under ` +
      `prices, or pass --allow-unknown-price (its cost then stays unknown)`;
  }

  /**
   * Whether a cell may start: the spend, the calls in flight, what the cells
   * in flight still hold and the estimates of this cell's runs together must
   * stay within the cap. When it may, the estimates are held until
   * {@linkcode BudgetGate.release}.
   *
   * @param arms The arms of the cell's runs (one per run).
   * @returns The ticket, or why it may not start.
   */
  admitCell(arms: readonly AgentArm[]): CellAdmission {
    if (this.#stopped !== null) return { ok: false, reason: this.#stopped };
    const estimate = arms.reduce((sum, arm) => sum + (runEstimateUsd(this.#spec, arm) ?? 0), 0);
    const ticket: CellTicket = {
      estimate: this.#cap === null ? 0 : estimate,
      spent: 0,
      inFlight: 0,
    };
    if (this.#cap !== null) {
      let held = 0;
      for (const cell of this.#cells) {
        held += Math.max(0, cell.estimate - cell.spent - cell.inFlight);
      }
      if (this.#spent + this.#calls + held + estimate > this.#cap * SLACK) {
        this.#stopped = `budget: ${usd(this.#spent)} spent + ${usd(this.#calls + held)} held + ${
          usd(estimate)
        } estimated for the next cell would pass the cap ${usd(this.#cap)}`;
        return { ok: false, reason: this.#stopped };
      }
    }
    this.#cells.add(ticket);
    return { ok: true, ticket };
  }

  /**
   * A cell's runs are over: what it held is free.
   *
   * @param ticket What {@linkcode BudgetGate.admitCell} gave.
   */
  release(ticket: CellTicket): void {
    this.#cells.delete(ticket);
  }

  /**
   * The meter of one run: it reserves each call before it is sent and counts
   * what it cost.
   *
   * @param arm The run's arm.
   * @param ticket Its cell's ticket.
   * @param onSpend Told each call's spend (for the ledger).
   * @returns The meter.
   */
  meter(arm: AgentArm, ticket: CellTicket, onSpend: (spend: CallSpend) => void): RunMeter {
    return new RunMeter(this.#spec, arm, {
      reserve: (amount) => {
        if (this.#cap !== null && this.#spent + this.#calls + amount > this.#cap * SLACK) {
          const reason = `budget: ${usd(this.#spent)} spent + ${
            usd(this.#calls)
          } reserved in flight + ${usd(amount)} for the next call would pass the cap ${
            usd(this.#cap)
          }`;
          this.#stopped ??= reason;
          throw new BudgetStop("budget", reason);
        }
        this.#calls += amount;
        ticket.inFlight += amount;
      },
      settle: (reserved, spend) => {
        this.#calls = Math.max(0, this.#calls - reserved);
        ticket.inFlight = Math.max(0, ticket.inFlight - reserved);
        this.#spent += spend.costUsd;
        ticket.spent += spend.costUsd;
        onSpend(spend);
      },
    });
  }
}

interface GateHooks {
  reserve(amount: number): void;
  settle(reserved: number, spend: CallSpend): void;
}

/**
 * One run's side of the budget: {@linkcode RunMeter.reserve} before a call
 * (its `beforeSend`), then {@linkcode RunMeter.settle} with the reply's usage
 * or {@linkcode RunMeter.fail} when the call failed.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { BudgetGate, BudgetStop } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m", max_tokens: 100 }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   budget: { max_tokens_per_run: 2000 },
 * });
 * const gate = new BudgetGate(spec);
 * const cell = gate.admitCell(spec.arms);
 * assert.ok(cell.ok);
 * const meter = gate.meter(spec.arms[0]!, cell.ticket, () => {});
 * meter.reserve(1500); // 500 + 100 tokens reserved
 * meter.settle({ inputTokens: 900, outputTokens: 100 });
 * assert.throws(() => meter.reserve(3000), (e: BudgetStop) => e.stop === "run_budget");
 * ```
 */
export class RunMeter {
  readonly #spec: AgentSpec;
  readonly #arm: AgentArm;
  readonly #gate: GateHooks;
  #pending: { usd: number; tokens: number } | null = null;
  #spent = 0;
  #tokens = 0;

  /**
   * Create the meter (use {@linkcode BudgetGate.meter}).
   *
   * @param spec The spec.
   * @param arm The arm.
   * @param gate The gate's side.
   */
  constructor(spec: AgentSpec, arm: AgentArm, gate: GateHooks) {
    this.#spec = spec;
    this.#arm = arm;
    this.#gate = gate;
  }

  /**
   * Reserve the worst case of the next call.
   *
   * @param bodyBytes The UTF-8 size of its request body.
   * @throws {BudgetStop} When the call would pass a per-run limit or the cap.
   */
  reserve(bodyBytes: number): void {
    const reservation = callReservation(this.#spec, this.#arm, bodyBytes);
    const amount = reservation.usd ?? 0;
    const tokens = reservation.inputTokens + reservation.outputTokens;
    const { maxUsdPerRun, maxTokensPerRun } = this.#spec.budget;
    if (maxUsdPerRun !== null && this.#spent + amount > maxUsdPerRun * SLACK) {
      throw new BudgetStop(
        "run_budget",
        `budget.max_usd_per_run: ${usd(this.#spent)} spent + ${
          usd(amount)
        } reserved for the next call would pass ${usd(maxUsdPerRun)}`,
      );
    }
    if (maxTokensPerRun !== null && this.#tokens + tokens > maxTokensPerRun) {
      throw new BudgetStop(
        "run_budget",
        `budget.max_tokens_per_run: ${this.#tokens} tokens used + ${tokens} reserved for the ` +
          `next call would pass ${maxTokensPerRun}`,
      );
    }
    this.#gate.reserve(amount);
    this.#pending = { usd: amount, tokens };
  }

  /**
   * The call answered: count what it cost (its reservation when the usage is unknown).
   *
   * @param usage The reply's usage.
   */
  settle(usage: ReplyUsage): void {
    const pending = this.#pending;
    if (pending === null) return;
    this.#pending = null;
    const { inputTokens, outputTokens } = usage;
    const known = inputTokens !== null && outputTokens !== null;
    const price = lookupPrice(this.#arm.model, { overrides: this.#spec.prices });
    const cost = known && price !== null
      ? costUsd(price.price, { inputTokens, outputTokens })
      : pending.usd;
    this.#spent += cost;
    this.#tokens += known ? inputTokens + outputTokens : pending.tokens;
    this.#gate.settle(pending.usd, {
      costUsd: cost,
      estimated: !known,
      inputTokens,
      outputTokens,
    });
  }

  /**
   * The call failed: an HTTP error status counts 0, anything else (a timeout,
   * a broken connection, a body that is not JSON) its reservation.
   *
   * @param error What the call threw.
   */
  fail(error: unknown): void {
    const pending = this.#pending;
    if (pending === null) return;
    this.#pending = null;
    const cost = error instanceof ProviderError && error.kind === "http" ? 0 : pending.usd;
    this.#spent += cost;
    this.#gate.settle(pending.usd, {
      costUsd: cost,
      estimated: true,
      inputTokens: null,
      outputTokens: null,
    });
  }
}
