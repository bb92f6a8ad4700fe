// One matrix, three ways (issue 40): unsharded; three shards as separate processes side by side;
// the plan split into three parts run with --runs. Against the scripted OpenAI wire server and the
// reference memory MCP server from npm. Then merge: the same run ids and the same statistics.
import assert from "node:assert/strict";
import { runCollect, runDeno } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { CONTRACTS, readRows, writeSpec } from "./_agent.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const PRICES = {
  "gpt-good": { input_per_mtok: 1, output_per_mtok: 4 },
  sloppy: { input_per_mtok: 1, output_per_mtok: 4 },
};
const TASKS = [
  {
    id: "remember",
    prompt: "Remember that Ada is a mathematician",
    contract: `${CONTRACTS}contract_memory.json`,
  },
  { id: "find", prompt: "Find the admiral in memory", contract: `${CONTRACTS}contract_find.json` },
  {
    id: "recall",
    prompt: "Remember that Grace is an admiral",
    contract: `${CONTRACTS}contract_memory.json`,
  },
];
const PERMISSIONS = [
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  "--allow-run",
  "--allow-env",
  "--allow-net=127.0.0.1",
];

function memoryServer(bin: string): Record<string, unknown> {
  return {
    command: [bin],
    env: { MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl" },
    timeout_s: 30,
  };
}

async function specIn(dir: string, url: string, fields: Record<string, unknown> = {}) {
  const bin = npmBin("mcp-server-memory")!;
  await Deno.mkdir(dir, { recursive: true });
  return await writeSpec(dir, {
    server: memoryServer(bin),
    arms: [
      { id: "good", provider: "openai", model: "gpt-good", base_url: url },
      { id: "sloppy", provider: "openai", model: "sloppy", base_url: url },
    ],
    tasks: TASKS,
    repeats: 2,
    prices: PRICES,
    budget: { max_usd: 1 },
    ...fields,
  });
}

function ids(rows: Record<string, unknown>[]): string[] {
  return rows.map((row) => String(row.run_id)).sort();
}

// What compare says, without the file names and the wall-clock latency (which no two runs share).
async function statistics(file: string): Promise<unknown> {
  const result = await runCollect(["compare", file, "--json"]);
  assert.equal(result.code, 0, result.err);
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).filter(([key]) => !/^(files?|inputs?|sources?|path|latency(_p\d+|_ms|_s)?)$/.test(key))
        .map(([key, item]) => [key, strip(item)]),
    );
  };
  return strip(JSON.parse(result.out));
}

Deno.test("agent run: unsharded, three shards side by side, and three --runs parts merge into the same run ids and the same compare statistics", async () => {
  if (npmBin("mcp-server-memory") === undefined) return;
  const dir = await tempDir("agent_shards");
  const model = openaiServer();
  try {
    const spec = await specIn(dir, model.url);

    // 1. Unsharded.
    const whole = await runCollect(["agent", "run", spec, "-o", `${dir}/whole/runs.jsonl`]);
    assert.equal(whole.code, 0, whole.err);
    const wholeRows = await readRows(`${dir}/whole/runs.jsonl`);
    assert.equal(wholeRows.length, 12);

    // 2. Three shards, each its own process, all at once, each its own output (both flag forms).
    const shardArgs = [["--shard", "1/3"], ["--shard-index", "1", "--shard-count", "3"], [
      "--shard",
      "3/3",
    ]];
    const shards = await Promise.all(
      shardArgs.map((flags, i) =>
        runDeno([
          "run",
          ...PERMISSIONS,
          CLI,
          "agent",
          "run",
          spec,
          "-o",
          `${dir}/shard-${i}/runs.jsonl`,
          ...flags,
        ])
      ),
    );
    for (const shard of shards) assert.equal(shard.code, 0, shard.err);
    const shardFiles = shardArgs.map((_, i) => `${dir}/shard-${i}/runs.jsonl`);
    const counts = await Promise.all(shardFiles.map(async (f) => (await readRows(f)).length));
    assert.deepEqual(counts, [4, 4, 4]);

    // 3. The plan, split into three parts by line, each part run with --runs.
    const plan = await runCollect(["agent", "run", spec, "--plan-out", `${dir}/plan.jsonl`]);
    assert.equal(plan.code, 0, plan.err);
    const calls = model.requests.length;
    const lines = (await Deno.readTextFile(`${dir}/plan.jsonl`)).trim().split("\n");
    assert.equal(lines.length, 12);
    assert.deepEqual(lines.map((line) => JSON.parse(line).run_id).sort(), ids(wholeRows));
    assert.equal(model.requests.length, calls, "--plan-out calls no model");
    const partFiles: string[] = [];
    for (let i = 0; i < 3; i++) {
      const part = lines.filter((_, n) => n % 3 === i);
      await Deno.writeTextFile(`${dir}/part-${i}.plan.jsonl`, `${part.join("\n")}\n`);
      const out = `${dir}/part-${i}/runs.jsonl`;
      const run = await runCollect([
        "agent",
        "run",
        spec,
        "--runs",
        `${dir}/part-${i}.plan.jsonl`,
        "-o",
        out,
        "--json",
      ]);
      assert.equal(run.code, 0, run.err);
      const summary = JSON.parse(run.out);
      assert.equal(summary.total, 4);
      // The part's share of the budget: max_usd × 4 / 12.
      assert.ok(Math.abs(summary.budget_usd - 1 / 3) < 1e-9, String(summary.budget_usd));
      partFiles.push(out);
    }

    // Both merges: the unsharded run ids, and compare says the same to the last digit.
    const merged: string[] = [];
    for (const [name, files] of [["shards", shardFiles], ["parts", partFiles]] as const) {
      const out = `${dir}/merged-${name}/runs.jsonl`;
      await Deno.mkdir(`${dir}/merged-${name}`);
      const result = await runCollect(["merge", ...files, "-o", out, "--spec", spec, "--json"]);
      assert.equal(result.code, 0, result.err);
      assert.deepEqual(JSON.parse(result.out), {
        rows: 12,
        duplicates_dropped: 0,
        missing: [],
        plan: { runs: 12, cells: 6 },
      });
      const rows = await readRows(out);
      assert.deepEqual(ids(rows), ids(wholeRows));
      // Paths point at the shards' files from the merged folder.
      for (const row of rows) {
        await Deno.stat(`${dir}/merged-${name}/${row.trace}`);
        await Deno.stat(`${dir}/merged-${name}/${row.receipt}`);
      }
      // The spend ledgers merged: every model call once.
      const ledger = (await Deno.readTextFile(`${dir}/merged-${name}/runs.spend.jsonl`)).trim()
        .split("\n");
      const shardLedgers = await Promise.all(
        files.map(async (f) =>
          (await Deno.readTextFile(f.replace(/\.jsonl$/, ".spend.jsonl"))).trim().split("\n")
        ),
      );
      assert.equal(ledger.length, shardLedgers.flat().length);
      merged.push(out);
    }
    const expected = await statistics(`${dir}/whole/runs.jsonl`);
    for (const file of merged) assert.deepEqual(await statistics(file), expected);
  } finally {
    await model.close();
  }
});
