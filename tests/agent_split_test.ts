// Splitting a matrix (issue 40): plan lines, parts, the shard flags and TOOLSCORE_SHARD.
import assert from "node:assert/strict";
import fc from "fast-check";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { CONTRACTS, fixtureServer, writeSpec } from "./_agent.ts";
import { planRuns } from "../lib/agent/plan.ts";
import { partCapUsd, resolveShard, selectPart } from "../lib/agent/run_part.ts";
import { agentSpecFromJson } from "../lib/spec/agent_spec.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;

function arms(url = "http://127.0.0.1:9") {
  return [
    { id: "a", provider: "openai", model: "m", base_url: url },
    { id: "b", provider: "openai", model: "m2", base_url: url },
  ];
}

Deno.test("resolveShard() reads --shard, --shard-index/--shard-count and TOOLSCORE_SHARD; a flag wins", () => {
  assert.deepEqual(resolveShard({ shard: "2/4" }), { k: 2, n: 4 });
  assert.deepEqual(resolveShard({ shardIndex: "3", shardCount: "4" }), { k: 4, n: 4 });
  assert.deepEqual(resolveShard({ shardIndex: "0", shardCount: "4", env: "3/4" }), { k: 1, n: 4 });
  assert.deepEqual(resolveShard({ env: " 2/2 " }), { k: 2, n: 2 });
  assert.equal(resolveShard({ env: "" }), undefined);
  assert.throws(() => resolveShard({ shard: "1/2", shardIndex: "0", shardCount: "2" }), /not both/);
  assert.throws(() => resolveShard({ shardIndex: "0" }), /go together/);
  assert.throws(() => resolveShard({ shardIndex: "4", shardCount: "4" }), /0 ≤ I < 4/);
  assert.throws(() => resolveShard({ shardIndex: "-1", shardCount: "4" }), /whole number/);
  assert.throws(() => resolveShard({ shardIndex: "0", shardCount: "0" }), /at least 1/);
  assert.throws(
    () => resolveShard({ env: "5/4" }),
    /^UsageError: TOOLSCORE_SHARD=5\/4: expected k\/n/,
  );
});

Deno.test("--shard-index I --shard-count N is --shard I+1/N: every run in exactly one shard, whole cells", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 9 }),
      (armCount, taskCount, repeats, n) => {
        const spec = agentSpecFromJson({
          spec_version: 1,
          server: { command: ["srv"] },
          arms: Array.from({ length: armCount }, (_, i) => ({
            id: `a${i}`,
            provider: "openai",
            model: "m",
          })),
          tasks: Array.from({ length: taskCount }, (_, i) => ({
            id: `t${i}`,
            prompt: "p",
            contract: "c.json",
          })),
          repeats,
        });
        const all = planRuns(spec);
        const seen = new Map<string, number>();
        for (let i = 0; i < n; i++) {
          const shard = resolveShard({ shardIndex: String(i), shardCount: String(n) })!;
          for (const run of planRuns(spec, shard)) {
            assert.equal(seen.has(run.runId), false);
            seen.set(run.runId, run.cell % n);
          }
        }
        assert.equal(seen.size, all.length);
        // Whole cells: every run of a cell lands in its cell's shard.
        for (const run of all) assert.equal(seen.get(run.runId), run.cell % n);
      },
    ),
  );
});

Deno.test("partCapUsd() is per_shard_usd, else the part's share of max_usd", () => {
  assert.equal(partCapUsd(3, null, 4, 12), 1);
  assert.equal(partCapUsd(3, 0.5, 4, 12), 0.5);
  assert.equal(partCapUsd(3, null, 0, 0), 0);
  assert.equal(partCapUsd(null, null, 4, 12), null);
});

Deno.test("selectPart() keeps matrix order and refuses a run id the spec does not plan", () => {
  const spec = agentSpecFromJson({
    spec_version: 1,
    server: { command: ["srv"] },
    arms: arms(),
    tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
    repeats: 2,
  });
  const all = planRuns(spec);
  const part = new Map([[all[3]!.runId, "p:1"], [all[0]!.runId, "p:2"]]);
  assert.deepEqual(selectPart(all, part).map((run) => run.index), [0, 3]);
  assert.throws(
    () => selectPart(all, new Map([["a.t.9.000000000000", "part.jsonl:7"]])),
    /^InputError: part\.jsonl:7: run "a\.t\.9\.000000000000" is not planned by this spec/,
  );
});

