// The OpenAI-compatible provider and the run loop against real MCP servers: tool errors back to
// the model as errors, renamed tool names mapped back, max_turns, timeout_s, a server that
// crashes, 429 with Retry-After, a malformed body, 500 forever, and the key never written.
import assert from "node:assert/strict";
import { tempDir } from "./_mcp.ts";
import { openaiServer, serveJson } from "./_model_wire.ts";
import {
  CONTRACTS,
  filesUnder,
  fixtureServer,
  httpFixture,
  readRows,
  waitNoProcesses,
  writeSpec,
} from "./_agent.ts";
import { loadAgentSpec } from "../lib/spec/agent_spec.ts";
import { runMatrix, type RunMatrixOptions } from "../lib/agent/run_matrix.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const WEATHER = {
  id: "weather",
  prompt: "Weather in Paris, and add 2 and 3",
  contract: `${CONTRACTS}contract_weather.json`,
};

type Reply = { text: string } | { calls: { name: string; arguments: string }[] };

// An OpenAI wire server that answers each request with the next scripted reply.
function scripted(replies: Reply[], options: { delayMs?: number } = {}) {
  let turn = 0;
  return serveJson(() => {
    const reply = replies[Math.min(turn, replies.length - 1)]!;
    turn++;
    const message = "text" in reply ? { role: "assistant", content: reply.text } : {
      role: "assistant",
      content: null,
      tool_calls: reply.calls.map((call, i) => ({
        id: `call_${turn}_${i}`,
        type: "function",
        function: call,
      })),
    };
    return Response.json({
      model: "m",
      choices: [{ message, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
  }, options);
}

async function runOne(
  dir: string,
  server: Record<string, unknown>,
  url: string,
  extra: Record<string, unknown> = {},
  options: Partial<RunMatrixOptions> = {},
) {
  const path = await writeSpec(dir, {
    server,
    arms: [{ id: "a", provider: "openai", model: "m", base_url: url }],
    tasks: [WEATHER],
    ...extra,
  });
  const out = `${dir}/runs.jsonl`;
  const summary = await runMatrix({
    spec: await loadAgentSpec(path),
    output: out,
    readEnv: () => undefined,
    http: { retries: 1, baseDelayMs: 1 },
    ...options,
  });
  const rows = await readRows(out);
  const trace = JSON.parse(await Deno.readTextFile(`${dir}/runs/a/weather-0.json`));
  return { summary, row: rows[0]!, trace };
}

Deno.test("agent run returns tool errors to the model as errors and keeps the server", async () => {
  const dir = await tempDir("agent_tool_errors");
  const model = scripted([
    {
      calls: [
        { name: "book_flight", arguments: JSON.stringify({ flight_id: "XX" }) },
        { name: "no_such_tool", arguments: "{}" },
        { name: "add", arguments: "{not json" },
        { name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) },
      ],
    },
    { text: "Three calls failed; it is sunny in Paris." },
  ]);
  const marker = `agent-errors-${crypto.randomUUID()}`;
  try {
    const { row, trace } = await runOne(dir, fixtureServer(marker), model.url);
    assert.equal(row.status, "ok");
    const calls = trace.calls as Record<string, unknown>[];
    assert.deepEqual(calls.map((c) => [c.tool, c.is_error ?? false]), [
      ["book_flight", true],
      ["no_such_tool", true],
      ["add", true],
      ["get_weather", false],
    ]);
    assert.match(String(calls[0]!.error), /Invalid arguments|validation/i);
    assert.match(String(calls[1]!.error), /no_such_tool not found/);
    assert.equal(calls[2]!.raw_args, "{not json");
    assert.match(String(calls[2]!.error), /not a JSON object/);
    assert.equal(calls[3]!.result, "sunny in Paris");
    // The second request carries the four results, in the provider's order, errors marked.
    const messages = model.requests[1]!.body.messages as Record<string, unknown>[];
    const tools = messages.filter((m) => m.role === "tool");
    assert.deepEqual(tools.map((m) => m.tool_call_id), [
      "call_1_0",
      "call_1_1",
      "call_1_2",
      "call_1_3",
    ]);
    assert.deepEqual(tools.map((m) => String(m.content).startsWith("Error: ")), [
      true,
      true,
      true,
      false,
    ]);
    assert.deepEqual(await waitNoProcesses(marker), []);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run maps refused tool names and back, and returns a JSON-RPC error as a tool error", async () => {
  const dir = await tempDir("agent_names");
  const mcp = await httpFixture({ rpcErrorTool: "get_weather" });
  const model = scripted([
    {
      calls: [{ name: "weather_now", arguments: "{}" }, {
        name: "get_weather",
        arguments: '{"city":"Paris"}',
      }],
    },
    { calls: [{ name: "add", arguments: '{"a":2,"b":3}' }] },
    { text: "Rain; the weather service failed; 5." },
  ]);
  try {
    const { row, trace } = await runOne(dir, { url: mcp.url }, model.url);
    assert.equal(row.status, "ok");
    const names = ((model.requests[0]!.body.tools ?? []) as { function: { name: string } }[])
      .map((t) => t.function.name);
    assert.ok(names.includes("weather_now") && !names.includes("weather.now"));
    assert.deepEqual(trace.renamed_tools, { "weather.now": "weather_now" });
    const calls = trace.calls as Record<string, unknown>[];
    assert.deepEqual(calls.map((c) => c.tool), ["weather.now", "get_weather", "add"]);
    assert.equal(calls[0]!.result, "rain");
    assert.equal(calls[1]!.is_error, true);
    assert.match(String(calls[1]!.error), /JSON-RPC error -32603: .*database is down/);
    assert.equal(calls[2]!.result, "5"); // the session survived the error
  } finally {
    await model.close();
    await mcp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run stops at max_turns (scored, no final answer) and at timeout_s (an error row)", async () => {
  const dir = await tempDir("agent_limits");
  const loop = scripted([{ calls: [{ name: "add", arguments: '{"a":2,"b":3}' }] }]);
  try {
    const { row, trace } = await runOne(dir, fixtureServer("agent-limits"), loop.url, {
      max_turns: 3,
    });
    assert.deepEqual([row.status, row.stop, row.turns], ["ok", "max_turns", 3]);
    assert.equal(trace.calls.length, 3);
    assert.equal(trace.final_answer, undefined);
    assert.equal(row.outcome, "fail"); // get_weather was never called
  } finally {
    await loop.close();
    await Deno.remove(dir, { recursive: true });
  }
  const dir2 = await tempDir("agent_timeout");
  const slow = scripted([{ text: "late" }], { delayMs: 4000 });
  try {
    const started = performance.now();
    const { row } = await runOne(dir2, fixtureServer("agent-timeout"), slow.url, { timeout_s: 1 });
    assert.ok(performance.now() - started < 3500);
    assert.deepEqual([row.status, row.outcome, row.passed], ["error", "error", null]);
    assert.equal(row.error, "the run passed timeout_s (1 s)");
  } finally {
    await slow.close();
    await Deno.remove(dir2, { recursive: true });
  }
});

Deno.test("agent run: a server that crashes on start is an error row with its stderr", async () => {
  const dir = await tempDir("agent_crash");
  const model = scripted([{ text: "never asked" }]);
  try {
    const { row, summary } = await runOne(
      dir,
      {
        ...fixtureServer("agent-crash"),
        command: [...(fixtureServer("x").command as string[]), "--crash-on-start"],
      },
      model.url,
    );
    assert.equal(summary.errors, 1);
    assert.equal(row.status, "error");
    assert.match(
      String(row.error),
      /exited with code 3 during initialize.*FATAL missing FIXTURE_DB_URL/,
    );
    assert.equal(model.requests.length, 0);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run retries a 429 after its Retry-After, and a malformed body is an error row", async () => {
  const dir = await tempDir("agent_429");
  const model = openaiServer();
  try {
    const { row } = await runOne(dir, fixtureServer("agent-429"), model.url, {
      arms: [{ id: "a", provider: "openai", model: "flaky-429", base_url: model.url }],
    }, { http: { retries: 2, baseDelayMs: 1 } });
    assert.deepEqual([row.status, row.outcome], ["ok", "pass"]);
    // Two turns, each refused once: four requests, each retry a second after the refusal.
    assert.equal(model.requests.length, 4);
    assert.ok(model.requests[1]!.at - model.requests[0]!.at >= 950);
    assert.ok(model.requests[3]!.at - model.requests[2]!.at >= 950);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
  const dir2 = await tempDir("agent_garbled");
  const garbled = openaiServer();
  try {
    const { row } = await runOne(dir2, fixtureServer("agent-garbled"), garbled.url, {
      arms: [{ id: "a", provider: "openai", model: "garbled", base_url: garbled.url }],
    });
    assert.equal(row.status, "error");
    assert.match(String(row.error), /answered 200 with a body that is not JSON: <html>not json/);
  } finally {
    await garbled.close();
    await Deno.remove(dir2, { recursive: true });
  }
});

Deno.test("agent run with a provider that is down: error rows, exit 4, and the key in no output or file", async () => {
  const dir = await tempDir("agent_down");
  const model = openaiServer();
  const key = "sk-live-FAKE-0123456789abcdef";
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("agent-down"),
      arms: [{
        id: "a",
        provider: "openai",
        model: "down",
        base_url: model.url,
        api_key_env: "TOOLSCORE_TEST_KEY",
      }],
      tasks: [WEATHER],
    });
    const out = `${dir}/runs.jsonl`;
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "agent", "run", spec, "-o", out, "--json"],
      env: { NO_COLOR: "1", TOOLSCORE_TEST_KEY: key },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(child.stdout);
    const stderr = new TextDecoder().decode(child.stderr);
    assert.equal(child.code, 4, stderr);
    assert.deepEqual(JSON.parse(stdout).errors, 1);
    const [row] = await readRows(out);
    assert.match(String(row!.error), /HTTP 500: .*upstream failed for credential Bearer \*\*\*/);
    // The server did get the key; it went nowhere else.
    assert.equal(model.requests[0]!.headers.get("authorization"), `Bearer ${key}`);
    assert.ok(!stdout.includes(key) && !stderr.includes(key));
    for (const file of [out, ...await filesUnder(`${dir}/runs`)]) {
      assert.ok(!(await Deno.readTextFile(file)).includes(key), file);
    }
    // Without the key the arm does not start at all: a usage error naming the variable.
    const missing = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "agent", "run", spec, "-o", `${dir}/other.jsonl`],
      env: { NO_COLOR: "1" },
      stderr: "piped",
    }).output();
    assert.equal(missing.code, 2);
    assert.match(
      new TextDecoder().decode(missing.stderr),
      /arm a needs its API key: TOOLSCORE_TEST_KEY is not set/,
    );
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});
