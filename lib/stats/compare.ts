/**
 * Comparing variants over repeated runs: per-variant pass rates with Wilson
 * intervals, pass^k, mean cost and latency over the runs that have one, and
 * pairwise verdicts that call a difference only when the Fisher test and the
 * intervals both say so and both variants have enough runs.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { Comparison, PairComparison } from "./comparison.ts";
import { fisherExact } from "./fisher.ts";
import { formatPassRate, formatPValue } from "./format.ts";
import { passHatK } from "./pass_hat_k.ts";
import { type Run, RUN_OUTCOMES, type RunOutcome } from "./runs.ts";
import { VariantStats } from "./variant_stats.ts";
import { wilsonInterval } from "./wilson.ts";

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
 * import { comparePair, compareRuns, Run } from "@toolscore/cli";
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
    if (base === undefined) {
      const known = variants.map((stats) => stats.variant).join(", ") || "none";
      throw new InputError(`unknown variant ${baseline}; the runs have ${known}`, "baseline");
    }
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
