import assert from "node:assert/strict";
import fc from "fast-check";
import { passHatK } from "../mod.ts";

Deno.test("passHatK() matches the reference value in stats.md", () => {
  assert.ok(Math.abs(passHatK(7, 10, 3)! - 0.2916666666666667) < 1e-9);
  assert.ok(Math.abs(passHatK(7, 10, 3)! - 35 / 120) < 1e-15);
});

Deno.test("passHatK() is null when there are fewer runs than k", () => {
  assert.equal(passHatK(3, 3, 4), null);
  assert.equal(passHatK(0, 0, 1), null);
});

Deno.test("passHatK() is 0 with fewer passes than k and 1 when every run passes", () => {
  assert.equal(passHatK(2, 10, 3), 0);
  assert.equal(passHatK(10, 10, 3), 1);
  assert.equal(passHatK(5, 10, 1), 0.5);
  assert.equal(passHatK(5, 10, 0), 1);
});

Deno.test("passHatK() never overflows with n in the thousands", () => {
  const value = passHatK(4000, 5000, 1000)!;
  assert.ok(Number.isFinite(value) && value >= 0 && value < 1e-90, `${value}`);
  // log C(4000,1000) - log C(5000,1000), computed with sums of logs.
  let log = 0;
  for (let i = 0; i < 1000; i++) log += Math.log(4000 - i) - Math.log(5000 - i);
  assert.ok(Math.abs(Math.log(value) - log) < 1e-9);
  assert.ok(Math.abs(passHatK(4999, 5000, 2500)! - 0.5) < 1e-12);
});

Deno.test("passHatK() is non-increasing in k", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3000 }).chain((n) =>
        fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n), fc.integer({ min: 0, max: n - 1 }))
      ),
      ([passes, n, k]) => passHatK(passes, n, k + 1)! <= passHatK(passes, n, k)!,
    ),
    { numRuns: 2000 },
  );
});

Deno.test("passHatK() rejects impossible counts", () => {
  assert.throws(() => passHatK(11, 10, 1), /passes: passes 11 exceed n 10/);
  assert.throws(() => passHatK(1, 10, -1), /k: expected a non-negative integer/);
});
