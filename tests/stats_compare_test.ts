import assert from "node:assert/strict";
import { compareRuns, Comparison, InputError, Run, type RunOutcome } from "../mod.ts";

/** `n` runs of one task, the first `passes` passing. */
function runs(variant: string, passes: number, n: number, extra: Partial<Run> = {}): Run[] {
  return Array.from(
    { length: n },
    (_, i) =>
      new Run(variant, extra.task ?? "t", i < passes ? "pass" : "fail", {
        cost: extra.cost ?? null,
        latency: extra.latency ?? null,
      }),
  );
}

Deno.test("compareRuns() calls 9/10 vs 7/10 not distinguishable", () => {
  const comparison = compareRuns([...runs("a", 9, 10), ...runs("b", 7, 10)]);
  const pair = comparison.pairs[0]!;
  assert.equal(pair.distinguishable, false);
  assert.equal(pair.overlap, true);
  assert.ok(Math.abs(pair.pValue - 0.5820433436532508) < 1e-9);
  assert.ok(Math.abs(pair.difference! - -0.2) < 1e-12);
  assert.equal(
    pair.verdict,
    "a and b are not distinguishable: 9/10 vs 7/10, p = 0.58, intervals overlap",
  );
});

Deno.test("compareRuns() calls 90/100 vs 50/100 distinguishable", () => {
  const comparison = compareRuns([...runs("a", 90, 100), ...runs("b", 50, 100)]);
  const pair = comparison.pairs[0]!;
  assert.equal(pair.distinguishable, true);
  assert.equal(pair.overlap, false);
  assert.ok(pair.pValue < 1e-9);
  assert.equal(
    pair.verdict,
    "a beats b: 90/100 = 0.90 [0.83, 0.94] vs 50/100 = 0.50 [0.40, 0.60], p = 5.5e-10",
  );
});

Deno.test("compareRuns() gives the stats.md verdict sentence for 27/30 vs 9/20", () => {
  const comparison = compareRuns([...runs("a", 9, 20), ...runs("b", 27, 30)]);
  assert.equal(
    comparison.pairs[0]!.verdict,
    "b beats a: 27/30 = 0.90 [0.74, 0.97] vs 9/20 = 0.45 [0.26, 0.66], p = 0.00094",
  );
});

Deno.test("compareRuns() notes a variant with fewer than min_n runs and gives no verdict", () => {
  const comparison = compareRuns([...runs("a", 30, 30), ...runs("c", 0, 4)]);
  const pair = comparison.pairs[0]!;
  assert.ok(pair.pValue < 0.05);
  assert.equal(pair.overlap, false);
  assert.equal(pair.distinguishable, false);
  assert.doesNotMatch(pair.verdict, /beats|not distinguishable/);
  assert.equal(
    pair.verdict,
    "a and c cannot be compared yet: 30/30 vs 0/4, c has 4 runs, fewer than min_n = 10",
  );
  assert.ok(comparison.notes.includes("variant c has 4 runs, fewer than min_n = 10"));
  // With min_n lowered, the same runs are called.
  assert.equal(
    compareRuns([...runs("a", 30, 30), ...runs("c", 0, 4)], { minN: 4 }).pairs[0]!.distinguishable,
    true,
  );
});

Deno.test("compareRuns() says why when p is small but the intervals overlap", () => {
  const comparison = compareRuns([...runs("a", 30, 40), ...runs("b", 20, 40)]);
  assert.equal(
    comparison.pairs[0]!.verdict,
    "a and b are not distinguishable: 30/40 vs 20/40, p = 0.037 < alpha = 0.05, intervals overlap",
  );
});

Deno.test("compareRuns() keeps unknown cost and latency unknown, never 0", () => {
  const comparison = compareRuns([
    ...runs("a", 5, 10, { cost: 0.2, latency: 3 }),
    new Run("a", "t", "pass"),
    ...runs("b", 5, 10),
  ]);
  const { a, b } = comparison.byName();
  assert.ok(Math.abs(a!.cost! - 0.2) < 1e-15); // the mean over the 10 runs with a cost, not 2/11
  assert.equal(a!.costKnown, 10);
  assert.equal(a!.latency, 3);
  assert.equal(a!.n, 11);
  assert.equal(b!.cost, null);
  assert.equal(b!.costKnown, 0);
  assert.equal(b!.latency, null);
  assert.equal(b!.toJSON().cost, null);
  assert.ok(
    comparison.notes.includes("variant a: cost known for 10 of 11 runs; the mean is over those"),
  );
  assert.ok(comparison.notes.includes("variant b: cost unknown for every run; it counts as worst"));
});

