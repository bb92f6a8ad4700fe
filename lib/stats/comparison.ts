/**
 * The shapes `compareRuns` returns: two variants side by side
 * ({@linkcode PairComparison}) and the whole comparison ({@linkcode Comparison}).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import type { AdjustMethod } from "./adjust.ts";
import type { VariantStats } from "./variant_stats.ts";

/**
 * What an error run is: `fail` (it counts as a run that did not pass, the
 * rule before issue 41) or `exclude` (it leaves n, pass rates, pass^k, the
 * paired tests and task classes; the errors column still counts it).
 */
export type ErrorsMode = "fail" | "exclude";

/**
 * The values of {@linkcode ErrorsMode}.
 *
 * @example Usage
 * ```ts
 * import { ERRORS_MODES } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...ERRORS_MODES], ["fail", "exclude"]);
 * ```
 */
export const ERRORS_MODES: readonly ErrorsMode[] = ["fail", "exclude"];

/**
 * How a pair's difference interval was made: `newcombe-paired` (Newcombe's
 * paired interval over matched runs), `newcombe` (his hybrid score interval
 * over the pooled runs), `task-t` (the t interval over per-task differences).
 */
export type DifferenceMethod = "newcombe-paired" | "newcombe" | "task-t";

/**
 * What a verdict speaks for: `runs` (these tasks: McNemar over matched runs
 * when they match) or `tasks` (tasks like these: the sign-flip test over
 * tasks, and the t interval over per-task differences).
 */
export type Generalize = "runs" | "tasks";

/**
 * The values of {@linkcode Generalize}.
 *
 * @example Usage
 * ```ts
 * import { GENERALIZE_TO } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...GENERALIZE_TO], ["runs", "tasks"]);
 * ```
 */
export const GENERALIZE_TO: readonly Generalize[] = ["runs", "tasks"];

/**
 * How `compareRuns` picks the test for each pair: `auto` (paired
 * when both variants ran tasks in common and the paired test can reach
 * alpha, else Fisher), `paired` (always the paired test), `fisher` (the
 * pooled Fisher test with the Wilson intervals, the rule before issue 22).
 */
export type CompareTest = "auto" | "paired" | "fisher";

/**
 * The values of {@linkcode CompareTest}.
 *
 * @example Usage
 * ```ts
 * import { COMPARE_TESTS } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...COMPARE_TESTS], ["auto", "paired", "fisher"]);
 * ```
 */
export const COMPARE_TESTS: readonly CompareTest[] = ["auto", "paired", "fisher"];

/**
 * The test that decided a pair: `fisher` (Fisher's exact test on the pooled
 * runs, with the Wilson intervals), `mcnemar` (McNemar's exact test on runs
 * matched by task and repeat) or `sign-flip` (the paired permutation test
 * over per-task pass rates).
 */
