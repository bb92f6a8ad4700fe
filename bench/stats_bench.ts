/**
 * Speed targets of the statistics (issue 7), printed by `deno bench bench/stats_bench.ts`:
 * - fisherExact(50000, 50000, 49000, 51000) under 50 ms;
 * - compareRuns over 1,000,000 runs of 10 variants under 2 seconds.
 *
 * @module
 */

import { compareRuns, fisherExact, Run, type RunOutcome, selectVariant } from "../mod.ts";

Deno.bench("fisherExact(50000, 50000, 49000, 51000) [target < 50 ms]", () => {
  fisherExact(50000, 50000, 49000, 51000);
});

Deno.bench("fisherExact(400000, 100000, 100000, 400000) (far tail)", () => {
  fisherExact(400000, 100000, 100000, 400000);
});

Deno.bench("fisherExact(9, 1, 7, 3)", () => {
  fisherExact(9, 1, 7, 3);
});

// 1,000,000 runs: 10 variants × 100 tasks × 1,000 repeats, with costs and latencies
// (every 7th run without a cost, every 11th without a latency). Built once, outside the timing.
function millionRuns(): Run[] {
  let state = 42;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const runs: Run[] = [];
  for (let v = 0; v < 10; v++) {
    const passRate = 0.5 + v * 0.04;
    for (let i = 0; i < 100_000; i++) {
      const r = random();
      const outcome: RunOutcome = r < 0.01 ? "error" : r < 0.01 + passRate ? "pass" : "fail";
      runs.push(
        new Run(`variant-${v}`, `task-${i % 100}`, outcome, {
          cost: i % 7 === 0 ? null : 0.001 * (1 + v) * (0.5 + random()),
          latency: i % 11 === 0 ? null : 5 + 10 * random(),
          runId: `${v}-${i}`,
        }),
      );
    }
  }
  return runs;
}

const RUNS = millionRuns();

Deno.bench("compareRuns over 1,000,000 runs of 10 variants, all 45 pairs [target < 2 s]", () => {
  compareRuns(RUNS);
});

Deno.bench("compareRuns over 1,000,000 runs, k = 5, baseline + selectVariant(pareto)", () => {
  const comparison = compareRuns(RUNS, { k: 5, baseline: "variant-0" });
  selectVariant(comparison, { policy: "pareto", objectives: ["pass_rate", "cost", "latency"] });
});
