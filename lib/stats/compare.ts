/**
 * Comparing variants over repeated runs: per-variant pass rates with Wilson
 * intervals, pass^k, mean cost and latency over the runs that have one, and
 * pairwise verdicts that call a difference only when the Fisher test and the
 * intervals both say so and both variants have enough runs.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { fisherExact } from "./fisher.ts";
import { passHatK } from "./pass_hat_k.ts";
import { type Run, RUN_OUTCOMES, type RunOutcome } from "./runs.ts";
import { wilsonInterval } from "./wilson.ts";

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
 * import { checkMetric } from "./compare.ts";
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
    };
  }
}

/** The fields of a {@linkcode PairComparison}. */
export interface PairComparisonFields {
  /** The first variant (the baseline, when there is one). */
  a: string;
  /** The second variant. */
  b: string;
  /** pass_rate(b) − pass_rate(a), or `null`. */
  difference: number | null;
  /** Two-sided Fisher exact p-value. */
  pValue: number;
  /** Whether the 95% intervals overlap. */
  overlap: boolean;
  /** Whether the difference is distinguishable. */
  distinguishable: boolean;
  /** A sentence for reports, with the numbers. */
  verdict: string;
}

/**
 * Two variants side by side.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   ...Array.from({ length: 10 }, (_, i) => new Run("a", "t", i < 9 ? "pass" : "fail")),
 *   ...Array.from({ length: 10 }, (_, i) => new Run("b", "t", i < 7 ? "pass" : "fail")),
 * ];
 * const pair = compareRuns(runs).pairs[0]!;
 * assert.equal(pair.distinguishable, false);
 * assert.equal(pair.verdict, "a and b are not distinguishable: 9/10 vs 7/10, p = 0.58, intervals overlap");
 * ```
 */
export class PairComparison implements PairComparisonFields {
  /** The first variant (the baseline, when there is one). */
  readonly a: string;
  /** The second variant. */
  readonly b: string;
  /** pass_rate(b) − pass_rate(a), or `null`. */
  readonly difference: number | null;
  /** Two-sided Fisher exact p-value. */
  readonly pValue: number;
  /** Whether the 95% intervals overlap. */
  readonly overlap: boolean;
  /** Whether the difference is distinguishable. */
  readonly distinguishable: boolean;
  /** A sentence for reports, with the numbers. */
  readonly verdict: string;

  /**
   * Create a pair comparison (usually {@linkcode compareRuns} does).
   *
   * @param fields Every field.
   */
  constructor(fields: PairComparisonFields) {
    this.a = fields.a;
    this.b = fields.b;
    this.difference = fields.difference;
    this.pValue = fields.pValue;
    this.overlap = fields.overlap;
    this.distinguishable = fields.distinguishable;
    this.verdict = fields.verdict;
  }

  /**
   * The pair in file shape (snake_case).
   *
   * @returns `{a, b, difference, p_value, overlap, distinguishable, verdict}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      a: this.a,
      b: this.b,
      difference: this.difference,
      p_value: this.pValue,
      overlap: this.overlap,
      distinguishable: this.distinguishable,
      verdict: this.verdict,
    };
  }
}

/** The fields of a {@linkcode Comparison}. */
export interface ComparisonFields {
  /** Per-variant statistics, in first-seen order. */
  variants: VariantStats[];
  /** Pairwise comparisons. */
  pairs: PairComparison[];
  /** The k of pass^k. */
  k: number;
  /** Runs needed per variant before a difference can be called. */
  minN: number;
  /** Significance level of the Fisher test. */
  alpha: number;
  /** The baseline every variant was compared with, or `null` for all pairs. */
  baseline?: string | null;
  /** What limits the comparison. */
  notes?: string[];
}

/**
 * The result of {@linkcode compareRuns}.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const comparison = compareRuns([new Run("a", "t", "pass"), new Run("b", "t", "fail")]);
 * assert.equal(comparison.byName().b?.passRate, 0);
 * assert.deepEqual(comparison.notes, [
 *   "variant a has 1 run, fewer than min_n = 10",
 *   "variant b has 1 run, fewer than min_n = 10",
 * ]);
 * assert.equal(comparison.toJSON().min_n, 10);
 * ```
 */
export class Comparison {
  /** Per-variant statistics, in first-seen order. */
  readonly variants: VariantStats[];
  /** Pairwise comparisons (each variant against the baseline, or all pairs). */
  readonly pairs: PairComparison[];
  /** The k of pass^k. */
  readonly k: number;
  /** Runs needed per variant before a difference can be called. */
  readonly minN: number;
  /** Significance level of the Fisher test. */
  readonly alpha: number;
  /** The baseline every variant was compared with, or `null` for all pairs. */
  readonly baseline: string | null;
  /** What limits the comparison, one sentence each. */
  readonly notes: string[];

