/**
 * log(n!) for counts in the millions. Internal: not part of the public API.
 *
 * @module
 */

const SMALL_LOG_FACTORIALS: number[] = (() => {
  const table = [0];
  for (let i = 1; i < 32; i++) table.push(table[i - 1]! + Math.log(i));
  return table;
})();

/**
 * The natural log of `n!`: a table below 32, Stirling's series above (error
 * under 1e-15 relative), so counts in the millions stay exact enough.
 */
export function logFactorial(n: number): number {
  if (n < 32) return SMALL_LOG_FACTORIALS[n]!;
  const x = n + 1;
  const inverse = 1 / x;
  const inverse2 = inverse * inverse;
  const series = inverse *
    (1 / 12 - inverse2 * (1 / 360 - inverse2 * (1 / 1260 - inverse2 * (1 / 1680))));
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series;
}
