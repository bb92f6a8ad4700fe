// Cell order (the first part of issue 28): runs go cell by cell with the arms rotated by the spec's order seed, a
// cell is admitted whole under the budget, and --shard splits by whole cells; so a budget stop
// leaves only complete cells and compare still compares the arms.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { LOOP_PRICES, loopModel } from "./_loop_model.ts";
import { CONTRACTS, readRows, writeSpec } from "./_agent.ts";
import { planRuns } from "../lib/agent/plan.ts";
import { agentSpecFromJson } from "../lib/spec/agent_spec.ts";

const MEMORY = npmBin("mcp-server-memory");

function specOf(arms: string[], tasks: number, repeats: number, orderSeed?: number | string) {
  return agentSpecFromJson({
    spec_version: 1,
    server: { command: ["srv"] },
    arms: arms.map((id) => ({ id, provider: "openai", model: "m" })),
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i}`, prompt: "p", contract: "c" })),
    repeats,
    ...(orderSeed === undefined ? {} : { order_seed: orderSeed }),
  });
}

Deno.test("planRuns() goes cell by cell and every arm goes first equally often", () => {
  for (const seed of [0, 1, 2, "x", "release-7"]) {
    const runs = planRuns(specOf(["a", "b", "c"], 4, 3, seed));
    assert.equal(runs.length, 36);
    const firsts = new Map<string, number>();
    for (let cell = 0; cell < 12; cell++) {
      const inCell = runs.slice(cell * 3, cell * 3 + 3);
      // One cell: one task and repeat, every arm once; repeats outermost, tasks by id.
      assert.ok(inCell.every((run) => run.cell === cell));
      assert.equal(new Set(inCell.map((run) => run.arm.id)).size, 3);
      assert.ok(inCell.every((run) => run.task.id === `t${cell % 4}`));
      assert.ok(inCell.every((run) => run.repeat === Math.floor(cell / 4)));
      firsts.set(inCell[0]!.arm.id, (firsts.get(inCell[0]!.arm.id) ?? 0) + 1);
    }
    assert.deepEqual([...firsts.values()], [4, 4, 4]);
    assert.deepEqual(runs.map((run) => run.index), runs.map((_, i) => i));
  }
  // The same spec, the same order; the seed changes where the rotation starts.
  const orders = new Set(
    [0, 1, 2, 3, 4, 5].map((seed) =>
      planRuns(specOf(["a", "b", "c"], 1, 1, seed)).map((r) => r.arm.id).join()
    ),
  );
  assert.ok(orders.size > 1);
});

Deno.test("planRuns() with --shard takes whole cells, and the shards make up the matrix", () => {
  const spec = specOf(["a", "b"], 5, 2);
  const all = planRuns(spec);
  const shards = [1, 2, 3].map((k) => planRuns(spec, { k, n: 3 }));
  for (const [i, shard] of shards.entries()) {
    const cells = new Set(shard.map((run) => run.cell));
    for (const cell of cells) {
      assert.equal(shard.filter((run) => run.cell === cell).length, 2);
      assert.equal(cell % 3, i);
    }
  }
  assert.deepEqual(shards.flat().map((run) => run.runId).sort(), all.map((r) => r.runId).sort());
});

Deno.test({
  name:
    "a budget stop halfway through a 2-arm × 5-task × 2-repeat matrix leaves only complete cells; compare compares the arms",
  ignore: MEMORY === undefined,
  async fn() {
    await halfway(1);
  },
});

Deno.test({
  name:
    "with --concurrency 2 a budget stop leaves at most the cells in flight partial, and the stop line counts the complete ones",
  ignore: MEMORY === undefined,
  async fn() {
    await halfway(2);
  },
});

async function halfway(concurrency: number): Promise<void> {
  const dir = await tempDir(`agent_cells_${concurrency}`);
  const model = loopModel();
  try {
    // A run is 3 calls ($0.03); its estimate $0.035 covers the reservations; a cell holds
    // $0.07. Under $0.33 five cells fit (5 × $0.06 spent + $0.07 > $0.33 stops the sixth).
    const spec = await writeSpec(dir, {
      server: {
        command: [MEMORY!],
        env: { MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl" },
        timeout_s: 30,
      },
      arms: ["a", "b"].map((id) => ({
        id,
        provider: "openai",
        model: "loop-model",
        base_url: model.url,
        max_tokens: 500,
      })),
      tasks: Array.from({ length: 5 }, (_, i) => ({
        id: `remember-${i}`,
        prompt: `Remember thing ${i}`,
        contract: `${CONTRACTS}contract_memory.json`,
      })),
      repeats: 2,
      max_turns: 3,
      prices: LOOP_PRICES,
      budget: {
        max_usd: 0.33,
        estimate_per_run: { input_tokens: 3500, output_tokens: 1750 },
      },
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect([
      "agent",
      "run",
      spec,
      "-o",
      out,
      "--json",
      "--concurrency",
      String(concurrency),
    ]);
    assert.equal(run.code, 4, run.err);
    const summary = JSON.parse(run.out);
    assert.equal(summary.cells, 10);
    const rows = await readRows(out);
    const cells = new Map<string, string[]>();
    for (const row of rows) {
      const cell = `${row.task_id}/${row.repeat}`;
      if (row.status === "ok") cells.set(cell, [...cells.get(cell) ?? [], row.arm_id as string]);
    }
    const complete = [...cells.values()].filter((arms) => arms.length === 2).length;
    assert.equal(summary.complete_cells, complete);
    assert.ok(model.billed() * 0.01 <= 0.33 + 1e-9);
    if (concurrency > 1) {
      assert.ok(cells.size - complete <= concurrency - 1, JSON.stringify([...cells]));
      return;
    }
    assert.equal(summary.complete_cells, 5);
    assert.equal(summary.not_started.length, 10);
    assert.match(summary.not_started[0].reason, /for the next cell would pass the cap \$0\.33/);
    assert.equal(model.billed(), 30);
    assert.equal(rows.length, 10);
    assert.ok(rows.every((row) => row.status === "ok"));
    // Every cell written has both arms; the first arm alternates from cell to cell.
    assert.equal(cells.size, 5);
    for (const arms of cells.values()) assert.deepEqual([...arms].sort(), ["a", "b"]);
    const firsts = [...cells.values()].map((arms) => arms[0]);
    assert.ok(firsts.every((arm, i) => i === 0 || arm !== firsts[i - 1]), firsts.join());

    const compare = await runCollect(["compare", out, "--json", "--min-n", "5"]);
    assert.equal(compare.code, 0, compare.err);
    const result = JSON.parse(compare.out);
    assert.deepEqual(
      result.variants.map((v: { variant: string; n: number }) => [v.variant, v.n]),
      [["a", 5], ["b", 5]],
    );
    assert.equal(result.pairs.length, 1);
    assert.deepEqual([result.pairs[0].a, result.pairs[0].b], ["a", "b"]);
    // Every run has its partner (same task and repeat): the runs match one to one.
    assert.match(result.pairs[0].test_reason, /McNemar's test over 5 matched runs/);

    const text = await runCollect(["agent", "run", spec, "-o", out]);
    assert.match(text.out, /5 of 10 cell\(s\) complete/);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
}
