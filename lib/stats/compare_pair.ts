/**
 * Two variants' pass rates side by side: the pooled Fisher test with the
 * Wilson intervals, or the paired test (McNemar on runs matched by task and
 * repeat, else the sign-flip test over tasks), and the verdict sentence that
 * says which decided and why.
 *
 * @module
 */

import { type PairedAnalysis, pairedAnalysis } from "./_paired.ts";
import type { AdjustMethod } from "./adjust.ts";
import {
  differenceInterval,
  pairedDifferenceInterval,
  taskDifferenceInterval,
} from "./difference_interval.ts";
import {
  COMPARE_TESTS,
  type CompareTest,
  type DifferenceMethod,
  type Generalize,
  PairComparison,
  type PairTest,
} from "./comparison.ts";
import { fisherExact } from "./fisher.ts";
import { formatPassRate, formatPValue } from "./format.ts";
import { signFlipTest } from "./sign_flip.ts";
import { InputError } from "../base/errors.ts";
import type { VariantStats } from "./variant_stats.ts";

/** Options for {@linkcode comparePair}. */
export interface ComparePairOptions {
  /** Runs per variant needed before a difference can be called. */
  minN: number;
  /** Significance level. */
  alpha: number;
  /**
   * `auto`, `paired` or `fisher` (see {@linkcode CompareTest}).
   * @default {"auto"}
   */
  test?: CompareTest;
  /**
   * The family adjustment: with `adjustedPValue`, the verdict compares that
   * value with alpha instead of the deciding p-value (`compareRuns` passes
   * both when it reports more than one pair).
   * @default {"none"}
   */
  adjust?: AdjustMethod;
  /**
   * The deciding p-value adjusted over the family (see `adjust`).
   * @default {undefined}
   */
  adjustedPValue?: number;
  /**
   * Pairs in the family, for the verdict.
   * @default {1}
   */
  family?: number;
  /**
   * What the verdict speaks for: `runs` (McNemar when the runs match by
   * task and repeat) or `tasks` (the sign-flip test over tasks, and the t
   * interval over per-task differences).
   * @default {"runs"}
   */
  generalize?: Generalize;
}

const ADJUST_NAME = { holm: "Holm", bh: "BH", none: "" } as const;

/** `, Holm-adjusted p = 0.077 over 3 pairs`, or nothing without adjustment. */
function adjustedText(options: ComparePairOptions): string {
  const adjust = options.adjust ?? "none";
  if (adjust === "none" || options.adjustedPValue === undefined) return "";
  return `, ${ADJUST_NAME[adjust]}-adjusted p = ${formatPValue(options.adjustedPValue)} over ${
    plural(options.family ?? 1, "pair")
  }`;
}

/** `b beats a` (Holm, none) or `b over a is a discovery at FDR q = 0.05` (BH). */
function winText(winner: string, loser: string, options: ComparePairOptions): string {
  return (options.adjust ?? "none") === "bh" && options.adjustedPValue !== undefined
    ? `${winner} over ${loser} is a discovery at FDR q = ${options.alpha}`
    : `${winner} beats ${loser}`;
}

/**
 * The 95% interval of pass_rate(b) − pass_rate(a) that answers the deciding
 * question: Newcombe's paired interval over the matched runs when McNemar
 * decided, else his hybrid score interval over the pooled runs.
 */
