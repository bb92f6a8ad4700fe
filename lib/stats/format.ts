/**
 * How rates, p-values and metric values read in verdicts, reasons and reports.
 *
 * @module
 */

/**
 * A rate with two decimals: `0.90`.
 *
 * @param value The rate.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { formatPassRate } from "./format.ts";
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
 * import { formatPValue } from "./format.ts";
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

/**
 * A metric's value for reasons: rates with three decimals, cost in dollars,
 * latency in seconds.
 *
 * @param metric The metric.
 * @param value The value.
 * @returns The text; `unknown` for `null`.
 *
 * @example Usage
 * ```ts
 * import { formatMetricValue } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatMetricValue("cost", 0.0031), "$0.0031");
 * assert.equal(formatMetricValue("latency", 12.43), "12.4 s");
 * assert.equal(formatMetricValue("pass_rate", 0.9), "0.900");
 * assert.equal(formatMetricValue("cost", null), "unknown");
 * ```
 */
export function formatMetricValue(metric: string, value: number | null): string {
  if (value === null) return "unknown";
  if (metric === "cost") return `$${Number(value.toPrecision(2))}`;
  if (metric === "latency") return `${Number(value.toPrecision(3))} s`;
  return value.toFixed(3);
}

function points(value: number): string {
  const rounded = Math.round(value * 100);
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `-${-rounded}` : "0";
}

/**
 * A difference of pass rates in points with its interval: `+20 points [+6, +33]`.
 *
 * @param difference The difference (a fraction), or `null`.
 * @param interval Its interval, or `null`.
 * @returns The text; `unknown` when the difference is unknown.
 *
 * @example Usage
 * ```ts
 * import { formatDifference } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatDifference(0.2, [0.0571, 0.3333]), "+20 points [+6, +33]");
 * assert.equal(formatDifference(-0.05, null), "-5 points");
 * assert.equal(formatDifference(null, null), "unknown");
 * ```
 */
export function formatDifference(
  difference: number | null,
  interval: readonly [number, number] | null,
): string {
  if (difference === null) return "unknown";
  const text = `${points(difference)} points`;
  return interval === null ? text : `${text} [${points(interval[0])}, ${points(interval[1])}]`;
}

const METHOD_TEXT = {
  "newcombe-paired": "Newcombe's paired interval over the matched runs",
  newcombe: "Newcombe's hybrid score interval over the pooled runs",
  "task-t": "t interval over per-task differences",
} as const;

/**
 * A pair's difference for reports: `large − mini: +20 points [+6, +33]
 * (95%, Newcombe's paired interval over the matched runs)`.
 *
 * @param pair The pair's names, difference, interval and method.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { formatPairDifference } from "./format.ts";
 * import assert from "node:assert/strict";
 *
 * const text = formatPairDifference({
 *   a: "mini", b: "large", difference: 0.2, differenceInterval: [0.06, 0.33],
 *   differenceMethod: "newcombe",
 * });
 * assert.equal(text, "large − mini: +20 points [+6, +33] (95%, Newcombe's hybrid score interval over the pooled runs)");
 * ```
 */
export function formatPairDifference(pair: {
  a: string;
  b: string;
  difference: number | null;
  differenceInterval: readonly [number, number] | null;
  differenceMethod: keyof typeof METHOD_TEXT | null;
}): string {
  const how = pair.differenceMethod === null ? "" : ` (95%, ${METHOD_TEXT[pair.differenceMethod]})`;
  return `${pair.b} − ${pair.a}: ${
    formatDifference(pair.difference, pair.differenceInterval)
  }${how}`;
}
