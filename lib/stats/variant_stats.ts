/**
 * One variant's summary over its runs ({@linkcode VariantStats}) and the
 * metrics selection and protocols read from it ({@linkcode OBJECTIVE_METRICS}).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { clusteredInterval } from "./clustered.ts";
import type { RunOutcome } from "./runs.ts";

/** Whether a metric is better high (`max`) or low (`min`). */
export type ObjectiveGoal = "max" | "min";

/**
 * The metrics selection and protocols can use, with the goal of each:
 * `pass_rate`, `pass_hat_k`, `interval_low` (the lower Wilson bound) are
 * maximized; `cost` and `latency` minimized.
 *
 * @example Usage
 * ```ts
 * import { OBJECTIVE_METRICS } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(OBJECTIVE_METRICS.pass_rate, "max");
 * assert.equal(OBJECTIVE_METRICS.cost, "min");
 * ```
 */
export const OBJECTIVE_METRICS: Readonly<Record<string, ObjectiveGoal>> = Object.freeze({
  pass_rate: "max",
  pass_hat_k: "max",
  interval_low: "max",
  cost: "min",
  latency: "min",
});

/**
 * Check that a name is one of {@linkcode OBJECTIVE_METRICS}.
 *
 * @param name The metric name.
 * @param where Where it came from, for the error.
 * @returns The name.
 * @throws {InputError} Naming the unknown metric and the known ones.
 *
 * @example Usage
 * ```ts
 * import { checkMetric } from "./variant_stats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkMetric("cost"), "cost");
 * assert.throws(() => checkMetric("speed"), /unknown metric speed/);
 * ```
 */
export function checkMetric(name: string, where?: string): string {
  if (!Object.hasOwn(OBJECTIVE_METRICS, name)) {
    throw new InputError(
      `unknown metric ${name}; use one of ${Object.keys(OBJECTIVE_METRICS).join(", ")}`,
      where,
    );
  }
  return name;
}

/** One task's runs under one variant, as the paired tests read them. */
export interface TaskRuns {
  /** Runs of the task. */
  n: number;
  /** Passing runs (errors and unknowns do not pass). */
  passes: number;
  /**
   * Whether each repeat passed, by repeat number; `null` when a run's repeat
   * is unknown or a repeat number occurs twice (the runs cannot be matched).
   */
  repeats: ReadonlyMap<number, boolean> | null;
  /**
   * Repeats of runs left out (error runs under `errors: exclude`): their
   * partners in another variant are left out of a matched test too.
   */
  dropped?: ReadonlySet<number>;
}

/**
 * How one task behaved over its repeats under one variant: `stable_pass`
 * (every run passed), `stable_fail` (none did), `flaky` (some did), or
 * `single` (fewer than two runs: nothing to say).
 */
export type TaskClassName = "stable_pass" | "stable_fail" | "flaky" | "single";

/** One task's class under one variant. */
export interface TaskClass {
  /** The task. */
  task: string;
  /** Passing runs. */
  passes: number;
  /** Runs (under `errors: exclude`, judged runs only). */
  n: number;
  /** The class. */
  class: TaskClassName;
}

/**
 * The class of a task from its passes and runs (see {@linkcode TaskClassName}).
 *
 * @param passes Passing runs.
 * @param n Runs.
 * @returns `single` under 2 runs, else `stable_pass`, `stable_fail` or `flaky`.
 *
 * @example Usage
 * ```ts
 * import { taskClassOf } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(taskClassOf(3, 3), "stable_pass");
 * assert.equal(taskClassOf(1, 3), "flaky");
 * assert.equal(taskClassOf(0, 3), "stable_fail");
 * assert.equal(taskClassOf(1, 1), "single");
 * ```
 */
export function taskClassOf(passes: number, n: number): TaskClassName {
  if (n < 2) return "single";
  return passes === n ? "stable_pass" : passes === 0 ? "stable_fail" : "flaky";
}

/** The fields of a {@linkcode VariantStats}. */
export interface VariantStatsFields {
  /** The variant. */
  variant: string;
  /** Runs. */
  n: number;
  /** Runs per outcome. */
  counts: Record<RunOutcome, number>;
  /** passes / n (`null` with no runs). */
  passRate: number | null;
  /** 95% Wilson interval of the pass rate. */
  interval: [number, number];
  /** Mean pass^k over tasks with at least k runs, or `null`. */
  passHatK: number | null;
  /** The k used. */
  k: number;
  /** Tasks seen. */
  tasks: number;
  /** Tasks with fewer than k runs (left out of pass^k). */
  tasksShort: number;
  /** Mean cost of the runs that have one, or `null`. */
  cost: number | null;
  /** Runs with a cost. */
  costKnown: number;
  /** Mean latency of the runs that have one, or `null`. */
  latency: number | null;
  /** Runs with a latency. */
  latencyKnown: number;
  /** Per task, its runs (the clustered interval and the paired tests read them). */
  byTask?: ReadonlyMap<string, TaskRuns>;
}

