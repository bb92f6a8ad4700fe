import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import { traceFromValue, tracesFromText, tracesFromValue } from "../lib/formats/detect.ts";
import { runsFromTraces } from "../lib/stats/traces.ts";
import { runCollect } from "./_cli.ts";

const TAU = "testdata/formats/real/tau-bench-gpt-4o-airline.first4.json";

async function tempDir(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-runs-" });
  for (const [name, text] of Object.entries(files)) {
    const path = `${dir}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  return dir;
}

Deno.test("a tau-bench trajectories file reads as one trace per run, task and trial named, reward kept aside", () => {
  const traces = tracesFromText(Deno.readTextFileSync(TAU), TAU);
  assert.deepEqual(traces.map((t) => t.run), [
    { task: "0", trial: 0 },
    { task: "1", trial: 0 },
    { task: "2", trial: 0 },
    { task: "3", trial: 0 },
  ]);
  assert.ok(traces.every((t) => t.format === "tau-bench"));
  assert.deepEqual(traces[0]?.metadata, { task_id: "0", trial: 0, recorded_reward: 0 });
  assert.deepEqual(traces.map((t) => t.calls.length), [8, 0, 7, 20]);
  // The record with no tool call is a trace of 0 calls with a note, not an error.
  assert.deepEqual(traces[1]?.notes, ["no tool calls: the openai transcript holds no tool call"]);
  // Under --format tau-bench the same; another format is an error naming what it is.
  assert.equal(tracesFromText(Deno.readTextFileSync(TAU), TAU, { format: "tau-bench" }).length, 4);
  assert.throws(
    () => tracesFromValue({ simulations: [] }, { format: "tau-bench" }),
    /not a tau-bench file \(it looks like tau2-bench\)/,
  );
  // One trace wanted: a file of several runs says so instead of reading one of them.
  assert.throws(
    () => traceFromValue(JSON.parse(Deno.readTextFileSync(TAU)), { source: TAU }),
    /holds 4 runs \(tau-bench\)/,
  );
});

Deno.test("toolscore inspect names each run FILE[task#trial] and shows its task and the text errors", async () => {
  const { code, out, err } = await runCollect(["inspect", TAU, "--json"]);
  assert.equal(code, 0, err);
  const json = JSON.parse(out) as {
    traces: { source: string; run: unknown; calls: { metadata?: { outcome_source?: string } }[] }[];
  };
  assert.deepEqual(json.traces.map((t) => t.source), [0, 1, 2, 3].map((n) => `${TAU}[${n}#0]`));
  assert.deepEqual(json.traces[3]?.run, { task: "3", trial: 0 });
  assert.equal(json.traces[0]?.calls[4]?.metadata?.outcome_source, "error_text");
  const text = await runCollect(["inspect", TAU]);
  assert.match(text.out, /task 3 trial 0 {3}recorded reward 0 \(not the score\)/);
  assert.match(text.out, /outcome FAILED \(error text\)/);
  assert.match(text.out, /note no tool calls: the openai transcript holds no tool call/);
});

Deno.test("toolscore compare --traces over a tau-bench file gives one run per record", async () => {
  const tau = Deno.readTextFileSync(TAU);
  const dir = await tempDir({
    "old/airline.json": tau,
    "new/airline.json": tau,
    "gold.json": JSON.stringify([{ tool: "get_user_details" }]),
  });
  try {
    const runs = await runsFromTraces("old", `${dir}/old`, `${dir}/gold.json`);
    assert.deepEqual(runs.map((r) => [r.task, r.runId]), [
      ["0", "airline[0#0]"],
      ["1", "airline[1#0]"],
      ["2", "airline[2#0]"],
      ["3", "airline[3#0]"],
    ]);
    const { code, out, err } = await runCollect([
      "compare",
      "--traces",
      `old=${dir}/old`,
      "--traces",
      `new=${dir}/new`,
      "--gold",
      `${dir}/gold.json`,
      "--json",
    ]);
    assert.equal(code, 0, err);
    const json = JSON.parse(out) as { variants: { variant: string; n: number }[] };
    assert.deepEqual(json.variants.map((v) => [v.variant, v.n]), [["old", 4], ["new", 4]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore export takes task and repeat of a run file's records from the records", async () => {
  const dir = await tempDir({
    "airline.json": Deno.readTextFileSync(TAU),
    "gold.json": JSON.stringify([{ tool: "get_user_details" }]),
  });
  try {
    const { code, err } = await runCollect([
      "export",
      `${dir}/airline.json`,
      "--gold",
      `${dir}/gold.json`,
      "-o",
      `${dir}/out.jsonl`,
    ]);
    assert.equal(code, 0, err);
    const records = Deno.readTextFileSync(`${dir}/out.jsonl`).trim().split("\n").map((l) =>
      JSON.parse(l) as { run_id: string; task: string; repeat: number | null }
    );
    assert.deepEqual(records.map((r) => [r.run_id, r.task, r.repeat]), [
      ["airline[0#0]", "0", 0],
      ["airline[1#0]", "1", 0],
      ["airline[2#0]", "2", 0],
      ["airline[3#0]", "3", 0],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore eval warns when one gold file scores the runs of several tasks", async () => {
  const dir = await tempDir({ "gold.json": JSON.stringify([{ tool: "get_user_details" }]) });
  try {
    const { code, err } = await runCollect(["eval", `${dir}/gold.json`, TAU]);
    assert.equal(code, 0, err);
    assert.match(err, /warning: .*first4\.json holds runs of 4 different tasks \(0, 1, 2, 3\)/);
    assert.match(err, /note: .*\[1#0\]: no tool calls/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tau2-bench simulations read the agent's calls and the user's (actor user), failed by the error flag", () => {
  const doc = {
    info: { num_trials: 2 },
    simulations: [{
      id: "s1",
      task_id: "5",
      trial: 1,
      reward_info: { reward: 1 },
      messages: [
        { role: "user", content: "Cancel my order." },
        {
          role: "assistant",
          content: null,
          tool_calls: [{
            id: "c1",
            name: "get_order",
            arguments: { id: "#W1" },
            requestor: "assistant",
          }],
        },
        {
          role: "tool",
          id: "c1",
          content: "Error: order not found",
          requestor: "assistant",
          error: true,
        },
        {
          role: "user",
          content: null,
          tool_calls: [{
            id: "u1",
            name: "toggle_airplane_mode",
            arguments: {},
            requestor: "user",
          }],
        },
        { role: "tool", id: "u1", content: "done", requestor: "user", error: false },
        { role: "assistant", content: "I could not find that order." },
      ],
    }],
  };
  const [trace, ...rest] = tracesFromValue(doc, { source: "sims.json" });
  assert.equal(rest.length, 0);
  assert.equal(trace?.format, "tau2-bench");
  assert.deepEqual(trace?.run, { task: "5", trial: 1 });
  assert.equal(trace?.metadata?.recorded_reward, 1);
  // Issue 34: the user simulator's call is read too, marked actor "user".
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.args, c.isError, c.actor]), [
    ["get_order", { id: "#W1" }, true, undefined],
    ["toggle_airplane_mode", {}, false, "user"],
  ]);
  assert.equal(trace?.finalAnswer, "I could not find that order.");
});

Deno.test("a generic run file [{…, messages}] reads each run in its own format", async () => {
  const runs = [
    {
      instance_id: "django-1",
      messages: [
        { role: "user", content: "fix it" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{
            id: "a",
            type: "function",
            function: { name: "bash", arguments: '{"cmd":"ls"}' },
          }],
        },
        { role: "tool", tool_call_id: "a", content: "setup.py" },
      ],
    },
    {
      instance_id: "django-2",
      trajectory: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }],
    },
  ];
  const dir = await tempDir({ "runs.json": JSON.stringify(runs) });
  try {
    const traces = tracesFromText(JSON.stringify(runs), "runs.json");
    assert.deepEqual(traces.map((t) => [t.format, t.run?.task, t.calls.length]), [
      ["openai", "django-1", 1],
      ["openai", "django-2", 0],
    ]);
    const { code, out } = await runCollect(["inspect", `${dir}/runs.json`, "--json"]);
    assert.equal(code, 0);
    assert.deepEqual(
      (JSON.parse(out) as { traces: { source: string }[] }).traces.map((t) => t.source),
      [`${dir}/runs.json[django-1]`, `${dir}/runs.json[django-2]`],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("traceToJson() writes run, metadata, skipped and notes, and the toolscore reader reads them back", async () => {
  const { traceToJson } = await import("../lib/formats/toolscore.ts");
  const [run] = tracesFromText(Deno.readTextFileSync(TAU), TAU).slice(1, 2);
  const json = traceToJson({ ...run!, skipped: [{ type: "program", count: 1 }] });
  assert.deepEqual(
    [json.run, json.metadata, json.skipped, json.notes],
    [
      { task: "1", trial: 0 },
      { task_id: "1", trial: 0, recorded_reward: 0 },
      [{ type: "program", count: 1 }],
      ["no tool calls: the openai transcript holds no tool call"],
    ],
  );
  const back = traceFromValue(JSON.parse(JSON.stringify(json)));
  assert.deepEqual([back.run, back.metadata, back.skipped, back.notes], [
    json.run,
    json.metadata,
    json.skipped,
    json.notes,
  ]);
});

Deno.test("a list of bare {messages} states is not a run file", () => {
  const states = [
    { messages: [{ role: "user", content: "hi" }] },
    { messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }] },
  ];
  assert.throws(
    () => tracesFromValue(states, { source: "s.json" }),
    /s\.json: not a trace in any known format/,
  );
});
