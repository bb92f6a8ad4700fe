// Reference values for the paired and clustered statistics, and their property tests.
//
// REFERENCE was computed with SciPy and statsmodels by scripts/stats_reference.py
// (`/usr/bin/python3 scripts/stats_reference.py`, Debian's python3-scipy 1.10.1 and
// python3-statsmodels 0.13.5): McNemar from statsmodels' mcnemar(exact=True); sign-flip
// p-values from scipy.stats.permutation_test(permutation_type="samples", n_resamples=np.inf);
// clustered intervals from statsmodels' OLS(y, ones).fit(cov_type="cluster"); runs needed from
// NormalIndPower().solve_power(). `scaled` holds ceil(n × design effect) for the same equation
// solved with brentq to the last bit (statsmodels' own root is only good to ~1e-7), so large
// design effects check the unrounded n to ~1e-9.
import assert from "node:assert/strict";
import fc from "fast-check";
import { clusteredInterval } from "../lib/stats/clustered.ts";
import { mcnemarExact } from "../lib/stats/mcnemar.ts";
import { cohensH, runsNeeded } from "../lib/stats/runs_needed.ts";
import { signFlipTest } from "../lib/stats/sign_flip.ts";
import { InputError } from "../lib/base/errors.ts";

function close(actual: number | null, expected: number | null, what: string, relative = 1e-9) {
  if (expected === null || actual === null) {
    assert.equal(actual, expected, what);
    return;
  }
  const scale = Math.max(Math.abs(expected), 1e-300);
  assert.ok(
    Math.abs(actual - expected) <= relative * scale,
    `${what}: ${actual} vs ${expected} (relative ${Math.abs(actual - expected) / scale})`,
  );
}

