// budget.max_usd in agent run: no run starts whose estimate would pass it, the runs not started
// are listed with the reason, exit 4 says the matrix is incomplete, and an unpriced arm cannot
// run under a budget unless --allow-unknown-price.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { CONTRACTS, fixtureServer, readRows, writeSpec } from "./_agent.ts";

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
