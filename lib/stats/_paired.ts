/**
 * The paired analysis of two variants run on the same tasks: McNemar's exact
 * test when their runs match one to one by (task, repeat), else the
 * sign-flip test over per-task pass-rate differences. Internal: `comparePair`
 * is the public way in.
 *
 * @module
 */

import { mcnemarExact } from "./mcnemar.ts";
import { signFlipTest } from "./sign_flip.ts";
import type { TaskRuns, VariantStats } from "./variant_stats.ts";

/** What the paired analysis found. */
export interface PairedAnalysis {
  /** The test that applies. */
  test: "mcnemar" | "sign-flip";
  /** Its two-sided p-value. */
  pValue: number;
  /** Tasks both variants ran (the ones the analysis uses). */
  tasks: number;
  /** Tasks only one of them ran, left out, sorted. */
  leftOut: string[];
  /** McNemar: [b, c], runs where only a passed and where only b passed. */
  discordant: [number, number] | null;
  /** McNemar: the matched run pairs. */
  pairs: number | null;
  /** McNemar: [both passed, neither passed] over the matched pairs. */
  concordant: [number, number] | null;
  /** Sign-flip: exact or Monte Carlo. */
  method: "exact" | "monte-carlo" | null;
  /** > 0 when b does better on the paired data, < 0 when a does, 0 when neither. */
  direction: number;
  /** The smallest p-value this design could ever give (2 · 2^−pairs, or 2 · 2^−tasks). */
  smallestP: number;
  /** Per shared task, b's pass rate minus a's (the sign-flip test's input). */
  differences: number[];
}

/**
 * The repeats two tasks' runs share, when they match one to one by repeat
 * number (a repeat one side dropped, an error run left out under
 * `errors: exclude`, is left out of both), else `null`.
 */
function matchedRepeats(x: TaskRuns, y: TaskRuns): number[] | null {
  if (x.repeats === null || y.repeats === null) return null;
  const xs = [...x.repeats.keys()].filter((repeat) => !(y.dropped?.has(repeat) ?? false));
  const ys = [...y.repeats.keys()].filter((repeat) => !(x.dropped?.has(repeat) ?? false));
  if (xs.length !== ys.length) return null;
  for (const repeat of xs) if (!y.repeats.has(repeat)) return null;
  return xs;
}

/**
 * The paired analysis of `a` against `b` over the tasks both ran, or `null`
 * when they ran no task in common.
 *
 * @param a The first variant (the baseline, when there is one).
 * @param b The second variant.
 * @param generalize `tasks`: the sign-flip test over tasks even when the runs match.
 * @returns The analysis, or `null`.
 */
export function pairedAnalysis(
  a: VariantStats,
  b: VariantStats,
  generalize: "runs" | "tasks" = "runs",
): PairedAnalysis | null {
  const shared: [TaskRuns, TaskRuns][] = [];
  const leftOut: string[] = [];
  for (const [task, runs] of a.byTask) {
    const other = b.byTask.get(task);
    if (other === undefined) leftOut.push(task);
    else shared.push([runs, other]);
  }
  for (const task of b.byTask.keys()) if (!a.byTask.has(task)) leftOut.push(task);
  leftOut.sort();
  if (shared.length === 0) return null;
  const differences = shared.map(([x, y]) => y.passes / y.n - x.passes / x.n);
  const matches = shared.map(([x, y]) => matchedRepeats(x, y));
  if (generalize === "runs" && matches.every((repeats) => repeats !== null)) {
    let onlyA = 0;
    let onlyB = 0;
    let both = 0;
    let pairs = 0;
    shared.forEach(([x, y], index) => {
      for (const repeat of matches[index]!) {
        const passed = x.repeats!.get(repeat)!;
        const other = y.repeats!.get(repeat)!;
        if (passed && !other) onlyA++;
        if (other && !passed) onlyB++;
        if (passed && other) both++;
        pairs++;
      }
    });
    return {
      test: "mcnemar",
      pValue: mcnemarExact(onlyA, onlyB),
      tasks: shared.length,
      leftOut,
      discordant: [onlyA, onlyB],
      pairs,
      concordant: [both, pairs - both - onlyA - onlyB],
      method: null,
      direction: Math.sign(onlyB - onlyA),
      smallestP: Math.min(1, 2 * 2 ** -pairs),
      differences,
    };
  }
  const flip = signFlipTest(differences);
  const mean = differences.reduce((sum, d) => sum + d, 0) / differences.length;
  return {
    test: "sign-flip",
    pValue: flip.pValue,
    tasks: shared.length,
    leftOut,
    discordant: null,
    pairs: null,
    concordant: null,
    method: flip.method,
    direction: Math.abs(mean) < 1e-12 ? 0 : Math.sign(mean),
    smallestP: Math.min(1, 2 * 2 ** -shared.length),
    differences,
  };
}
