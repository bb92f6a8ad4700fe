// budget.max_usd as a hard cap (issue 27), with a scripted model that never stops calling tools
// (1,000 input + 500 output tokens, $0.01 a call) and the reference memory server from npm: the
// calls are counted at the model server, which is what a provider would bill.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { LOOP_CALL_USD, LOOP_PRICES, type LoopModel, loopModel } from "./_loop_model.ts";
import { CONTRACTS, readRows, writeSpec } from "./_agent.ts";

const MEMORY = npmBin("mcp-server-memory");

function memoryServer(bin: string): Record<string, unknown> {
  return {
    command: [bin],
    env: { MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl" },
    timeout_s: 30,
  };
}

function tasks(count: number): { id: string; prompt: string; contract: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `remember-${i}`,
    prompt: `Remember thing ${i}`,
    contract: `${CONTRACTS}contract_memory.json`,
  }));
}

function loopArm(id: string, model: LoopModel): Record<string, unknown> & {
  id: string;
  provider: string;
  model: string;
} {
  return { id, provider: "openai", model: "loop-model", base_url: model.url, max_tokens: 500 };
}

async function agentRun(spec: string, out: string, ...extra: string[]) {
  const run = await runCollect(["agent", "run", spec, "-o", out, "--json", ...extra]);
  assert.ok(run.code === 0 || run.code === 4, `${run.code}: ${run.err}`);
  return { code: run.code, summary: JSON.parse(run.out), err: run.err };
}

function near(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);
}

