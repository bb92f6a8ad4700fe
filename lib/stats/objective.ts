/**
 * What selection optimizes: {@linkcode Objective}s, the policies and the
 * default objectives.
 *
 * @module
 */

import { describeJson, isJsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { checkMetric, OBJECTIVE_METRICS, type ObjectiveGoal } from "./variant_stats.ts";

/**
 * One thing to optimize: a metric of {@linkcode OBJECTIVE_METRICS} and
 * whether higher (`max`) or lower (`min`) is better.
 *
 * @example Usage
 * ```ts
 * import { Objective } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new Objective("cost").goal, "min");
 * assert.deepEqual(Objective.from("-pass_rate").toJSON(), { metric: "pass_rate", goal: "min" });
 * assert.throws(() => Objective.from("speed"), /unknown metric speed/);
 * ```
 */
export class Objective {
  /** The metric. */
  readonly metric: string;
  /** `max` or `min`. */
  readonly goal: ObjectiveGoal;

  /**
   * Create an objective.
   *
   * @param metric A metric of {@linkcode OBJECTIVE_METRICS}.
   * @param goal `max` or `min`; the metric's own goal when absent.
   * @throws {InputError} On an unknown metric or goal.
   */
  constructor(metric: string, goal?: ObjectiveGoal) {
    this.metric = checkMetric(metric, "objective");
    if (goal !== undefined && goal !== "max" && goal !== "min") {
      throw new InputError(`unknown goal ${JSON.stringify(goal)}; use max or min`, "goal");
    }
    this.goal = goal ?? OBJECTIVE_METRICS[metric]!;
  }

  /**
   * An objective from its spec: an {@linkcode Objective}, `{metric, goal?}`,
   * or a metric name, where `-metric` minimizes and `+metric` maximizes.
   *
   * @param spec The spec.
   * @returns The objective.
   * @throws {InputError} On an unknown metric, goal or shape.
   */
  static from(spec: ObjectiveSpec): Objective {
    if (spec instanceof Objective) return spec;
    if (typeof spec === "string") {
      if (spec.startsWith("-")) return new Objective(spec.slice(1), "min");
      if (spec.startsWith("+")) return new Objective(spec.slice(1), "max");
      return new Objective(spec);
    }
    if (isJsonObject(spec) && typeof spec.metric === "string") {
      const extra = Object.keys(spec).filter((key) => key !== "metric" && key !== "goal");
      if (extra.length > 0) throw new InputError(`unknown key ${extra[0]}`, "objective");
      return new Objective(spec.metric, spec.goal);
    }
    throw new InputError(
      `expected a metric name or {metric, goal}, got ${describeJson(spec)}`,
      "objective",
    );
  }

  /**
   * The objective in file shape.
   *
   * @returns `{metric, goal}`.
   */
  toJSON(): Record<string, unknown> {
    return { metric: this.metric, goal: this.goal };
  }
}

/** What {@linkcode Objective.from} accepts. */
export type ObjectiveSpec = Objective | string | { metric: string; goal?: ObjectiveGoal };

/**
 * The selection policies.
 *
 * @example Usage
 * ```ts
 * import { SELECTION_POLICIES } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...SELECTION_POLICIES], ["lexicographic", "weighted", "pareto"]);
 * ```
 */
export const SELECTION_POLICIES = ["lexicographic", "weighted", "pareto"] as const;

/** A selection policy. */
export type SelectionPolicy = typeof SELECTION_POLICIES[number];

/**
 * The objectives used when none are given: pass rate, then cost.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run, selectVariant } from "@toolscore/cli";
 * import { DEFAULT_OBJECTIVES } from "./objective.ts";
 * import assert from "node:assert/strict";
 *
 * const selection = selectVariant(compareRuns([new Run("a", "t", "pass")]));
 * assert.deepEqual(selection.objectives.map((o) => o.metric), [...DEFAULT_OBJECTIVES]);
 * ```
 */
export const DEFAULT_OBJECTIVES: readonly string[] = ["pass_rate", "cost"];
