/**
 * Picking a variant: objectives, the Pareto front, and three policies
 * (lexicographic, weighted, pareto). Unknown values always count as worst.
 *
 * @module
 */

import { maxOf, minOf } from "../base/arrays.ts";
import { InputError } from "../base/errors.ts";
import type { Comparison } from "./comparison.ts";
import { formatMetricValue } from "./format.ts";
import {
  DEFAULT_OBJECTIVES,
  Objective,
  type ObjectiveSpec,
  SELECTION_POLICIES,
  type SelectionPolicy,
} from "./objective.ts";
import { checkMetric, type VariantStats } from "./variant_stats.ts";

/** The fields of a {@linkcode Selection}. */
export interface SelectionFields {
  /** The selected variant, or `null` with no variants. */
  chosen: string | null;
  /** The policy. */
  policy: SelectionPolicy;
  /** The objectives used. */
  objectives: Objective[];
  /** Variants best first, under the policy. */
  ranking: string[];
  /** The non-dominated variants. */
  paretoFront: string[];
  /** Weighted scores (weighted policy only). */
  scores: Record<string, number>;
  /** Per variant with an unknown value, the objectives whose value is unknown. */
  unknown: Record<string, string[]>;
  /** Why the chosen variant won, with numbers. */
  reason: string;
}

/**
 * The result of {@linkcode selectVariant}.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run, selectVariant } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [new Run("a", "t", "pass", { cost: 2 }), new Run("b", "t", "pass", { cost: 1 })];
 * const selection = selectVariant(compareRuns(runs));
 * assert.equal(selection.chosen, "b");
 * assert.equal(selection.toJSON().pareto_front.length, 1);
 * ```
 */
export class Selection implements SelectionFields {
  /** The selected variant, or `null` with no variants. */
  readonly chosen: string | null;
  /** The policy. */
  readonly policy: SelectionPolicy;
  /** The objectives used. */
  readonly objectives: Objective[];
  /** Variants best first, under the policy. */
  readonly ranking: string[];
  /** The non-dominated variants. */
  readonly paretoFront: string[];
  /** Weighted scores (weighted policy only). */
  readonly scores: Record<string, number>;
  /** Per variant with an unknown value, the objectives whose value is unknown. */
  readonly unknown: Record<string, string[]>;
  /** Why the chosen variant won, with numbers. */
  readonly reason: string;

  /**
   * Create a selection (usually {@linkcode selectVariant} does).
   *
   * @param fields Every field.
   */
  constructor(fields: SelectionFields) {
    this.chosen = fields.chosen;
    this.policy = fields.policy;
    this.objectives = fields.objectives;
    this.ranking = fields.ranking;
    this.paretoFront = fields.paretoFront;
    this.scores = fields.scores;
    this.unknown = fields.unknown;
    this.reason = fields.reason;
  }

  /**
   * A JSON-safe report (snake_case).
   *
   * @returns `{chosen, policy, objectives, ranking, pareto_front, scores, unknown, reason}`.
   */
  toJSON(): { [key: string]: unknown; pareto_front: string[] } {
    return {
      chosen: this.chosen,
      policy: this.policy,
      objectives: this.objectives.map((objective) => objective.toJSON()),
      ranking: [...this.ranking],
      pareto_front: [...this.paretoFront],
      scores: { ...this.scores },
      unknown: structuredClone(this.unknown),
      reason: this.reason,
    };
  }
}

/**
 * -1 when `x` is better than `y` on the objective, 1 when worse, 0 when
 * equal; unknown is worse than any known value.
 */
function compareOn(objective: Objective, x: number | null, y: number | null): number {
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  if (x === y) return 0;
  return (objective.goal === "max" ? x > y : x < y) ? -1 : 1;
}

function lexicographicOrder(
  variants: VariantStats[],
  objectives: Objective[],
): (x: VariantStats, y: VariantStats) => number {
  const order = new Map(variants.map((stats, index) => [stats, index]));
  return (x, y) => {
    for (const objective of objectives) {
      const c = compareOn(objective, x.metric(objective.metric), y.metric(objective.metric));
      if (c !== 0) return c;
    }
    return order.get(x)! - order.get(y)!;
  };
}

function dominates(x: VariantStats, y: VariantStats, objectives: Objective[]): boolean {
  let better = false;
  for (const objective of objectives) {
    const c = compareOn(objective, x.metric(objective.metric), y.metric(objective.metric));
    if (c > 0) return false;
    if (c < 0) better = true;
  }
  return better;
}

function objectivesOf(specs: Iterable<ObjectiveSpec> | undefined): Objective[] {
  const objectives = [...(specs ?? DEFAULT_OBJECTIVES)].map((spec) => Objective.from(spec));
  if (objectives.length === 0) {
    throw new InputError("expected at least one objective", "objectives");
  }
  return objectives;
}