  /**
   * Create a comparison (usually {@linkcode compareRuns} does).
   *
   * @param fields Every field.
   */
  constructor(fields: ComparisonFields) {
    this.variants = fields.variants;
    this.pairs = fields.pairs;
    this.k = fields.k;
    this.minN = fields.minN;
    this.alpha = fields.alpha;
    this.baseline = fields.baseline ?? null;
    this.notes = fields.notes ?? [];
  }

  /**
   * Statistics by variant name.
   *
   * @returns A record from variant name to its statistics.
   */
  byName(): Record<string, VariantStats> {
    return Object.fromEntries(this.variants.map((stats) => [stats.variant, stats]));
  }

  /**
   * The statistics of one variant.
   *
   * @param name The variant.
   * @param where Where the name came from, for the error.
   * @returns Its statistics.
   * @throws {InputError} Naming the unknown variant and the known ones.
   */
  variant(name: string, where?: string): VariantStats {
    const found = this.variants.find((stats) => stats.variant === name);
    if (found === undefined) throw unknownVariant(name, this.variants, where);
    return found;
  }

  /**
   * A JSON-safe report (snake_case).
   *
   * @returns `{k, min_n, alpha, baseline, variants, pairs, notes}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      k: this.k,
      min_n: this.minN,
      alpha: this.alpha,
      baseline: this.baseline,
      variants: this.variants.map((stats) => stats.toJSON()),
      pairs: this.pairs.map((pair) => pair.toJSON()),
      notes: [...this.notes],
    };
  }
}

function unknownVariant(name: string, variants: VariantStats[], where?: string): InputError {
  const known = variants.map((stats) => stats.variant).join(", ") || "none";
  return new InputError(`unknown variant ${name}; the runs have ${known}`, where);
}

/** Options for {@linkcode compareRuns}. */
export interface CompareRunsOptions {
  /**
   * The k of pass^k.
   * @default {1}
   */
  k?: number;
  /**
   * Compare every variant with this one; absent compares all pairs.
   * @default {undefined}
   */
  baseline?: string;
  /**
   * Runs per variant needed before a difference can be called.
   * @default {10}
   */
  minN?: number;
  /**
   * Significance level for the Fisher test.
   * @default {0.05}
   */
  alpha?: number;
}

interface Tally {
  variant: string;
  counts: Record<RunOutcome, number>;
  n: number;
  // Per task: [runs, passes].
  tasks: Map<string, [number, number]>;
  cost: CompensatedSum;
  costKnown: number;
  latency: CompensatedSum;
  latencyKnown: number;
}

/** Neumaier's compensated sum: the mean of ten 0.01 costs is 0.01, not 0.009999999999999998. */
class CompensatedSum {
  sum = 0;
  compensation = 0;
  add(value: number): void {
    const total = this.sum + value;
    this.compensation += Math.abs(this.sum) >= Math.abs(value)
      ? (this.sum - total) + value
      : (value - total) + this.sum;
    this.sum = total;
  }
  get value(): number {
    return this.sum + this.compensation;
  }
}

function newTally(variant: string): Tally {
  const counts = Object.fromEntries(RUN_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
    RunOutcome,
    number
  >;
  return {
    variant,
    counts,
    n: 0,
    tasks: new Map(),
    cost: new CompensatedSum(),
    costKnown: 0,
    latency: new CompensatedSum(),
    latencyKnown: 0,
  };
}

function statsOf(tally: Tally, k: number): VariantStats {
  let sum = 0;
  let counted = 0;
  for (const [runs, passes] of tally.tasks.values()) {
    const value = passHatK(passes, runs, k);
    if (value !== null) {
      sum += value;
      counted++;
    }
  }
  const passes = tally.counts.pass;
  return new VariantStats({
    variant: tally.variant,
    n: tally.n,
    counts: tally.counts,
    passRate: tally.n === 0 ? null : passes / tally.n,
    interval: wilsonInterval(passes, tally.n),
    passHatK: counted === 0 ? null : sum / counted,
    k,
    tasks: tally.tasks.size,
    tasksShort: tally.tasks.size - counted,
    cost: tally.costKnown === 0 ? null : tally.cost.value / tally.costKnown,
    costKnown: tally.costKnown,
    latency: tally.latencyKnown === 0 ? null : tally.latency.value / tally.latencyKnown,
    latencyKnown: tally.latencyKnown,
  });
}

/**
 * A rate with two decimals: `0.90`.
 *
 * @param value The rate.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { formatPassRate } from "./compare.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatPassRate(0.9), "0.90");
 * assert.equal(formatPassRate(null), "unknown");
 * ```
 */
export function formatPassRate(value: number | null): string {
  return value === null ? "unknown" : value.toFixed(2);
}

/**
 * A p-value with two significant digits: `0.58`, `0.00094`, `3.2e-7`.
 *
 * @param p The p-value.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { formatPValue } from "./compare.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatPValue(0.0009431206287072294), "0.00094");
 * assert.equal(formatPValue(1), "1");
 * ```
 */
export function formatPValue(p: number): string {
  if (p === 0) return "0";
  if (p < 1e-4) return p.toExponential(1);
  return String(Number(p.toPrecision(2)));
}

function countText(stats: VariantStats): string {
  return `${stats.passes}/${stats.n}`;
}

function rateText(stats: VariantStats): string {
  const [low, high] = stats.interval;
  return `${countText(stats)} = ${formatPassRate(stats.passRate)} [${formatPassRate(low)}, ${
    formatPassRate(high)
  }]`;
}

function shortRuns(stats: VariantStats, minN: number): string {
  return `${stats.variant} has ${stats.n} run${
    stats.n === 1 ? "" : "s"
  }, fewer than min_n = ${minN}`;
}

/**
 * Compare two variants' pass rates: Fisher test, Wilson intervals and the
 * verdict sentence (see {@linkcode compareRuns}).
 *
 * @param a The first variant (the baseline, when there is one).
 * @param b The second variant.
 * @param options `minN` and `alpha`.
 * @returns The pair.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run } from "@toolscore/cli";
 * import { comparePair } from "./compare.ts";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   ...Array.from({ length: 20 }, (_, i) => new Run("a", "t", i < 9 ? "pass" : "fail")),
 *   ...Array.from({ length: 30 }, (_, i) => new Run("b", "t", i < 27 ? "pass" : "fail")),
 * ];
 * const { a, b } = compareRuns(runs).byName();
 * const pair = comparePair(a!, b!, { minN: 10, alpha: 0.05 });
 * assert.equal(pair.verdict, "b beats a: 27/30 = 0.90 [0.74, 0.97] vs 9/20 = 0.45 [0.26, 0.66], p = 0.00094");
 * ```
 */
export function comparePair(
  a: VariantStats,
  b: VariantStats,
  options: { minN: number; alpha: number },
): PairComparison {
  const pValue = fisherExact(a.passes, a.n - a.passes, b.passes, b.n - b.passes);
  const overlap = a.interval[0] <= b.interval[1] && b.interval[0] <= a.interval[1];
  const short = [a, b].filter((stats) => stats.n < options.minN);
  const distinguishable = short.length === 0 && pValue < options.alpha && !overlap;
  const difference = a.passRate === null || b.passRate === null ? null : b.passRate - a.passRate;
  const p = `p = ${formatPValue(pValue)}`;
  let verdict: string;
  if (short.length > 0) {
    verdict = `${a.variant} and ${b.variant} cannot be compared yet: ${countText(a)} vs ${
      countText(b)
    }, ${short.map((stats) => shortRuns(stats, options.minN)).join("; ")}`;
  } else if (distinguishable) {
    const [winner, loser] = (difference ?? 0) > 0 ? [b, a] : [a, b];
    verdict = `${winner.variant} beats ${loser.variant}: ${rateText(winner)} vs ${
      rateText(loser)
    }, ${p}`;
  } else {
    const reasons = [pValue < options.alpha ? `${p} < alpha = ${options.alpha}` : p];
    reasons.push(overlap ? "intervals overlap" : "intervals do not overlap");
    verdict = `${a.variant} and ${b.variant} are not distinguishable: ${countText(a)} vs ${
      countText(b)
    }, ${reasons.join(", ")}`;
  }
  return new PairComparison({
    a: a.variant,
    b: b.variant,
    difference,
    pValue,
    overlap,
    distinguishable,
    verdict,
  });
}

function checkOptions(options: CompareRunsOptions): Required<Omit<CompareRunsOptions, "baseline">> {
  const k = options.k ?? 1;
  const minN = options.minN ?? 10;
  const alpha = options.alpha ?? 0.05;
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new InputError(`expected an integer of at least 1, got ${k}`, "k");
  }
  if (!Number.isSafeInteger(minN) || minN < 0) {
    throw new InputError(`expected a non-negative integer, got ${minN}`, "min_n");
  }
  if (!(alpha > 0 && alpha < 1)) {
    throw new InputError(`expected a number between 0 and 1 (exclusive), got ${alpha}`, "alpha");
  }
  return { k, minN, alpha };
}

/**
 * Compare variants over repeated runs.
 *
 * Per variant: n, runs per outcome, pass rate = passes / n over all runs
 * (errors and unknowns stay in n) with its 95% Wilson interval, pass^k
 * averaged over tasks with at least k runs (`tasksShort` counts the others),
 * and mean cost and latency over the runs that have one (`null` when none
 * has one: unknown is not 0).
 *
 * Pairs are every variant against `baseline`, or all pairs in first-seen
 * order. A pair is **distinguishable** only when both variants have at least
 * `minN` runs, the Fisher p-value is below `alpha`, and the 95% intervals do
 * not overlap. `notes` say what limits the comparison.
 *
 * @param runs Every run, of every variant.
 * @param options `k`, `baseline`, `minN`, `alpha`.
 * @returns The comparison; variants in first-seen order.
 * @throws {InputError} When `baseline` is not one of the variants, or an option is out of range.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   ...Array.from({ length: 100 }, (_, i) => new Run("a", "t", i < 90 ? "pass" : "fail")),
 *   ...Array.from({ length: 100 }, (_, i) => new Run("b", "t", i < 50 ? "pass" : "fail")),
 * ];
 * const comparison = compareRuns(runs, { baseline: "b" });
 * assert.equal(comparison.pairs[0]!.distinguishable, true);
 * assert.match(comparison.pairs[0]!.verdict, /^a beats b: 90\/100 = 0\.90/);
 * ```
 */
export function compareRuns(runs: Iterable<Run>, options: CompareRunsOptions = {}): Comparison {
  const { k, minN, alpha } = checkOptions(options);
  const tallies = new Map<string, Tally>();
  for (const run of runs) {
    let tally = tallies.get(run.variant);
    if (tally === undefined) {
      tally = newTally(run.variant);
      tallies.set(run.variant, tally);
    }
    tally.n++;
    tally.counts[run.outcome]++;
    const task = tally.tasks.get(run.task);
    const passed = run.outcome === "pass" ? 1 : 0;
    if (task === undefined) tally.tasks.set(run.task, [1, passed]);
    else {
      task[0]++;
      task[1] += passed;
    }
    if (run.cost !== null) {
      tally.cost.add(run.cost);
      tally.costKnown++;
    }
    if (run.latency !== null) {
      tally.latency.add(run.latency);
      tally.latencyKnown++;
    }
  }
  const variants = [...tallies.values()].map((tally) => statsOf(tally, k));
  const baseline = options.baseline;
  const pairs: PairComparison[] = [];
  if (baseline !== undefined) {
    const base = variants.find((stats) => stats.variant === baseline);
    if (base === undefined) throw unknownVariant(baseline, variants, "baseline");
    for (const stats of variants) {
      if (stats !== base) pairs.push(comparePair(base, stats, { minN, alpha }));
    }
  } else {
    for (let i = 0; i < variants.length; i++) {
      for (let j = i + 1; j < variants.length; j++) {
        pairs.push(comparePair(variants[i]!, variants[j]!, { minN, alpha }));
      }
    }
  }
  return new Comparison({
    variants,
    pairs,
    k,
    minN,
    alpha,
    baseline: baseline ?? null,
    notes: notesOf(variants, minN, k),
  });
}

function notesOf(variants: VariantStats[], minN: number, k: number): string[] {
  const notes: string[] = [];
  if (variants.length < 2) {
    notes.push(
      `only ${variants.length} variant${variants.length === 1 ? "" : "s"}: nothing to compare`,
    );
  }
  for (const stats of variants) {
    if (stats.n < minN) notes.push(`variant ${shortRuns(stats, minN)}`);
  }
  for (const stats of variants) {
    if (k > 1 && stats.tasksShort > 0) {
      notes.push(
        `variant ${stats.variant}: ${stats.tasksShort} of ${stats.tasks} tasks have fewer than k = ${k} runs and are left out of pass^${k}`,
      );
    }
    const unjudged = [
      stats.counts.error > 0 ? `${stats.counts.error} error` : undefined,
      stats.counts.unknown > 0 ? `${stats.counts.unknown} unknown` : undefined,
    ].filter((part) => part !== undefined);
    if (unjudged.length > 0) {
      const runs = stats.counts.error + stats.counts.unknown === 1 ? "run counts" : "runs count";
      notes.push(
        `variant ${stats.variant}: ${unjudged.join(" and ")} ${runs} as not passing`,
      );
    }
  }
  for (const what of ["cost", "latency"] as const) {
    const known = (stats: VariantStats) => what === "cost" ? stats.costKnown : stats.latencyKnown;
    if (!variants.some((stats) => known(stats) > 0)) continue;
    for (const stats of variants) {
      if (known(stats) === 0) {
        notes.push(`variant ${stats.variant}: ${what} unknown for every run; it counts as worst`);
      } else if (known(stats) < stats.n) {
        notes.push(
          `variant ${stats.variant}: ${what} known for ${
            known(stats)
          } of ${stats.n} runs; the mean is over those`,
        );
      }
    }
  }
  return notes;
}
