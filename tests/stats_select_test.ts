import assert from "node:assert/strict";
import {
  compareRuns,
  type Comparison,
  InputError,
  Objective,
  OBJECTIVE_METRICS,
  paretoFront,
  Run,
  selectVariant,
} from "../mod.ts";

/** A variant with `passes` of `n` passing runs, each with the given cost and latency. */
function variant(
  name: string,
  passes: number,
  n: number,
  cost: number | null,
  latency: number | null,
): Run[] {
  return Array.from(
    { length: n },
    (_, i) => new Run(name, "t", i < passes ? "pass" : "fail", { cost, latency }),
  );
}

// accurate: best pass rate, expensive; cheap: cheapest, worst; balanced: in between; mystery: no cost known.
function sample(): Comparison {
  return compareRuns([
    ...variant("accurate", 18, 20, 0.05, 20),
    ...variant("cheap", 10, 20, 0.001, 5),
    ...variant("balanced", 15, 20, 0.01, 10),
    ...variant("mystery", 18, 20, null, 12),
  ]);
}

Deno.test("OBJECTIVE_METRICS lists the metrics and their goals", () => {
  assert.deepEqual({ ...OBJECTIVE_METRICS }, {
    pass_rate: "max",
    pass_hat_k: "max",
    interval_low: "max",
    cost: "min",
    latency: "min",
  });
});

Deno.test("Objective.from() reads names, signs and objects", () => {
  assert.deepEqual(Objective.from("cost").toJSON(), { metric: "cost", goal: "min" });
  assert.deepEqual(Objective.from("+cost").toJSON(), { metric: "cost", goal: "max" });
  assert.deepEqual(Objective.from("-pass_rate").toJSON(), { metric: "pass_rate", goal: "min" });
  assert.deepEqual(Objective.from({ metric: "latency" }).toJSON(), {
    metric: "latency",
    goal: "min",
  });
  assert.deepEqual(Objective.from({ metric: "latency", goal: "max" }).goal, "max");
  assert.throws(
    () => Objective.from("speed"),
    /objective: unknown metric speed; use one of pass_rate/,
  );
  assert.throws(
    () => Objective.from({ metric: "cost", goal: "up" as "max" }),
    /goal: unknown goal "up"/,
  );
  assert.throws(
    () => Objective.from(3 as unknown as string),
    /expected a metric name or \{metric, goal\}/,
  );
});

Deno.test("selectVariant() lexicographic takes the best first objective, then the next", () => {
  const selection = selectVariant(sample(), { objectives: ["pass_rate", "cost"] });
  assert.equal(selection.chosen, "accurate");
  assert.deepEqual(selection.ranking, ["accurate", "mystery", "balanced", "cheap"]);
  assert.equal(
    selection.reason,
    "accurate ties mystery on pass_rate (0.900) and beats it on cost ($0.05 vs unknown); unknown cost of mystery counted as worst",
  );
  assert.deepEqual(selection.scores, {});
});

Deno.test("selectVariant() counts an unknown value as worst, never as 0", () => {
  // With cost first, the variant whose cost is unknown must not win as "free".
  const selection = selectVariant(sample(), { objectives: ["cost"] });
  assert.equal(selection.chosen, "cheap");
  assert.equal(selection.ranking.at(-1), "mystery");
  assert.deepEqual(selection.unknown, { mystery: ["cost"] });
  // Maximizing cost (+cost) still puts unknown last.
  assert.equal(selectVariant(sample(), { objectives: ["+cost"] }).ranking.at(-1), "mystery");
});

Deno.test("selectVariant() weighted scales each objective to [0, 1] and sums", () => {
  const selection = selectVariant(sample(), {
    policy: "weighted",
    objectives: ["pass_rate", "cost"],
    weights: { pass_rate: 2 },
  });
  // pass_rate: accurate/mystery 1, balanced 0.625, cheap 0; cost: cheap 1, balanced 0.8163…, accurate 0, mystery unknown → 0.
  const costOfBalanced = (0.05 - 0.01) / (0.05 - 0.001);
  assert.ok(Math.abs(selection.scores.balanced! - (2 * 0.625 + costOfBalanced)) < 1e-12);
  assert.equal(selection.scores.accurate, 2);
  assert.equal(selection.scores.mystery, 2);
  assert.equal(selection.scores.cheap, 1);
  assert.equal(selection.chosen, "balanced");
  assert.match(
    selection.reason,
    /^balanced has the highest weighted score, 2\.066 \(pass_rate 0\.750, cost \$0\.01\), vs 2\.000 for accurate/,
  );
});