/**
 * The variants no other variant dominates (at least as good on every
 * objective and better on one). Unknown values count as the worst.
 *
 * @param variants The variants.
 * @param objectives The objectives (specs as {@linkcode Objective.from} takes).
 * @returns The names of the non-dominated variants, in input order.
 * @throws {InputError} On an unknown metric.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, paretoFront, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   new Run("cheap", "t", "fail", { cost: 1 }),
 *   new Run("good", "t", "pass", { cost: 3 }),
 *   new Run("worse", "t", "fail", { cost: 2 }),
 * ];
 * assert.deepEqual(paretoFront(compareRuns(runs).variants, ["pass_rate", "cost"]), ["cheap", "good"]);
 * ```
 */
export function paretoFront(
  variants: readonly VariantStats[],
  objectives: Iterable<ObjectiveSpec>,
): string[] {
  const parsed = objectivesOf(objectives);
  return variants
    .filter((stats) => !variants.some((other) => dominates(other, stats, parsed)))
    .map((stats) => stats.variant);
}

/** Options for {@linkcode selectVariant}. */
export interface SelectVariantOptions {
  /**
   * `lexicographic`, `weighted` or `pareto`.
   * @default {"lexicographic"}
   */
  policy?: SelectionPolicy | string;
  /**
   * The objectives, most important first (metric names, `-metric`/`+metric`,
   * `{metric, goal}` or {@linkcode Objective}s).
   * @default {["pass_rate", "cost"]}
   */
  objectives?: Iterable<ObjectiveSpec>;
  /**
   * Weighted policy: weight per objective metric; a metric left out weighs 1.
   * @default {undefined}
   */
  weights?: Record<string, number>;
}

function valueText(stats: VariantStats, objective: Objective): string {
  return formatMetricValue(objective.metric, stats.metric(objective.metric));
}

/** "on pass_rate (0.900 vs 0.700 for a)": the first objective that separates the winner from the runner-up. */
function separation(winner: VariantStats, runnerUp: VariantStats, objectives: Objective[]): string {
  const ties: string[] = [];
  for (const objective of objectives) {
    const c = compareOn(
      objective,
      winner.metric(objective.metric),
      runnerUp.metric(objective.metric),
    );
    if (c !== 0) {
      const values = `${objective.metric} (${valueText(winner, objective)} vs ${
        valueText(runnerUp, objective)
      })`;
      return ties.length === 0
        ? `beats ${runnerUp.variant} on ${values}`
        : `ties ${runnerUp.variant} on ${ties.join(", ")} and beats it on ${values}`;
    }
    ties.push(`${objective.metric} (${valueText(winner, objective)})`);
  }
  return `ties ${runnerUp.variant} on every objective and comes first in the runs`;
}

function weightsOf(objectives: Objective[], weights: Record<string, number> | undefined): number[] {
  const given = weights ?? {};
  for (const [metric, weight] of Object.entries(given)) {
    checkMetric(metric, "weights");
    if (!objectives.some((objective) => objective.metric === metric)) {
      throw new InputError(
        `a weight for ${metric}, which is not an objective; add --objective ${metric} or drop the weight`,
        "weights",
      );
    }
    if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0) {
      throw new InputError(`expected a non-negative number, got ${weight}`, `weights.${metric}`);
    }
  }
  return objectives.map((objective) =>
    Object.hasOwn(given, objective.metric) ? given[objective.metric]! : 1
  );
}

/** Each objective's values scaled to [0, 1] (1 best, unknown 0), weighted and summed. */
function weightedScores(
  variants: VariantStats[],
  objectives: Objective[],
  weights: number[],
): Map<VariantStats, number> {
  const scores = new Map(variants.map((stats) => [stats, 0]));
  objectives.forEach((objective, i) => {
    const known = variants
      .map((stats) => stats.metric(objective.metric))
      .filter((value): value is number => value !== null);
    const low = minOf(known);
    const high = maxOf(known);
    for (const stats of variants) {
      const value = stats.metric(objective.metric);
      if (value === null) continue;
      const scaled = high === low
        ? 1
        : objective.goal === "max"
        ? (value - low) / (high - low)
        : (high - value) / (high - low);
      scores.set(stats, scores.get(stats)! + weights[i]! * scaled);
    }
  });
  return scores;
}