export type PairTest = "fisher" | "mcnemar" | "sign-flip";

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
  /** The test that decided. */
  test?: PairTest;
  /** The paired test's p-value, or `null` when Fisher decided. */
  pairedPValue?: number | null;
  /** Tasks in the paired analysis (run by both), 0 when Fisher decided. */
  pairedTasks?: number;
  /** McNemar only: `[b, c]`, matched runs where only a passed and where only b passed. */
  discordant?: [number, number] | null;
  /** Which test decided and why, one sentence. */
  testReason?: string;
  /** 95% interval of `difference`, or `null` when a variant has no runs. */
  differenceInterval?: [number, number] | null;
  /** How `differenceInterval` was made, or `null`. */
  differenceMethod?: DifferenceMethod | null;
  /** The deciding p-value adjusted over every pair reported (the raw one with one pair). */
  adjustedPValue?: number | null;
  /** The adjustment the verdict used. */
  adjust?: AdjustMethod;
  /** The task-level sign-flip p-value over the tasks both ran ("on tasks like these"), or `null` when Fisher decided. */
  taskPValue?: number | null;
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
  /** The test that decided. */
  readonly test: PairTest;
  /** The paired test's p-value, or `null` when Fisher decided. */
  readonly pairedPValue: number | null;
  /** Tasks in the paired analysis (run by both), 0 when Fisher decided. */
  readonly pairedTasks: number;
  /** McNemar only: `[b, c]`, matched runs where only a passed and where only b passed. */
  readonly discordant: [number, number] | null;
  /** Which test decided and why, one sentence. */
  readonly testReason: string;
  /** 95% interval of `difference`, or `null` when a variant has no runs. */
  readonly differenceInterval: [number, number] | null;
  /** How `differenceInterval` was made, or `null`. */
  readonly differenceMethod: DifferenceMethod | null;
  /** The deciding p-value adjusted over every pair reported, or `null` before adjustment. */
  readonly adjustedPValue: number | null;
  /** The adjustment the verdict used. */
  readonly adjust: AdjustMethod;
  /** The task-level sign-flip p-value over the tasks both ran ("on tasks like these"), or `null` when Fisher decided. */
  readonly taskPValue: number | null;

  /**
   * Create a pair comparison (usually `compareRuns` does).
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
    this.test = fields.test ?? "fisher";
    this.pairedPValue = fields.pairedPValue ?? null;
    this.pairedTasks = fields.pairedTasks ?? 0;
    this.discordant = fields.discordant ?? null;
    this.testReason = fields.testReason ?? "";
    this.differenceInterval = fields.differenceInterval ?? null;
    this.differenceMethod = fields.differenceMethod ?? null;
    this.adjustedPValue = fields.adjustedPValue ?? null;
    this.adjust = fields.adjust ?? "none";
    this.taskPValue = fields.taskPValue ?? null;
  }

  /** The p-value that decided: the paired one when a paired test decided, else Fisher's. */
  get decidingPValue(): number {
    return this.pairedPValue ?? this.pValue;
  }

  /**
   * The pair in file shape (snake_case).
   *
   * @returns `{a, b, difference, p_value, overlap, distinguishable, verdict, test,
   *   paired_p_value, paired_tasks, discordant, test_reason, difference_interval,
   *   difference_method, adjusted_p_value, adjust, task_p_value}`.
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
      test: this.test,
      paired_p_value: this.pairedPValue,
      paired_tasks: this.pairedTasks,
      discordant: this.discordant === null ? null : [...this.discordant],
      test_reason: this.testReason,
      difference_interval: this.differenceInterval === null ? null : [...this.differenceInterval],
      difference_method: this.differenceMethod,
      adjusted_p_value: this.adjustedPValue,
      adjust: this.adjust,
      task_p_value: this.taskPValue,
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
  /** Significance level of the pair tests. */
  alpha: number;
  /** The baseline every variant was compared with, or `null` for all pairs. */
  baseline?: string | null;
  /** What limits the comparison. */
  notes?: string[];
  /** The test option the pairs were compared with. */
  test?: CompareTest;
  /** The adjustment over the pairs. */
  adjust?: AdjustMethod;
  /** What an error run is. */
  errors?: ErrorsMode;
  /** What the verdicts speak for. */
  generalize?: Generalize;
}

/**
 * The result of `compareRuns`.
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
  /** Significance level of the pair tests. */
  readonly alpha: number;
  /** The baseline every variant was compared with, or `null` for all pairs. */
  readonly baseline: string | null;
  /** What limits the comparison, one sentence each. */
  readonly notes: string[];
  /** The test option the pairs were compared with (`auto`, `paired` or `fisher`). */
  readonly test: CompareTest;
  /** The adjustment over the pairs (`holm`, `bh` or `none`). */
  readonly adjust: AdjustMethod;
  /** What an error run is (`fail` or `exclude`). */
  readonly errors: ErrorsMode;
  /** What the verdicts speak for (`runs` or `tasks`). */
  readonly generalize: Generalize;

  /**
   * Create a comparison (usually `compareRuns` does).
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
    this.test = fields.test ?? "auto";
    this.adjust = fields.adjust ?? "none";
    this.errors = fields.errors ?? "fail";
    this.generalize = fields.generalize ?? "runs";
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
   * @returns `{k, min_n, alpha, test, adjust, errors, generalize, baseline, variants, pairs, notes}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      k: this.k,
      min_n: this.minN,
      alpha: this.alpha,
      test: this.test,
      adjust: this.adjust,
      errors: this.errors,
      generalize: this.generalize,
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
