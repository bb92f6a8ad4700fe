// `toolscore agent run` end to end: the scripted OpenAI wire server, the fixture MCP server,
// the real reference memory server, a Streamable HTTP server; compare, export, decide and
// verify reading what it wrote.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { CONTRACTS, filesUnder, fixtureServer, keyOf, readRows, waitNoProcesses, writeSpec } from "./_agent.ts";

const FAKE_KEY = "sk-test-FAKE-9f8e7d6c5b4a";

function arms(url: string) {
  return [
    { id: "good", provider: "openai", model: "gpt-good", base_url: url, api_key_env: "TOOLSCORE_TEST_KEY", seed: 7, temperature: 0 },
    { id: "sloppy", provider: "openai", model: "sloppy", base_url: url, system: "Be brief." },
  ];
}

const PRICES = {
  "gpt-good": { input_per_mtok: 1, output_per_mtok: 4 },
  sloppy: { input_per_mtok: 0.5, output_per_mtok: 2 },
};

Deno.test("agent run: 2 arms × 2 tasks × 3 repeats write 12 rows, traces and receipts that compare, export, decide and verify read", async () => {
  const dir = await tempDir("agent_e2e");
  const model = openaiServer();
  const marker = `agent-e2e-${crypto.randomUUID()}`;
  Deno.env.set("TOOLSCORE_TEST_KEY", FAKE_KEY);
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer(marker),
      arms: arms(model.url),
      repeats: 3,
      prices: PRICES,
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--concurrency", "3", "--json"]);
    assert.equal(run.code, 0, run.err);
    const summary = JSON.parse(run.out);
    assert.equal(summary.runs, 12);
    assert.equal(summary.errors, 0);
    assert.deepEqual(summary.not_started, []);

    const rows = await readRows(out);
    assert.equal(rows.length, 12);
    assert.equal(new Set(rows.map(keyOf)).size, 12);
    for (const row of rows) {
      assert.equal(row.schema, "toolscore.agent_run/1");
      assert.equal(row.status, "ok");
      assert.match(String(row.trace), /^runs\/(good|sloppy)\/(book|weather)-[0-2]\.json$/);
      assert.equal(row.receipt, String(row.trace).replace(/\.json$/, ".receipt.json"));
      assert.deepEqual(row.usage, row.task_id === "weather" || row.arm_id === "sloppy"
        ? { input_tokens: 200, output_tokens: 40 }
        : { input_tokens: 300, output_tokens: 60 });
      assert.equal(typeof row.cost_usd, "number");
      assert.equal(row.honesty_errors, 0);
      assert.equal(row.server_fresh, true);
    }
    const outcome = (arm: string, task: string) =>
      rows.filter((r) => r.arm_id === arm && r.task_id === task).map((r) => r.outcome);
    assert.deepEqual(outcome("good", "book"), ["pass", "pass", "pass"]);
    assert.deepEqual(outcome("good", "weather"), ["pass", "pass", "pass"]);
    assert.deepEqual(outcome("sloppy", "book"), ["fail", "fail", "fail"]);

    // The trace: calls with results and durations, parallel calls in the provider's order.
    const trace = JSON.parse(await Deno.readTextFile(`${dir}/runs/good/weather-0.json`));
    assert.equal(trace.format, "toolscore");
    assert.deepEqual(trace.calls.map((c: { tool: string }) => c.tool), ["get_weather", "add"]);
    assert.equal(trace.calls[1].result, "5");
    assert.equal(typeof trace.calls[0].duration_s, "number");
    assert.equal(trace.final_answer, "sunny in Paris; 2 + 3 = 5.");
    assert.equal(trace.model, "gpt-good-2026-01-01");

    // The requests: tools passed through, system/temperature/seed, the key only for its arm.
    const first = model.requests.find((r) => r.body.model === "gpt-good")!;
    assert.equal(first.headers.get("authorization"), `Bearer ${FAKE_KEY}`);
    assert.equal(first.body.seed, 7);
    assert.equal(first.body.temperature, 0);
    const tools = first.body.tools as { function: { name: string; parameters: unknown } }[];
    assert.ok(tools.some((t) => t.function.name === "book_flight"));
    const sloppy = model.requests.find((r) => r.body.model === "sloppy")!;
    assert.equal(sloppy.headers.get("authorization"), null);
    assert.deepEqual((sloppy.body.messages as unknown[])[0], { role: "system", content: "Be brief." });

    const files = await filesUnder(`${dir}/runs`);
    const receipts = files.filter((f) => f.endsWith(".receipt.json"));
    const traces = files.filter((f) => /\/(book|weather)-\d\.json$/.test(f));
    assert.equal(receipts.length, 12);
    assert.equal(traces.length, 12);
    const verify = await runCollect(["verify", ...receipts]);
    assert.equal(verify.code, 0, verify.out + verify.err);

    const compare = await runCollect(["compare", out, "--json"]);
    assert.equal(compare.code, 0, compare.err);
    const compared = JSON.parse(compare.out);
    assert.ok(JSON.stringify(compared).includes("sloppy"));

    const exported = `${dir}/export.jsonl`;
    const exportRun = await runCollect(["export", out, "-o", exported]);
    assert.equal(exportRun.code, 0, exportRun.err);
    const records = await readRows(exported);
    assert.equal(records.length, 12);
    assert.ok(records.every((r) => (r.hashes as Record<string, unknown>).receipt_sha256 !== null));

    const protocol = `${dir}/protocol.json`;
    await Deno.writeTextFile(protocol, JSON.stringify({
      protocol_version: 1,
      baseline: "sloppy",
      candidate: "good",
      min_runs: 3,
      rules: [{ id: "better", metric: "pass_rate", expect: "not_worse", tolerance: 0.05 }],
    }));
    const decide = await runCollect(["decide", protocol, out]);
    assert.equal(decide.code, 0, decide.out + decide.err);

    // Rerun: everything is there, nothing runs.
    const again = await runCollect(["agent", "run", spec, "-o", out, "--json"]);
    assert.equal(again.code, 0, again.err);
    assert.equal(JSON.parse(again.out).runs, 0);
    assert.equal((await readRows(out)).length, 12);

    // The fake key is in no file written, nor in any output.
    for (const file of [out, ...files, exported]) {
      assert.ok(!(await Deno.readTextFile(file)).includes(FAKE_KEY), file);
    }
    for (const text of [run.out, run.err, again.out, again.err, verify.out, compare.out]) {
      assert.ok(!text.includes(FAKE_KEY));
    }
    assert.deepEqual(await waitNoProcesses(marker), []);
  } finally {
    Deno.env.delete("TOOLSCORE_TEST_KEY");
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run against the reference memory server: a fresh MEMORY_FILE_PATH per run", async () => {
  const bin = npmBin("mcp-server-memory");
  if (bin === undefined) return;
  const dir = await tempDir("agent_memory");
  const model = openaiServer();
  try {
    const spec = await writeSpec(dir, {
      server: {
        command: [bin],
        env: { MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl" },
        timeout_s: 30,
      },
      arms: [{ id: "good", provider: "openai", model: "gpt-good", base_url: model.url }],
      tasks: [{ id: "remember", prompt: "Remember that Ada is a mathematician", contract: `${CONTRACTS}contract_memory.json` }],
      repeats: 2,
      prices: PRICES,
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out]);
    assert.equal(run.code, 0, run.err);
    const rows = await readRows(out);
    assert.deepEqual(rows.map((r) => r.outcome), ["pass", "pass"]);
    for (const repeat of [0, 1]) {
      // Each run had its own graph: one entity, not one per run so far.
      const graph = await Deno.readTextFile(`${dir}/runs/good/remember-${repeat}.work/memory.jsonl`);
      assert.equal(graph.trim().split("\n").length, 1);
      const trace = JSON.parse(await Deno.readTextFile(`${dir}/runs/good/remember-${repeat}.json`));
      assert.match(JSON.stringify(trace.calls[1].result), /Ada/);
    }
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});