const REFERENCE = {
  versions: { "scipy": "1.10.1", "statsmodels": "0.13.5+dfsg" },
  mcnemar: [
    { b: 0, c: 0, p: 1.0 },
    { b: 0, c: 1, p: 1.0 },
    { b: 1, c: 9, p: 0.021484375 },
    { b: 3, c: 3, p: 1.0 },
    { b: 5, c: 12, p: 0.143463134765625 },
    { b: 0, c: 7, p: 0.015625 },
    { b: 12, c: 2, p: 0.012939453125 },
    { b: 20, c: 35, p: 0.05806414679240905 },
    { b: 100, c: 130, p: 0.05561357778139239 },
    { b: 250, c: 300, p: 0.03657874554910267 },
    { b: 1000, c: 1100, p: 0.030720707864242486 },
    { b: 7, c: 0, p: 0.015625 },
  ],
  signFlip: [
    { differences: [0.2, 0.4, 0.2, 0.6, 0.2, 0.4], p: 0.03125 },
    { differences: [0.2, -0.2, 0.4, 0.0, 0.2, 0.6, -0.4, 0.2], p: 0.40625 },
    { differences: [0.0, 0.0, 0.0, 0.0], p: 1.0 },
    {
      differences: [
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.2,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
      ],
      p: 0.00048828125,
    },
    { differences: [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0], p: 0.109375 },
    {
      differences: [0.1, -0.3, 0.25, 0.5, -0.05, 0.3, 0.15, -0.2, 0.45, 0.05, 0.35],
      p: 0.103515625,
    },
    {
      differences: [
        0.3333333333333333,
        -0.6666666666666666,
        0.3333333333333333,
        1.0,
        0.0,
        0.6666666666666666,
        -0.3333333333333333,
        0.3333333333333333,
        0.6666666666666666,
        0.0,
        0.3333333333333333,
        0.3333333333333333,
        -0.3333333333333333,
      ],
      p: 0.1923828125,
    },
    {
      differences: [
        0.2,
        -0.2,
        0.2,
        -0.2,
        0.4,
        -0.4,
        0.6,
        0.0,
        0.2,
        0.4,
        -0.2,
        0.2,
        0.2,
        0.0,
        0.4,
        0.2,
      ],
      p: 0.12353515625,
    },
  ],
  clustered: [
    {
      clusters: [[5, 5], [0, 5], [5, 5], [0, 5], [5, 5], [0, 5], [5, 5], [0, 5], [5, 5], [0, 5]],
      passRate: 0.5,
      se: 0.16666666666666669,
      interval: [0.17333933590999095, 0.826660664090009],
      designEffect: 5.555555555555556,
    },
    {
      clusters: [[3, 5], [2, 5], [4, 5], [3, 5], [2, 5], [3, 5]],
      passRate: 0.5666666666666665,
      se: 0.061463629715285885,
      interval: [0.44620016606560037, 0.6871331672677328],
      designEffect: 0.461538461538461,
    },
    {
      clusters: [[1, 1], [0, 1], [1, 1], [1, 1], [0, 1], [1, 1], [0, 1], [1, 1]],
      passRate: 0.6249999999999998,
      se: 0.18298126367784986,
      interval: [0.2663633133457869, 0.9836366866542127],
      designEffect: 1.1428571428571415,
    },
    {
      clusters: [[9, 10], [1, 3], [7, 7], [0, 4], [5, 8]],
      passRate: 0.6875000000000002,
      se: 0.14922565224547,
      interval: [0.3950230960293804, 0.9799769039706201],
      designEffect: 3.316761363636366,
    },
    {
      clusters: [[2, 2], [3, 4]],
      passRate: 0.8333333333333337,
      se: 0.1111111111111113,
      interval: [0.6155595572733273, 1.0],
      designEffect: 0.533333333333336,
    },
    {
      clusters: [[10, 20], [15, 20], [18, 20], [2, 20], [9, 20], [11, 20], [20, 20], [0, 20]],
      passRate: 0.53125,
      se: 0.12533437420413784,
      interval: [0.28559914053502383, 0.7769008594649762],
      designEffect: 10.09299719887955,
    },
    {
      clusters: [[1, 5], [0, 5], [0, 5], [2, 5], [0, 5], [1, 5], [0, 5]],
      passRate: 0.11428571428571425,
      se: 0.059476171413318055,
      interval: [0.0, 0.23085686819414836],
      designEffect: 1.2231182795698918,
    },
    {
      clusters: [[4, 5], [5, 5], [3, 5], [5, 5], [4, 5], [2, 5], [5, 5], [1, 5], [4, 5], [3, 5], [
        5,
        5,
      ], [0, 5]],
      passRate: 0.6833333333333333,
      se: 0.09679197729505723,
      interval: [0.49362454384260257, 0.8730421228240641],
      designEffect: 2.5977360252071433,
    },
  ],
  planner: [
    {
      p1: 0.7,
      p2: 0.8,
      alpha: 0.05,
      power: 0.8,
      statsmodelsN: 291.68866831756276,
      runs: 292,
      scaled: [[1.0, 292], [1.7, 496], [1000.0, 291689], [1000000.0, 291688669]],
    },
    {
      p1: 0.5,
      p2: 0.6,
      alpha: 0.05,
      power: 0.8,
      statsmodelsN: 387.1677468578107,
      runs: 388,
      scaled: [[1.0, 388], [1.7, 659], [1000.0, 387168], [1000000.0, 387167747]],
    },
    {
      p1: 0.9,
      p2: 0.95,
      alpha: 0.05,
      power: 0.9,
      statsmodelsN: 567.2579361079485,
      runs: 568,
      scaled: [[1.0, 568], [1.7, 965], [1000.0, 567258], [1000000.0, 567257935]],
    },
    {
      p1: 0.2,
      p2: 0.5,
      alpha: 0.01,
      power: 0.8,
      statsmodelsN: 56.407372518696505,
      runs: 57,
      scaled: [[1.0, 57], [1.7, 96], [1000.0, 56408], [1000000.0, 56407373]],
    },
    {
      p1: 0.6,
      p2: 0.55,
      alpha: 0.1,
      power: 0.7,
      statsmodelsN: 918.9515690027723,
      runs: 919,
      scaled: [[1.0, 919], [1.7, 1563], [1000.0, 918952], [1000000.0, 918951570]],
    },
    {
      p1: 0.05,
      p2: 0.01,
      alpha: 0.05,
      power: 0.95,
      statsmodelsN: 413.53827594972984,
      runs: 414,
      scaled: [[1.0, 414], [1.7, 704], [1000.0, 413539], [1000000.0, 413538276]],
    },
    {
      p1: 0.3,
      p2: 0.9,
      alpha: 0.05,
      power: 0.8,
      statsmodelsN: 8.757845623418897,
      runs: 9,
      scaled: [[1.0, 9], [1.7, 15], [1000.0, 8758], [1000000.0, 8757848]],
    },
  ],
};

Deno.test("mcnemarExact() matches statsmodels on every reference table", () => {
  assert.ok(REFERENCE.mcnemar.length >= 8);
  for (const { b, c, p } of REFERENCE.mcnemar) close(mcnemarExact(b, c), p, `b=${b} c=${c}`);
});

