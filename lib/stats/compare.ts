/**
 * Comparing variants over repeated runs: per-variant pass rates with Wilson
 * and task-clustered intervals, pass^k, mean cost and latency over the runs
 * that have one, and pairwise verdicts (`compare_pair.ts`).
 *
 * Changed by issue 22 (which wins over the design page's Fisher-only rule):
 * the default `test: "auto"` decides a pair with a paired test when both
 * variants ran the same tasks — McNemar when the runs match by (task,
 * repeat), else the sign-flip test over tasks — and `test: "fisher"` keeps
 * the earlier rule (Fisher p < alpha and the Wilson intervals apart).
 * `p_value` stays the pooled Fisher p-value, as the API reference defines it.
 *
 * Changed by issue 41: with more than one pair reported, each pair's
 * deciding p-value (the paired one when a paired test decided, else
 * Fisher's) is adjusted over every pair reported (`adjust`, default Holm)
 * and the verdict compares the adjusted value with alpha; every pair carries
 * the 95% interval of its difference. `errors: "exclude"` leaves error runs
 * out of n, pass rates, pass^k, cost and latency means, the paired tests
 * (with their matched partners: a pair with one side missing is no pair)
 * and task classes, while `counts.error` still counts them; `fail` (the
 * default) keeps the earlier rule, an error is a run that did not pass.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { comparePair } from "./compare_pair.ts";
import { ADJUST_METHODS, type AdjustMethod, adjustPValues } from "./adjust.ts";
import {
  COMPARE_TESTS,
  type CompareTest,
  Comparison,
  ERRORS_MODES,
  type ErrorsMode,
  type Generalize,
  GENERALIZE_TO,
  type PairComparison,
} from "./comparison.ts";
import { passHatK } from "./pass_hat_k.ts";
import { type Run, RUN_OUTCOMES, type RunOutcome } from "./runs.ts";
import { VariantStats } from "./variant_stats.ts";
import { ALL_PAIRS_UP_TO, bestObserved, cappedPairsNote } from "./pair_cap.ts";
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
   * Significance level of the pair tests.
   * @default {0.05}
   */
  alpha?: number;
  /**
   * How each pair is decided: `auto` (a paired test when both variants ran
   * tasks in common and it can reach alpha, else Fisher), `paired`, or
   * `fisher` (pooled Fisher with the Wilson intervals).
   * @default {"auto"}
   */
  test?: CompareTest;
  /**
   * How the pairs' deciding p-values are adjusted when more than one pair is
   * reported: `holm` (family-wise error), `bh` (false discovery rate) or `none`.
   * @default {"holm"}
   */
  adjust?: AdjustMethod;
  /**
   * What an error run is: `fail` (a run that did not pass) or `exclude`
   * (left out of every figure but the errors count).
   * @default {"fail"}
   */
  errors?: ErrorsMode;
  /**
   * What the verdicts speak for: `runs` (these tasks: McNemar when the runs
   * match by task and repeat) or `tasks` (tasks like these: the sign-flip
   * test over tasks and the t interval over per-task differences).
   * @default {"runs"}
   */
  generalize?: Generalize;
  /**
   * Compare every pair even past {@linkcode ALL_PAIRS_UP_TO} variants (else,
   * without a baseline, each variant is compared with the best observed).
   * @default {false}
   */
  allPairs?: boolean;
}

interface Tally {
  variant: string;
  counts: Record<RunOutcome, number>;
  n: number;
  // Per task: runs, passes, and pass/fail by repeat (null once a repeat is unknown or repeated).
  tasks: Map<
    string,
    { n: number; passes: number; repeats: Map<number, boolean> | null; dropped: Set<number> }
  >;
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
  // Under errors: exclude a task whose every run was an error has no judged run: it is left out.
  const tasks = new Map([...tally.tasks].filter(([, task]) => task.n > 0));
  let sum = 0;
  let counted = 0;
  for (const { n: runs, passes } of tasks.values()) {
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
    tasks: tasks.size,
    tasksShort: tasks.size - counted,
    cost: tally.costKnown === 0 ? null : tally.cost.value / tally.costKnown,
    costKnown: tally.costKnown,
    latency: tally.latencyKnown === 0 ? null : tally.latency.value / tally.latencyKnown,
    latencyKnown: tally.latencyKnown,
    byTask: tasks,
  });
}