/**
 * Pick a variant from a comparison.
 *
 * - `lexicographic`: best on the first objective, ties broken by the next.
 * - `weighted`: each objective's values are scaled to [0, 1] across the
 *   variants (1 is best, unknown is 0; when every known value is equal,
 *   each variant that has one gets 1), and the weighted sum is highest.
 * - `pareto`: the Pareto front; when it has several variants, the first
 *   objective breaks the tie (then the next).
 *
 * Unknown values count as worst under every policy; `unknown` lists them.
 * Remaining ties go to the variant seen first in the runs.
 *
 * @param comparison The comparison (from {@linkcode compareRuns}).
 * @param options `policy`, `objectives`, `weights`.
 * @returns The selection, with a reason sentence that carries the numbers.
 * @throws {InputError} On an unknown policy or metric, or a weight for a metric that is not an objective.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run, selectVariant } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   new Run("a", "t", "pass", { cost: 0.01 }), new Run("a", "t", "fail", { cost: 0.01 }),
 *   new Run("b", "t", "pass"), new Run("b", "t", "fail"),
 * ];
 * const selection = selectVariant(compareRuns(runs), { policy: "pareto", objectives: ["pass_rate", "cost"] });
 * assert.equal(selection.chosen, "a");
 * assert.deepEqual(selection.unknown, { b: ["cost"] });
 * ```
 */
export function selectVariant(
  comparison: Comparison,
  options: SelectVariantOptions = {},
): Selection {
  const policy = options.policy ?? "lexicographic";
  if (!(SELECTION_POLICIES as readonly string[]).includes(policy)) {
    throw new InputError(
      `unknown policy ${policy}; use ${SELECTION_POLICIES.join(", ")}`,
      "policy",
    );
  }
  const objectives = objectivesOf(options.objectives);
  const weights = policy === "weighted" ? weightsOf(objectives, options.weights) : undefined;
  if (policy !== "weighted" && options.weights !== undefined) {
    if (Object.keys(options.weights).length > 0) {
      throw new InputError(`weights apply to the weighted policy only, not ${policy}`, "weights");
    }
  }
  const variants = comparison.variants;
  const front = paretoFront(variants, objectives);
  const unknown: Record<string, string[]> = {};
  for (const stats of variants) {
    const missing = objectives
      .filter((objective) => stats.metric(objective.metric) === null)
      .map((objective) => objective.metric);
    if (missing.length > 0) unknown[stats.variant] = missing;
  }
  const base = { policy: policy as SelectionPolicy, objectives, paretoFront: front, unknown };
  if (variants.length === 0) {
    return new Selection({
      ...base,
      chosen: null,
      ranking: [],
      scores: {},
      reason: "no variants to choose from",
    });
  }
  const lexicographic = lexicographicOrder(variants, objectives);
  let ranked: VariantStats[];
  let scores: Record<string, number> = {};
  if (policy === "weighted") {
    const byVariant = weightedScores(variants, objectives, weights!);
    scores = Object.fromEntries([...byVariant].map(([stats, score]) => [stats.variant, score]));
    ranked = [...variants].sort((x, y) =>
      byVariant.get(y)! - byVariant.get(x)! || lexicographic(x, y)
    );
  } else if (policy === "pareto") {
    const onFront = new Set(front);
    ranked = [...variants].sort((x, y) =>
      Number(onFront.has(y.variant)) - Number(onFront.has(x.variant)) || lexicographic(x, y)
    );
  } else {
    ranked = [...variants].sort(lexicographic);
  }
  const winner = ranked[0]!;
  const runnerUp = ranked[1];
  const objectiveNames = objectives.map((objective) => `${objective.goal} ${objective.metric}`);
  let reason: string;
  if (policy === "weighted") {
    const parts = objectives.map((objective) =>
      `${objective.metric} ${valueText(winner, objective)}`
    );
    reason = `${winner.variant} has the highest weighted score, ${
      scores[winner.variant]!.toFixed(3)
    } (${parts.join(", ")})`;
    if (runnerUp) {
      reason += `, vs ${scores[runnerUp.variant]!.toFixed(3)} for ${runnerUp.variant}`;
    }
  } else if (policy === "pareto") {
    const others = front.filter((name) => name !== winner.variant);
    reason = others.length === 0
      ? `${winner.variant} is the only variant on the Pareto front of ${objectiveNames.join(", ")}`
      : `${winner.variant} is on the Pareto front of ${objectiveNames.join(", ")} with ${
        others.join(", ")
      }; it ${separation(winner, ranked[1]!, objectives)}`;
    if (others.length === 0 && runnerUp) {
      reason += `; it ${separation(winner, runnerUp, objectives)}`;
    }
  } else {
    reason = runnerUp
      ? `${winner.variant} ${separation(winner, runnerUp, objectives)}`
      : `${winner.variant} is the only variant`;
  }
  const worst = Object.entries(unknown).map(([name, metrics]) =>
    `${metrics.join(", ")} of ${name}`
  );
  if (worst.length > 0) reason += `; unknown ${worst.join("; ")} counted as worst`;
  return new Selection({
    ...base,
    chosen: winner.variant,
    ranking: ranked.map((stats) => stats.variant),
    scores,
    reason,
  });
}