Deno.test("mcnemarExact() is symmetric, stays in [0, 1] and rejects bad counts", () => {
  assert.equal(mcnemarExact(0, 0), 1);
  assert.equal(mcnemarExact(12, 2), mcnemarExact(2, 12));
  const huge = mcnemarExact(100_000, 101_500);
  assert.ok(huge > 0 && huge < 0.02, String(huge));
  // 2 · 2^-1000: far in the tail, still no underflow.
  close(mcnemarExact(0, 1000), 2 * 2 ** -1000, "b=0 c=1000");
  assert.throws(() => mcnemarExact(-1, 3), InputError);
  assert.throws(() => mcnemarExact(1.5, 3), /b: expected a non-negative integer/);
});

Deno.test("signFlipTest() matches SciPy's exact permutation test on every reference case", () => {
  assert.ok(REFERENCE.signFlip.length >= 8);
  for (const { differences, p } of REFERENCE.signFlip) {
    const result = signFlipTest(differences);
    assert.equal(result.method, "exact");
    assert.equal(result.assignments, 2 ** differences.length);
    close(result.pValue, p, JSON.stringify(differences));
  }
});

Deno.test("signFlipTest() Monte Carlo is deterministic per seed and counts the observed assignment", () => {
  const differences = Array.from({ length: 30 }, (_, i) => ((i * 7) % 5 - 1) / 5);
  const first = signFlipTest(differences, { samples: 5000, seed: 7 });
  assert.equal(first.method, "monte-carlo");
  assert.equal(first.assignments, 5000);
  assert.deepEqual(signFlipTest(differences, { samples: 5000, seed: 7 }), first);
  assert.notEqual(signFlipTest(differences, { samples: 5000, seed: 8 }).pValue, first.pValue);
  // All 30 differences positive: no random assignment is as extreme, p = 1/(samples + 1).
  const allUp = signFlipTest(Array(30).fill(0.2), { samples: 999 });
  assert.equal(allUp.pValue, 1 / 1000);
  assert.deepEqual(signFlipTest([]), { pValue: 1, method: "exact", assignments: 1 });
});

Deno.test("signFlipTest() rejects bad differences and options, naming them", () => {
  assert.throws(() => signFlipTest([0.1, NaN]), /differences\[1\]: expected a finite number/);
  assert.throws(
    () => signFlipTest([0.1], { exactUpTo: 41 }),
    /exact_up_to: expected an integer from 0 to 40/,
  );
  assert.throws(() => signFlipTest([0.1], { samples: 0 }), /samples: expected an integer/);
  assert.throws(() => signFlipTest([0.1], { seed: 0.5 }), /seed: expected an integer/);
});

Deno.test("signFlipTest() exact and Monte Carlo agree within sampling error (property)", () => {
  const samples = 20_000;
  fc.assert(
    fc.property(
      // Up to 40 differences: several 32-sign random words, and a partial last group of 8.
      fc.array(fc.integer({ min: -5, max: 5 }).map((x) => x / 5), { minLength: 1, maxLength: 40 }),
      fc.nat({ max: 2 ** 31 }),
      (differences, seed) => {
        const exact = signFlipTest(differences, { exactUpTo: 40 }).pValue;
        const estimate = signFlipTest(differences, { exactUpTo: 0, samples, seed }).pValue;
        // Five standard errors of a binomial proportion, plus the (count + 1)/(samples + 1) shift.
        const bound = 5 * Math.sqrt(exact * (1 - exact) / samples) + 2 / samples;
        return Math.abs(estimate - exact) <= bound;
      },
    ),
    { numRuns: 40, seed: 22 },
  );
});

Deno.test("clusteredInterval() matches statsmodels' cluster-robust OLS on every reference case", () => {
  assert.ok(REFERENCE.clustered.length >= 8);
  for (const expected of REFERENCE.clustered) {
    const clusters = expected.clusters.map(([passes, n]) => ({ passes: passes!, n: n! }));
    const result = clusteredInterval(clusters);
    const what = JSON.stringify(expected.clusters);
    close(result.passRate, expected.passRate, `${what} pass rate`);
    close(result.se, expected.se, `${what} se`);
    close(result.interval![0], expected.interval[0]!, `${what} low`);
    close(result.interval![1], expected.interval[1]!, `${what} high`);
    close(result.designEffect, expected.designEffect, `${what} design effect`);
    assert.equal(result.clusters, clusters.length);
    assert.equal(result.n, clusters.reduce((sum, cluster) => sum + cluster.n, 0));
  }
});

