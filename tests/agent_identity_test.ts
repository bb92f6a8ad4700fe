// `toolscore agent run`, one output and one truth: run identity, the resume guard, --restart and
// the output lock, against the scripted OpenAI wire server and the reference memory MCP server.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { CONTRACTS, readRows, writeSpec } from "./_agent.ts";
import { loadAgentSpec } from "../lib/spec/agent_spec.ts";
import { planRuns } from "../lib/agent/plan.ts";
import { runInputDigests } from "../lib/agent/run_identity.ts";
import { lockOutput, OutputLockedError } from "../lib/agent/output_lock.ts";
import { checkResume } from "../lib/agent/resume_guard.ts";
import { restartOutput } from "../lib/agent/restart.ts";
import { agentSpecFromJson } from "../lib/spec/agent_spec.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const PRICES = {
  "gpt-good": { input_per_mtok: 1, output_per_mtok: 4 },
  "gpt-good-2": { input_per_mtok: 1, output_per_mtok: 4 },
};
const TASKS = [
  {
    id: "remember",
    prompt: "Remember that Ada is a mathematician",
    contract: `${CONTRACTS}contract_memory.json`,
  },
  { id: "find", prompt: "Find the admiral in memory", contract: `${CONTRACTS}contract_find.json` },
];

function memoryServer(bin: string): Record<string, unknown> {
  return {
    command: [bin],
    env: { MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl" },
    timeout_s: 30,
  };
}

function arm(url: string, model = "gpt-good") {
  return { id: "good", provider: "openai", model, base_url: url };
}

Deno.test("run ids hash the run's identity: not the budget, prices, repeats or other arms", () => {
  const base = {
    spec_version: 1,
    server: { command: ["srv"] },
    arms: [{ id: "a", provider: "openai", model: "m" }],
    tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
  };
  const digests = { contracts: new Map([["t", "1".repeat(64)]]), faults: null, honesty: null };
  const ids = (fields: Record<string, unknown>) =>
    planRuns(agentSpecFromJson({ ...base, ...fields }), undefined, digests)
      .filter((run) => run.arm.id === "a" && run.task.id === "t" && run.repeat === 0)
      .map((run) => run.runId);
  const [id] = ids({});
  assert.match(id!, /^a\.t\.0\.[0-9a-f]{12}$/);
  for (
    const same of [
      { budget: { max_usd: 5 } },
      { prices: { m: { input_per_mtok: 1, output_per_mtok: 2 } } },
      { repeats: 4 },
      { keys: ["K"], packages: ["srv"] },
      { arms: [...base.arms, { id: "b", provider: "openai", model: "m" }] },
      { tasks: [...base.tasks, { id: "u", prompt: "q", contract: "d.json" }] },
    ]
  ) {
    assert.deepEqual(ids(same), [id], JSON.stringify(same));
  }
  for (
    const other of [
      { arms: [{ id: "a", provider: "openai", model: "m2" }] },
      { arms: [{ id: "a", provider: "openai", model: "m", temperature: 0 }] },
      { tasks: [{ id: "t", prompt: "p2", contract: "c.json" }] },
      { server: { command: ["srv", "--flag"] } },
      { max_turns: 3 },
      { timeout_s: 5 },
    ]
  ) {
    assert.notDeepEqual(ids(other), [id], JSON.stringify(other));
  }
  // The contract's content counts, not its path.
  const moved = planRuns(
    agentSpecFromJson({ ...base, tasks: [{ id: "t", prompt: "p", contract: "elsewhere/c.json" }] }),
    undefined,
    digests,
  );
  assert.equal(moved[0]!.runId, id);
  // A server's cwd counts relative to the spec's folder, wherever the command runs from.
  const withCwd = { ...base, server: { command: ["srv"], cwd: "tools" } };
  const here = planRuns(agentSpecFromJson(withCwd, { baseDir: "specs" }), undefined, digests);
  const there = planRuns(
    agentSpecFromJson(withCwd, { baseDir: `${Deno.cwd()}/specs` }),
    undefined,
    digests,
  );
  assert.equal(here[0]!.runId, there[0]!.runId);
  assert.notEqual(here[0]!.runId, id);
  const edited = { ...digests, contracts: new Map([["t", "2".repeat(64)]]) };
  assert.notEqual(planRuns(agentSpecFromJson(base), undefined, edited)[0]!.runId, id);
});

Deno.test("agent run: a changed model or prompt stops the rerun (exit 2, no model call, rows unchanged); a raised budget resumes with the same ids; --restart keeps the old beside the new", async () => {
  const bin = npmBin("mcp-server-memory");
  if (bin === undefined) return;
  const dir = await tempDir("agent_identity");
  const model = openaiServer();
  try {
    const spec = (fields: Record<string, unknown>) =>
      writeSpec(dir, {
        server: memoryServer(bin),
        arms: [arm(model.url)],
        tasks: TASKS,
        prices: PRICES,
        budget: { max_usd: 1 },
        ...fields,
      });
    const out = `${dir}/runs.jsonl`;
    const first = await runCollect(["agent", "run", await spec({}), "-o", out]);
    assert.equal(first.code, 0, first.err);
    const written = await Deno.readTextFile(out);
    const rows = await readRows(out);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((row) => row.schema === "toolscore.agent_run/2"));

    // An arm's model, then a task's prompt, changed: exit 2 before any model call.
    const calls = model.requests.length;
    const changedModel = await runCollect([
      "agent",
      "run",
      await spec({ arms: [arm(model.url, "gpt-good-2")] }),
      "-o",
      out,
    ]);
    assert.equal(changedModel.code, 2, changedModel.err);
    assert.match(
      changedModel.err,
      /runs\.jsonl: 2 rows were written under another spec \(arm good: model\); nothing was run and the rows are unchanged\. .*--restart/,
    );
    assert.equal(changedModel.err.trim().split("\n").length, 1, changedModel.err);
    const tasks = [{ ...TASKS[0]!, prompt: `${TASKS[0]!.prompt}, please` }, TASKS[1]!];
    const changedPrompt = await runCollect(["agent", "run", await spec({ tasks }), "-o", out]);
    assert.equal(changedPrompt.code, 2, changedPrompt.err);
    assert.match(
      changedPrompt.err,
      /1 row was written under another spec \(task remember: prompt\)/,
    );
    assert.equal(model.requests.length, calls);
    assert.equal(await Deno.readTextFile(out), written);

    // A raised budget and a second repeat resume: the old rows keep their ids, one note for a
    // task that left the spec.
    const raised = await spec({ budget: { max_usd: 5 }, repeats: 2, tasks: [TASKS[0]!] });
    const resumed = await runCollect(["agent", "run", raised, "-o", out]);
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(
      resumed.err,
      /note: 1 row no longer in the spec \(task find\) stays in .*runs\.jsonl and is not run/,
    );
    assert.match(resumed.err, /resuming: 1 run\(s\) already in the output/);
    const after = await readRows(out);
    assert.equal(after.length, 3);
    assert.deepEqual(after.slice(0, 2), rows);
    const loaded = await loadAgentSpec(raised);
    const planned = planRuns(loaded, undefined, await runInputDigests(loaded));
    const remembered = rows.find((row) => row.task_id === "remember")!;
    assert.deepEqual(planned.map((run) => run.runId), [remembered.run_id, after[2]!.run_id]);
    assert.equal(new Set(after.map((row) => row.run_id)).size, 3);

    // --restart: the old file, its folder and its sidecars move aside; the new run starts fresh.
    // The budget ledger (runs.spend.jsonl) exists from the runs above; any OUT.* sidecar moves too.
    const ledgerBefore = await Deno.readTextFile(`${dir}/runs.spend.jsonl`);
    await Deno.writeTextFile(`${out}.notes`, "a sidecar\n");
    const before = await Deno.readTextFile(out);
    const restarted = await runCollect([
      "agent",
      "run",
      await spec({ arms: [arm(model.url, "gpt-good-2")], tasks: [TASKS[0]!] }),
      "-o",
      out,
      "--restart",
    ]);
    assert.equal(restarted.code, 0, restarted.err);
    const names = [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
    const stamp = names.find((name) => /^runs\.\d{8}T\d{6}Z\.jsonl$/.test(name));
    assert.ok(stamp !== undefined, names.join(", "));
    const stem = stamp.slice(0, -".jsonl".length);
    assert.ok(names.includes(stem), names.join(", ")); // the old folder, beside the new runs/
    assert.ok(names.includes("runs"));
    assert.ok(names.includes(`${stamp}.notes`), names.join(", "));
    assert.ok(!names.includes("runs.jsonl.notes"));
    // The old ledger moved with its rows; the new one holds only the restarted run's calls.
    assert.equal(await Deno.readTextFile(`${dir}/${stem}.spend.jsonl`), ledgerBefore);
    const ledgerAfter = await Deno.readTextFile(`${dir}/runs.spend.jsonl`);
    assert.ok(ledgerAfter.trim().split("\n").length < ledgerBefore.trim().split("\n").length);
    const old = await readRows(`${dir}/${stamp}`);
    assert.equal(old.length, before.trim().split("\n").length);
    assert.deepEqual(old.map((row) => row.run_id), after.map((row) => row.run_id));
    for (const row of old) {
      // The moved rows point into the moved folder, where their traces are.
      assert.ok(String(row.trace).startsWith(`${stem}/`), String(row.trace));
      await Deno.stat(`${dir}/${row.trace}`);
    }
    const fresh = await readRows(out);
    assert.equal(fresh.length, 1);
    assert.notEqual(fresh[0]!.run_id, after[0]!.run_id);
    assert.equal(fresh[0]!.model, "gpt-good-2");
    await Deno.stat(`${dir}/${fresh[0]!.trace}`);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lockOutput() lets one holder in and names it to the next", async () => {
  const dir = await tempDir("agent_lock_unit");
  try {
    const out = `${dir}/runs.jsonl`;
    const lock = await lockOutput(out);
    await assert.rejects(
      () => lockOutput(out),
      (error: Error) =>
        error instanceof OutputLockedError && error.name === "OutputLockedError" &&
        error.message.includes(`pid ${Deno.pid}`) && error.message.includes("runs.jsonl.lock"),
    );
    lock.release();
    (await lockOutput(out)).release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("two agent run processes on one output: the second exits 2 at once, before any model call", async () => {
  const bin = npmBin("mcp-server-memory");
  if (bin === undefined) return;
  const dir = await tempDir("agent_lock");
  const slow = openaiServer({ delayMs: 150 });
  const other = openaiServer();
  try {
    const out = `${dir}/runs.jsonl`;
    const spec = await writeSpec(dir, {
      server: memoryServer(bin),
      arms: [arm(slow.url)],
      tasks: TASKS,
      repeats: 3,
    });
    const first = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "agent", "run", spec, "-o", out],
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const firstErr = new Response(first.stderr).text();
    // Wait until the first holds the lock and has asked the model something.
    const until = Date.now() + 60_000;
    while (slow.requests.length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(slow.requests.length > 0, "the first run never called the model");
    // The second, with a spec whose model server is another: it must get no request.
    const secondDir = await tempDir("agent_lock_second");
    const secondSpec = await writeSpec(secondDir, {
      server: memoryServer(bin),
      arms: [arm(other.url)],
      tasks: TASKS,
      repeats: 3,
    });
    const started = performance.now();
    const second = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "agent", "run", secondSpec, "-o", out],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const seconds = (performance.now() - started) / 1000;
    const err = new TextDecoder().decode(second.stderr);
    assert.equal(second.code, 2, err);
    assert.ok(seconds < 5, `the second took ${seconds.toFixed(1)} s`);
    assert.match(
      err,
      new RegExp(
        `runs\\.jsonl: pid ${first.pid}( on \\S+)? is writing it \\(it holds .*runs\\.jsonl\\.lock\\)`,
      ),
    );
    assert.equal(other.requests.length, 0);
    const status = await first.status;
    assert.equal(status.code, 0, await firstErr);
    const rows = await readRows(out);
    assert.equal(rows.length, 6);
    assert.equal(new Set(rows.map((row) => row.run_id)).size, 6);
    await Deno.remove(secondDir, { recursive: true });
  } finally {
    await slow.close();
    await other.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkResume() names rows of an older toolscore and several changed fields", () => {
  const spec = agentSpecFromJson({
    spec_version: 1,
    server: { command: ["srv"] },
    arms: [{ id: "a", provider: "openai", model: "m" }],
    tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
    repeats: 2,
  });
  const before = planRuns(spec);
  const after = planRuns(
    agentSpecFromJson({
      spec_version: 1,
      server: { command: ["srv"] },
      arms: [{ id: "a", provider: "openai", model: "m2", temperature: 0 }],
      tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
      repeats: 2,
      max_turns: 4,
    }),
  );
  const row = (run: (typeof before)[number], legacy = false) =>
    [
      JSON.stringify([run.arm.id, run.task.id, run.repeat]),
      {
        run_id: run.runId,
        arm_id: run.arm.id,
        task_id: run.task.id,
        repeat: run.repeat,
        ...(legacy ? {} : { identity: run.identity }),
      },
    ] as [string, Record<string, unknown>];
  assert.deepEqual(checkResume(new Map(before.map((run) => row(run))), before, "o.jsonl"), []);
  assert.throws(
    () => checkResume(new Map([row(before[0]!), row(before[1]!, true)]), after, "o.jsonl"),
    /^SpecChangedError: o\.jsonl: 2 rows were written under another spec \(arm a: model, temperature; the spec: max_turns; 1 row from an older toolscore/,
  );
  // Fewer repeats: the row of repeat 1 stays and is not run.
  const one = planRuns(spec).filter((run) => run.repeat === 0);
  assert.deepEqual(checkResume(new Map(before.map((run) => row(run))), one, "o.jsonl"), [
    "1 row no longer in the spec (repeats beyond the spec's) stays in o.jsonl and is not run",
  ]);
});

Deno.test("restartOutput() moves nothing when there is nothing, and never over an earlier restart", async () => {
  const dir = await tempDir("agent_restart_unit");
  try {
    const out = `${dir}/runs.jsonl`;
    const now = new Date("2026-12-01T20:45:00Z");
    assert.deepEqual(await restartOutput(out, `${dir}/runs`, now), []);
    for (const expected of ["runs.20261201T204500Z", "runs.20261201T204500Z-2"]) {
      await Deno.writeTextFile(out, '{"trace": "runs/a/t-0.json"}\n');
      await Deno.mkdir(`${dir}/runs/a`, { recursive: true });
      await Deno.writeTextFile(`${out}.lock`, "");
      const moved = await restartOutput(out, `${dir}/runs`, now);
      assert.deepEqual(moved, [[out, `${dir}/${expected}.jsonl`], [
        `${dir}/runs`,
        `${dir}/${expected}`,
      ]]);
      const [row] = await readRows(`${dir}/${expected}.jsonl`);
      assert.equal(row!.trace, `${expected}/a/t-0.json`);
    }
    await Deno.stat(`${out}.lock`); // the lock stays with the output
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkResume() caps a long list of changes and says so when only the ids differ", () => {
  const runs = Array.from({ length: 9 }, (_, i) => ({
    runId: `a${i}.t.0.new`,
    identity: { "arm.model": "222" },
    arm: { id: `a${i}` },
    task: { id: "t" },
    repeat: 0,
    index: i,
  }));
  const rows = new Map(runs.map((run) => [
    JSON.stringify([run.arm.id, "t", 0]),
    { run_id: `${run.arm.id}.t.0.old`, identity: { "arm.model": "111" } },
  ]));
  assert.throws(
    () => checkResume(rows, runs as never, "o.jsonl"),
    /arm a5: model; … \(3 more arms and tasks\)\); nothing was run/,
  );
  const same = new Map([[JSON.stringify(["a0", "t", 0]), {
    run_id: "a0.t.0.old",
    identity: { "arm.model": "222" },
  }]]);
  assert.throws(() => checkResume(same, runs as never, "o.jsonl"), /spec \(the run ids differ\)/);
});
