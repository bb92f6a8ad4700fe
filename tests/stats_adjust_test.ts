// Reference values for adjustPValues, differenceInterval and pairedDifferenceInterval, and the
// family-wise error property of compare's adjusted verdicts.
//
// REFERENCE was computed by scripts/stats_reference.py (`/usr/bin/python3
// scripts/stats_reference.py`, Debian's python3-statsmodels 0.13.5 and python3-scipy 1.10.1):
// holm and bh from statsmodels' multipletests(p, method="holm" | "fdr_bh"); newcombe from
// confint_proportions_2indep(x1, n1, x2, n2, method="newcomb", compare="diff", alpha); z is
// scipy's norm.isf(alpha / 2); taskT from
// scipy.stats.t.interval(confidence, G - 1, loc=mean, scale=s / sqrt(G)). statsmodels has no paired interval: pairedNewcombe is Newcombe's
// (1998) paired method 10 written in Python over statsmodels' Wilson intervals
// (proportion_confint(method="wilson")), an implementation independent of ours; the worked
// example it must reproduce is the published one below.
import assert from "node:assert/strict";
import fc from "fast-check";
import { adjustPValues } from "../lib/stats/adjust.ts";
import { compareRuns } from "../lib/stats/compare.ts";
import {
  differenceInterval,
  pairedDifferenceInterval,
  taskDifferenceInterval,
} from "../lib/stats/difference_interval.ts";
import { Run } from "../lib/stats/runs.ts";

