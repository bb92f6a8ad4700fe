import assert from "node:assert/strict";
import fc from "fast-check";
import { fisherExact } from "../mod.ts";

/** The exact p-value with integer arithmetic: sum the tables whose numerator is at most the observed one. */
function fisherExactRational(a: number, b: number, c: number, d: number): number {
  const choose = (n: number, k: number): bigint => {
    let result = 1n;
    for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
    return result;
  };
  const row1 = a + b;
  const row2 = c + d;
  const column1 = a + c;
  const weight = (x: number) => choose(row1, x) * choose(row2, column1 - x);
  const observed = weight(a);
  let total = 0n;
  let tail = 0n;
  for (let x = Math.max(0, column1 - row2); x <= Math.min(row1, column1); x++) {
    const w = weight(x);
    total += w;
    if (w <= observed) tail += w;
  }
  if (total === 0n) return 1;
  const scale = 10n ** 40n;
  return Number((tail * scale) / total) / 1e40;
}

const close = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${actual} is not ${expected} (to ${tolerance})`,
  );

Deno.test("fisherExact() matches the reference values in stats.md", () => {
  close(fisherExact(8, 2, 1, 5), 0.034965034965034975);
  close(fisherExact(3, 1, 1, 3), 0.48571428571428565);
  close(fisherExact(0, 10, 10, 0), 1.082508822446903e-05);
  close(fisherExact(10, 10, 10, 10), 1.0);
});

Deno.test("fisherExact() matches SciPy on larger tables, relative 1e-8", () => {
  // Values from scipy.stats.fisher_exact.
  const cases: [number, number, number, number, number][] = [
    [50000, 50000, 49000, 51000, 7.89828955730827e-06],
    [9, 1, 7, 3, 0.5820433436532508],
    [90, 10, 50, 50, 5.549046052049071e-10],
    [27, 3, 9, 11, 0.0009431206287072294],
    [400, 600, 450, 550, 0.026635537710440943],
    [12345, 23456, 13000, 22000, 1.6084305368387334e-13],
  ];
  for (const [a, b, c, d, expected] of cases) {
    const p = fisherExact(a, b, c, d);
    assert.ok(Math.abs(p - expected) <= 1e-8 * expected, `${[a, b, c, d]}: ${p} vs ${expected}`);
  }
});

Deno.test("fisherExact() counts tied tables as ties, like exact integer arithmetic", () => {
  // Every table with a row total up to 12 on each side: the float result agrees with BigInt.
  for (let a = 0; a <= 6; a++) {
    for (let b = 0; b <= 6; b++) {
      for (let c = 0; c <= 6; c++) {
        for (let d = 0; d <= 6; d++) {
          close(fisherExact(a, b, c, d), fisherExactRational(a, b, c, d), 1e-12);
        }
      }
    }
  }
});

Deno.test("fisherExact() agrees with exact arithmetic on random tables", () => {
  const count = fc.integer({ min: 0, max: 60 });
  fc.assert(
    fc.property(count, count, count, count, (a, b, c, d) => {
      close(fisherExact(a, b, c, d), fisherExactRational(a, b, c, d), 1e-10);
    }),
    { numRuns: 500 },
  );
});

Deno.test("fisherExact() gives 1 for zero margins", () => {
  assert.equal(fisherExact(0, 0, 3, 4), 1);
  assert.equal(fisherExact(3, 4, 0, 0), 1);
  assert.equal(fisherExact(0, 5, 0, 7), 1);
  assert.equal(fisherExact(5, 0, 7, 0), 1);
  assert.equal(fisherExact(0, 0, 0, 0), 1);
});

Deno.test("fisherExact() p is in [0, 1] and symmetric under swapping rows or columns", () => {
  const count = fc.integer({ min: 0, max: 100_000 });
  fc.assert(
    fc.property(count, count, count, count, (a, b, c, d) => {
      const p = fisherExact(a, b, c, d);
      assert.ok(p >= 0 && p <= 1, `p = ${p}`);
      close(fisherExact(c, d, a, b), p, 1e-9 * Math.max(p, 1e-300) + 1e-15);
      close(fisherExact(b, a, d, c), p, 1e-9 * Math.max(p, 1e-300) + 1e-15);
      close(fisherExact(a, c, b, d), p, 1e-9 * Math.max(p, 1e-300) + 1e-15);
    }),
    { numRuns: 300 },
  );
});

Deno.test("fisherExact() handles counts in the millions without underflowing to nonsense", () => {
  assert.equal(fisherExact(1_000_000, 0, 0, 1_000_000), 0);
  const p = fisherExact(500_000, 500_000, 500_000, 500_000);
  assert.equal(p, 1);
  const near = fisherExact(500_300, 499_700, 499_700, 500_300);
  assert.ok(near > 0.3 && near < 0.5, `p = ${near}`);
});

Deno.test("fisherExact() rejects negative and fractional counts", () => {
  assert.throws(() => fisherExact(-1, 2, 3, 4), /a: expected a non-negative integer/);
  assert.throws(() => fisherExact(1, 2.5, 3, 4), /b: expected a non-negative integer/);
});
