// The pure parts of agent run: provider tool names, backoff and Retry-After, shards, run ids,
// key redaction, and reading a Chat Completions answer.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  providerToolNames,
  toolNameProblems,
  type ToolNameProvider,
} from "../lib/mcp/tool_names.ts";
import { backoffMs, retryAfterMs } from "../lib/agent/http.ts";
import { parseShard, planRuns } from "../lib/agent/plan.ts";
import { readArmKeys, Redactor } from "../lib/agent/keys.ts";
import { readChatCompletion } from "../lib/agent/openai.ts";
import { agentSpecFromJson } from "../lib/spec/agent_spec.ts";
import { armNeedsKey } from "../lib/spec/arm_keys.ts";

const PROVIDERS: ToolNameProvider[] = ["openai", "anthropic", "gemini"];

Deno.test("toolNameProblems() names each provider's rule a name breaks", () => {
  assert.deepEqual(toolNameProblems("get_weather"), []);
  assert.deepEqual(toolNameProblems("files.read").map((p) => p.provider), ["openai", "anthropic"]);
  assert.match(toolNameProblems("files.read")[0]!.problem, /"\."/);
  assert.deepEqual(toolNameProblems("9lives").map((p) => p.provider), ["gemini"]);
  assert.match(toolNameProblems("x".repeat(65))[0]!.problem, /65 characters/);
  assert.equal(toolNameProblems("").length, 3);
});

Deno.test("providerToolNames() is injective, deterministic, valid, and leaves valid names alone", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(
        fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom("a.b", "a_b", "a/b", "a b")),
        {
          maxLength: 12,
        },
      ),
      fc.constantFrom(...PROVIDERS),
      (names, provider) => {
        const mapped = providerToolNames(names, provider);
        const values = [...mapped.values()];
        assert.equal(new Set(values).size, names.length);
        for (const [name, safe] of mapped) {
          assert.deepEqual(toolNameProblems(safe).filter((p) => p.provider === provider), []);
          if (toolNameProblems(name).every((p) => p.provider !== provider)) {
            assert.equal(safe, name);
          }
        }
        assert.deepEqual(
          [...providerToolNames([...names].reverse(), provider)].sort(),
          [...mapped].sort(),
        );
      },
    ),
  );
  const names = providerToolNames(["a.b", "a_b", "a/b"], "openai");
  assert.equal(names.get("a_b"), "a_b");
  assert.match(names.get("a.b")!, /^a_b_[0-9a-z]+$/);
  assert.equal(providerToolNames(["a.b"], "gemini").get("a.b"), "a.b");
});

Deno.test("retryAfterMs() reads seconds and dates; backoffMs() caps and jitters", () => {
  assert.equal(retryAfterMs("0"), 0);
  assert.equal(retryAfterMs("1.5"), 1500);
  assert.equal(retryAfterMs(null), undefined);
  assert.equal(retryAfterMs("Thu, 01 Jan 1970 00:00:00 GMT", 5000), 0);
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.double({ min: 0, max: 0.999, noNaN: true }),
      (n, r) => {
        const wait = backoffMs(n, undefined, 500, 30_000, () => r);
        assert.ok(wait >= 0 && wait <= Math.min(30_000, 500 * 2 ** (n - 1)));
      },
    ),
  );
  assert.equal(backoffMs(2, 1200, 500, 30_000, () => 0), 1200);
});

