/**
 * A robustness benchmark for `agent run` (issue 30), not part of CI: a mock
 * of OpenAI's own OpenAPI description answers every model request with a
 * random but schema-valid Chat Completions response — custom calls, calls
 * whose names are sentences, arguments that are not JSON, refusals, any
 * `finish_reason` — and the matrix must still complete: a row per run, and
 * every trace read back by `inspect` and scored by `eval` (exit 0 or 1,
 * never 2). It prints what the runs saw: rows by status and stop, calls,
 * malformed calls by kind, custom calls, and the wall time.
 *
 * The mock is Prism (`@stoplight/prism-cli`, from npm) in dynamic mode on
 * `testdata/openai-openapi/chat_completions.openapi.json`, the
 * `/chat/completions` part of the openai/openai-openapi description (see the
 * README there for its source and MIT license). The MCP server is the
 * fixture server (`testdata/mcp/fixture_server.ts`), started fresh per run.
 *
 * Install Prism once, outside the repository, and run:
 *
 *     npm install --prefix /tmp/prism @stoplight/prism-cli@5.16.0
 *     PRISM=/tmp/prism/node_modules/.bin/prism deno run --allow-read --allow-write \
 *       --allow-run --allow-env --allow-net=127.0.0.1 scripts/bench_prism_provider.ts [RUNS]
 *
 * `RUNS` defaults to 30 (10 tasks × 3 repeats, then as many repeats as it
 * takes). The exit code is 0 when the matrix completed with a row per run
 * and every trace read back, 1 otherwise.
 *
 * @module
 */

const ROOT = new URL("..", import.meta.url).pathname;
const SPEC = `${ROOT}testdata/openai-openapi/chat_completions.openapi.json`;
const CLI = `${ROOT}cli.ts`;
const KEY_ENV = "TOOLSCORE_PRISM_KEY";

type Json = Record<string, unknown>;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function waitListening(url: string, child: Deno.ChildProcess): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      const response = await fetch(url, { method: "POST", body: "{}" });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  child.kill("SIGTERM");
  throw new Error(`Prism did not start listening on ${url} within 60 s`);
}

async function toolscore(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net=127.0.0.1",
      "--allow-run",
      CLI,
      ...args,
    ],
    env: { [KEY_ENV]: "sk-prism-not-a-real-key", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

function count<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

async function main(): Promise<number> {
  const runs = Number(Deno.args[0] ?? "30");
  if (!Number.isInteger(runs) || runs < 1) {
    console.error("usage: scripts/bench_prism_provider.ts [RUNS] (a whole number >= 1)");
    return 2;
  }
  const prism = Deno.env.get("PRISM");
  if (prism === undefined) {
    console.error(
      "set PRISM to the prism binary: npm install --prefix /tmp/prism @stoplight/prism-cli@5.16.0",
    );
    return 2;
  }
  const port = freePort();
  const child = new Deno.Command(prism, {
    args: ["mock", "-d", "-h", "127.0.0.1", "-p", String(port), SPEC],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const dir = await Deno.makeTempDir({ prefix: "toolscore_prism_" });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitListening(`${base}/chat/completions`, child);
    const tasks = Math.min(runs, 10);
    const repeats = Math.ceil(runs / tasks);
    const spec = {
      spec_version: 1,
      server: {
        command: [Deno.execPath(), "run", "--no-prompt", `${ROOT}testdata/mcp/fixture_server.ts`],
        timeout_s: 30,
      },
      arms: [{
        id: "prism",
        provider: "openai",
        model: "gpt-4.1-mini",
        base_url: base,
        api_key_env: KEY_ENV,
      }],
      tasks: Array.from({ length: tasks }, (_, i) => ({
        id: `task-${i}`,
        prompt: `Book the first flight to NYC on 2026-01-0${(i % 9) + 1}`,
        contract: `${ROOT}testdata/agent/contract_book.json`,
      })),
      repeats,
      max_turns: 4,
      timeout_s: 120,
    };
    const specPath = `${dir}/agent.json`;
    await Deno.writeTextFile(specPath, JSON.stringify(spec, null, 2));
    const out = `${dir}/runs.jsonl`;
    const started = performance.now();
    const run = await toolscore(["agent", "run", specPath, "-o", out, "--concurrency", "4"]);
    const seconds = (performance.now() - started) / 1000;
    const rows = (await Deno.readTextFile(out).catch(() => "")).split("\n").filter((l) => l)
      .map((line) => JSON.parse(line) as Json);
    const problems: string[] = [];
    if (run.code !== 0 && run.code !== 4) {
      problems.push(`agent run exited ${run.code}: ${run.err.trim().split("\n").at(-1)}`);
    }
    if (rows.length !== tasks * repeats) {
      problems.push(`${rows.length} rows for ${tasks * repeats} runs`);
    }
    const calls: Json[] = [];
    for (const row of rows) {
      const trace = `${dir}/${row.trace}`;
      const shown = await toolscore(["inspect", trace, "--json"]);
      if (shown.code !== 0) {
        problems.push(`inspect ${row.trace}: ${shown.err.trim()}`);
        continue;
      }
      calls.push(...((JSON.parse(shown.out).traces[0].calls ?? []) as Json[]));
      const scored = await toolscore(["eval", spec.tasks[0]!.contract, trace]);
      if (scored.code !== 0 && scored.code !== 1) {
        problems.push(`eval ${row.trace}: exit ${scored.code}: ${scored.err.trim()}`);
      }
    }
    const errors = rows.filter((row) => row.status === "error");
    console.log(
      `runs: ${rows.length} rows in ${seconds.toFixed(1)} s (agent run exit ${run.code})`,
    );
    console.log(`status: ${JSON.stringify(count(rows, (row) => String(row.status)))}`);
    console.log(`stop: ${JSON.stringify(count(rows, (row) => String(row.stop)))}`);
    console.log(
      `calls: ${calls.length}; malformed ${
        JSON.stringify(count(calls.filter((c) => c.malformed), (c) => String(c.malformed)))
      }; by type ${
        JSON.stringify(
          count(calls, (c) => String((c.metadata as Json | undefined)?.call_type ?? "function")),
        )
      }; failed ${calls.filter((c) => c.is_error === true).length}`,
    );
    for (const [error, n] of Object.entries(count(errors, (row) => String(row.error)))) {
      console.log(`error rows (${n}): ${error.slice(0, 200)}`);
    }
    for (const problem of problems) console.error(`PROBLEM ${problem}`);
    console.log(problems.length === 0 ? "ok: no run aborted the matrix" : "FAILED");
    return problems.length === 0 ? 0 : 1;
  } finally {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.exit(await main());