Deno.test("agent run --plan-out writes the plan without a server or a model; --runs refuses a run the spec does not plan before any output exists", async () => {
  const dir = await tempDir("agent_split");
  try {
    // The plan reads the spec and its contracts only: the server is never started.
    const spec = await writeSpec(dir, {
      server: fixtureServer("plan-out-never-started"),
      arms: arms(),
      repeats: 2,
    });
    const plan = await runCollect([
      "agent",
      "run",
      spec,
      "--plan-out",
      `${dir}/plan.jsonl`,
      "--json",
    ]);
    assert.equal(plan.code, 0, plan.err);
    assert.deepEqual(JSON.parse(plan.out), { runs: 8, cells: 4, plan: `${dir}/plan.jsonl` });
    const lines = (await Deno.readTextFile(`${dir}/plan.jsonl`)).trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    assert.deepEqual(Object.keys(lines[0]), [
      "schema",
      "run_id",
      "arm_id",
      "task_id",
      "repeat",
      "cell",
      "index",
    ]);
    assert.deepEqual(lines.map((line) => line.index), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(lines.map((line) => line.cell), [0, 0, 1, 1, 2, 2, 3, 3]);

    const shardPlan = await runCollect([
      "agent",
      "run",
      spec,
      "--plan-out",
      `${dir}/plan-2.jsonl`,
      "--shard-index",
      "1",
      "--shard-count",
      "2",
    ]);
    assert.equal(shardPlan.code, 0, shardPlan.err);
    assert.match(shardPlan.out, /plan: 4 run\(s\) in 2 cell\(s\) written to/);

    const withOutput = await runCollect([
      "agent",
      "run",
      spec,
      "--plan-out",
      `${dir}/plan-3.jsonl`,
      "-o",
      `${dir}/runs.jsonl`,
    ]);
    assert.equal(withOutput.code, 2);
    assert.match(withOutput.err, /--plan-out writes the plan and runs nothing: leave out --output/);
    const foreign = `${dir}/foreign.jsonl`;
    await Deno.writeTextFile(
      foreign,
      `${JSON.stringify(lines[0])}\n\n${
        JSON.stringify({ ...lines[1], run_id: "a.book.0.0123456789ab" })
      }\n`,
    );
    const out = `${dir}/runs.jsonl`;
    const refused = await runCollect(["agent", "run", spec, "--runs", foreign, "-o", out]);
    assert.equal(refused.code, 2, refused.err);
    assert.match(
      refused.err,
      /foreign\.jsonl:3: run "a\.book\.0\.0123456789ab" is not planned by this spec .*--plan-out/,
    );
    assert.equal(await Deno.stat(out).then(() => true, () => false), false);
    const both = await runCollect([
      "agent",
      "run",
      spec,
      "--runs",
      foreign,
      "-o",
      out,
      "--shard",
      "1/2",
    ]);
    assert.equal(both.code, 2);
    assert.match(both.err, /leave out the shard/);
    const dry = await runCollect(["agent", "run", spec, "--runs", foreign, "-o", out, "--dry-run"]);
    assert.equal(dry.code, 2);
    assert.match(dry.err, /--dry-run plans the matrix or a shard, not a part: leave out --runs/);
    const notPlan = `${dir}/not-plan.jsonl`;
    await Deno.writeTextFile(notPlan, `{"arm_id": "a"}\n`);
    const bad = await runCollect(["agent", "run", spec, "--runs", notPlan, "-o", out]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /not-plan\.jsonl:1: expected a plan line/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TOOLSCORE_SHARD picks the shard when --allow-env=TOOLSCORE_SHARD grants it; a shard flag wins", async () => {
  const dir = await tempDir("agent_split_env");
  const spec = await writeSpec(dir, {
    server: fixtureServer("shard-env-never-started"),
    arms: arms(),
    tasks: [
      { id: "book", prompt: "Book", contract: `${CONTRACTS}contract_book.json` },
      { id: "weather", prompt: "Weather", contract: `${CONTRACTS}contract_weather.json` },
      { id: "third", prompt: "Weather", contract: `${CONTRACTS}contract_weather.json` },
    ],
  });
  const plan = async (...flags: string[]) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        `--allow-write=${dir}`,
        "--allow-env=TOOLSCORE_SHARD",
        CLI,
        "agent",
        "run",
        spec,
        "--plan-out",
        `${dir}/plan.jsonl`,
        ...flags,
      ],
      env: { NO_COLOR: "1", TOOLSCORE_SHARD: "3/3" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    return (await Deno.readTextFile(`${dir}/plan.jsonl`)).trim().split("\n").map((line) =>
      JSON.parse(line).cell
    );
  };
  try {
    assert.deepEqual(await plan(), [2, 2]);
    assert.deepEqual(await plan("--shard", "1/3"), [0, 0]);
    assert.deepEqual(await plan("--shard-index", "1", "--shard-count", "3"), [1, 1]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
