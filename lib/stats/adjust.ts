/**
 * Multiple-comparison adjustment of p-values: Holm's step-down (family-wise
 * error rate) and Benjamini–Hochberg (false discovery rate).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";

/** How a family of p-values is adjusted: `holm`, `bh` (Benjamini–Hochberg) or `none`. */
export type AdjustMethod = "holm" | "bh" | "none";

/**
 * The values of {@linkcode AdjustMethod}.
 *
 * @example Usage
 * ```ts
 * import { ADJUST_METHODS } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...ADJUST_METHODS], ["holm", "bh", "none"]);
 * ```
 */
export const ADJUST_METHODS: readonly AdjustMethod[] = ["holm", "bh", "none"];

/** Options for {@linkcode adjustPValues}. */
export interface AdjustPValuesOptions {
  /**
   * `holm` (family-wise error rate), `bh` (false discovery rate) or `none`.
   * @default {"holm"}
   */
  method?: AdjustMethod;
}

/**
 * Adjust a family of p-values for multiple comparisons, in input order,
 * each clipped to 1.
 *
 * - `holm`: sort ascending; the i-th smallest (0-based) becomes
 *   `max over j ≤ i of (m − j) · p₍ⱼ₎`. Source: Holm (1979), "A simple
 *   sequentially rejective multiple test procedure", Scand. J. Statist.
 *   6(2):65–70; the same values as statsmodels'
 *   `multipletests(p, method="holm")`.
 * - `bh`: sort ascending; the i-th smallest (1-based) becomes
 *   `min over j ≥ i of m · p₍ⱼ₎ / j`. Source: Benjamini & Hochberg (1995),
 *   "Controlling the false discovery rate", J. R. Statist. Soc. B
 *   57(1):289–300; the same values as statsmodels'
 *   `multipletests(p, method="fdr_bh")`.
 * - `none`: the p-values unchanged.
 *
 * Ties keep their input order (a stable sort), which gives the same values.
 *
 * @param pValues The family's p-values, each in [0, 1].
 * @param options The method.
 * @returns The adjusted p-values, in the order given.
 * @throws {InputError} On an unknown method or a p-value outside [0, 1].
 *
 * @example Usage
 * ```ts
 * import { adjustPValues } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(adjustPValues([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06]);
 * assert.deepEqual(adjustPValues([0.01, 0.04, 0.03], { method: "bh" }), [0.03, 0.04, 0.04]);
 * ```
 */
export function adjustPValues(
  pValues: readonly number[],
  options: AdjustPValuesOptions = {},
): number[] {
  const method = options.method ?? "holm";
  if (!ADJUST_METHODS.includes(method)) {
    throw new InputError(
      `unknown adjustment ${JSON.stringify(method)}; use ${ADJUST_METHODS.join(", ")}`,
      "method",
    );
  }
  pValues.forEach((p, index) => {
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) {
      throw new InputError(`expected a p-value from 0 to 1, got ${p}`, `p_values[${index}]`);
    }
  });
  const m = pValues.length;
  if (method === "none") return [...pValues];
  const order = [...pValues.keys()].sort((i, j) => pValues[i]! - pValues[j]!);
  const adjusted = new Array<number>(m);
  if (method === "holm") {
    let running = 0;
    order.forEach((index, rank) => {
      running = Math.max(running, Math.min(1, (m - rank) * pValues[index]!));
      adjusted[index] = running;
    });
  } else {
    let running = 1;
    for (let rank = m - 1; rank >= 0; rank--) {
      const index = order[rank]!;
      running = Math.min(running, (m * pValues[index]!) / (rank + 1));
      adjusted[index] = Math.min(1, running);
    }
  }
  return adjusted;
}
