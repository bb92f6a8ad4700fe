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
      Object.entries(value).filter(([key]) =>
        !/^(files?|inputs?|sources?|path|latency(_p\d+|_ms|_s)?)$/.test(key)
      )
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
      // In matrix order, as the plan lists the runs.
      assert.deepEqual(rows.map((row) => row.run_id), lines.map((line) => JSON.parse(line).run_id));
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
    await Deno.remove(dir, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("merge: a shard given twice counts once; a shard of a changed spec exits 2 and writes nothing; a missing shard exits 4 naming its runs; a changed trace exits 2; --out-dir places real files", async () => {
  if (npmBin("mcp-server-memory") === undefined) return;
  const dir = await tempDir("merge_checks");
  const model = openaiServer();
  try {
    const spec = await specIn(`${dir}/spec`, model.url, { repeats: 1 });
    const files: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const out = `${dir}/shard-${k}/runs.jsonl`;
      const run = await runCollect(["agent", "run", spec, "-o", out, "--shard", `${k}/3`]);
      assert.equal(run.code, 0, run.err);
      files.push(out);
    }
    // The same first shard under a spec whose task prompt changed.
    const changedSpec = await specIn(`${dir}/changed`, model.url, {
      repeats: 1,
      tasks: TASKS.map((task) =>
        task.id === "find" ? { ...task, prompt: `${task.prompt}, please` } : task
      ),
    });
    const changed = `${dir}/changed-shard/runs.jsonl`;
    const other = await runCollect(["agent", "run", changedSpec, "-o", changed, "--shard", "1/3"]);
    assert.equal(other.code, 0, other.err);
    const [first, second, third] = files as [string, string, string];
    assert.ok((await readRows(first)).every((row) => row.task_id === "find"));

    // Given twice: the rows once, a note.
    const out = `${dir}/merged/runs.jsonl`;
    await Deno.mkdir(`${dir}/merged`);
    const twice = await runCollect(["merge", first, ...files, "-o", out, "--spec", spec, "--json"]);
    assert.equal(twice.code, 0, twice.err);
    const summary = JSON.parse(twice.out);
    assert.equal(summary.rows, 6);
    assert.equal(summary.duplicates_dropped, 2);
    assert.match(twice.err, /note: 2 rows given twice counted once/);
    assert.equal((await readRows(out)).length, 6);
    assert.equal(
      (await Deno.readTextFile(`${dir}/merged/runs.spend.jsonl`)).trim().split("\n").length,
      (await Promise.all(files.map((f) => Deno.readTextFile(f.replace(".jsonl", ".spend.jsonl")))))
        .join("").trim().split("\n").length,
    );

    // A shard of a changed spec: exit 2, one line naming the row, nothing written.
    const refusedOut = `${dir}/refused/runs.jsonl`;
    await Deno.mkdir(`${dir}/refused`);
    const withChanged = [changed, ...files.slice(1)];
    const refused = await runCollect(["merge", ...withChanged, "-o", refusedOut, "--spec", spec]);
    // Cells go by task id: cell 0, shard 1/3, is task "find", the one whose prompt changed.
    assert.ok((await readRows(changed)).every((row) => row.task_id === "find"));
    assert.equal(refused.code, 2, refused.err);
    assert.match(
      refused.err,
      /changed-shard\/runs\.jsonl:\d+: run "[^"]+" is not the run .* plans for arm "\w+", task "find"/,
    );
    assert.equal(refused.err.trim().split("\n").length, 1, refused.err);
    assert.equal(await exists(refusedOut), false);
    assert.equal(await exists(`${dir}/refused/runs.spend.jsonl`), false);
    // Without --spec, the changed shard beside the original one: one cell under two run ids.
    const conflict = await runCollect(["merge", ...files, changed, "-o", refusedOut]);
    assert.equal(conflict.code, 2, conflict.err);
    assert.match(conflict.err, /one run under two specs/);
    assert.equal(await exists(refusedOut), false);

    // A shard missing: the output is written, exit 4, the missing runs named.
    const partial = `${dir}/partial/runs.jsonl`;
    await Deno.mkdir(`${dir}/partial`);
    const missing = await runCollect([
      "merge",
      first,
      second,
      "-o",
      partial,
      "--spec",
      spec,
      "--json",
    ]);
    assert.equal(missing.code, 4, missing.err);
    const thirdIds = (await readRows(third)).map((row) => row.run_id);
    assert.deepEqual(JSON.parse(missing.out).missing.sort(), [...thirdIds].sort());
    for (const id of thirdIds) assert.ok(missing.err.includes(String(id)), missing.err);
    assert.equal((await readRows(partial)).length, 4);

    // --out-dir: every file placed under it (no symlinks), the rows pointing there, receipts verify.
    const placed = `${dir}/placed/runs.jsonl`;
    await Deno.mkdir(`${dir}/placed`);
    const copy = await runCollect([
      "merge",
      ...files,
      "-o",
      placed,
      "--out-dir",
      `${dir}/placed/runs`,
    ]);
    assert.equal(copy.code, 0, copy.err);
    for (const row of await readRows(placed)) {
      assert.match(String(row.trace), /^runs\/(good|sloppy)\/\w+-0\.json$/);
      const info = await Deno.lstat(`${dir}/placed/${row.receipt}`);
      assert.ok(info.isFile && !info.isSymlink);
      const verify = await runCollect(["verify", `${dir}/placed/${row.receipt}`]);
      assert.equal(verify.code, 0, verify.out + verify.err);
    }

    // A trace changed after its run: exit 2, nothing written.
    const row = (await readRows(third))[0]!;
    await Deno.writeTextFile(`${dir}/shard-3/${row.trace}`, "{}\n");
    const tampered = `${dir}/tampered/runs.jsonl`;
    await Deno.mkdir(`${dir}/tampered`);
    const bad = await runCollect(["merge", ...files, "-o", tampered]);
    assert.equal(bad.code, 2, bad.err);
    assert.match(
      bad.err,
      /shard-3\/runs\.jsonl:1: the row's trace .* has SHA-256 [0-9a-f]{12}…, the row says/,
    );
    assert.equal(await exists(tampered), false);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});
