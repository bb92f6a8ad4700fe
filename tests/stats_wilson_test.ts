import assert from "node:assert/strict";
import fc from "fast-check";
import { InputError, wilsonInterval } from "../mod.ts";

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected} to 1e-9`);

Deno.test("wilsonInterval() gives (0, 1) for no runs", () => {
  assert.deepEqual(wilsonInterval(0, 0), [0, 1]);
});

Deno.test("wilsonInterval() matches the reference values in stats.md", () => {
  const [low, high] = wilsonInterval(7, 10);
  close(low, 0.396778147461145);
  close(high, 0.892208732593699);
  const [zeroLow, zeroHigh] = wilsonInterval(0, 10);
  assert.equal(zeroLow, 0);
  close(zeroHigh, 0.277532799862889);
});

Deno.test("wilsonInterval() is exactly 1 at the top when every run passes", () => {
  const [low, high] = wilsonInterval(10, 10);
  assert.equal(high, 1);
  close(low, 1 - 0.277532799862889);
});

Deno.test("wilsonInterval() narrows with a smaller z", () => {
  const [low95, high95] = wilsonInterval(7, 10);
  const [low80, high80] = wilsonInterval(7, 10, { z: 1.2815515655446004 });
  assert.ok(low80 > low95 && high80 < high95);
});

Deno.test("wilsonInterval() bounds contain the point estimate and stay in [0, 1]", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 1_000_000 }).chain((n) =>
        fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))
      ),
      fc.double({ min: 0.01, max: 5, noNaN: true }),
      ([successes, n], z) => {
        const [low, high] = wilsonInterval(successes, n, { z });
        const p = successes / n;
        return 0 <= low && low <= p && p <= high && high <= 1;
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("wilsonInterval() rejects impossible counts", () => {
  assert.throws(() => wilsonInterval(11, 10), InputError);
  assert.throws(() => wilsonInterval(-1, 10), /successes: expected a non-negative integer/);
  assert.throws(() => wilsonInterval(1.5, 10), /successes: expected a non-negative integer/);
  assert.throws(() => wilsonInterval(1, 10, { z: 0 }), /z: expected a positive z/);
});
