/**
 * Issue 34 (run files fail per run), found on a real file: τ-bench keeps a
 * run that raised as `{reward: 0, info: {error, traceback}, traj: []}`
 * (its `run.py`). Such a record holds no transcript, so it is that run's
 * input error, never a run in which the agent made no call.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import "../lib/base/_heavy.ts";
import type { InputError } from "../lib/base/errors.ts";
import { traceFromValue, tracesFromText, tracesFromValue } from "../lib/formats/detect.ts";
import { runCollect } from "./_cli.ts";

const REAL = "testdata/formats/real/tau-bench-assertions-agent-retail-80-89-two-raised.json";

const TRAJ = [
  { role: "user", content: "Where is my order?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{
      id: "c1",
      type: "function",
      function: { name: "get_order_details", arguments: '{"order_id": "#W1"}' },
    }],
  },
  { role: "tool", tool_call_id: "c1", name: "get_order_details", content: '{"status": "pending"}' },
  { role: "assistant", content: "It is pending." },
];

function raised(taskId: number, error = "Token limit is exceeded."): Record<string, unknown> {
  return {
    task_id: taskId,
    reward: 0,
    info: { error, traceback: "Traceback (most recent call last): …" },
    traj: [],
    trial: 0,
  };
}

function ran(taskId: number): Record<string, unknown> {
  return { task_id: taskId, reward: 1, info: { task: {} }, traj: TRAJ, trial: 0 };
}

Deno.test("tracesFromText() reads a real τ-bench results list whose two raised runs are input errors", () => {
  const errors: InputError[] = [];
  const text = Deno.readTextFileSync(REAL);
  const traces = tracesFromText(text, REAL, { onRunError: (e) => errors.push(e) });
  assert.deepEqual(traces.map((t) => t.run?.task), [
    "80",
    "81",
    "82",
    "83",
    "85",
    "86",
    "88",
    "89",
  ]);
  assert.ok(traces.every((t) => t.calls.length > 0));
  assert.deepEqual(errors.map((e) => e.message.split(": ")[1]), ["[4].traj", "[7].traj"]);
  assert.match(errors[0]!.message, /info\.error: "Syntax error while parsing: invalid syntax/);
  assert.match(errors[1]!.message, /info\.error: "\(None\) Token limit is exceeded/);
  // Without a handler the first raised run is the file's error, also under --format tau-bench.
  assert.throws(() => tracesFromText(text, REAL), /\[4\]\.traj: the run raised before any message/);
  assert.throws(
    () => tracesFromText(text, REAL, { format: "tau-bench" }),
    /\[4\]\.traj: the run raised/,
  );
});

Deno.test("traceFromValue() refuses a lone τ-bench record that raised, naming its error", () => {
  assert.throws(
    () => traceFromValue(raised(3), { source: "r.json" }),
    /^InputError: r\.json: traj: the run raised before any message was kept \(info\.error: "Token limit is exceeded\."\), so there is nothing to score; rerun that task or leave the record out$/,
  );
  const long = "x".repeat(5000);
  assert.throws(() => traceFromValue(raised(3, long)), (e: Error) => e.message.length < 500);
});

Deno.test("tracesFromValue() still reads a τ-bench run that raised after some messages were kept", () => {
  const partial = { ...raised(5), traj: TRAJ };
  const [trace] = tracesFromValue([partial]);
  assert.equal(trace?.calls.length, 1);
  assert.equal(trace?.calls[0]?.tool, "get_order_details");
  // And an empty transcript without a recorded error is a run of no calls, as before.
  const [empty] = tracesFromValue([{ ...ran(6), traj: [] }]);
  assert.equal(empty?.calls.length, 0);
});

Deno.test("tracesFromValue() makes exactly the raised records of a τ-bench list its run errors", () => {
  fc.assert(
    fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), (kinds) => {
      const records = kinds.map((isRaised, i) => isRaised ? raised(i) : ran(i));
      const errors: string[] = [];
      const traces = tracesFromValue(records, {
        source: "r.json",
        onRunError: (e) => errors.push(e.message),
      });
      const want = kinds.flatMap((isRaised, i) => isRaised ? [i] : []);
      assert.deepEqual(
        traces.map((t) => Number(t.run?.task)),
        kinds.flatMap((r, i) => r ? [] : [i]),
      );
      assert.deepEqual(errors.map((m) => m.split(": ")[1]), want.map((i) => `[${i}].traj`));
    }),
    { numRuns: 100 },
  );
});

Deno.test("toolscore eval scores the eight runs of the real file, then exits 2 listing the two raised", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-raised-" });
  try {
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify([{ tool: "get_user_details" }]));
    const text = await runCollect(["eval", `${dir}/gold.json`, REAL]);
    assert.equal(text.code, 2, text.err);
    assert.match(text.err, /toolscore: .*two-raised\.json: \[4\]\.traj: the run raised/);
    assert.match(text.err, /toolscore: .*two-raised\.json: \[7\]\.traj: the run raised/);
    assert.doesNotMatch(text.err, /\n {4}at /, "no stack trace");
    const json = await runCollect(["eval", `${dir}/gold.json`, REAL, "--json"]);
    assert.equal(json.code, 2, json.err);
    const doc = JSON.parse(json.out) as { results: unknown[]; input_errors: string[] };
    assert.equal(doc.results.length, 8);
    assert.equal(doc.input_errors.length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