Deno.test("clusteredInterval() gives nulls where the SE or design effect is undefined", () => {
  assert.deepEqual(clusteredInterval([{ passes: 3, n: 5 }]), {
    passRate: 0.6,
    se: null,
    interval: null,
    designEffect: null,
    clusters: 1,
    n: 5,
  });
  assert.deepEqual(clusteredInterval([]), {
    passRate: null,
    se: null,
    interval: null,
    designEffect: null,
    clusters: 0,
    n: 0,
  });
  const all = clusteredInterval([{ passes: 5, n: 5 }, { passes: 3, n: 3 }]);
  assert.deepEqual([all.passRate, all.se, all.interval, all.designEffect], [1, 0, [1, 1], null]);
  assert.throws(
    () => clusteredInterval([{ passes: 4, n: 3 }]),
    /clusters\[0\]: expected integers 0 ≤ passes ≤ n with n ≥ 1, got passes 4, n 3/,
  );
  assert.throws(() => clusteredInterval([{ passes: 0, n: 0 }]), InputError);
  assert.throws(() => clusteredInterval([], { z: 0 }), /z: expected a positive z/);
});

Deno.test("clusteredInterval() with one run per cluster is the binomial SE times sqrt(G/(G-1)) (property)", () => {
  // With n_g = 1, Σ (y_g − p̂)² = N·p̂(1 − p̂), so SE² = G/(G−1) · p̂(1 − p̂)/N: the binomial
  // (Wald, not Wilson) variance up to CR1's small-sample factor G/(G−1), and the design effect
  // is exactly that factor.
  fc.assert(
    fc.property(fc.array(fc.boolean(), { minLength: 2, maxLength: 400 }), (outcomes) => {
      const clusters = outcomes.map((pass) => ({ passes: pass ? 1 : 0, n: 1 }));
      const result = clusteredInterval(clusters);
      const g = outcomes.length;
      const p = outcomes.filter(Boolean).length / g;
      const binomial = Math.sqrt(p * (1 - p) / g);
      if (Math.abs(result.se! - binomial * Math.sqrt(g / (g - 1))) > 1e-12) return false;
      if (p === 0 || p === 1) return result.designEffect === null;
      return Math.abs(result.designEffect! - g / (g - 1)) < 1e-9;
    }),
    { numRuns: 200, seed: 22 },
  );
});

Deno.test("runsNeeded() matches statsmodels' NormalIndPower.solve_power exactly, rounded up", () => {
  assert.ok(REFERENCE.planner.length >= 6);
  for (const { p1, p2, alpha, power, statsmodelsN, runs, scaled } of REFERENCE.planner) {
    assert.equal(runsNeeded(p1, p2, { alpha, power }), runs, `${p1} vs ${p2}`);
    assert.equal(runsNeeded(p1, p2, { alpha, power }), Math.ceil(statsmodelsN));
    // ceil(n × 10^6) pins the unrounded n to ~1e-9 relative against the exact root.
    for (const [designEffect, expected] of scaled) {
      assert.equal(
        runsNeeded(p1, p2, { alpha, power, designEffect }),
        expected,
        `${p1} vs ${p2} × ${designEffect}`,
      );
    }
  }
});

Deno.test("runsNeeded() rejects p1 = p2 and options out of range", () => {
  assert.throws(
    () => runsNeeded(0.7, 0.7),
    (error) => error instanceof InputError && /no difference to detect/.test(error.message),
  );
  assert.throws(() => runsNeeded(1.2, 0.7), /p1: expected a pass rate from 0 to 1/);
  assert.throws(() => runsNeeded(0.5, 0.7, { alpha: 0 }), /alpha/);
  assert.throws(
    () => runsNeeded(0.5, 0.7, { power: 0.01 }),
    /power: expected a number between alpha = 0.05 and 1/,
  );
  assert.throws(() => runsNeeded(0.5, 0.7, { designEffect: -1 }), /design_effect/);
  assert.throws(() => runsNeeded(0.5, 0.5 + 1e-9), /too small to plan for/);
  assert.equal(cohensH(0.3, 0.9), cohensH(0.9, 0.3));
});

Deno.test("runsNeeded() decreases as the difference grows (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 90 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 50 }),
      (base, small, extra) => {
        const p1 = base / 100;
        const near = Math.min(1, p1 + small / 100);
        const far = Math.min(1, p1 + (small + extra) / 100);
        if (near === p1) return true;
        return runsNeeded(p1, far) <= runsNeeded(p1, near);
      },
    ),
    { numRuns: 300, seed: 22 },
  );
});
