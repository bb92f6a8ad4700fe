/**
 * The standard normal distribution function and its inverse, to full double
 * precision, for the planner. Internal: not part of the public API.
 *
 * @module
 */

const SQRT_PI = Math.sqrt(Math.PI);

/**
 * erf(x) for 0 ≤ x < 2 from the all-positive series of Abramowitz & Stegun
 * 7.1.6, `erf x = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`; no
 * cancellation, so every digit holds.
 */
function erfSeries(x: number): number {
  let term = x;
  let sum = x;
  const x2 = 2 * x * x;
  for (let n = 1; n < 200; n++) {
    term *= x2 / (2 * n + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return (2 / SQRT_PI) * Math.exp(-x * x) * sum;
}

/**
 * erfc(x) for x ≥ 2 from the continued fraction of Abramowitz & Stegun
 * 7.1.14, `erfc x = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`,
 * evaluated with the modified Lentz algorithm (Numerical Recipes §5.2).
 */
function erfcFraction(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    d = d === 0 ? 1 / tiny : 1 / d;
    c = x + a / c;
    if (c === 0) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (SQRT_PI * f);
}

/** erfc(x) for x ≥ 0. */
function erfc(x: number): number {
  return x < 2 ? 1 - erfSeries(x) : erfcFraction(x);
}

/**
 * Φ(x), the standard normal distribution function: `Φ(x) = erfc(−x/√2) / 2`.
 *
 * @param x The point.
 * @returns P(Z ≤ x).
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const t = Math.abs(x) / Math.SQRT2;
  const tail = erfc(t) / 2;
  return x < 0 ? tail : 1 - tail;
}

/** 1 − Φ(x) without the cancellation of subtracting from 1. */
function normalSf(x: number): number {
  return normalCdf(-x);
}

/** The standard normal density φ(x). */
function normalPdf(x: number): number {
  return Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
}

// Acklam's rational approximation of the normal quantile (relative error
// below 1.15e-9), https://web.archive.org/web/20151030215612/http://home.online.no/~pjacklam/notes/invnorm/
const A = [
  -3.969683028665376e+01,
  2.209460984245205e+02,
  -2.759285104469687e+02,
  1.383577518672690e+02,
  -3.066479806614716e+01,
  2.506628277459239e+00,
];
const B = [
  -5.447609879822406e+01,
  1.615858368580409e+02,
  -1.556989798598866e+02,
  6.680131188771972e+01,
  -1.328068155288572e+01,
];
const C = [
  -7.784894002430293e-03,
  -3.223964580411365e-01,
  -2.400758277161838e+00,
  -2.549732539343734e+00,
  4.374664141464968e+00,
  2.938163982698783e+00,
];
const D = [
  7.784695709041462e-03,
  3.224671290700398e-01,
  2.445134137142996e+00,
  3.754408661907416e+00,
];

function acklam(p: number): number {
  const low = 0.02425;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const x = (((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) /
      ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
    return p < low ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return (((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!) * q /
    (((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1);
}

/**
 * Φ⁻¹(p), the standard normal quantile: Acklam's approximation refined by
 * Halley steps on Φ (Acklam's note, "refinement using Halley's rational
 * method"), so the result is as exact as {@linkcode normalCdf}.
 *
 * @param p A probability in (0, 1).
 * @returns x with Φ(x) = p.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN;
  let x = acklam(p);
  for (let i = 0; i < 4; i++) {
    // Work in the smaller tail so Φ(x) − p keeps its digits.
    const e = x < 0 ? normalCdf(x) - p : (1 - p) - normalSf(x);
    const u = e / normalPdf(x);
    const step = u / (1 + x * u / 2);
    x -= step;
    if (Math.abs(step) <= Math.abs(x) * 1e-16) break;
  }
  return x;
}