function shortRuns(stats: VariantStats, minN: number): string {
  return `${stats.variant} has ${stats.n} run${
    stats.n === 1 ? "" : "s"
  }, fewer than min_n = ${minN}`;
}

function checkOptions(
  options: CompareRunsOptions,
): Required<Omit<CompareRunsOptions, "baseline" | "allPairs">> {
  const test = options.test ?? "auto";
  const adjust = options.adjust ?? "holm";
  const errors = options.errors ?? "fail";
  if (!ADJUST_METHODS.includes(adjust)) {
    throw new InputError(
      `unknown adjustment ${JSON.stringify(adjust)}; use ${ADJUST_METHODS.join(", ")}`,
      "adjust",
    );
  }
  const generalize = options.generalize ?? "runs";
  if (!GENERALIZE_TO.includes(generalize)) {
    throw new InputError(
      `unknown generalize ${JSON.stringify(generalize)}; use ${GENERALIZE_TO.join(", ")}`,
      "generalize",
    );
  }
  if (!ERRORS_MODES.includes(errors)) {
    throw new InputError(
      `unknown errors mode ${JSON.stringify(errors)}; use ${ERRORS_MODES.join(", ")}`,
      "errors",
    );
  }
  if (!COMPARE_TESTS.includes(test)) {
    throw new InputError(
      `unknown test ${JSON.stringify(test)}; use ${COMPARE_TESTS.join(", ")}`,
      "test",
    );
  }
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
  return { k, minN, alpha, test, adjust, errors, generalize };
}