Deno.test("selectVariant() weighted gives 1 to every known value when they are all equal", () => {
  const comparison = compareRuns([
    ...variant("a", 5, 10, 1, null),
    ...variant("b", 5, 10, 1, null),
    ...variant("c", 5, 10, null, null),
  ]);
  const selection = selectVariant(comparison, {
    policy: "weighted",
    objectives: ["pass_rate", "cost"],
  });
  assert.deepEqual(selection.scores, { a: 2, b: 2, c: 1 });
  assert.deepEqual(selection.ranking, ["a", "b", "c"]);
});

Deno.test("selectVariant() pareto picks from the front by the first objective", () => {
  const selection = selectVariant(sample(), {
    policy: "pareto",
    objectives: ["pass_rate", "cost"],
  });
  assert.deepEqual(selection.paretoFront, ["accurate", "cheap", "balanced"]);
  assert.equal(selection.chosen, "accurate");
  assert.deepEqual(selection.ranking, ["accurate", "balanced", "cheap", "mystery"]);
  assert.match(
    selection.reason,
    /^accurate is on the Pareto front of max pass_rate, min cost with cheap, balanced; it beats balanced on pass_rate \(0\.900 vs 0\.750\)/,
  );
  const byCost = selectVariant(sample(), { policy: "pareto", objectives: ["cost", "pass_rate"] });
  assert.equal(byCost.chosen, "cheap");
});

Deno.test("paretoFront() treats unknown as worst and keeps input order", () => {
  const comparison = sample();
  assert.deepEqual(paretoFront(comparison.variants, ["pass_rate", "cost"]), [
    "accurate",
    "cheap",
    "balanced",
  ]);
  // On pass rate and latency, mystery (same pass rate, faster) dominates accurate.
  assert.deepEqual(paretoFront(comparison.variants, ["pass_rate", "latency"]), [
    "cheap",
    "balanced",
    "mystery",
  ]);
  assert.deepEqual(paretoFront([], ["cost"]), []);
});

Deno.test("selectVariant() with no variants chooses nothing", () => {
  const selection = selectVariant(compareRuns([]));
  assert.equal(selection.chosen, null);
  assert.equal(selection.reason, "no variants to choose from");
});

Deno.test("selectVariant() names an unknown policy, metric or weight", () => {
  assert.throws(
    () => selectVariant(sample(), { policy: "random" }),
    /policy: unknown policy random; use lexicographic, weighted, pareto/,
  );
  assert.throws(
    () => selectVariant(sample(), { objectives: ["speed"] }),
    (error: Error) => error instanceof InputError && /unknown metric speed/.test(error.message),
  );
  assert.throws(
    () =>
      selectVariant(sample(), {
        policy: "weighted",
        objectives: ["pass_rate"],
        weights: { latency: 1 },
      }),
    /a weight for latency, which is not an objective/,
  );
  assert.throws(
    () => selectVariant(sample(), { policy: "weighted", weights: { speed: 1 } }),
    /weights: unknown metric speed/,
  );
  assert.throws(
    () => selectVariant(sample(), { policy: "weighted", weights: { cost: -1 } }),
    /weights\.cost: expected a non-negative number/,
  );
  assert.throws(
    () => selectVariant(sample(), { objectives: [] }),
    /expected at least one objective/,
  );
});

Deno.test("Selection.toJSON() is snake_case", () => {
  const json = JSON.parse(JSON.stringify(selectVariant(sample(), { policy: "pareto" })));
  assert.deepEqual(Object.keys(json), [
    "chosen",
    "policy",
    "objectives",
    "ranking",
    "pareto_front",
    "scores",
    "unknown",
    "reason",
  ]);
  assert.deepEqual(json.objectives, [{ metric: "pass_rate", goal: "max" }, {
    metric: "cost",
    goal: "min",
  }]);
});
