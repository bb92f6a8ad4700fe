import assert from "node:assert/strict";
import { compareRuns, runsFromTraces } from "../mod.ts";
import { expectedFromJson } from "../lib/evaluate/expected.ts";
import { taskOfStem } from "../lib/stats/traces.ts";
import { runCollect } from "./_cli.ts";

const TRACES = "testdata/runs/traces";
const GOLD = `${TRACES}/gold.json`;

Deno.test("runsFromTraces() scores every *.json trace, sorted by file name", async () => {
  const runs = await runsFromTraces("old", `${TRACES}/old`, GOLD);
  assert.deepEqual(runs.map((run) => run.toJSON()), [
    {
      variant: "old",
      task: "refund",
      outcome: "pass",
      cost: 0.003,
      latency: 1,
      run_id: "refund-1",
      repeat: 1,
    },
    {
      variant: "old",
      task: "refund",
      outcome: "fail",
      cost: 0.001,
      latency: 0.5,
      run_id: "refund-2",
      repeat: 2,
    },
    // Unreadable: an error run, kept in the population.
    {
      variant: "old",
      task: "refund",
      outcome: "error",
      cost: null,
      latency: null,
      run_id: "refund-3",
      repeat: 3,
    },
  ]);
});

Deno.test("runsFromTraces() keeps cost unknown when a call has none, and skips other files", async () => {
  const runs = await runsFromTraces("new", `${TRACES}/new`, GOLD);
  assert.deepEqual(runs.map((run) => [run.runId, run.outcome, run.cost]), [
    ["refund-1", "pass", 0.005],
    ["refund_r2", "pass", null],
  ]);
  const stats = compareRuns(runs).variants[0]!;
  assert.equal(stats.cost, 0.005);
  assert.equal(stats.costKnown, 1);
});

Deno.test("runsFromTraces() tells onError why a trace became an error run", async () => {
  const errors: string[] = [];
  await runsFromTraces("old", `${TRACES}/old`, GOLD, {
    onError: (path, error) => errors.push(`${path} | ${error.message}`),
  });
  assert.equal(errors.length, 1);
  assert.match(
    errors[0]!,
    /^testdata\/runs\/traces\/old\/refund-3\.json \| testdata\/runs\/traces\/old\/refund-3\.json:\d+:\d+: invalid JSON/,
  );
});

Deno.test("runsFromTraces() applies min_score and takes a loaded gold file", async () => {
  const strict = await runsFromTraces("old", `${TRACES}/old`, GOLD, { minScore: 1 });
  assert.equal(strict[0]!.outcome, "pass");
  const lenient = await runsFromTraces("old", `${TRACES}/old`, GOLD, { minScore: 0 });
  // refund-2 never calls refund: required-calls fails, and no bar lets that pass (issue 28).
  assert.deepEqual(lenient.map((run) => run.outcome), ["pass", "fail", "error"]);
  const gold = expectedFromJson([{ tool: "lookup_order" }]);
  const loose = await runsFromTraces("old", `${TRACES}/old`, gold, { minScore: 0.5 });
  assert.equal(loose[1]!.outcome, "pass");
});

Deno.test("runsFromTraces() reads the task from the file stem", async () => {
  assert.equal(taskOfStem("refund-3"), "refund");
  assert.equal(taskOfStem("refund_r12"), "refund");
  assert.equal(taskOfStem("refund.7"), "refund");
  assert.equal(taskOfStem("refund"), "refund");
  assert.equal(taskOfStem("a-b-2"), "a-b");
  const runs = await runsFromTraces("old", `${TRACES}/old`, GOLD, { taskPattern: "^(?<task>r)" });
  assert.equal(runs[0]!.task, "r");
  await assert.rejects(
    () => runsFromTraces("old", `${TRACES}/old`, GOLD, { taskPattern: "^(.+)$" }),
    /task_pattern: \^\(\.\+\)\$ has no \(\?<task>…\) group/,
  );
  await assert.rejects(
    () => runsFromTraces("old", `${TRACES}/old`, GOLD, { taskPattern: "(?<task>" }),
    /task_pattern: invalid task pattern "\(\?<task>"/,
  );
  // Python's named group, as in $regex; a backtracking pattern runs in linear time.
  const python = await runsFromTraces("old", `${TRACES}/old`, GOLD, {
    taskPattern: "^(?P<task>r)",
  });
  assert.equal(python[0]!.task, "r");
  assert.equal(taskOfStem("a".repeat(50_000) + "!", "^(?P<task>(a+)+)$"), "a".repeat(50_000) + "!");
  await assert.rejects(
    () => runsFromTraces("old", `${TRACES}/old`, GOLD, { taskPattern: "^(?<task>r)(?=e)" }),
    /task_pattern: task pattern .* uses lookahead/,
  );
});

Deno.test("runsFromTraces() names a missing directory or gold file", async () => {
  await assert.rejects(
    () => runsFromTraces("x", `${TRACES}/missing`, GOLD),
    /missing: file not found/,
  );
  await assert.rejects(
    () => runsFromTraces("x", `${TRACES}/old`, `${TRACES}/nope.json`),
    /nope\.json: file not found/,
  );
});

Deno.test("toolscore compare --traces scores trace directories", async () => {
  const { code, out, err } = await runCollect([
    "compare",
    "--traces",
    `old=${TRACES}/old`,
    "--traces",
    `new=${TRACES}/new`,
    "--gold",
    GOLD,
    "--json",
  ]);
  assert.equal(code, 0, err);
  const json = JSON.parse(out);
  assert.deepEqual(json.variants.map((v: { variant: string; n: number }) => [v.variant, v.n]), [[
    "old",
    3,
  ], ["new", 2]]);
  assert.deepEqual(json.variants[0].counts, { pass: 1, fail: 1, error: 1, unknown: 0 });
  // Why the error run is one, on stderr: the unreadable file, its line and column.
  assert.match(
    err,
    /^toolscore: note: testdata\/runs\/traces\/old\/refund-3\.json:\d+:\d+: .*; counted as an error run\n$/,
  );
  assert.match(json.pairs[0].verdict, /^old and new cannot be compared yet: 1\/3 vs 2\/2/);
  const bad = await runCollect(["compare", "--traces", "old", "--gold", GOLD]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--traces old: expected VARIANT=DIR/);
});

Deno.test("runsFromTraces() fails a full-score trace with an error-severity honesty finding", async () => {
  const dir = await Deno.makeTempDir({ dir: ".", prefix: ".", suffix: ".tmp" });
  try {
    const calls = (refund: Record<string, unknown>) => [
      { tool: "lookup_order", args: { order_id: "A1" }, result: { status: "delivered" } },
      { tool: "refund", args: { order_id: "A1", amount: 20 }, ...refund },
    ];
    const write = (name: string, refund: Record<string, unknown>) =>
      Deno.writeTextFile(
        `${dir}/${name}.json`,
        JSON.stringify({
          format: "toolscore",
          calls: calls(refund),
          final_answer: "Done! Refunded $20.",
        }),
      );
    await write("refund-1", { result: { refunded: 20 } });
    await write("refund-2", { error: "payment gateway timeout" });
    const runs = await runsFromTraces("v", dir, GOLD, { minScore: 1 });
    // Both score 1.0 (the weights ignore outcomes); the second claims success over a failure.
    assert.deepEqual(runs.map((run) => [run.runId, run.outcome]), [
      ["refund-1", "pass"],
      ["refund-2", "fail"],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