/**
 * Compare variants over repeated runs.
 *
 * Per variant: n, runs per outcome, pass rate = passes / n over all runs
 * (errors and unknowns stay in n) with its 95% Wilson interval and, beside
 * it, the interval with the cluster-robust SE over tasks and the design
 * effect (`clusteredInterval`), pass^k averaged over tasks with at least k
 * runs (`tasksShort` counts the others), and mean cost and latency over the
 * runs that have one (`null` when none has one: unknown is not 0).
 *
 * Pairs are every variant against `baseline`, or all pairs in first-seen
 * order, each decided by {@linkcode comparePair} under `test`: with the
 * paired test, **distinguishable** when both variants have at least `minN`
 * runs and the paired p-value is below `alpha`; with Fisher, when both have
 * `minN` runs, the pooled Fisher p-value is below `alpha` and the 95% Wilson
 * intervals do not overlap. `notes` say what limits the comparison,
 * including tasks only one variant of a pair ran (left out of its paired
 * test).
 *
 * @param runs Every run, of every variant.
 * @param options `k`, `baseline`, `minN`, `alpha`, `test`.
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
  const { k, minN, alpha, test, adjust, errors, generalize } = checkOptions(options);
  const tallies = new Map<string, Tally>();
  for (const run of runs) {
    let tally = tallies.get(run.variant);
    if (tally === undefined) {
      tally = newTally(run.variant);
      tallies.set(run.variant, tally);
    }
    tally.counts[run.outcome]++;
    if (errors === "exclude" && run.outcome === "error") {
      // Left out of every figure but the errors count; its matched partners leave too.
      const task = tally.tasks.get(run.task);
      if (run.repeat === null) {
        if (task !== undefined) task.repeats = null;
        else tally.tasks.set(run.task, { n: 0, passes: 0, repeats: null, dropped: new Set() });
      } else if (task !== undefined) task.dropped.add(run.repeat);
      else {
        tally.tasks.set(run.task, {
          n: 0,
          passes: 0,
          repeats: new Map(),
          dropped: new Set([run.repeat]),
        });
      }
      continue;
    }
    tally.n++;
    const passed = run.outcome === "pass";
    let task = tally.tasks.get(run.task);
    if (task === undefined) {
      task = { n: 0, passes: 0, repeats: new Map(), dropped: new Set() };
      tally.tasks.set(run.task, task);
    }
    task.n++;
    if (passed) task.passes++;
    if (task.repeats !== null) {
      if (run.repeat === null || task.repeats.has(run.repeat)) task.repeats = null;
      else task.repeats.set(run.repeat, passed);
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
  const matches: [VariantStats, VariantStats][] = [];
  const capped: string[] = [];
  if (baseline !== undefined) {
    const base = variants.find((stats) => stats.variant === baseline);
    if (base === undefined) {
      const known = variants.map((stats) => stats.variant).join(", ") || "none";
      throw new InputError(`unknown variant ${baseline}; the runs have ${known}`, "baseline");
    }
    for (const stats of variants) if (stats !== base) matches.push([base, stats]);
  } else if (variants.length > ALL_PAIRS_UP_TO && options.allPairs !== true) {
    // Linear, not quadratic, in the variants (issue 42): each against the best observed.
    const best = bestObserved(variants);
    for (const stats of variants) if (stats !== best) matches.push([best, stats]);
    capped.push(cappedPairsNote(variants.length, best.variant));
  } else {
    for (let i = 0; i < variants.length; i++) {
      for (let j = i + 1; j < variants.length; j++) matches.push([variants[i]!, variants[j]!]);
    }
  }
  let pairs = matches.map(([a, b]) => comparePair(a, b, { minN, alpha, test, generalize }));
  if (pairs.length > 1 && adjust !== "none") {
    // The family is every pair reported: k − 1 against a baseline, else k(k − 1)/2.
    const adjusted = adjustPValues(pairs.map((pair) => pair.decidingPValue), { method: adjust });
    pairs = matches.map(([a, b], index) =>
      comparePair(a, b, {
        minN,
        alpha,
        test,
        generalize,
        adjust,
        adjustedPValue: adjusted[index]!,
        family: matches.length,
      })
    );
  }
  return new Comparison({
    variants,
    pairs,
    k,
    minN,
    alpha,
    baseline: baseline ?? null,
    notes: [...capped, ...notesOf(variants, minN, k, errors), ...pairNotes(variants, pairs)],
    test,
    adjust: pairs.length > 1 ? adjust : "none",
    errors,
    generalize,
  });
}

/** Tasks only one variant of a pair ran: left out of that pair's paired test. */
function pairNotes(variants: VariantStats[], pairs: PairComparison[]): string[] {
  const byName = new Map(variants.map((stats) => [stats.variant, stats]));
  const notes: string[] = [];
  for (const pair of pairs) {
    if (pair.test === "fisher") continue;
    const a = byName.get(pair.a)!;
    const b = byName.get(pair.b)!;
    const only = (x: VariantStats, y: VariantStats) =>
      [...x.byTask.keys()].filter((task) => !y.byTask.has(task)).sort();
    const onlyA = only(a, b);
    const onlyB = only(b, a);
    for (const [stats, tasks] of [[a, onlyA], [b, onlyB]] as const) {
      if (tasks.length === 0) continue;
      const shown = tasks.slice(0, 5).join(", ") + (tasks.length > 5 ? ", …" : "");
      notes.push(
        `${pair.a} vs ${pair.b}: ${tasks.length} task${
          tasks.length === 1 ? "" : "s"
        } only ${stats.variant} ran (${shown}) left out of the paired test`,
      );
    }
  }
  return notes;
}

function notesOf(
  variants: VariantStats[],
  minN: number,
  k: number,
  errors: ErrorsMode,
): string[] {
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
    if (errors === "exclude" && stats.counts.error > 0) {
      notes.push(
        `variant ${stats.variant}: ${stats.counts.error} error run${
          stats.counts.error === 1 ? "" : "s"
        } left out of n, pass rates, pass^k and the paired tests (--errors exclude)`,
      );
    }
    const unjudged = [
      errors === "fail" && stats.counts.error > 0 ? `${stats.counts.error} error` : undefined,
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
