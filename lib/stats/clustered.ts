/**
 * A pass rate whose runs cluster by task: the cluster-robust (CR1) standard
 * error, its normal interval and the design effect.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { Z_95 } from "./wilson.ts";

/** One cluster (task): its passing runs and its runs. */
export interface Cluster {
  /** Passing runs. */
  passes: number;
  /** Runs (at least 1). */
  n: number;
}

/** Options for {@linkcode clusteredInterval}. */
export interface ClusteredIntervalOptions {
  /**
   * Normal quantile of the interval.
   * @default {1.959963984540054} (95%)
   */
  z?: number;
}

/** The result of {@linkcode clusteredInterval}. */
export interface ClusteredIntervalResult {
  /** Passes / runs over every cluster; `null` with no runs. */
  passRate: number | null;
  /** The cluster-robust standard error; `null` with fewer than two clusters. */
  se: number | null;
  /** `passRate ± z·se` clipped to [0, 1]; `null` with fewer than two clusters. */
  interval: [number, number] | null;
  /** `(se / se_binomial)²`; `null` when the pass rate is 0 or 1 or `se` is `null`. */
  designEffect: number | null;
  /** Clusters (G). */
  clusters: number;
  /** Runs (N). */
  n: number;
}

/**
 * The pass rate of runs that cluster by task, with the cluster-robust (CR1)
 * standard error
 * `SE = sqrt(G/(G−1) · Σ_g (passes_g − n_g·p̂)²) / N`, the interval
 * `p̂ ± z·SE` clipped to [0, 1], and the design effect `(SE / SE_binomial)²`
 * with `SE_binomial = sqrt(p̂(1−p̂)/N)`.
 *
 * Source: Liang & Zeger (1986), "Longitudinal data analysis using
 * generalized linear models", Biometrika 73(1) (the sandwich estimator), with
 * the small-sample factor G/(G−1)·(N−1)/(N−k) of Cameron & Miller (2015), "A
 * Practitioner's Guide to Cluster-Robust Inference", J. Human Resources
 * 50(2), which is G/(G−1) for an intercept-only model (k = 1): the
 * same numbers as statsmodels' `OLS(y, ones).fit(cov_type="cluster")`. The
 * design effect is Kish (1965), Survey Sampling.
 *
 * With one cluster the SE is undefined: `se`, `interval` and `designEffect`
 * are `null`. A pass rate of 0 or 1 has `se = 0` and no design effect.
 *
 * @param clusters One `{passes, n}` per task.
 * @param options `z`.
 * @returns The pass rate, SE, interval, design effect, clusters and runs.
 * @throws {InputError} When a cluster is not `0 ≤ passes ≤ n` integers with `n ≥ 1`, or `z` is not positive.
 *
 * @example Usage
 * ```ts
 * import { clusteredInterval } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * // Tasks pass all-or-nothing: 100 runs carry the information of 20.
 * const clusters = Array.from({ length: 20 }, (_, i) => ({ passes: i < 10 ? 5 : 0, n: 5 }));
 * const result = clusteredInterval(clusters);
 * assert.equal(result.passRate, 0.5);
 * assert.ok(Math.abs(result.designEffect! - 5 * 20 / 19) < 1e-12);
 * assert.equal(clusteredInterval([{ passes: 3, n: 5 }]).se, null);
 * ```
 */
export function clusteredInterval(
  clusters: readonly Cluster[],
  options: ClusteredIntervalOptions = {},
): ClusteredIntervalResult {
  const z = options.z ?? Z_95;
  if (!Number.isFinite(z) || z <= 0) throw new InputError(`expected a positive z, got ${z}`, "z");
  let passes = 0;
  let n = 0;
  clusters.forEach((cluster, index) => {
    const ok = Number.isSafeInteger(cluster.n) && Number.isSafeInteger(cluster.passes) &&
      cluster.n >= 1 && cluster.passes >= 0 && cluster.passes <= cluster.n;
    if (!ok) {
      throw new InputError(
        `expected integers 0 ≤ passes ≤ n with n ≥ 1, got passes ${cluster.passes}, n ${cluster.n}`,
        `clusters[${index}]`,
      );
    }
    passes += cluster.passes;
    n += cluster.n;
  });
  const g = clusters.length;
  const none = { se: null, interval: null, designEffect: null, clusters: g, n };
  if (n === 0) return { passRate: null, ...none };
  const rate = passes / n;
  if (g < 2) return { passRate: rate, ...none };
  let squares = 0;
  for (const cluster of clusters) {
    const residual = cluster.passes - cluster.n * rate;
    squares += residual * residual;
  }
  const se = Math.sqrt((g / (g - 1)) * squares) / n;
  const interval: [number, number] = [Math.max(0, rate - z * se), Math.min(1, rate + z * se)];
  const binomialVariance = rate * (1 - rate) / n;
  const designEffect = rate === 0 || rate === 1 ? null : (se * se) / binomialVariance;
  return { passRate: rate, se, interval, designEffect, clusters: g, n };
}
