/**
 * Student's t distribution for whole degrees of freedom: the two-sided
 * probability `P(|T| < t)` in closed form and its inverse. Internal: the
 * task-level difference interval reads it.
 *
 * @module
 */

/**
 * `P(|T| < t)` for T with `df` (a whole number ≥ 1) degrees of freedom, by
 * the finite series in θ = atan(t/√df): Abramowitz & Stegun (1964),
 * Handbook of Mathematical Functions, 26.7.3 (odd df) and 26.7.4 (even df).
 */
export function studentTCentral(t: number, df: number): number {
  if (t <= 0) return 0;
  if (t === Infinity) return 1;
  const theta = Math.atan(t / Math.sqrt(df));
  const c2 = Math.cos(theta) ** 2;
  const s = Math.sin(theta);
  if (df % 2 === 0) {
    let term = 1;
    let sum = 1;
    for (let k = 2; k <= df - 2; k += 2) {
      term *= (c2 * (k - 1)) / k;
      sum += term;
    }
    return Math.min(1, s * sum);
  }
  if (df === 1) return (2 * theta) / Math.PI;
  let term = 1;
  let sum = 1;
  for (let k = 3; k <= df - 2; k += 2) {
    term *= (c2 * (k - 1)) / k;
    sum += term;
  }
  return Math.min(1, (2 / Math.PI) * (theta + s * Math.cos(theta) * sum));
}

/**
 * The t with `P(|T| < t) = confidence` (the two-sided quantile, SciPy's
 * `t.ppf((1 + confidence) / 2, df)`), by bisection to the last bit.
 */
export function studentTQuantile(confidence: number, df: number): number {
  let low = 0;
  let high = 1;
  while (studentTCentral(high, df) < confidence) high *= 2;
  for (let i = 0; i < 2000 && high - low > 1e-15 * high; i++) {
    const mid = (low + high) / 2;
    if (studentTCentral(mid, df) < confidence) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