/**
 * The summary of one variant's runs.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [new Run("a", "t", "pass", { cost: 0.5 }), new Run("a", "t", "fail")];
 * const stats = compareRuns(runs).variants[0]!;
 * assert.equal(stats.passRate, 0.5);
 * assert.equal(stats.cost, 0.5);
 * assert.equal(stats.costKnown, 1);
 * assert.equal(stats.latency, null);
 * assert.equal(stats.metric("interval_low"), stats.interval[0]);
 * assert.equal(stats.clusteredInterval, null); // one task: no cluster-robust SE
 * ```
 */
export class VariantStats implements VariantStatsFields {
  /** The variant. */
  readonly variant: string;
  /** Runs. */
  readonly n: number;
  /** Runs per outcome. */
  readonly counts: Record<RunOutcome, number>;
  /** passes / n (`null` with no runs). */
  readonly passRate: number | null;
  /** 95% Wilson interval of the pass rate. */
  readonly interval: [number, number];
  /** Mean pass^k over tasks with at least k runs, or `null`. */
  readonly passHatK: number | null;
  /** The k used. */
  readonly k: number;
  /** Tasks seen. */
  readonly tasks: number;
  /** Tasks with fewer than k runs (left out of pass^k). */
  readonly tasksShort: number;
  /** Mean cost of the runs that have one, or `null`. */
  readonly cost: number | null;
  /** Runs with a cost. */
  readonly costKnown: number;
  /** Mean latency of the runs that have one, or `null`. */
  readonly latency: number | null;
  /** Runs with a latency. */
  readonly latencyKnown: number;
  /** Per task, its runs. */
  readonly byTask: ReadonlyMap<string, TaskRuns>;
  /**
   * 95% interval of the pass rate with the cluster-robust (CR1) SE over tasks
   * (see `clusteredInterval`); `null` with fewer than two tasks.
   */
  readonly clusteredInterval: [number, number] | null;
  /** The cluster-robust SE of the pass rate, or `null` with fewer than two tasks. */
  readonly clusteredSe: number | null;
  /**
   * (clustered SE / binomial SE)²: how many times more runs clustering costs;
   * `null` when unknown (fewer than two tasks, or a pass rate of 0 or 1).
   */
  readonly designEffect: number | null;
  /** Per task (in first-seen order): passes, runs and class over its repeats. */
  readonly taskClasses: readonly TaskClass[];

  /**
   * Create a variant summary (usually {@linkcode compareRuns} does).
   *
   * @param fields Every field.
   */
  constructor(fields: VariantStatsFields) {
    this.variant = fields.variant;
    this.n = fields.n;
    this.counts = fields.counts;
    this.passRate = fields.passRate;
    this.interval = fields.interval;
    this.passHatK = fields.passHatK;
    this.k = fields.k;
    this.tasks = fields.tasks;
    this.tasksShort = fields.tasksShort;
    this.cost = fields.cost;
    this.costKnown = fields.costKnown;
    this.latency = fields.latency;
    this.latencyKnown = fields.latencyKnown;
    this.byTask = fields.byTask ?? new Map();
    const clustered = clusteredInterval([...this.byTask.values()]);
    this.clusteredInterval = clustered.interval;
    this.clusteredSe = clustered.se;
    this.designEffect = clustered.designEffect;
    this.taskClasses = [...this.byTask].map(([task, runs]) => ({
      task,
      passes: runs.passes,
      n: runs.n,
      class: taskClassOf(runs.passes, runs.n),
    }));
  }

  /** Passing runs. */
  get passes(): number {
    return this.counts.pass;
  }

  /**
   * A metric for selection (see {@linkcode OBJECTIVE_METRICS}).
   *
   * @param name The metric.
   * @returns Its value, or `null` when unknown.
   * @throws {InputError} On an unknown metric.
   */
  metric(name: string): number | null {
    switch (checkMetric(name)) {
      case "pass_rate":
        return this.passRate;
      case "pass_hat_k":
        return this.passHatK;
      case "interval_low":
        return this.n === 0 ? null : this.interval[0];
      case "cost":
        return this.cost;
      default:
        return this.latency;
    }
  }

  /**
   * The summary in file shape (snake_case).
   *
   * @returns A JSON-safe object.
   */
  toJSON(): Record<string, unknown> {
    return {
      variant: this.variant,
      n: this.n,
      counts: { ...this.counts },
      pass_rate: this.passRate,
      interval: [...this.interval],
      pass_hat_k: this.passHatK,
      k: this.k,
      tasks: this.tasks,
      tasks_short: this.tasksShort,
      cost: this.cost,
      cost_known: this.costKnown,
      latency: this.latency,
      latency_known: this.latencyKnown,
      clustered_interval: this.clusteredInterval === null ? null : [...this.clusteredInterval],
      clustered_se: this.clusteredSe,
      design_effect: this.designEffect,
      task_classes: this.taskClasses.map((entry) => ({ ...entry })),
    };
  }
}