Deno.test("planRuns() shards partition the matrix, and run ids do not depend on the shard", () => {
  const spec = agentSpecFromJson({
    spec_version: 1,
    server: { command: ["srv"] },
    arms: [{ id: "z", provider: "openai", model: "m" }, {
      id: "a",
      provider: "anthropic",
      model: "m",
    }],
    tasks: [{ id: "t2", prompt: "p", contract: "c.json" }, {
      id: "t1",
      prompt: "p",
      contract: "c.json",
    }],
    repeats: 3,
  });
  const all = planRuns(spec);
  // Cell by cell (repeat, then task by id), the two arms in turn going first.
  const cells = all.slice(0, 4).map((r) => `${r.task.id}/${r.repeat}`);
  assert.deepEqual(cells, ["t1/0", "t1/0", "t2/0", "t2/0"]);
  const arms = all.slice(0, 4).map((r) => r.arm.id);
  assert.deepEqual([arms[0], arms[1]], [arms[3], arms[2]]);
  assert.deepEqual(new Set(arms.slice(0, 2)), new Set(["a", "z"]));
  fc.assert(fc.property(fc.integer({ min: 1, max: 15 }), (n) => {
    const shards = Array.from({ length: n }, (_, i) => planRuns(spec, { k: i + 1, n }));
    const ids = shards.flat().map((r) => r.runId).sort();
    assert.deepEqual(ids, all.map((r) => r.runId).sort());
  }));
  assert.match(all[0]!.runId, /^a\.t1\.0\.[0-9a-f]{12}$/);
  assert.throws(() => parseShard("1/0"), /--shard 1\/0/);
  assert.throws(() => parseShard("a/b"), /expected k\/n/);
});

Deno.test("Redactor hides every key, longest first; readArmKeys() needs a key unless loopback", () => {
  const redactor = new Redactor(["abcd1234", "abcd1234-long", "ab"]);
  assert.equal(redactor.text("x abcd1234-long y abcd1234 ab"), "x *** y *** ab");
  const spec = agentSpecFromJson({
    spec_version: 1,
    server: { command: ["srv"] },
    arms: [
      { id: "local", provider: "openai", model: "m", base_url: "http://127.0.0.1:1/v1" },
      {
        id: "named",
        provider: "gemini",
        model: "m",
        base_url: "http://localhost:1",
        api_key_env: "MY_KEY",
      },
    ],
    tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
  });
  assert.equal(armNeedsKey(spec.arms[0]!), false);
  assert.equal(armNeedsKey(spec.arms[1]!), true);
  assert.throws(
    () => readArmKeys(spec, () => undefined),
    /arm named needs its API key: MY_KEY is not set/,
  );
  const keys = readArmKeys(spec, (name) => name === "MY_KEY" ? "gm-secret-1" : undefined);
  assert.equal(keys.byArm.get("named"), "gm-secret-1");
  assert.equal(keys.byArm.has("local"), false);
});

Deno.test("readChatCompletion() keeps bad arguments raw and says when the answer has no message", () => {
  const { reply } = readChatCompletion({
    choices: [{
      message: {
        role: "assistant",
        content: "thinking",
        tool_calls: [
          { id: "1", function: { name: "a", arguments: "[1]" } },
          { function: { name: "b", arguments: "" } },
        ],
      },
    }],
  }, "h");
  assert.equal(reply.text, "thinking");
  assert.deepEqual(reply.calls[0], {
    id: "1",
    name: "a",
    args: null,
    rawArgs: "[1]",
    argsError: "arguments are an array of 1, not an object",
  });
  assert.deepEqual(reply.calls[1], { id: "call_1", name: "b", args: {} });
  assert.deepEqual(reply.usage, { inputTokens: null, outputTokens: null });
  assert.throws(
    () => readChatCompletion({ error: "x" }, "h"),
    /h answered without choices\[0\]\.message/,
  );
});

Deno.test("agentSpecFromJson() reads api_key_env, seed and provider gemini, and names a bad one", () => {
  const base = {
    spec_version: 1,
    server: { command: ["srv"] },
    tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
  };
  const spec = agentSpecFromJson({
    ...base,
    arms: [{
      id: "g",
      provider: "gemini",
      model: "gemini-2.5-flash",
      api_key_env: "G_KEY",
      seed: 3,
    }],
  });
  assert.deepEqual(spec.arms[0], {
    id: "g",
    provider: "gemini",
    model: "gemini-2.5-flash",
    apiKeyEnv: "G_KEY",
    seed: 3,
  });
  assert.match(spec.sha256, /^[0-9a-f]{64}$/);
  assert.throws(
    () =>
      agentSpecFromJson({
        ...base,
        arms: [{ id: "g", provider: "openai", model: "m", api_key_env: "has space" }],
      }),
    /arms\[0\]\.api_key_env: must match pattern/,
  );
  assert.throws(
    () =>
      agentSpecFromJson({
        ...base,
        arms: [{ id: "g", provider: "openai", model: "m", seed: 1.5 }],
      }),
    /arms\[0\]\.seed: must be integer/,
  );
});