function intervalOf(
  a: VariantStats,
  b: VariantStats,
  test: PairTest,
  paired: PairedAnalysis | null,
  generalize: Generalize,
): { interval: [number, number] | null; method: DifferenceMethod | null } {
  if (generalize === "tasks" && test === "sign-flip" && paired !== null) {
    const interval = taskDifferenceInterval(paired.differences);
    if (interval !== null) return { interval, method: "task-t" };
  }
  if (test === "mcnemar" && paired !== null && paired.pairs! > 0) {
    const [onlyA, onlyB] = paired.discordant!;
    const [both, neither] = paired.concordant!;
    return {
      interval: pairedDifferenceInterval(both, onlyB, onlyA, neither),
      method: "newcombe-paired",
    };
  }
  if (a.n === 0 || b.n === 0) return { interval: null, method: null };
  return { interval: differenceInterval(b.passes, b.n, a.passes, a.n), method: "newcombe" };
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

function shortRunsText(stats: VariantStats, minN: number): string {
  return `${stats.variant} has ${stats.n} run${
    stats.n === 1 ? "" : "s"
  }, fewer than min_n = ${minN}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * `McNemar p = 0.00049 over 100 matched runs (only b passed 13, only a 1)` or
 * `sign-flip p = 0.11 over 20 tasks`; `first` is named first.
 */
function pairedText(
  paired: PairedAnalysis,
  first: "a" | "b",
  a: VariantStats,
  b: VariantStats,
): string {
  const p = formatPValue(paired.pValue);
  if (paired.test === "mcnemar") {
    const [onlyA, onlyB] = paired.discordant!;
    const counts = first === "b"
      ? `only ${b.variant} passed ${onlyB}, only ${a.variant} ${onlyA}`
      : `only ${a.variant} passed ${onlyA}, only ${b.variant} ${onlyB}`;
    return `McNemar p = ${p} over ${plural(paired.pairs!, "matched run")} (${counts})`;
  }
  return `sign-flip p = ${p} over ${plural(paired.tasks, "task")}`;
}

/**
 * The task-level reading of a McNemar verdict: the sign-flip test over tasks ("on tasks like
 * these"), whether it can reach alpha at all (smallest p = 2 / 2^(tasks that differ)), and
 * that it speaks for tasks like these only if the tasks are a random sample of them.
 */
function taskLevelText(paired: PairedAnalysis, alpha: number, flipP: number): string {
  const differing = paired.differences.filter((d) => Math.abs(d) > 1e-12).length;
  const smallest = Math.min(1, 2 / 2 ** differing);
  if (smallest >= alpha) {
    const needed = Math.floor(Math.log2(2 / alpha)) + 1;
    return `; on tasks like these, the sign-flip test over tasks cannot reach p < ${alpha}: ${
      plural(differing, "task")
    } differ (smallest possible p = 2 / 2^${differing} = ${
      Number(smallest.toPrecision(3))
    }; at least ${needed} are needed), so the verdict speaks for these tasks only`;
  }
  if (flipP >= alpha && paired.pValue < alpha) {
    return `; caution: the sign-flip test over the ${paired.tasks} tasks gives p = ${
      formatPValue(flipP)
    } — McNemar counts matched runs as independent, and runs of one task may be alike`;
  }
  return `; on tasks like these, the sign-flip test over the ${paired.tasks} tasks gives p = ${
    formatPValue(flipP)
  } (if the tasks are a random sample of them)`;
}

function pairedReason(
  paired: PairedAnalysis,
  alpha: number,
  flipP: number | null,
  generalize: Generalize,
): string {
  const leftOut = paired.leftOut.length === 0
    ? ""
    : `; ${plural(paired.leftOut.length, "task")} run by only one variant left out`;
  if (paired.test === "mcnemar") {
    // McNemar counts matched runs as independent: it answers "on these tasks". When runs of
    // a task are alike, only the tasks are independent, and the sign-flip test over them
    // answers "on tasks like these".
    return `McNemar's exact test decided, on these tasks (generalize: runs): the runs match one to one by (task, repeat), ${
      plural(paired.pairs!, "pair")
    } on ${plural(paired.tasks, "task")}${leftOut}${taskLevelText(paired, alpha, flipP!)}`;
  }
  const how = paired.method === "exact"
    ? "exact"
    : "Monte Carlo over 100000 seeded sign assignments";
  if (generalize === "tasks") {
    const differing = paired.differences.filter((d) => Math.abs(d) > 1e-12).length;
    const smallest = Math.min(1, 2 / 2 ** differing);
    const tooFew = smallest >= alpha
      ? `; it cannot reach p < ${alpha}: ${
        plural(differing, "task")
      } differ (smallest possible p = 2 / 2^${differing} = ${
        Number(smallest.toPrecision(3))
      }; at least ${Math.floor(Math.log2(2 / alpha)) + 1} are needed)`
      : "";
    return `the sign-flip test over tasks decided (${how}), on tasks like these (generalize: tasks): ${
      plural(paired.tasks, "task")
    } run by both, a verdict about tasks like these only if they are a random sample of them${tooFew}${leftOut}`;
  }
  return `the sign-flip test over tasks decided (${how}): ${
    plural(paired.tasks, "task")
  } run by both, whose runs do not match one to one by (task, repeat)${leftOut}`;
}

const FISHER_DECIDED = "Fisher's exact test on the pooled runs and the Wilson intervals decided";

/**
 * Compare two variants' pass rates and say whether they are
 * distinguishable (see {@linkcode compareRuns}).
 *
 * - `fisher`: distinguishable when both variants have ≥ `minN` runs, the
 *   pooled Fisher p-value is below `alpha`, and the 95% Wilson intervals do
 *   not overlap.
 * - paired: distinguishable when both have ≥ `minN` runs and the paired
 *   p-value is below `alpha` (interval overlap does not apply to a paired
 *   test). McNemar when the runs of every task both ran match one to one by
 *   repeat, else the sign-flip test on per-task pass-rate differences; tasks
 *   only one variant ran are left out.
 * - `auto` (the default): paired when both ran tasks in common and the paired
 *   design could reach `alpha` at all (2 · 2^−pairs or 2 · 2^−tasks below
 *   it), else Fisher.
 *
 * `pValue` is always the pooled Fisher p-value; `pairedPValue` the paired
 * one (`null` when Fisher decided); `testReason` says which decided and why.
 *
 * @param a The first variant (the baseline, when there is one).
 * @param b The second variant.
 * @param options `minN`, `alpha`, `test`.
 * @returns The pair.
 * @throws {InputError} On an unknown test.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, Run } from "@toolscore/cli";
 * import { comparePair } from "./compare_pair.ts";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   ...Array.from({ length: 20 }, (_, i) => new Run("a", "t", i < 9 ? "pass" : "fail")),
 *   ...Array.from({ length: 30 }, (_, i) => new Run("b", "t", i < 27 ? "pass" : "fail")),
 * ];
 * const { a, b } = compareRuns(runs).byName();
 * const pair = comparePair(a!, b!, { minN: 10, alpha: 0.05 });
 * // One task, no repeat numbers: no paired test can reach alpha, so Fisher decides.
 * assert.equal(pair.test, "fisher");
 * assert.equal(pair.verdict, "b beats a: 27/30 = 0.90 [0.74, 0.97] vs 9/20 = 0.45 [0.26, 0.66], p = 0.00094");
 * ```
 */
export function comparePair(
  a: VariantStats,
  b: VariantStats,
  options: ComparePairOptions,
): PairComparison {
  const requested = options.test ?? "auto";
  if (!COMPARE_TESTS.includes(requested)) {
    throw new InputError(
      `unknown test ${JSON.stringify(requested)}; use ${COMPARE_TESTS.join(", ")}`,
      "test",
    );
  }
  const alpha = options.alpha;
  const pValue = fisherExact(a.passes, a.n - a.passes, b.passes, b.n - b.passes);
  const overlap = a.interval[0] <= b.interval[1] && b.interval[0] <= a.interval[1];
  const short = [a, b].filter((stats) => stats.n < options.minN);
  const difference = a.passRate === null || b.passRate === null ? null : b.passRate - a.passRate;
  const generalize = options.generalize ?? "runs";
  const paired = requested === "fisher" ? null : pairedAnalysis(a, b, generalize);

  let test: PairTest = "fisher";
  let taskPValue: number | null = null;
  let testReason = `${FISHER_DECIDED} (test = fisher)`;
  if (requested !== "fisher") {
    if (paired === null) {
      testReason = requested === "paired"
        ? "no paired test: no task was run by both variants"
        : `${FISHER_DECIDED}: no task was run by both variants, so no paired test`;
    } else if (requested === "auto" && paired.smallestP >= alpha && generalize === "runs") {
      const design = paired.test === "mcnemar"
        ? `McNemar's test over ${plural(paired.pairs!, "matched run")}`
        : `a sign-flip test over ${plural(paired.tasks, "task")}`;
      testReason = `${FISHER_DECIDED}: ${design} cannot reach p < ${alpha} (smallest possible p = ${
        formatPValue(paired.smallestP)
      })`;
    } else {
      test = paired.test;
      taskPValue = paired.test === "mcnemar"
        ? signFlipTest(paired.differences).pValue
        : paired.pValue;
      testReason = pairedReason(paired, alpha, taskPValue, generalize);
    }
  }
  const usePaired = test !== "fisher";
  const noPairing = requested === "paired" && paired === null;
  const deciding = usePaired ? paired!.pValue : pValue;
  const decidingAdjusted = options.adjustedPValue ?? deciding;
  const distinguishable = short.length === 0 && !noPairing &&
    (usePaired
      ? decidingAdjusted < alpha && paired!.direction !== 0
      : decidingAdjusted < alpha && !overlap);
  const adjusted = adjustedText(options);

  const p = `p = ${formatPValue(pValue)}`;
  let verdict: string;
  if (short.length > 0) {
    verdict = `${a.variant} and ${b.variant} cannot be compared yet: ${countText(a)} vs ${
      countText(b)
    }, ${short.map((stats) => shortRunsText(stats, options.minN)).join("; ")}`;
  } else if (noPairing) {
    verdict =
      `${a.variant} and ${b.variant} are not distinguishable by a paired test: no task was run by both (${
        countText(a)
      } vs ${countText(b)}, pooled Fisher ${p})`;
  } else if (usePaired) {
    const winnerIsB = paired!.direction > 0;
    const [winner, loser] = winnerIsB ? [b, a] : [a, b];
    verdict = distinguishable
      ? `${winText(winner.variant, loser.variant, options)}: ${rateText(winner)} vs ${
        rateText(loser)
      }, ${pairedText(paired!, winnerIsB ? "b" : "a", a, b)}${adjusted}; pooled Fisher ${p}`
      : `${a.variant} and ${b.variant} are not distinguishable: ${countText(a)} vs ${
        countText(b)
      }, ${pairedText(paired!, "b", a, b)}${adjusted}${
        decidingAdjusted < alpha ? "" : ` ≥ alpha = ${alpha}`
      }; pooled Fisher ${p}`;
  } else if (distinguishable) {
    const [winner, loser] = (difference ?? 0) > 0 ? [b, a] : [a, b];
    verdict = `${winText(winner.variant, loser.variant, options)}: ${rateText(winner)} vs ${
      rateText(loser)
    }, ${p}${adjusted}`;
  } else {
    const reasons = [
      decidingAdjusted < alpha
        ? `${p}${adjusted} < alpha = ${alpha}`
        : adjusted === ""
        ? p
        : `${p}${adjusted} ≥ alpha = ${alpha}`,
    ];
    reasons.push(overlap ? "intervals overlap" : "intervals do not overlap");
    verdict = `${a.variant} and ${b.variant} are not distinguishable: ${countText(a)} vs ${
      countText(b)
    }, ${reasons.join(", ")}`;
  }
  const interval = intervalOf(a, b, test, paired, generalize);
  return new PairComparison({
    a: a.variant,
    b: b.variant,
    difference,
    pValue,
    overlap,
    distinguishable,
    verdict,
    test,
    pairedPValue: usePaired ? paired!.pValue : null,
    pairedTasks: usePaired ? paired!.tasks : 0,
    discordant: usePaired ? paired!.discordant : null,
    testReason,
    differenceInterval: interval.interval,
    differenceMethod: interval.method,
    adjustedPValue: options.adjustedPValue ?? deciding,
    taskPValue,
    adjust: options.adjustedPValue === undefined ? "none" : options.adjust ?? "none",
  });
}