Deno.test("compareRuns() keeps errors and unknowns in n", () => {
  const outcomes: RunOutcome[] = ["pass", "pass", "fail", "error", "unknown"];
  const stats = compareRuns(outcomes.map((outcome) => new Run("a", "t", outcome))).variants[0]!;
  assert.equal(stats.n, 5);
  assert.equal(stats.passRate, 0.4);
  assert.deepEqual(stats.counts, { pass: 2, fail: 1, error: 1, unknown: 1 });
});

Deno.test("compareRuns() notes the error and unknown runs that count as not passing", () => {
  const runs = [
    ...["pass", "error", "unknown"].map((o) => new Run("a", "t", o as RunOutcome)),
    ...["pass", "error", "error"].map((o) => new Run("b", "t", o as RunOutcome)),
    ...["pass", "fail"].map((o) => new Run("c", "t", o as RunOutcome)),
  ];
  const notes = compareRuns(runs, { minN: 0 }).notes;
  assert.ok(
    notes.includes("variant a: 1 error and 1 unknown runs count as not passing"),
    `${notes}`,
  );
  assert.ok(notes.includes("variant b: 2 error runs count as not passing"), `${notes}`);
  assert.ok(!notes.some((note) => note.startsWith("variant c:")), `${notes}`);
});

Deno.test("compareRuns() averages pass^k over tasks with at least k runs", () => {
  const all = [
    ...runs("a", 7, 10, { task: "x" }), // C(7,3)/C(10,3) = 35/120
    ...runs("a", 3, 3, { task: "y" }), // 1
    ...runs("a", 1, 2, { task: "z" }), // too few runs for k = 3
  ];
  const stats = compareRuns(all, { k: 3 }).variants[0]!;
  assert.ok(Math.abs(stats.passHatK! - (35 / 120 + 1) / 2) < 1e-12);
  assert.equal(stats.tasks, 3);
  assert.equal(stats.tasksShort, 1);
  assert.equal(compareRuns(runs("a", 1, 2), { k: 3 }).variants[0]!.passHatK, null);
});

Deno.test("compareRuns() compares every variant with the baseline, or all pairs", () => {
  const all = [...runs("a", 5, 10), ...runs("b", 6, 10), ...runs("c", 7, 10)];
  assert.deepEqual(compareRuns(all).pairs.map((pair) => [pair.a, pair.b]), [
    ["a", "b"],
    ["a", "c"],
    ["b", "c"],
  ]);
  assert.deepEqual(compareRuns(all, { baseline: "c" }).pairs.map((pair) => [pair.a, pair.b]), [
    ["c", "a"],
    ["c", "b"],
  ]);
});

Deno.test("compareRuns() names an unknown baseline and bad options", () => {
  assert.throws(
    () => compareRuns(runs("a", 1, 2), { baseline: "zz" }),
    (error: Error) =>
      error instanceof InputError &&
      /baseline: unknown variant zz; the runs have a/.test(error.message),
  );
  assert.throws(() => compareRuns([], { k: 0 }), /k: expected an integer of at least 1/);
  assert.throws(() => compareRuns([], { alpha: 1 }), /alpha: expected a number between 0 and 1/);
  assert.throws(() => compareRuns([], { minN: -1 }), /min_n: expected a non-negative integer/);
});

Deno.test("Comparison.toJSON() is snake_case and JSON-safe", () => {
  const comparison = compareRuns([...runs("a", 9, 10, { cost: 1 }), ...runs("b", 7, 10)]);
  assert.ok(comparison instanceof Comparison);
  const json = JSON.parse(JSON.stringify(comparison));
  assert.deepEqual(Object.keys(json), [
    "k",
    "min_n",
    "alpha",
    "test",
    "adjust",
    "errors",
    "generalize",
    "baseline",
    "variants",
    "pairs",
    "notes",
  ]);
  assert.deepEqual(Object.keys(json.variants[0]), [
    "variant",
    "n",
    "counts",
    "pass_rate",
    "interval",
    "pass_hat_k",
    "k",
    "tasks",
    "tasks_short",
    "cost",
    "cost_known",
    "latency",
    "latency_known",
    "clustered_interval",
    "clustered_se",
    "design_effect",
    "task_classes",
  ]);
  assert.deepEqual(Object.keys(json.pairs[0]), [
    "a",
    "b",
    "difference",
    "p_value",
    "overlap",
    "distinguishable",
    "verdict",
    "test",
    "paired_p_value",
    "paired_tasks",
    "discordant",
    "test_reason",
    "difference_interval",
    "difference_method",
    "adjusted_p_value",
    "adjust",
    "task_p_value",
  ]);
  assert.equal(json.variants[1].cost, null);
});

Deno.test("compareRuns() with no runs has no variants and says so", () => {
  const comparison = compareRuns([]);
  assert.deepEqual(comparison.variants, []);
  assert.deepEqual(comparison.notes, ["only 0 variants: nothing to compare"]);
});