Deno.test("postJson() times out each request and retries network errors before it gives up", async () => {
  const { postJson, ProviderError } = await import("../lib/agent/http.ts");
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return Response.json({});
  });
  try {
    const retries: string[] = [];
    const slow = await postJson(`http://127.0.0.1:${server.addr.port}/x`, {}, {}, {
      timeoutMs: 100,
      retries: 1,
      baseDelayMs: 1,
      onRetry: (_attempt, _wait, reason) => retries.push(reason),
    }).catch((error) => error);
    assert.ok(slow instanceof ProviderError);
    assert.equal(slow.kind, "timeout");
    assert.match(
      slow.message,
      /no answer from http:\/\/127\.0\.0\.1:\d+\/x within 0\.1 s \(gave up after 2 attempts\)/,
    );
    assert.equal(retries.length, 1);
  } finally {
    await server.shutdown();
  }
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const refused = await postJson(`http://127.0.0.1:${port}/v1`, {}, {}, {
    retries: 2,
    baseDelayMs: 1,
  })
    .catch((error) => error);
  assert.equal(refused.kind, "network");
  assert.match(
    refused.message,
    /cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: .*gave up after 3 attempts/,
  );
});

Deno.test("agent run draws a progress line on a terminal: runs done, passed, errors, spend, ETA", async () => {
  const { runCli } = await import("../lib/cli/run.ts");
  const { openaiServer } = await import("./_model_wire.ts");
  const { tempDir } = await import("./_mcp.ts");
  const { fixtureServer, writeSpec, CONTRACTS } = await import("./_agent.ts");
  const dir = await tempDir("agent_progress");
  const model = openaiServer();
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("agent-progress"),
      arms: [{ id: "a", provider: "openai", model: "gpt-good", base_url: model.url }],
      tasks: [{
        id: "weather",
        prompt: "Weather in Paris, and add 2 and 3",
        contract: `${CONTRACTS}contract_weather.json`,
      }],
      repeats: 2,
      prices: { "gpt-good": { input_per_mtok: 1, output_per_mtok: 4 } },
    });
    let err = "";
    const code = await runCli(["agent", "run", spec, "-o", `${dir}/runs.jsonl`], {
      stdout: () => {},
      stderr: (text) => void (err += text),
      color: false,
      progress: true,
      stdin: () => Promise.resolve(""),
    });
    assert.equal(code, 0, err);
    const clear = "\r\x1b[2K";
    assert.ok(
      err.includes(`${clear}agent run: 1/2 runs, 1 passed, 0 error(s), $0.00036 spent, ETA `),
      err,
    );
    assert.ok(
      err.includes(
        `${clear}agent run: 2/2 runs, 2 passed, 0 error(s), $0.00072 spent, ETA 0s${clear}`,
      ),
    );
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the doctor's keys check asks for each arm's key variable, except a loopback arm's default", async () => {
  const { runDoctor } = await import("../lib/doctor/run_doctor.ts");
  const { tempDir } = await import("./_mcp.ts");
  const dir = await tempDir("agent_doctor_keys");
  try {
    const spec = `${dir}/agent.json`;
    await Deno.writeTextFile(
      spec,
      JSON.stringify({
        spec_version: 1,
        server: { command: ["srv"] },
        arms: [
          { id: "local", provider: "openai", model: "m", base_url: "http://127.0.0.1:1/v1" },
          {
            id: "g",
            provider: "gemini",
            model: "gemini-2.5-flash",
            api_key_env: "TS_UNSET_GEMINI_KEY",
          },
          { id: "c", provider: "anthropic", model: "claude-sonnet-4-5" },
        ],
        tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
      }),
    );
    const checks = await runDoctor({ specPath: spec, startServer: false });
    const keys = checks.find((c) => c.name === "keys")!;
    assert.equal(keys.status, "fail");
    assert.match(keys.detail, /TS_UNSET_GEMINI_KEY/);
    assert.match(keys.detail, /ANTHROPIC_API_KEY/);
    assert.doesNotMatch(keys.detail, /OPENAI_API_KEY/);
    assert.equal(checks.find((c) => c.name === "spec")!.status, "pass");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
