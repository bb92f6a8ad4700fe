import assert from "node:assert/strict";
import {
  type CliIO,
  compareRuns,
  expectedFromJson,
  runCli,
  runsFromTraces,
  taskOfStem,
} from "../mod.ts";

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
    },
    {
      variant: "old",
      task: "refund",
      outcome: "fail",
      cost: 0.001,
      latency: 0.5,
      run_id: "refund-2",
    },
    // Unreadable: an error run, kept in the population.
    {
      variant: "old",
      task: "refund",
      outcome: "error",
      cost: null,
      latency: null,
      run_id: "refund-3",
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

Deno.test("runsFromTraces() applies min_score and takes a loaded gold file", async () => {
  const strict = await runsFromTraces("old", `${TRACES}/old`, GOLD, { minScore: 1 });
  assert.equal(strict[0]!.outcome, "pass");
  const lenient = await runsFromTraces("old", `${TRACES}/old`, GOLD, { minScore: 0 });
  assert.deepEqual(lenient.map((run) => run.outcome), ["pass", "pass", "error"]);
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
    /task_pattern: not a valid regular expression/,
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
  let out = "";
  let err = "";
  const io: CliIO = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    color: false,
    progress: false,
    stdin: () => Promise.resolve(""),
  };
  const code = await runCli(
    [
      "compare",
      "--traces",
      `old=${TRACES}/old`,
      "--traces",
      `new=${TRACES}/new`,
      "--gold",
      GOLD,
      "--json",
    ],
    io,
  );
  assert.equal(code, 0, err);
  const json = JSON.parse(out);
  assert.deepEqual(json.variants.map((v: { variant: string; n: number }) => [v.variant, v.n]), [[
    "old",
    3,
  ], ["new", 2]]);
  assert.deepEqual(json.variants[0].counts, { pass: 1, fail: 1, error: 1, unknown: 0 });
  assert.match(json.pairs[0].verdict, /^old and new cannot be compared yet: 1\/3 vs 2\/2/);
  out = "";
  assert.equal(await runCli(["compare", "--traces", "old", "--gold", GOLD], io), 2);
  assert.match(err, /--traces old: expected VARIANT=DIR/);
});
