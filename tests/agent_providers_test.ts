// Anthropic Messages and Gemini generateContent beside OpenAI: one matrix over the three wire
// formats, their wire details, 429/529 then success, 500 forever, and no key written anywhere.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { anthropicServer, geminiServer, openaiServer } from "./_model_wire.ts";
import {
  checkReaders,
  CONTRACTS,
  fixtureServer,
  readRows,
  waitNoProcesses,
  writeSpec,
} from "./_agent.ts";
import { loadAgentSpec } from "../lib/spec/agent_spec.ts";
import { runMatrix } from "../lib/agent/run_matrix.ts";

const KEYS = {
  TS_OPENAI_KEY: "sk-openai-FAKE-111111111111",
  TS_ANTHROPIC_KEY: "sk-ant-FAKE-222222222222",
  TS_GEMINI_KEY: "AIzaFAKE-333333333333",
};
const PRICES = {
  "gpt-good": { input_per_mtok: 1, output_per_mtok: 4 },
  "claude-good": { input_per_mtok: 3, output_per_mtok: 15 },
  "gemini-good": { input_per_mtok: 0.3, output_per_mtok: 2.5 },
};

Deno.test("agent run over OpenAI, Anthropic and Gemini wire formats: 3 arms × 2 tasks × 2 repeats, no key written", async () => {
  const dir = await tempDir("agent_providers");
  const openai = openaiServer();
  const anthropic = anthropicServer();
  const gemini = geminiServer();
  const marker = `agent-providers-${crypto.randomUUID()}`;
  for (const [name, value] of Object.entries(KEYS)) Deno.env.set(name, value);
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer(marker),
      arms: [
        {
          id: "gpt",
          provider: "openai",
          model: "gpt-good",
          base_url: openai.url,
          api_key_env: "TS_OPENAI_KEY",
        },
        {
          id: "claude",
          provider: "anthropic",
          model: "claude-good",
          base_url: anthropic.url,
          api_key_env: "TS_ANTHROPIC_KEY",
          system: "You book flights.",
          temperature: 0.2,
        },
        {
          id: "gemini",
          provider: "gemini",
          model: "gemini-good",
          base_url: gemini.url,
          api_key_env: "TS_GEMINI_KEY",
          system: "You book flights.",
          temperature: 0,
          max_tokens: 512,
          seed: 11,
        },
      ],
      repeats: 2,
      prices: PRICES,
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--concurrency", "3", "--json"]);
    assert.equal(run.code, 0, run.err);
    const { rows, files } = await checkReaders(dir, out, {
      rows: 12,
      baseline: "gpt",
      candidate: "claude",
    });
    assert.ok(
      rows.every((r) => r.status === "ok" && r.outcome === "pass"),
      JSON.stringify(rows.map((r) => r.error)),
    );
    for (const row of rows) {
      const turns = row.task_id === "book" ? 3 : 2;
      assert.deepEqual(row.usage, { input_tokens: 100 * turns, output_tokens: 20 * turns });
    }

    // Anthropic: headers, tools with input_schema, tool_result blocks, the system prompt.
    const claude = anthropic.requests.filter((r) =>
      (r.body.messages as unknown[]).length === 3
    )[0]!;
    assert.equal(claude.headers.get("x-api-key"), KEYS.TS_ANTHROPIC_KEY);
    assert.equal(claude.headers.get("anthropic-version"), "2023-06-01");
    assert.equal(claude.body.system, "You book flights.");
    assert.equal(claude.body.temperature, 0.2);
    assert.equal(claude.body.max_tokens, 4096);
    const tool = (claude.body.tools as Record<string, unknown>[]).find((t) =>
      t.name === "book_flight"
    )!;
    assert.equal((tool.input_schema as Record<string, unknown>).type, "object");
    const weather = anthropic.requests.find((r) => {
      const messages = r.body.messages as { content: unknown }[];
      return String(messages[0]!.content).startsWith("Weather") && messages.length === 3;
    })!;
    const last = (weather.body.messages as { role: string; content: Record<string, unknown>[] }[])
      .at(-1)!;
    assert.deepEqual(last.content.map((b) => [b.type, b.tool_use_id]), [
      ["tool_result", "toolu_0_0"],
      ["tool_result", "toolu_0_1"],
    ]);

    // Gemini: the key header, the path, parametersJsonSchema, functionResponse with the call id,
    // the thought signature sent back, systemInstruction and generationConfig.
    const g = gemini.requests.find((r) => (r.body.contents as unknown[]).length === 3)!;
    assert.equal(g.headers.get("x-goog-api-key"), KEYS.TS_GEMINI_KEY);
    assert.deepEqual(g.body.systemInstruction, { parts: [{ text: "You book flights." }] });
    assert.deepEqual(g.body.generationConfig, { temperature: 0, maxOutputTokens: 512, seed: 11 });
    const declarations = (g.body.tools as { functionDeclarations: Record<string, unknown>[] }[])[0]!
      .functionDeclarations;
    assert.ok(declarations.every((d) => typeof d.parametersJsonSchema === "object"));
    const contents = g.body.contents as { role: string; parts: Record<string, unknown>[] }[];
    assert.equal(contents[1]!.role, "model");
    assert.equal(contents[1]!.parts[0]!.thoughtSignature, "c2lnbmF0dXJl");
    assert.equal((contents[2]!.parts[0]!.functionResponse as Record<string, unknown>).id, "fc_0_0");

    // The keys: each reached its own server, and appear in no file and no output.
    assert.equal(openai.requests[0]!.headers.get("authorization"), `Bearer ${KEYS.TS_OPENAI_KEY}`);
    for (const file of [out, ...files]) {
      const text = await Deno.readTextFile(file);
      for (const key of Object.values(KEYS)) assert.ok(!text.includes(key), `${key} in ${file}`);
    }
    for (const key of Object.values(KEYS)) {
      assert.ok(!run.out.includes(key) && !run.err.includes(key));
    }
    assert.deepEqual(await waitNoProcesses(marker), []);
  } finally {
    for (const name of Object.keys(KEYS)) Deno.env.delete(name);
    await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
    await Deno.remove(dir, { recursive: true });
  }
});

