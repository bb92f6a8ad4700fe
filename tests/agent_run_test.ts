// `toolscore agent run` end to end: the scripted OpenAI wire server, the fixture MCP server,
// the real reference memory server, a Streamable HTTP server; compare, export, decide and
// verify reading what it wrote.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import {
  checkReaders,
  CONTRACTS,
  fixtureServer,
  httpFixture,
  keyOf,
  readRows,
  waitNoProcesses,
  writeSpec,
} from "./_agent.ts";

const FAKE_KEY = "sk-test-FAKE-9f8e7d6c5b4a";

function arms(url: string) {
  return [
    {
      id: "good",
      provider: "openai",
      model: "gpt-good",
      base_url: url,
      api_key_env: "TOOLSCORE_TEST_KEY",
      seed: 7,
      temperature: 0,
    },
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
      assert.deepEqual(
        row.usage,
        row.task_id === "weather" || row.arm_id === "sloppy"
          ? { input_tokens: 200, output_tokens: 40 }
          : { input_tokens: 300, output_tokens: 60 },
      );
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
    assert.deepEqual((sloppy.body.messages as unknown[])[0], {
      role: "system",
      content: "Be brief.",
    });

    const { files } = await checkReaders(dir, out, {
      rows: 12,
      baseline: "sloppy",
      candidate: "good",
    });

    // Rerun: everything is there, nothing runs.
    const again = await runCollect(["agent", "run", spec, "-o", out, "--json"]);
    assert.equal(again.code, 0, again.err);
    assert.equal(JSON.parse(again.out).runs, 0);
    assert.equal((await readRows(out)).length, 12);

    // The fake key is in no file written, nor in any output.
    for (const file of [out, ...files]) {
      assert.ok(!(await Deno.readTextFile(file)).includes(FAKE_KEY), file);
    }
    for (const text of [run.out, run.err, again.out, again.err]) {
      assert.ok(!text.includes(FAKE_KEY));
    }
    assert.deepEqual(await waitNoProcesses(marker), []);
  } finally {
    Deno.env.delete("TOOLSCORE_TEST_KEY");
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run against the reference memory server over stdio: 12 rows, a fresh MEMORY_FILE_PATH per run", async () => {
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
      arms: arms(model.url),
      tasks: [
        {
          id: "remember",
          prompt: "Remember that Ada is a mathematician",
          contract: `${CONTRACTS}contract_memory.json`,
        },
        {
          id: "find",
          prompt: "Find the admiral in memory",
          contract: `${CONTRACTS}contract_find.json`,
        },
      ],
      repeats: 3,
      prices: PRICES,
    });
    Deno.env.set("TOOLSCORE_TEST_KEY", FAKE_KEY);
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--concurrency", "2"]);
    assert.equal(run.code, 0, run.err);
    const { rows } = await checkReaders(dir, out, {
      rows: 12,
      baseline: "sloppy",
      candidate: "good",
    });
    assert.deepEqual(
      rows.filter((r) => r.arm_id === "good").map((r) => r.outcome),
      ["pass", "pass", "pass", "pass", "pass", "pass"],
    );
    assert.deepEqual(
      rows.filter((r) => r.arm_id === "sloppy" && r.task_id === "find").map((r) => r.outcome),
      ["fail", "fail", "fail"],
    );
    for (const repeat of [0, 1, 2]) {
      // Each run had its own graph: one entity, not one per run so far.
      const graph = await Deno.readTextFile(
        `${dir}/runs/good/remember-${repeat}.work/memory.jsonl`,
      );
      assert.equal(graph.trim().split("\n").length, 1);
      const trace = JSON.parse(await Deno.readTextFile(`${dir}/runs/good/remember-${repeat}.json`));
      assert.match(JSON.stringify(trace.calls[1].result), /Ada/);
    }
  } finally {
    Deno.env.delete("TOOLSCORE_TEST_KEY");
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run against a server over Streamable HTTP: 12 rows that say the server is not fresh", async () => {
  const mcp = await httpFixture();
  const dir = await tempDir("agent_http");
  const model = openaiServer();
  Deno.env.set("TOOLSCORE_TEST_KEY", FAKE_KEY);
  try {
    const spec = await writeSpec(dir, {
      server: { url: mcp.url },
      arms: arms(model.url),
      repeats: 3,
      prices: PRICES,
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--concurrency", "2"]);
    assert.equal(run.code, 0, run.err);
    const { rows } = await checkReaders(dir, out, {
      rows: 12,
      baseline: "sloppy",
      candidate: "good",
    });
    assert.ok(rows.every((r) => r.server_fresh === false));
    assert.match(String((rows[0]!.notes as string[])[0]), /not fresh per run/);
    assert.ok(mcp.calls() >= 12);
  } finally {
    Deno.env.delete("TOOLSCORE_TEST_KEY");
    await model.close();
    await mcp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run works with exactly the permissions the README shows", async () => {
  const dir = await tempDir("agent_perms");
  const model = openaiServer();
  const marker = `agent-perms-${crypto.randomUUID()}`;
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer(marker),
      arms: arms(model.url).slice(0, 1),
      repeats: 1,
      prices: PRICES,
    });
    const out = `${dir}/runs.jsonl`;
    const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
    assert.match(
      readme,
      /--allow-read --allow-write=runs\.jsonl,runs\.spend\.jsonl,runs \\\n\s+--allow-env=OPENAI_API_KEY,PATH,HOME,DENO_DIR --allow-net=api\.openai\.com --allow-run/,
    );
    const child = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        `--allow-write=${out},${dir}/runs.spend.jsonl,${dir}/runs`,
        "--allow-env=TOOLSCORE_TEST_KEY,PATH,HOME,DENO_DIR",
        "--allow-net=127.0.0.1",
        "--allow-run",
        new URL("../cli.ts", import.meta.url).pathname,
        "agent",
        "run",
        spec,
        "-o",
        out,
      ],
      env: { NO_COLOR: "1", TOOLSCORE_TEST_KEY: FAKE_KEY },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(child.stderr);
    assert.equal(child.code, 0, stderr);
    const rows = await readRows(out);
    assert.deepEqual(rows.map((r) => r.outcome), ["pass", "pass"]);
    assert.ok(!stderr.includes(FAKE_KEY));
    assert.deepEqual(await waitNoProcesses(marker), []);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run --dry-run prints the plan and estimates, runs the doctor, and runs nothing", async () => {
  const dir = await tempDir("agent_dry");
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("agent-dry"),
      arms: [...arms("http://127.0.0.1:9/v1"), {
        id: "free",
        provider: "openai",
        model: "unpriced",
        base_url: "http://127.0.0.1:9/v1",
      }],
      repeats: 3,
      prices: PRICES,
    });
    Deno.env.set("TOOLSCORE_TEST_KEY", FAKE_KEY);
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--dry-run", "--shard", "1/2"]);
    assert.match(
      run.out,
      /plan: 3 arm\(s\) × 2 task\(s\) × 3 repeat\(s\) = 18 runs; shard 1\/2: 9/,
    );
    assert.match(run.out, /estimate per run: 20,000 input \+ 2,000 output tokens \(default\)/);
    assert.match(run.out, /good \(openai gpt-good\): \d runs, ~\$0\.\d+/);
    // The worst case reserved before each call: 4,096 output tokens at $4/Mtok, plus input.
    assert.match(
      run.out,
      /reserved before each call: \$0\.02 \(4,096 output tokens\) \+ \$0\.00033 per 1,000 request bytes/,
    );
    assert.match(run.out, /free \(openai unpriced\): \d runs, cost unknown \(no price\)/);
    assert.match(run.out, /estimated total: ~\$[\d.]+ plus the unpriced arms/);
    assert.match(run.out, /server-start/);
    assert.equal(run.code, 1); // the doctor fails the unpriced arm
    await assert.rejects(Deno.stat(out));
    assert.ok(!run.out.includes(FAKE_KEY));
    // With --json, one document: the plan and the doctor's report.
    const json = await runCollect(["agent", "run", spec, "-o", out, "--dry-run", "--json"]);
    const doc = JSON.parse(json.out);
    assert.equal(doc.plan.runs, 18);
    assert.deepEqual(doc.plan.unpriced_arms, ["free"]);
    assert.equal(doc.plan.per_arm[0].runs, 6);
    assert.equal(doc.plan.per_arm[0].reserve_per_call.output_tokens, 4096);
    assert.equal(doc.doctor.worst, "fail");
  } finally {
    Deno.env.delete("TOOLSCORE_TEST_KEY");
    await Deno.remove(dir, { recursive: true });
  }
});