Deno.test({
  name:
    "agent run under max_usd 0.10 at $0.01 a call makes at most 11 calls; the same command again makes none",
  ignore: MEMORY === undefined,
  async fn() {
    const dir = await tempDir("agent_cap");
    const model = loopModel();
    try {
      const spec = await writeSpec(dir, {
        server: memoryServer(MEMORY!),
        arms: [loopArm("loop", model)],
        tasks: tasks(1),
        repeats: 3,
        max_turns: 60,
        prices: LOOP_PRICES,
        budget: { max_usd: 0.10 },
      });
      const out = `${dir}/runs.jsonl`;
      const first = await agentRun(spec, out);
      assert.equal(first.code, 4);
      const calls = model.billed();
      assert.ok(calls >= 1 && calls <= 11, `${calls} calls`);
      assert.ok(calls * LOOP_CALL_USD <= 0.10 + 1e-9);
      const [row, ...more] = await readRows(out);
      assert.equal(more.length, 0);
      assert.equal(row!.status, "stopped");
      assert.equal(row!.stop, "budget");
      assert.equal(row!.passed, null);
      assert.equal(row!.outcome, "unknown");
      near(row!.cost_usd as number, calls * LOOP_CALL_USD);
      assert.match((row!.notes as string[]).join(" "), /budget: .* for the next call would pass/);
      near(first.summary.spend_usd, calls * LOOP_CALL_USD);
      near(first.summary.spend_total_usd, calls * LOOP_CALL_USD);
      assert.equal(first.summary.budget_usd, 0.10);
      assert.equal(first.summary.stopped, 1);
      assert.equal(first.summary.not_started.length, 2);
      // One ledger line per billed call.
      const ledger = await readRows(`${dir}/runs.spend.jsonl`);
      assert.equal(ledger.length, calls);

      const again = await agentRun(spec, out);
      assert.equal(again.code, 4);
      assert.equal(model.received(), calls);
      assert.equal(again.summary.runs, 0);
      assert.equal(again.summary.spend_usd, 0);
      near(again.summary.spend_total_usd, calls * LOOP_CALL_USD);
      assert.equal(again.summary.not_started.length, 3);
      // The stopped row stays until a rerun replaces it.
      assert.equal((await readRows(out)).length, 1);

      const text = await runCollect(["agent", "run", spec, "-o", out]);
      assert.equal(text.code, 4);
      assert.equal(model.received(), calls);
      assert.match(
        text.out.trim().split("\n").at(-1)!,
        /^budget: \$0\.00 spent now, \$0\.\d+ of the \$0\.10 budget in all; 0 run\(s\) stopped, 3 not started; 0 of 3 cell\(s\) complete$/,
      );
    } finally {
      await model.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "agent run --retry-errors after a budget stop makes no call: the error rows' cost stays in the ledger",
  ignore: MEMORY === undefined,
  async fn() {
    const dir = await tempDir("agent_cap_retry");
    // Every run: two billed calls, then HTTP 400 on the third (an error row that cost $0.02).
    const model = loopModel({ refuseTurn: 3 });
    try {
      const spec = await writeSpec(dir, {
        server: memoryServer(MEMORY!),
        arms: [loopArm("loop", model)],
        tasks: tasks(1),
        repeats: 8,
        max_turns: 60,
        prices: LOOP_PRICES,
        budget: { max_usd: 0.10, estimate_per_run: { input_tokens: 2000, output_tokens: 1000 } },
      });
      const out = `${dir}/runs.jsonl`;
      const first = await agentRun(spec, out);
      assert.equal(first.code, 4);
      const billed = model.billed();
      assert.ok(billed * LOOP_CALL_USD <= 0.10 + 1e-9, `${billed} calls`);
      const rows = await readRows(out);
      assert.ok(rows.filter((r) => r.status === "error").length >= 3);
      assert.ok(first.summary.not_started.length > 0);

      const retried = await agentRun(spec, out, "--retry-errors");
      assert.equal(retried.code, 4);
      assert.equal(model.billed(), billed);
      assert.equal(retried.summary.runs, 0);
      near(retried.summary.spend_total_usd, billed * LOOP_CALL_USD);
      // Not run again, so not removed: the error rows are still there.
      assert.deepEqual((await readRows(out)).map((r) => r.status), rows.map((r) => r.status));
    } finally {
      await model.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "three shards of one matrix under max_usd 0.30 spend at most $0.30 in all, counted at the model server",
  ignore: MEMORY === undefined,
  async fn() {
    const dir = await tempDir("agent_cap_shards");
    const model = loopModel();
    try {
      const spec = await writeSpec(dir, {
        server: memoryServer(MEMORY!),
        arms: [loopArm("loop", model)],
        tasks: tasks(2),
        repeats: 3,
        max_turns: 60,
        prices: LOOP_PRICES,
        budget: { max_usd: 0.30 },
      });
      // One output for the three shards: each counts only its own runs' spend.
      const out = `${dir}/runs.jsonl`;
      for (const k of [1, 2, 3]) {
        const shard = await agentRun(spec, out, "--shard", `${k}/3`);
        assert.equal(shard.code, 4);
        near(shard.summary.budget_usd, 0.1);
        assert.ok(shard.summary.spend_total_usd <= 0.1 + 1e-9);
      }
      const billed = model.billed();
      assert.ok(billed * LOOP_CALL_USD <= 0.30 + 1e-9, `${billed} calls`);
      // Again, every shard: nothing more.
      for (const k of [1, 2, 3]) await agentRun(spec, out, "--shard", `${k}/3`);
      assert.equal(model.received(), billed);
      const ledger = await readRows(`${dir}/runs.spend.jsonl`);
      near(ledger.reduce((sum, line) => sum + (line.cost_usd as number), 0), billed * 0.01);
    } finally {
      await model.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a stopped row is left out of compare's n and run again by a rerun with a larger budget",
  ignore: MEMORY === undefined,
  async fn() {
    const dir = await tempDir("agent_cap_rerun");
    const model = loopModel();
    try {
      const fields = {
        server: memoryServer(MEMORY!),
        arms: [loopArm("a", model), loopArm("b", model)],
        tasks: tasks(1),
        repeats: 2,
        max_turns: 4,
        prices: LOOP_PRICES,
        // A low estimate admits every cell: only the per-call reservation stops a run.
        budget: { max_usd: 0.06, estimate_per_run: { input_tokens: 1, output_tokens: 1 } },
      };
      const spec = await writeSpec(dir, fields);
      const out = `${dir}/runs.jsonl`;
      const first = await agentRun(spec, out);
      assert.equal(first.code, 4);
      const rows = await readRows(out);
      const stopped = rows.filter((r) => r.status === "stopped");
      assert.equal(stopped.length, 1);
      const compare = await runCollect(["compare", out, "--json"]);
      assert.equal(compare.code, 0, compare.err);
      assert.match(
        compare.err,
        /1 run\(s\) stopped by the budget \(status "stopped"\) left out of n/,
      );
      const variants = JSON.parse(compare.out).variants as { variant: string; n: number }[];
      assert.deepEqual(variants.map((v) => [v.variant, v.n]), [[rows[0]!.arm_id, 1]]);
      // select reads runs the same way: the stopped row is left out, with the same note.
      const select = await runCollect(["select", out, "--json"]);
      assert.match(select.err, /1 run\(s\) stopped by the budget/);

      const billed = model.billed();
      await writeSpec(dir, { ...fields, budget: { max_usd: 1 } });
      const rerun = await agentRun(spec, out);
      assert.equal(rerun.code, 0, rerun.err);
      const after = await readRows(out);
      assert.equal(after.length, 4);
      assert.ok(after.every((r) => r.status === "ok"));
      const replaced = after.find((r) =>
        r.run_id !== undefined && r.arm_id === stopped[0]!.arm_id &&
        r.repeat === stopped[0]!.repeat
      )!;
      near(replaced.prior_cost_usd as number, stopped[0]!.cost_usd as number);
      near(rerun.summary.spend_total_usd, model.billed() * LOOP_CALL_USD);
      assert.equal(model.billed() - billed, 3 * 4);
      const compared = await runCollect(["compare", out, "--json"]);
      assert.equal(compared.code, 0, compared.err);
      assert.equal(compared.err, "");
      const n = (JSON.parse(compared.out).variants as { n: number }[]).map((v) => v.n);
      assert.deepEqual(n, [2, 2]);
    } finally {
      await model.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "budget.max_usd_per_run and budget.max_tokens_per_run stop a run with stop run_budget",
  ignore: MEMORY === undefined,
  async fn() {
    const dir = await tempDir("agent_cap_per_run");
    const model = loopModel();
    try {
      for (const budget of [{ max_usd_per_run: 0.03 }, { max_tokens_per_run: 4000 }]) {
        const spec = await writeSpec(dir, {
          server: memoryServer(MEMORY!),
          arms: [loopArm("loop", model)],
          tasks: tasks(1),
          max_turns: 60,
          prices: LOOP_PRICES,
          budget,
        });
        const out = `${dir}/runs-${Object.keys(budget)[0]}.jsonl`;
        const before = model.billed();
        const run = await agentRun(spec, out);
        assert.equal(run.code, 4);
        const [row] = await readRows(out);
        assert.equal(row!.status, "stopped");
        assert.equal(row!.stop, "run_budget");
        assert.equal(row!.outcome, "unknown");
        assert.equal(model.billed() - before, 2);
        assert.equal(row!.turns, 2);
      }
      // A limit below one call's reservation: the run stops before its first call, spending 0.
      const spec = await writeSpec(dir, {
        server: memoryServer(MEMORY!),
        arms: [loopArm("loop", model)],
        tasks: tasks(1),
        prices: LOOP_PRICES,
        budget: { max_tokens_per_run: 100 },
      });
      const before = model.received();
      await agentRun(spec, `${dir}/tiny.jsonl`);
      const [row] = await readRows(`${dir}/tiny.jsonl`);
      assert.deepEqual([row!.status, row!.stop, row!.turns, row!.cost_usd], [
        "stopped",
        "run_budget",
        0,
        0,
      ]);
      assert.match((row!.notes as string[]).join(), /max_tokens_per_run: 0 tokens used/);
      assert.equal(model.received(), before);
    } finally {
      await model.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