for (
  const [provider, start, busy] of [
    ["anthropic", anthropicServer, "overloaded"],
    ["anthropic", anthropicServer, "flaky-429"],
    ["gemini", geminiServer, "flaky-429"],
  ] as const
) {
  Deno.test(`agent run (${provider}) retries ${busy === "overloaded" ? "a 529" : "a 429"} then succeeds, and 500 forever is an error row without the key`, async () => {
    const dir = await tempDir(`agent_${provider}_retry`);
    const server = start();
    const key = `key-${provider}-FAKE-${crypto.randomUUID()}`;
    try {
      const path = await writeSpec(dir, {
        server: fixtureServer(`agent-${provider}-retry`),
        arms: [
          { id: "busy", provider, model: busy, base_url: server.url, api_key_env: "K" },
          { id: "down", provider, model: "down", base_url: server.url, api_key_env: "K" },
        ],
        tasks: [{
          id: "weather",
          prompt: "Weather in Paris, and add 2 and 3",
          contract: `${CONTRACTS}contract_weather.json`,
        }],
      });
      const out = `${dir}/runs.jsonl`;
      const summary = await runMatrix({
        spec: await loadAgentSpec(path),
        output: out,
        readEnv: (name) => name === "K" ? key : undefined,
        http: { retries: 2, baseDelayMs: 1 },
      });
      assert.equal(summary.errors, 1);
      const [busyRow, downRow] = await readRows(out);
      assert.deepEqual([busyRow!.arm_id, busyRow!.status, busyRow!.outcome], [
        "busy",
        "ok",
        "pass",
      ]);
      // Two turns, each refused once and then answered: four requests.
      const busyRequests = server.requests.filter((r) =>
        r.body.model === busy || r.path.includes(busy)
      );
      assert.equal(busyRequests.length, 4);
      assert.ok(busyRequests[1]!.at - busyRequests[0]!.at >= 950); // Retry-After: 1
      assert.deepEqual([downRow!.arm_id, downRow!.status, downRow!.outcome], [
        "down",
        "error",
        "error",
      ]);
      assert.match(
        String(downRow!.error),
        /HTTP 500: .*upstream failed for credential \*\*\*.*gave up after 3 attempts/,
      );
      for (const file of [out, `${dir}/runs/down/weather-0.json`]) {
        assert.ok(!(await Deno.readTextFile(file)).includes(key));
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
