import assert from "node:assert/strict";
import { InputError, loadRuns, Run, runFromRow } from "../mod.ts";
import { runsFromJsonl } from "../lib/stats/runs.ts";

Deno.test("runFromRow() reads a toolscore agent run row", () => {
  const run = runFromRow({
    schema: "toolscore.agent_run/1",
    run_id: "r1",
    arm_id: "mini",
    model: "gpt-4.1-mini",
    task_id: "refund",
    status: "ok",
    passed: true,
    outcome: "pass",
    cost_usd: 0.0031,
    duration_s: 12.4,
  });
  assert.deepEqual(run.toJSON(), {
    variant: "mini",
    task: "refund",
    outcome: "pass",
    cost: 0.0031,
    latency: 12.4,
    run_id: "r1",
    repeat: null,
  });
});

Deno.test("runFromRow() reads an exported run record", () => {
  const run = runFromRow({
    schema_version: "1",
    record_type: "run",
    run_id: "x",
    variant: "mini@v2",
    task: "lookup",
    outcome: "fail",
    passed: false,
    cost_usd: null,
    duration_s: 3,
  });
  assert.equal(run.variant, "mini@v2");
  assert.equal(run.task, "lookup");
  assert.equal(run.outcome, "fail");
  assert.equal(run.cost, null);
  assert.equal(run.latency, 3);
});

Deno.test("runFromRow() prefers the variant key, then arm_id, variant, arm, model", () => {
  const row = { model: "m", arm: "a", variant: "v", arm_id: "id", config: "c" };
  assert.equal(runFromRow(row).variant, "id");
  assert.equal(runFromRow(row, { variantKey: "config" }).variant, "c");
  assert.equal(runFromRow({ model: "m", arm: "a" }).variant, "a");
  assert.equal(runFromRow({ model: "m" }).variant, "m");
  // A variant key the row lacks falls back to the usual keys.
  assert.equal(runFromRow({ model: "m" }, { variantKey: "config" }).variant, "m");
});

Deno.test("runFromRow() derives the outcome when the row has none", () => {
  assert.equal(runFromRow({ arm_id: "a", status: "error", passed: false }).outcome, "error");
  assert.equal(runFromRow({ arm_id: "a", passed: true }).outcome, "pass");
  assert.equal(runFromRow({ arm_id: "a", passed: false }).outcome, "fail");
  assert.equal(runFromRow({ arm_id: "a", status: "ok" }).outcome, "unknown");
  assert.equal(runFromRow({ arm_id: "a", passed: "yes" }).outcome, "unknown");
  assert.equal(runFromRow({ arm_id: "a", outcome: "error", passed: true }).outcome, "error");
});

Deno.test("runFromRow() reads cost as a number or {usd} and keeps unknown as null", () => {
  assert.equal(runFromRow({ arm_id: "a", cost: { usd: 0.5 } }).cost, 0.5);
  assert.equal(runFromRow({ arm_id: "a", cost: 0.25 }).cost, 0.25);
  assert.equal(runFromRow({ arm_id: "a", cost_usd: 0 }).cost, 0);
  assert.equal(runFromRow({ arm_id: "a", cost: { usd: null } }).cost, null);
  assert.equal(runFromRow({ arm_id: "a" }).cost, null);
  assert.equal(runFromRow({ arm_id: "a", latency: 2 }).latency, 2);
  assert.equal(runFromRow({ arm_id: "a", duration: 3 }).latency, 3);
  assert.equal(runFromRow({ arm_id: "a" }).latency, null);
});

Deno.test("runFromRow() names the bad key", () => {
  assert.throws(() => runFromRow({ task: "t" }), /the row names no variant/);
  assert.throws(
    () => runFromRow({ arm_id: "a", outcome: "won" }),
    /outcome: unknown outcome "won"/,
  );
  assert.throws(
    () => runFromRow({ arm_id: "a", cost_usd: "cheap" }),
    /cost_usd: expected a non-negative number/,
  );
  assert.throws(
    () => runFromRow({ arm_id: "a", cost: { usd: -1 } }),
    /cost\.usd: expected a non-negative/,
  );
  assert.throws(() => runFromRow({ arm_id: ["a"] }), /arm_id: expected a string/);
  assert.throws(() => runFromRow([1, 2]), /expected a JSON object, got an array of 2/);
});

Deno.test("Run rejects an unknown outcome and a negative cost", () => {
  assert.throws(() => new Run("a", "t", "won" as "pass"), InputError);
  assert.throws(
    () => new Run("a", "t", "pass", { cost: -1 }),
    /cost: expected a non-negative number/,
  );
  assert.throws(() => new Run("a", "t", "pass", { latency: NaN }), /latency/);
});

Deno.test("loadRuns() reads agent-run rows and exported records together", async () => {
  const runs = await loadRuns(["testdata/runs/agent_runs.jsonl", "testdata/runs/records.jsonl"]);
  assert.equal(runs.length, 180);
  assert.deepEqual([...new Set(runs.map((run) => run.variant))], ["mini", "large", "local"]);
  assert.ok(runs.some((run) => run.outcome === "error"));
  assert.ok(runs.filter((run) => run.variant === "local").every((run) => run.cost === null));
});

Deno.test("loadRuns() names the file and line of a bad line", async () => {
  await assert.rejects(
    () => loadRuns(["testdata/runs/agent_runs.jsonl", "testdata/runs/bad.jsonl"]),
    (error: Error) => {
      assert.ok(error instanceof InputError);
      assert.match(error.message, /^testdata\/runs\/bad\.jsonl:3: not valid JSON/);
      return true;
    },
  );
});

Deno.test("runsFromJsonl() skips blank lines and names the line of a bad row", () => {
  const text = '\n{"arm_id": "a", "passed": true}\n   \n{"arm_id": "b"}';
  assert.deepEqual(runsFromJsonl(text, "r.jsonl").map((run) => run.variant), ["a", "b"]);
  assert.throws(
    () => runsFromJsonl('{"arm_id": "a", "passed": true}\n\n[1]\n', "r.jsonl"),
    /r\.jsonl:3: expected a JSON object, got an array of 1/,
  );
  assert.throws(
    () => runsFromJsonl('{"arm_id": "a"}\r\n{"task_id": "t"}\r\n', "r.jsonl"),
    /r\.jsonl:2: the row names no variant/,
  );
  assert.throws(
    () => runsFromJsonl('{"arm_id": "a", "duration_s": -3}\n', "r.jsonl"),
    /r\.jsonl:1: duration_s: expected a non-negative number/,
  );
});

Deno.test("loadRuns() names a missing file", async () => {
  await assert.rejects(
    () => loadRuns(["testdata/runs/missing.jsonl"]),
    /missing\.jsonl: file not found/,
  );
});
