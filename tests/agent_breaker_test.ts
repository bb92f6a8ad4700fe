// Issue 31: a provider endpoint that is down trips its circuit breaker: the runs in flight fail
// with error_kind "provider", no new run starts on it, other endpoints go on, exit 4.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer, serveJson } from "./_model_wire.ts";
import { fixtureServer, readRows, waitNoProcesses, writeSpec } from "./_agent.ts";
import { CircuitBreaker } from "../lib/agent/breaker.ts";
import { postJson, ProviderError } from "../lib/agent/http.ts";

const N = 5;
const CONCURRENCY = 3;

// 12 runs (2 tasks × 6 repeats) of one arm on `url`, plus, when given, a healthy arm elsewhere.
async function downRun(url: string, healthy?: string) {
  const dir = await tempDir("agent_breaker");
  const marker = `agent-breaker-${crypto.randomUUID()}`;
  const arms = [{ id: "down", provider: "openai", model: "gpt-good", base_url: url }];
  if (healthy !== undefined) {
    arms.push({ id: "up", provider: "openai", model: "gpt-good", base_url: healthy });
  }
  const spec = await writeSpec(dir, { server: fixtureServer(marker), arms, repeats: 6 });
  const out = `${dir}/runs.jsonl`;
  const started = performance.now();
  const run = await runCollect([
    "agent",
    "run",
    spec,
    "-o",
    out,
    "--concurrency",
    String(CONCURRENCY),
    "--json",
  ]);
  const seconds = (performance.now() - started) / 1000;
  assert.deepEqual(await waitNoProcesses(marker), []);
  const rows = await readRows(out).catch(() => []);
  return { run, seconds, rows, summary: JSON.parse(run.out || "{}") };
}

function checkTripped(result: Awaited<ReturnType<typeof downRun>>, url: string, attempts: number) {
  const { run, seconds, rows, summary } = result;
  assert.equal(run.code, 4, run.err);
  assert.ok(seconds < 20, `took ${seconds.toFixed(1)} s`);
  // Every attempt before the breaker opened, and at most the others in flight at that moment.
  assert.ok(attempts >= N && attempts <= N + CONCURRENCY - 1, `${attempts} attempts`);
  const down = rows.filter((row) => row.arm_id === "down");
  assert.ok(down.length >= 1 && down.length <= CONCURRENCY, `${down.length} rows of down`);
  for (const row of down) {
    assert.equal(row.status, "error");
    assert.equal(row.error_kind, "provider");
  }
  const notStarted = summary.not_started.filter((entry: { arm_id: string }) =>
    entry.arm_id === "down"
  );
  assert.equal(down.length + notStarted.length, 12);
  for (const entry of notStarted) assert.match(entry.reason, /circuit breaker is open/);
  const breaker = summary.breakers.find((b: { provider: string; base_url: string }) =>
    b.base_url === url
  );
  assert.equal(breaker.state, "open");
  assert.equal(breaker.threshold, N);
}

Deno.test("agent run: 503 on every call opens the breaker after 5 attempts; no new run starts; exit 4", async () => {
  const server = serveJson(() =>
    new Response(JSON.stringify({ error: { message: "overloaded" } }), { status: 503 })
  );
  try {
    const url = `${server.url}/v1`;
    const result = await downRun(url);
    checkTripped(result, url, server.requests.length);
    // The breaker's own count of attempts (one cut short may not have reached the server).
    const attempts = result.summary.breakers[0].attempts;
    assert.ok(attempts >= server.requests.length && attempts <= N + CONCURRENCY - 1);
  } finally {
    await server.close();
  }
});

Deno.test("agent run: a closed port opens the breaker the same way, and another endpoint goes on", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const healthy = openaiServer();
  try {
    const url = `http://127.0.0.1:${port}/v1`;
    const result = await downRun(url, healthy.url);
    // Connection attempts are not seen by any server: the breaker's own count says how many.
    const breaker = result.summary.breakers.find((b: { base_url: string }) => b.base_url === url);
    checkTripped(result, url, breaker.attempts);
    const up = result.rows.filter((row) => row.arm_id === "up");
    assert.equal(up.length, 12);
    assert.ok(up.every((row) => row.status === "ok"));
  } finally {
    await healthy.close();
  }
});

Deno.test("postJson() counts 5xx and connect failures, not 429 or 4xx, and resets on 2xx", async () => {
  let answers = [503, 429, 404, 200, 500, 500];
  const server = serveJson(() => {
    const status = answers.shift() ?? 500;
    return status === 200
      ? Response.json({ ok: true })
      : new Response("{}", { status, headers: { "retry-after": "0" } });
  });
  try {
    const breaker = new CircuitBreaker("openai", server.url, 2);
    const options = { retries: 0, breaker };
    await assert.rejects(postJson(server.url, {}, {}, options)); // 503
    await assert.rejects(postJson(server.url, {}, {}, options)); // 429
    await assert.rejects(postJson(server.url, {}, {}, options)); // 404
    assert.equal(breaker.state().consecutive_failures, 1);
    await postJson(server.url, {}, {}, options); // 200
    assert.equal(breaker.state().consecutive_failures, 0);
    // Retries count too: the second 500 opens it, and the request fails at once.
    const error = await postJson(server.url, {}, {}, { ...options, retries: 4, baseDelayMs: 1 })
      .catch((e) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, "breaker");
    assert.equal(breaker.isOpen(), true);
    const before = server.requests.length;
    await assert.rejects(postJson(server.url, {}, {}, options), /circuit breaker is open/);
    assert.equal(server.requests.length, before);
    answers = [];
  } finally {
    await server.close();
  }
});

Deno.test("postJson() ends a retry's wait when another request opens the breaker", async () => {
  const server = serveJson(() =>
    new Response("{}", { status: 503, headers: { "retry-after": "30" } })
  );
  try {
    const breaker = new CircuitBreaker("openai", server.url, 2);
    const started = performance.now();
    const waiting = postJson(server.url, {}, {}, { breaker, retries: 3 }).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await assert.rejects(postJson(server.url, {}, {}, { breaker, retries: 0 }));
    const error = await waiting;
    assert.equal(error.kind, "breaker");
    assert.ok(performance.now() - started < 5000);
  } finally {
    await server.close();
  }
});
