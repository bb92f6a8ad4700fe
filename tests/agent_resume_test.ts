// `toolscore agent run` stopped and resumed: SIGKILL and SIGINT mid-run, a cut last line, error
// rows retried only when asked, and shards that concatenate into the unsharded run.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { CONTRACTS, fixtureServer, keyOf, readRows, waitNoProcesses, writeSpec } from "./_agent.ts";
import { loadAgentSpec } from "../lib/spec/agent_spec.ts";
import { runMatrix } from "../lib/agent/run_matrix.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;

function arms(url: string) {
  return [
    { id: "good", provider: "openai", model: "gpt-good", base_url: url },
    { id: "sloppy", provider: "openai", model: "sloppy", base_url: url },
  ];
}

async function lineCount(path: string): Promise<number> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").length - 1;
}

// Start the CLI as its own process, wait until `lines` rows are written, send `signal`.
async function interrupted(
  signal: Deno.Signal,
  spec: string,
  out: string,
  lines: number,
): Promise<Deno.CommandStatus & { stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "agent", "run", spec, "-o", out, "--concurrency", "2"],
    env: { NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const until = Date.now() + 60_000;
  while ((await lineCount(out)) < lines && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill(signal);
  const status = await child.status;
  return { ...status, stderr: await stderr };
}

for (const signal of ["SIGKILL", "SIGINT", "SIGTERM"] as const) {
  Deno.test(`agent run killed with ${signal} mid-run, then rerun: each run once, valid lines, no server left`, async () => {
    const dir = await tempDir(`agent_${signal}`);
    const model = openaiServer({ delayMs: 120 });
    const marker = `agent-${signal}-${crypto.randomUUID()}`;
    try {
      const spec = await writeSpec(dir, {
        server: fixtureServer(marker),
        arms: arms(model.url),
        repeats: 3,
      });
      const out = `${dir}/runs.jsonl`;
      const status = await interrupted(signal, spec, out, 3);
      if (signal !== "SIGKILL") {
        assert.equal(status.code, signal === "SIGINT" ? 130 : 143, status.stderr);
        assert.match(
          status.stderr,
          new RegExp(
            `stopped by ${signal}: the runs in flight were not written; \\d+ run\\(s\\) not started`,
          ),
        );
        // Issue 31: the command that resumes.
        assert.ok(
          status.stderr.includes(
            `to finish, run:\n  toolscore agent run ${spec} -o ${out} --concurrency 2\n`,
          ),
          status.stderr,
        );
      } else {
        assert.equal(status.signal, "SIGKILL");
      }
      assert.deepEqual(await waitNoProcesses(marker), []);
      const before = await readRows(out); // every line parses
      assert.ok(before.length >= 3 && before.length < 12, `${before.length} rows`);

      const rerun = await runCollect(["agent", "run", spec, "-o", out, "--json"]);
      assert.equal(rerun.code, 0, rerun.err);
      assert.match(
        rerun.err,
        new RegExp(`resuming: ${before.length} run\\(s\\) already in the output`),
      );
      const rows = await readRows(out);
      assert.equal(rows.length, 12);
      assert.equal(new Set(rows.map(keyOf)).size, 12);
      assert.equal(JSON.parse(rerun.out).runs, 12 - before.length);
      assert.deepEqual(await waitNoProcesses(marker), []);
      // Every model call of both invocations is in the spend ledger, those of the runs the stop
      // dropped too (a call in flight counts its reservation); a kill may lose the last lines.
      const ledger = await readRows(`${dir}/runs.spend.jsonl`);
      if (signal !== "SIGKILL") assert.ok(ledger.length >= model.requests.length);
      assert.ok(ledger.length >= model.requests.length - 2, `${ledger.length} lines`);
    } finally {
      await model.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("agent run removes a cut last line, names it, and runs that run again", async () => {
  const dir = await tempDir("agent_cut");
  const model = openaiServer();
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("agent-cut"),
      arms: arms(model.url).slice(0, 1),
      tasks: [{
        id: "weather",
        prompt: "Weather in Paris, and add 2 and 3",
        contract: `${CONTRACTS}contract_weather.json`,
      }],
      repeats: 2,
    });
    const out = `${dir}/runs.jsonl`;
    assert.equal((await runCollect(["agent", "run", spec, "-o", out])).code, 0);
    const [first, second] = (await Deno.readTextFile(out)).split("\n");
    await Deno.writeTextFile(out, `${first}\n${second!.slice(0, 40)}`);
    const rerun = await runCollect(["agent", "run", spec, "-o", out, "--json"]);
    assert.equal(rerun.code, 0, rerun.err);
    assert.match(
      rerun.err,
      /removed a cut last line \(40 bytes, no newline\) from .*runs\.jsonl: "\{\\"schema/,
    );
    assert.equal(JSON.parse(rerun.out).runs, 1);
    const rows = await readRows(out);
    assert.deepEqual(rows.map((r) => r.repeat), [0, 1]);

    // A complete line that is not JSON is an input error naming file:line, not a silent skip.
    await Deno.writeTextFile(out, "not json\n", { append: true });
    const bad = await runCollect(["agent", "run", spec, "-o", out]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /runs\.jsonl:3: not JSON/);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run --shard 1/2 and 2/2 concatenated equal the unsharded run", async () => {
  const dir = await tempDir("agent_shard");
  const model = openaiServer();
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("agent-shard"),
      arms: arms(model.url),
      repeats: 3,
    });
    const full = `${dir}/full.jsonl`;
    assert.equal(
      (await runCollect(["agent", "run", spec, "-o", full, "--concurrency", "2"])).code,
      0,
    );
    for (const k of [1, 2]) {
      const run = await runCollect([
        "agent",
        "run",
        spec,
        "-o",
        `${dir}/shard-${k}.jsonl`,
        "--shard",
        `${k}/2`,
      ]);
      assert.equal(run.code, 0, run.err);
    }
    const one = await readRows(`${dir}/shard-1.jsonl`);
    const two = await readRows(`${dir}/shard-2.jsonl`);
    assert.equal(one.length, 6);
    assert.equal(two.length, 6);
    const pick = (rows: Record<string, unknown>[]) =>
      rows.map((r) => [keyOf(r), r.run_id, r.score, r.outcome].join(" ")).sort();
    assert.deepEqual(pick([...one, ...two]), pick(await readRows(full)));
    // The concatenation is itself a complete run: resuming from it runs nothing.
    const joined = `${dir}/joined.jsonl`;
    await Deno.writeTextFile(
      joined,
      (await Deno.readTextFile(`${dir}/shard-1.jsonl`)) +
        (await Deno.readTextFile(`${dir}/shard-2.jsonl`)),
    );
    const resumed = await runCollect([
      "agent",
      "run",
      spec,
      "-o",
      joined,
      "--out-dir",
      `${dir}/full`,
      "--json",
    ]);
    assert.equal(JSON.parse(resumed.out).runs, 0);
    const usage = await runCollect(["agent", "run", spec, "-o", joined, "--shard", "3/2"]);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /--shard 3\/2: expected k\/n with 1 ≤ k ≤ n/);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runMatrix() writes error rows for a provider that is down and retries them only when asked", async () => {
  const dir = await tempDir("agent_retry_errors");
  const model = openaiServer();
  try {
    const path = await writeSpec(dir, {
      server: fixtureServer("agent-retry"),
      arms: [{ id: "down", provider: "openai", model: "down", base_url: model.url }],
      tasks: [{
        id: "weather",
        prompt: "Weather in Paris, and add 2 and 3",
        contract: `${CONTRACTS}contract_weather.json`,
      }],
      repeats: 2,
    });
    const spec = await loadAgentSpec(path);
    const out = `${dir}/runs.jsonl`;
    const options = {
      spec,
      output: out,
      readEnv: () => undefined,
      http: { retries: 1, baseDelayMs: 1 },
    };
    const first = await runMatrix(options);
    assert.equal(first.errors, 2);
    const rows = await readRows(out);
    assert.deepEqual(rows.map((r) => [r.status, r.outcome, r.passed, r.score]), [
      ["error", "error", null, null],
      ["error", "error", null, null],
    ]);
    assert.match(
      String(rows[0]!.error),
      /answered HTTP 500: .*upstream failed .*gave up after 2 attempts/,
    );

    const skipped = await runMatrix(options);
    assert.equal(skipped.runs, 0);
    assert.equal(skipped.skippedErrors, 2);
    const retried = await runMatrix({ ...options, retryErrors: true });
    assert.equal(retried.runs, 2);
    assert.equal((await readRows(out)).length, 2); // replaced, not added
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});
