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
