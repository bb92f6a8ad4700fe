// budget.max_usd in agent run: no cell starts whose estimates would pass it, no call is made
// whose reservation would, the runs not started are listed with the reason, exit 4 says the
// matrix is incomplete, an unpriced arm cannot run under a budget unless --allow-unknown-price;
// and the pieces (the meter, the gate, the ledger) on their own.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { CONTRACTS, fixtureServer, readRows, writeSpec } from "./_agent.ts";
import { BudgetGate, type BudgetStop, type CallSpend } from "../lib/agent/budget.ts";
import { ProviderError } from "../lib/agent/http.ts";
import { ledgerSpend, openSpendLedger, readSpendLedger } from "../lib/agent/ledger.ts";
import { dropEarlierRows, readExistingRows } from "../lib/agent/output.ts";
import { runKey } from "../lib/agent/plan.ts";
import { agentSpecFromJson } from "../lib/spec/agent_spec.ts";

const WEATHER = {
  id: "weather",
  prompt: "Weather in Paris, and add 2 and 3",
  contract: `${CONTRACTS}contract_weather.json`,
};

Deno.test("a budget of $0.01 starts no run whose estimate would pass it and lists every run not started", async () => {
  const dir = await tempDir("agent_budget_small");
  const model = openaiServer();
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("agent-budget-small"),
      arms: [{ id: "mini", provider: "openai", model: "gpt-4.1-mini", base_url: model.url }],
      repeats: 2,
      budget: { max_usd: 0.01 },
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--json"]);
    assert.equal(run.code, 4, run.err);
    const summary = JSON.parse(run.out);
    assert.equal(summary.runs, 0);
    assert.deepEqual(
      summary.not_started.map((r: Record<string, unknown>) =>
        `${r.arm_id}/${r.task_id}/${r.repeat}`
      ),
      ["mini/book/0", "mini/weather/0", "mini/book/1", "mini/weather/1"],
    );
    assert.match(
      summary.not_started[0].reason,
      /budget: \$0 spent \+ \$0 held \+ \$0\.0112 estimated for the next cell would pass the cap \$0\.01/,
    );
    assert.equal(model.requests.length, 0);
    assert.equal((await Deno.readTextFile(out).catch(() => "")).trim(), "");
    // Without --json the summary lists them too.
    const text = await runCollect(["agent", "run", spec, "-o", out]);
    assert.equal(text.code, 4);
    assert.match(text.out, /4 run\(s\) not started:\n {2}mini book #0: budget: /);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

for (const concurrency of [1, 2]) {
  Deno.test(`a budget that covers 3 of 6 runs starts exactly those (concurrency ${concurrency})`, async () => {
    const dir = await tempDir(`agent_budget_${concurrency}`);
    const model = openaiServer({ delayMs: 30 });
    try {
      // One run uses 2 replies × (100 in, 20 out) = 200 in, 40 out: $0.00036 at $0/$9 per Mtok;
      // each call reserves its max_tokens, 20 output tokens: $0.00018, what it costs.
      const spec = await writeSpec(dir, {
        server: fixtureServer(`agent-budget-${concurrency}`),
        arms: [{
          id: "a",
          provider: "openai",
          model: "gpt-good",
          base_url: model.url,
          max_tokens: 20,
        }],
        tasks: [WEATHER],
        repeats: 6,
        prices: { "gpt-good": { input_per_mtok: 0, output_per_mtok: 9 } },
        budget: { max_usd: 0.00126, estimate_per_run: { input_tokens: 200, output_tokens: 40 } },
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
      const rows = await readRows(out);
      assert.deepEqual(rows.map((r) => r.repeat).sort(), [0, 1, 2]);
      assert.ok(rows.every((r) => Math.abs(Number(r.cost_usd) - 0.00036) < 1e-12));
      const summary = JSON.parse(run.out);
      assert.deepEqual(summary.not_started.map((r: Record<string, unknown>) => r.repeat), [
        3,
        4,
        5,
      ]);
      assert.ok(Math.abs(summary.spend_usd - 0.00108) < 1e-12);
    } finally {
      await model.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("an unpriced arm does not start under a budget unless --allow-unknown-price", async () => {
  const dir = await tempDir("agent_budget_unpriced");
  const model = openaiServer();
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("agent-budget-unpriced"),
      arms: [
        { id: "priced", provider: "openai", model: "gpt-good", base_url: model.url },
        { id: "local", provider: "openai", model: "llama-local", base_url: model.url },
      ],
      tasks: [WEATHER],
      prices: { "gpt-good": { input_per_mtok: 1, output_per_mtok: 4 } },
      budget: { max_usd: 1 },
    });
    const out = `${dir}/runs.jsonl`;
    const refused = await runCollect(["agent", "run", spec, "-o", out, "--json"]);
    assert.equal(refused.code, 4);
    const summary = JSON.parse(refused.out);
    assert.equal(summary.runs, 1);
    assert.deepEqual(summary.not_started.map((r: Record<string, unknown>) => r.arm_id), ["local"]);
    assert.match(
      summary.not_started[0].reason,
      /no price for llama-local, so budget\.max_usd cannot hold.*--allow-unknown-price/,
    );

    const allowed = await runCollect([
      "agent",
      "run",
      spec,
      "-o",
      out,
      "--json",
      "--allow-unknown-price",
    ]);
    assert.equal(allowed.code, 0, allowed.err);
    assert.equal(JSON.parse(allowed.out).unknown_cost_runs, 1);
    const local = (await readRows(out)).find((r) => r.arm_id === "local")!;
    assert.equal(local.cost_usd, null);
    assert.match((local.notes as string[]).join(" "), /no price for llama-local: cost unknown/);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

// The pieces of the hard cap, without a server.

const UNIT_SPEC = {
  spec_version: 1,
  server: { command: ["srv"] },
  arms: [{ id: "a", provider: "openai", model: "m", max_tokens: 100 }],
  tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
  // A call of 3,000 bytes reserves 1,000 input + 100 output tokens: $0.001 + $0.01.
  prices: { m: { input_per_mtok: 1, output_per_mtok: 100 } },
};

function unitMeter(budget: Record<string, unknown>) {
  const spec = agentSpecFromJson({ ...UNIT_SPEC, budget });
  const gate = new BudgetGate(spec);
  const cell = gate.admitCell(spec.arms);
  assert.ok(cell.ok);
  const spends: CallSpend[] = [];
  return { gate, meter: gate.meter(spec.arms[0]!, cell.ticket, (s) => spends.push(s)), spends };
}

Deno.test("RunMeter counts a reply without usage as its reservation, an HTTP error as 0, a timeout as its reservation", () => {
  const { gate, meter, spends } = unitMeter({ max_usd: 1 });
  meter.reserve(3000);
  meter.settle({ inputTokens: null, outputTokens: 20 });
  meter.reserve(3000);
  meter.fail(new ProviderError("http", "HTTP 400", 400));
  meter.reserve(3000);
  meter.fail(new ProviderError("timeout", "no answer"));
  assert.deepEqual(spends.map((s) => [Number(s.costUsd.toFixed(9)), s.estimated]), [
    [0.011, true],
    [0, true],
    [0.011, true],
  ]);
  assert.ok(Math.abs(gate.spentUsd - 0.022) < 1e-12);
});

Deno.test("BudgetGate holds a cell's estimates until release() and refuses a call past the cap", () => {
  const spec = agentSpecFromJson({
    ...UNIT_SPEC,
    arms: [UNIT_SPEC.arms[0], { ...UNIT_SPEC.arms[0], id: "b" }],
    budget: { max_usd: 0.05, estimate_per_run: { input_tokens: 0, output_tokens: 200 } },
  });
  const gate = new BudgetGate(spec, { priorSpendUsd: 0.005 });
  const first = gate.admitCell(spec.arms); // 2 × $0.02 held beside $0.005 spent
  assert.ok(first.ok);
  const second = gate.admitCell(spec.arms);
  assert.equal(second.ok, false);
  assert.match(
    (second as { reason: string }).reason,
    /budget: \$0\.005 spent \+ \$0\.04 held \+ \$0\.04 estimated for the next cell would pass the cap \$0\.05/,
  );
  // Once stopped, no cell starts, even after the first is released.
  gate.release(first.ticket);
  assert.equal(gate.admitCell(spec.arms).ok, false);
  // A call still goes while it fits: $0.005 + $0.011 × 4 = $0.049, then $0.06 > $0.05.
  const meter = gate.meter(spec.arms[0]!, first.ticket, () => {});
  for (let i = 0; i < 4; i++) {
    meter.reserve(3000);
    meter.settle({ inputTokens: 1000, outputTokens: 100 });
  }
  assert.throws(() => meter.reserve(3000), (e: BudgetStop) => e.stop === "budget");
});

Deno.test("budget.max_usd_per_run stops a run before a call that would pass it", () => {
  const { meter } = unitMeter({ max_usd_per_run: 0.02 });
  meter.reserve(3000);
  meter.settle({ inputTokens: 1000, outputTokens: 50 }); // $0.006
  meter.reserve(3000); // $0.006 + $0.011 fits
  meter.settle({ inputTokens: 1000, outputTokens: 100 }); // $0.017
  assert.throws(
    () => meter.reserve(3000),
    (e: BudgetStop) => e.stop === "run_budget" && /max_usd_per_run: \$0\.017 spent/.test(e.message),
  );
});

Deno.test("readSpendLedger() ends a whole cut last line, removes a broken one, and names a bad line", async () => {
  const dir = await tempDir("agent_ledger");
  try {
    const path = `${dir}/runs.spend.jsonl`;
    const line = (cost: number) =>
      JSON.stringify({ arm_id: "a", task_id: "t", repeat: 0, cost_usd: cost });
    await Deno.writeTextFile(path, `${line(0.5)}\n${line(0.25)}`);
    assert.deepEqual((await readSpendLedger(path))!.map((e) => e.costUsd), [0.5, 0.25]);
    assert.equal(await Deno.readTextFile(path), `${line(0.5)}\n${line(0.25)}\n`);
    await Deno.writeTextFile(path, `${line(0.5)}\n{"arm_id": "a", "ta`);
    assert.deepEqual((await readSpendLedger(path))!.map((e) => e.costUsd), [0.5]);
    assert.equal(await Deno.readTextFile(path), `${line(0.5)}\n`);
    await Deno.writeTextFile(path, `${line(0.5)}\n{"arm_id": "a"}\n`);
    await assert.rejects(readSpendLedger(path), /runs\.spend\.jsonl:2: is not a spend line/);
    assert.equal(await readSpendLedger(`${dir}/none.jsonl`), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openSpendLedger() starts the ledger of an older output from its rows, and compare refuses it", async () => {
  const dir = await tempDir("agent_ledger_seed");
  try {
    const out = `${dir}/runs.jsonl`;
    const rows = [
      { arm_id: "a", task_id: "t", repeat: 0, status: "ok", cost_usd: 0.5, prior_cost_usd: 0.25 },
      { arm_id: "a", task_id: "t", repeat: 1, status: "ok", cost_usd: null },
    ];
    const ledger = await openSpendLedger(out, rows);
    assert.equal(ledger.path, `${dir}/runs.spend.jsonl`);
    assert.equal(ledgerSpend(ledger.entries), 0.75);
    assert.equal((await readSpendLedger(ledger.path))!.length, 2);
    const compare = await runCollect(["compare", ledger.path]);
    assert.equal(compare.code, 2);
    assert.match(compare.err, /runs\.spend\.jsonl:1: is agent run's spend ledger/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dropEarlierRows() keeps a rerun's row and removes the stopped row it replaced", async () => {
  const dir = await tempDir("agent_drop_earlier");
  try {
    const out = `${dir}/runs.jsonl`;
    const row = (repeat: number, status: string) =>
      JSON.stringify({ arm_id: "a", task_id: "t", repeat, status });
    await Deno.writeTextFile(out, [row(0, "stopped"), row(1, "ok"), row(0, "ok"), ""].join("\n"));
    const existing = await readExistingRows(out);
    assert.deepEqual([...existing.duplicates], [runKey("a", "t", 0)]);
    assert.equal(existing.rows.get(runKey("a", "t", 0))!.status, "ok");
    assert.equal(await dropEarlierRows(out, existing.duplicates, `${dir}/runs`), 1);
    assert.equal(await Deno.readTextFile(out), `${row(1, "ok")}\n${row(0, "ok")}\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