function close(actual: number, expected: number, what: string, tolerance = 1e-9) {
  assert.ok(
    Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} vs ${expected}`,
  );
}

const REFERENCE = {
  "versions": { "scipy": "1.10.1", "statsmodels": "0.13.5+dfsg" },
  "holm": [
    { "p": [0.01, 0.04, 0.03], "adjusted": [0.03, 0.06, 0.06] },
    { "p": [0.039, 0.041, 7.6e-06], "adjusted": [0.078, 0.078, 2.28e-05] },
    { "p": [0.05, 0.05, 0.05, 0.05], "adjusted": [0.2, 0.2, 0.2, 0.2] },
    {
      "p": [0.2, 0.001, 0.7, 0.04, 0.012, 0.5],
      "adjusted": [0.6000000000000001, 0.006, 1.0, 0.16, 0.06, 1.0],
    },
    { "p": [0.0, 1.0, 0.5], "adjusted": [0.0, 1.0, 1.0] },
    { "p": [0.3], "adjusted": [0.3] },
    {
      "p": [0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01],
      "adjusted": [0.01, 0.018000000000000002, 0.024, 0.028, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03],
    },
    { "p": [0.9, 0.8, 0.7, 0.6, 0.5], "adjusted": [1.0, 1.0, 1.0, 1.0, 1.0] },
    {
      "p": [0.021, 0.0004, 0.33, 0.047, 0.0099, 0.18, 0.6, 0.012, 0.8, 0.052],
      "adjusted": [
        0.14700000000000002,
        0.004,
        0.99,
        0.28200000000000003,
        0.08910000000000001,
        0.72,
        1.0,
        0.096,
        1.0,
        0.28200000000000003,
      ],
    },
    { "p": [0.015, 0.015, 0.2, 0.001, 0.049], "adjusted": [0.06, 0.06, 0.2, 0.005, 0.098] },
    {
      "p": [1e-12, 3e-08, 0.04, 0.9, 0.0125, 0.0126, 0.33],
      "adjusted": [7e-12, 1.7999999999999997e-07, 0.12, 0.9, 0.0625, 0.0625, 0.66],
    },
    {
      "p": [0.0386, 0.0414, 7.6e-06, 0.5, 0.25, 0.125],
      "adjusted": [0.193, 0.193, 4.56e-05, 0.5, 0.5, 0.375],
    },
  ],
  "bh": [
    { "p": [0.01, 0.04, 0.03], "adjusted": [0.030000000000000002, 0.04, 0.04] },
    { "p": [0.039, 0.041, 7.6e-06], "adjusted": [0.041, 0.041, 2.2800000000000002e-05] },
    { "p": [0.05, 0.05, 0.05, 0.05], "adjusted": [0.05, 0.05, 0.05, 0.05] },
    {
      "p": [0.2, 0.001, 0.7, 0.04, 0.012, 0.5],
      "adjusted": [0.30000000000000004, 0.006, 0.7, 0.08, 0.036000000000000004, 0.6],
    },
    { "p": [0.0, 1.0, 0.5], "adjusted": [0.0, 1.0, 0.75] },
    { "p": [0.3], "adjusted": [0.3] },
    {
      "p": [0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01],
      "adjusted": [
        0.009999999999999998,
        0.009999999999999998,
        0.009999999999999998,
        0.009999999999999998,
        0.009999999999999998,
        0.009999999999999998,
        0.009999999999999998,
        0.009999999999999998,
        0.009999999999999998,
        0.01,
      ],
    },
    { "p": [0.9, 0.8, 0.7, 0.6, 0.5], "adjusted": [0.9, 0.9, 0.9, 0.9, 0.9] },
    {
      "p": [0.021, 0.0004, 0.33, 0.047, 0.0099, 0.18, 0.6, 0.012, 0.8, 0.052],
      "adjusted": [
        0.0525,
        0.004,
        0.4125,
        0.08666666666666667,
        0.04,
        0.2571428571428572,
        0.6666666666666666,
        0.04,
        0.8,
        0.08666666666666667,
      ],
    },
    { "p": [0.015, 0.015, 0.2, 0.001, 0.049], "adjusted": [0.025, 0.025, 0.2, 0.005, 0.06125] },
    {
      "p": [1e-12, 3e-08, 0.04, 0.9, 0.0125, 0.0126, 0.33],
      "adjusted": [7e-12, 1.05e-07, 0.056, 0.9, 0.02205, 0.02205, 0.38500000000000006],
    },
    {
      "p": [0.0386, 0.0414, 7.6e-06, 0.5, 0.25, 0.125],
      "adjusted": [0.0828, 0.0828, 4.5600000000000004e-05, 0.5, 0.3, 0.1875],
    },
  ],
  "newcombe": [{
    "x1": 38,
    "n1": 40,
    "x2": 30,
    "n2": 40,
    "z": 1.9599639845400545,
    "interval": [0.04212105971687907, 0.3561876770874144],
  }, {
    "x1": 30,
    "n1": 40,
    "x2": 20,
    "n2": 40,
    "z": 1.9599639845400545,
    "interval": [0.03788906990704033, 0.43329550084991053],
  }, {
    "x1": 56,
    "n1": 70,
    "x2": 48,
    "n2": 80,
    "z": 1.9599639845400545,
    "interval": [0.05243147240236498, 0.33387265403690614],
  }, {
    "x1": 9,
    "n1": 10,
    "x2": 3,
    "n2": 10,
    "z": 1.9599639845400545,
    "interval": [0.1705227239345029, 0.809017973535488],
  }, {
    "x1": 0,
    "n1": 10,
    "x2": 0,
    "n2": 10,
    "z": 1.9599639845400545,
    "interval": [-0.27753279986288926, 0.27753279986288926],
  }, {
    "x1": 10,
    "n1": 10,
    "x2": 0,
    "n2": 10,
    "z": 1.9599639845400545,
    "interval": [0.6075093504305241, 1.0],
  }, {
    "x1": 5,
    "n1": 56,
    "x2": 0,
    "n2": 29,
    "z": 1.9599639845400545,
    "interval": [-0.038137147903536936, 0.19256001385511165],
  }, {
    "x1": 1,
    "n1": 29,
    "x2": 2,
    "n2": 30,
    "z": 1.6448536269514729,
    "interval": [-0.1512763644597369, 0.08290663359778126],
  }, {
    "x1": 27,
    "n1": 30,
    "x2": 9,
    "n2": 20,
    "z": 2.575829303548901,
    "interval": [0.10908791009782703, 0.697585200212476],
  }, {
    "x1": 100,
    "n1": 200,
    "x2": 110,
    "n2": 200,
    "z": 1.9599639845400545,
    "interval": [-0.14616968879681147, 0.04749893417554549],
  }, {
    "x1": 4,
    "n1": 5,
    "x2": 5,
    "n2": 5,
    "z": 1.9599639845400545,
    "interval": [-0.6244653702374747, 0.26432483758388886],
  }, {
    "x1": 750,
    "n1": 1000,
    "x2": 700,
    "n2": 1000,
    "z": 1.9599639845400545,
    "interval": [0.010859030388200255, 0.0889392034699257],
  }],
  "pairedNewcombe": [{
    "table": [59, 6, 16, 80],
    "z": 1.9599639845400545,
    "interval": [-0.11862119563870999, -0.004625113933050047],
  }, {
    "table": [1, 1, 7, 12],
    "z": 1.9599639845400545,
    "interval": [-0.506920226686141, -0.025559124164859837],
  }, {
    "table": [14, 5, 0, 22],
    "z": 1.9599639845400545,
    "interval": [0.011483241383033221, 0.2264926843512112],
  }, {
    "table": [28, 10, 2, 0],
    "z": 1.9599639845400545,
    "interval": [0.03200912821345778, 0.3607818425939889],
  }, {
    "table": [20, 18, 0, 2],
    "z": 1.9599639845400545,
    "interval": [0.2732707647068414, 0.5982763944044144],
  }, {
    "table": [0, 0, 0, 10],
    "z": 1.9599639845400545,
    "interval": [-0.27753279986288926, 0.27753279986288926],
  }, {
    "table": [10, 0, 0, 0],
    "z": 1.9599639845400545,
    "interval": [-0.27753279986288937, 0.27753279986288937],
  }, {
    "table": [5, 3, 3, 5],
    "z": 1.6448536269514729,
    "interval": [-0.2515539379130829, 0.2515539379130829],
  }, {
    "table": [60, 12, 2, 26],
    "z": 2.575829303548901,
    "interval": [0.003431102996974633, 0.1948762605601454],
  }],
  "taskT": [{
    "differences": [0.2, 0.4, 0.0, 0.2],
    "confidence": 0.95,
    "interval": [-0.05984565272506748, 0.4598456527250675],
  }, {
    "differences": [0.1, -0.3, 0.25, 0.5, -0.05, 0.3],
    "confidence": 0.95,
    "interval": [-0.16287285835652213, 0.4295395250231888],
  }, {
    "differences": [1.0, 0.0],
    "confidence": 0.95,
    "interval": [-5.853102368216048, 6.853102368216048],
  }, {
    "differences": [
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
    "confidence": 0.95,
    "interval": [0.07295288081620874, 0.1670471191837913],
  }, {
    "differences": [0.5, 0.25, -0.25],
    "confidence": 0.9,
    "interval": [-0.47712963979294265, 0.8104629731262755],
  }, {
    "differences": [0.3, 0.1, 0.2, 0.6, -0.1, 0.4, 0.0, 0.2, 0.3, 0.1, 0.5],
    "confidence": 0.99,
    "interval": [0.0346826484524467, 0.43804462427482604],
  }, {
    "differences": [
      -0.4,
      -0.38,
      -0.36000000000000004,
      -0.34,
      -0.32,
      -0.30000000000000004,
      -0.28,
      -0.26,
      -0.24000000000000002,
      -0.22000000000000003,
      -0.2,
      -0.18000000000000002,
      -0.16000000000000003,
      -0.14,
      -0.12,
      -0.10000000000000003,
      -0.08000000000000002,
      -0.06,
      -0.040000000000000036,
      -0.020000000000000018,
      0.0,
      0.019999999999999962,
      0.03999999999999998,
      0.06,
      0.07999999999999996,
      0.09999999999999998,
      0.12,
      0.14,
      0.16000000000000003,
      0.17999999999999994,
      0.19999999999999996,
      0.21999999999999997,
      0.24,
      0.26,
      0.28,
      0.29999999999999993,
      0.31999999999999995,
      0.33999999999999997,
      0.36,
      0.38,
      0.4,
      0.41999999999999993,
      0.43999999999999995,
      0.45999999999999996,
      0.48,
      0.5,
      0.52,
      0.5399999999999999,
      0.5599999999999999,
      0.58,
      0.6,
    ],
    "confidence": 0.95,
    "interval": [0.01637701586775779, 0.18362298413224215],
  }, { "differences": [0.0, 0.0, 0.0], "confidence": 0.95, "interval": [0.0, 0.0] }],
};

Deno.test("adjustPValues() matches statsmodels' multipletests holm on every reference vector", () => {
  assert.ok(REFERENCE.holm.length >= 10);
  for (const { p, adjusted } of REFERENCE.holm) {
    const actual = adjustPValues(p);
    assert.equal(actual.length, p.length);
    actual.forEach((value, i) => close(value, adjusted[i]!, `holm ${JSON.stringify(p)}[${i}]`));
  }
});

Deno.test("adjustPValues() matches statsmodels' multipletests fdr_bh on every reference vector", () => {
  assert.ok(REFERENCE.bh.length >= 10);
  for (const { p, adjusted } of REFERENCE.bh) {
    const actual = adjustPValues(p, { method: "bh" });
    actual.forEach((value, i) => close(value, adjusted[i]!, `bh ${JSON.stringify(p)}[${i}]`));
  }
});

Deno.test("adjustPValues() keeps input order, clips to 1, and holm >= bh >= raw (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (p) => {
      const holm = adjustPValues(p);
      const bh = adjustPValues(p, { method: "bh" });
      assert.deepEqual(adjustPValues(p, { method: "none" }), p);
      p.forEach((raw, i) => {
        assert.ok(holm[i]! <= 1 && bh[i]! <= 1);
        assert.ok(holm[i]! >= bh[i]! - 1e-15 && bh[i]! >= raw - 1e-15);
      });
      // Reversing the input reverses the output: values follow their p-value, not their slot.
      const reversed = adjustPValues([...p].reverse());
      assert.deepEqual(reversed, [...holm].reverse());
    }),
  );
});

Deno.test("adjustPValues() rejects a p-value outside [0, 1] and an unknown method, naming them", () => {
  assert.throws(() => adjustPValues([0.1, 1.5]), /p_values\[1\]: expected a p-value from 0 to 1/);
  assert.throws(() => adjustPValues([0.1, NaN]), /p_values\[1\]/);
  assert.throws(
    () => adjustPValues([0.1], { method: "bonferroni" as "holm" }),
    /unknown adjustment "bonferroni"; use holm, bh, none/,
  );
  assert.deepEqual(adjustPValues([]), []);
});

Deno.test("differenceInterval() matches statsmodels' confint_proportions_2indep newcomb", () => {
  assert.equal(REFERENCE.newcombe.length, 12);
  for (const { x1, n1, x2, n2, z, interval } of REFERENCE.newcombe) {
    const [low, high] = differenceInterval(x1, n1, x2, n2, { z });
    close(low, interval[0]!, `${x1}/${n1} - ${x2}/${n2} low`);
    close(high, interval[1]!, `${x1}/${n1} - ${x2}/${n2} high`);
  }
});

Deno.test("pairedDifferenceInterval() reproduces the published worked example", () => {
  // Cavo et al. (2012), the worked example of Newcombe's square-and-add (method 10) paired
  // interval in Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables,
  // ch. 8, whose R package checks it in tests/testthat/test-ch8.R of contingencytables:
  // table [[59, 6], [16, 80]] gives estimate -0.0621 (95% CI -0.1186 to -0.0046).
  const [low, high] = pairedDifferenceInterval(59, 6, 16, 80);
  assert.equal(((6 - 16) / 161).toFixed(4), "-0.0621");
  assert.equal(low.toFixed(4), "-0.1186");
  assert.equal(high.toFixed(4), "-0.0046");
});

Deno.test("pairedDifferenceInterval() matches the independent Python implementation to 1e-9", () => {
  assert.ok(REFERENCE.pairedNewcombe.length >= 8);
  for (const { table, z, interval } of REFERENCE.pairedNewcombe) {
    const [a, b, c, d] = table as [number, number, number, number];
    const [low, high] = pairedDifferenceInterval(a, b, c, d, { z });
    close(low, interval[0]!, `${table} low`);
    close(high, interval[1]!, `${table} high`);
  }
});

Deno.test("difference intervals contain the estimate, stay in [-1, 1] and reject bad counts (property)", () => {
  fc.assert(
    fc.property(
      fc.nat(60),
      fc.nat(60),
      fc.nat(60),
      fc.nat(60),
      (a, b, c, d) => {
        fc.pre(a + b + c + d > 0);
        const [low, high] = pairedDifferenceInterval(a, b, c, d);
        const n = a + b + c + d;
        assert.ok(
          -1 <= low && low <= (b - c) / n + 1e-12 && (b - c) / n - 1e-12 <= high && high <= 1,
        );
        const n1 = a + b + 1;
        const n2 = c + d + 1;
        const [low2, high2] = differenceInterval(a, n1, c, n2);
        const estimate = a / n1 - c / n2;
        assert.ok(
          -1 <= low2 && low2 <= estimate + 1e-12 && estimate - 1e-12 <= high2 && high2 <= 1,
        );
      },
    ),
  );
  assert.throws(() => differenceInterval(3, 2, 1, 2), /successes 3 exceed n 2/);
  assert.throws(() => differenceInterval(0, 0, 1, 2), /n1: expected at least one run/);
  assert.throws(() => pairedDifferenceInterval(0, 0, 0, 0), /expected at least one matched pair/);
  assert.throws(() => pairedDifferenceInterval(1, -1, 0, 0), /b: expected a non-negative integer/);
  assert.throws(() => differenceInterval(1, 2, 1, 2, { z: 0 }), /expected a positive z/);
});

Deno.test("taskDifferenceInterval() matches SciPy's t.interval over per-task differences", () => {
  assert.ok(REFERENCE.taskT.length >= 8);
  for (const { differences, confidence, interval } of REFERENCE.taskT) {
    const [low, high] = taskDifferenceInterval(differences, { confidence })!;
    close(low, interval[0]!, `${differences.length} tasks low`);
    close(high, interval[1]!, `${differences.length} tasks high`);
  }
  assert.equal(taskDifferenceInterval([0.2]), null);
  assert.throws(
    () => taskDifferenceInterval([0.2, NaN]),
    /differences\[1\]: expected a finite number/,
  );
});

/** Mulberry32: a small seeded generator, the same on every platform. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

Deno.test("compareRuns() under no difference: Holm keeps the chance of any false 'beats' at alpha over 10 pairs", () => {
  // 2,000 seeded matrices of 5 variants on 12 tasks x 5 repeats; every variant passes a task
  // with that task's rate (drawn once per matrix), so every "beats" is a false one.
  const simulations = 2000;
  const alpha = 0.05;
  const bound = alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / simulations);
  let holm = 0;
  let raw = 0;
  for (let seed = 0; seed < simulations; seed++) {
    const random = generator(seed + 1);
    const rates = Array.from({ length: 12 }, () => random());
    const runs: Run[] = [];
    for (const variant of ["v1", "v2", "v3", "v4", "v5"]) {
      rates.forEach((rate, task) => {
        for (let repeat = 0; repeat < 5; repeat++) {
          runs.push(new Run(variant, `t${task}`, random() < rate ? "pass" : "fail", { repeat }));
        }
      });
    }
    const adjusted = compareRuns(runs, { alpha });
    assert.equal(adjusted.pairs.length, 10);
    if (adjusted.pairs.some((pair) => pair.distinguishable)) holm++;
    if (compareRuns(runs, { alpha, adjust: "none" }).pairs.some((pair) => pair.distinguishable)) {
      raw++;
    }
  }
  assert.ok(holm / simulations <= bound, `Holm: ${holm / simulations} > ${bound}`);
  assert.ok(raw / simulations > bound, `unadjusted: ${raw / simulations} <= ${bound}`);
  console.log(
    `any false "beats": Holm ${holm / simulations}, unadjusted ${raw / simulations}, bound ${
      bound.toFixed(4)
    }`,
  );
});
