// Issue 30, end to end: every call a model sends is in the trace and no odd answer ends the
// matrix. Scripted loopback model servers (OpenAI, Anthropic, Gemini) send custom calls,
// nameless calls beside good ones, missing and null arguments, text beside calls, a refusal and
// a reply cut by the output-token limit, against the reference memory server from npm; every
// matrix completes with a row per run, and `inspect` and `eval` read every trace back.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { CONTRACTS, readRows, writeSpec } from "./_agent.ts";
import { type OddReply, scriptedModel, type Wire } from "./_odd_models.ts";

const ADA = {
  entities: [{ name: "Ada", entityType: "person", observations: ["mathematician"] }],
};

/** The cases, by model name: what the scripted model answers, turn by turn. */
const CASES: Record<string, OddReply[]> = {
  custom: [
    { calls: [{ kind: "custom", name: "read_graph", input: "everything" }], stop: "end" },
    { text: "The graph is empty.", calls: [], stop: "end" },
  ],
  nameless: [
    {
      calls: [{ kind: "nameless" }, { kind: "good", name: "create_entities", args: ADA }],
      stop: "end",
    },
    { text: "Stored Ada.", calls: [], stop: "end" },
  ],
  "unknown-type": [
    {
      calls: [{ kind: "unknown-type" }, { kind: "good", name: "read_graph", args: {} }],
      stop: "end",
    },
    { text: "Read the graph.", calls: [], stop: "end" },
  ],
  arguments: [
    {
      calls: [{ kind: "missing-args", name: "read_graph" }, {
        kind: "null-args",
        name: "read_graph",
      }],
      stop: "end",
    },
    { text: "Read it twice.", calls: [], stop: "end" },
  ],
  text: [
    {
      text: "Let me store that first.",
      calls: [{ kind: "good", name: "create_entities", args: ADA }],
      stop: "end",
    },
    { text: "Stored Ada.", calls: [], stop: "end" },
  ],
  refusal: [{ refusal: "I can't help with that.", calls: [], stop: "end" }],
  legacy: [
    {
      calls: [{ kind: "good", name: "create_entities", args: ADA }, {
        kind: "legacy",
        name: "read_graph",
        args: {},
      }],
      stop: "end",
    },
    { text: "Stored and read.", calls: [], stop: "end" },
  ],
  length: [
    { calls: [{ kind: "good", name: "create_entities", args: ADA }], stop: "end" },
    { text: "I have successfully stored Ada and", calls: [], stop: "length" },
  ],
};

/** Which cases each wire format can say (custom calls and refusals are Chat Completions'). */
const WIRE_CASES: Record<Wire, string[]> = {
  openai: Object.keys(CASES),
  anthropic: ["nameless", "arguments", "text", "length"],
  gemini: ["nameless", "arguments", "text", "length"],
};

type Json = Record<string, unknown>;

async function inspectJson(path: string): Promise<Json> {
  const run = await runCollect(["inspect", path, "--json"]);
  assert.equal(run.code, 0, `${path}: ${run.err}`);
  return (JSON.parse(run.out).traces as Json[])[0]!;
}

Deno.test("agent run with odd model answers over three wire formats and the memory server: a row per run, every call and turn in the trace", async () => {
  const bin = npmBin("mcp-server-memory");
  if (bin === undefined) return;
  const dir = await tempDir("agent_calls");
  const servers = {
    openai: scriptedModel("openai", (model) => CASES[model] ?? []),
    anthropic: scriptedModel("anthropic", (model) => CASES[model] ?? []),
    gemini: scriptedModel("gemini", (model) => CASES[model] ?? []),
  };
  try {
    const arms = (Object.keys(WIRE_CASES) as Wire[]).flatMap((wire) =>
      WIRE_CASES[wire].map((name) => ({
        id: `${wire}-${name}`,
        provider: wire,
        model: name,
        base_url: servers[wire].url,
      }))
    );
    const spec = await writeSpec(dir, {
      server: {
        command: [bin],
        env: { MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl" },
        timeout_s: 30,
      },
      arms,
      tasks: [{
        id: "remember",
        prompt: "Remember that Ada is a mathematician",
        contract: `${CONTRACTS}contract_memory.json`,
      }],
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--concurrency", "2"]);
    assert.equal(run.code, 0, run.err); // every run has a row with status ok
    const rows = await readRows(out);
    assert.equal(rows.length, arms.length);
    const byArm = new Map(rows.map((row) => [String(row.arm_id), row]));
    for (const arm of arms) {
      const row = byArm.get(arm.id)!;
      assert.equal(row.status, "ok", `${arm.id}: ${row.error}`);
      assert.equal(row.stop, arm.model === "length" ? "max_tokens" : "final_answer", arm.id);
    }

    // Every run's receipt verifies (it re-reads the trace), and compare reads the rows.
    const receipts = arms.map((arm) => `${dir}/runs/${arm.id}/remember-0.receipt.json`);
    const verify = await runCollect(["verify", ...receipts]);
    assert.equal(verify.code, 0, verify.out + verify.err);
    const compare = await runCollect(["compare", out, "--json"]);
    assert.equal(compare.code, 0, compare.err);

    const traces = new Map<string, Json>();
    for (const arm of arms) {
      const path = `${dir}/runs/${arm.id}/remember-0.json`;
      traces.set(arm.id, await inspectJson(path));
      // eval reads every trace agent run writes (0 pass, 1 fail; never 2, an input error).
      const evaluated = await runCollect(["eval", `${CONTRACTS}contract_memory.json`, path]);
      assert.ok(evaluated.code === 0 || evaluated.code === 1, `${arm.id}: ${evaluated.err}`);
    }
    // eval --json of a trace with a nameless call still validates against the result schema.
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse(await Deno.readTextFile("schemas/result.schema.json"));
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    const doc = await runCollect([
      "eval",
      `${CONTRACTS}contract_memory.json`,
      `${dir}/runs/gemini-nameless/remember-0.json`,
      "--json",
    ]);
    const result: { calls: { actual: Json[] } } = JSON.parse(doc.out);
    assert.ok(validate(result), JSON.stringify(validate.errors));
    assert.equal(result.calls.actual[0]!.tool, "");
    const nameOnly = { ...result.calls, actual: [{ tool: "" }] };
    assert.equal(validate({ ...result, calls: nameOnly }), false);
    const calls = (id: string) => traces.get(id)!.calls as Json[];
    const turns = (id: string) => (traces.get(id)!.metadata as Json).model_turns as Json[];

    // A custom call is a call of custom.name with {input}, answered by the memory server.
    assert.deepEqual(calls("openai-custom").map((c) => [c.tool, c.args]), [
      ["read_graph", { input: "everything" }],
    ]);
    assert.ok(calls("openai-custom")[0]!.result !== undefined);
    assert.equal((calls("openai-custom")[0]!.metadata as Json).call_type, "custom");

    for (const wire of ["openai", "anthropic", "gemini"]) {
      // A nameless call beside a good one: a failed call, and the good call made.
      const nameless = calls(`${wire}-nameless`);
      assert.equal(nameless.length, 2, wire);
      assert.equal(nameless[0]!.tool, "");
      assert.equal(nameless[0]!.malformed, "no-name");
      assert.equal(nameless[0]!.is_error, true);
      assert.equal(nameless[1]!.tool, "create_entities");
      assert.match(JSON.stringify(nameless[1]!.result), /Ada/);
      assert.equal(traces.get(`${wire}-nameless`)!.final_answer, "Stored Ada.");

      // Missing and null arguments are {}, noted, and the tool is called.
      const args = calls(`${wire}-arguments`);
      assert.deepEqual(args.map((c) => [c.tool, c.args, c.is_error]), [
        ["read_graph", {}, undefined],
        ["read_graph", {}, undefined],
      ], wire);
      for (const call of args) assert.match(String((call.metadata as Json).note), /read as \{\}/);

      // Text beside a call is kept with its turn's stop reason.
      const text = turns(`${wire}-text`);
      assert.equal(text.length, 2);
      assert.equal(text[0]!.text, "Let me store that first.");
      assert.equal(text[0]!.calls, 1);
      assert.equal(typeof text[0]!.stop_reason, "string");
      assert.equal(calls(`${wire}-text`)[0]!.tool, "create_entities");

      // A reply cut by the output-token limit: stop max_tokens, the answer marked truncated.
      const cut = traces.get(`${wire}-length`)!;
      assert.equal(cut.final_answer, "I have successfully stored Ada and");
      assert.equal(cut.final_answer_truncated, true);
      assert.match(
        String(turns(`${wire}-length`).at(-1)!.stop_reason).toLowerCase(),
        /^(length|max_tokens)$/,
      );
    }
    assert.deepEqual(
      turns("openai-length").map((t) => t.stop_reason),
      ["tool_calls", "length"],
    );

    // An unknown call type is a failed call beside the good one.
    assert.deepEqual(calls("openai-unknown-type").map((c) => [c.tool, c.malformed ?? null]), [
      ["x", "unknown-type"],
      ["read_graph", null],
    ]);

    // A legacy function_call is a call too, after the tool calls, answered by a function message.
    assert.deepEqual(calls("openai-legacy").map((c) => [c.tool, c.id]), [
      ["create_entities", "call_0_0"],
      ["read_graph", "function_call"],
    ]);
    assert.equal((calls("openai-legacy")[1]!.metadata as Json).call_type, "function_call");
    assert.ok(calls("openai-legacy")[1]!.result !== undefined);
    const functionMessages = servers.openai.requests.flatMap((r) =>
      (r.body.messages as Json[]).filter((m) => m.role === "function")
    );
    assert.deepEqual(functionMessages.map((m) => m.name), ["read_graph"]);

    // A refusal is the answer, and kept as the turn's refusal.
    assert.equal(traces.get("openai-refusal")!.final_answer, "I can't help with that.");
    assert.equal(turns("openai-refusal")[0]!.refusal, "I can't help with that.");

    // The model got each failed call's error as its tool result, as its wire format says.
    const openaiTool = servers.openai.requests.flatMap((r) =>
      (r.body.messages as Json[]).filter((m) => m.role === "tool")
    );
    assert.ok(openaiTool.some((m) => /^Error: the call was not made/.test(String(m.content))));
    const geminiText = servers.gemini.requests.flatMap((r) =>
      (r.body.contents as { role: string; parts: Json[] }[]).filter((c) => c.role === "user")
        .flatMap((c) => c.parts)
    );
    assert.ok(geminiText.some((p) => /^Error: the call was not made/.test(String(p.text))));
    const anthropicResults = servers.anthropic.requests.flatMap((r) =>
      (r.body.messages as { content: unknown }[]).flatMap((m) =>
        Array.isArray(m.content) ? m.content as Json[] : []
      )
    ).filter((b) => b.type === "tool_result" && b.is_error === true);
    assert.ok(anthropicResults.length > 0);

    // inspect (text) shows the text, the stop reasons and the truncation.
    const shown = await runCollect(["inspect", `${dir}/runs/anthropic-length/remember-0.json`]);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /turn 2 stop max_tokens/);
    assert.match(shown.out, /cut short/);
    const nameless = await runCollect(["inspect", `${dir}/runs/gemini-nameless/remember-0.json`]);
    assert.match(nameless.out, /\(no name\)/);
    assert.match(nameless.out, /malformed no-name/);
  } finally {
    for (const server of Object.values(servers)) await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval of a run cut by max_tokens: claimed-success and disclosure are unknown, not pass", async () => {
  const dir = await tempDir("agent_calls_cut");
  try {
    const trace = {
      format: "toolscore",
      calls: [{ tool: "create_entities", args: {}, result: "ok" }],
      final_answer: "I have successfully stored Ada and",
      final_answer_truncated: true,
    };
    const path = `${dir}/trace.json`;
    await Deno.writeTextFile(path, JSON.stringify(trace));
    const gold = `${dir}/gold.json`;
    await Deno.writeTextFile(gold, JSON.stringify([{ tool: "create_entities" }]));
    const states = async () => {
      const run = await runCollect(["eval", gold, path, "--json"]);
      assert.ok(run.code === 0 || run.code === 1, run.err);
      const checks = JSON.parse(run.out).evidence.checks as { check: string; status: string }[];
      return Object.fromEntries(checks.map((c) => [c.check, c.status]));
    };
    const cut = await states();
    assert.equal(cut["claimed-success"], "unknown");
    assert.equal(cut["disclosure"], "unknown");
    assert.equal(cut["call-errors"], "pass");
    // The same trace without the mark: both pass.
    await Deno.writeTextFile(path, JSON.stringify({ ...trace, final_answer_truncated: false }));
    const whole = await states();
    assert.equal(whole["claimed-success"], "pass");
    assert.equal(whole["disclosure"], "pass");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run keeps the call in flight when its server dies (failed) or hangs (unknown), with the server's last stderr lines", async () => {
  const dir = await tempDir("agent_calls_flight");
  const model = scriptedModel("openai", (name) =>
    name === "die"
      ? [
        { calls: [{ kind: "good", name: "remember", args: { fact: "Ada" } }], stop: "end" },
        { calls: [{ kind: "good", name: "die", args: {} }], stop: "end" },
      ]
      : [{ calls: [{ kind: "good", name: "hang", args: {} }], stop: "end" }]);
  try {
    const spec = await writeSpec(dir, {
      server: {
        command: [Deno.execPath(), "run", "--no-prompt", "testdata/mcp/dying_server.ts"],
        timeout_s: 10,
      },
      arms: [
        { id: "die", provider: "openai", model: "die", base_url: model.url },
        { id: "hang", provider: "openai", model: "hang", base_url: model.url },
      ],
      tasks: [{
        id: "remember",
        prompt: "Remember that Ada is a mathematician",
        contract: `${CONTRACTS}contract_memory.json`,
      }],
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out, "--concurrency", "2"]);
    assert.equal(run.code, 4, run.err); // error rows: the matrix is incomplete
    const rows = await readRows(out);
    assert.deepEqual(rows.map((r) => [r.arm_id, r.status]).sort(), [["die", "error"], [
      "hang",
      "error",
    ]]);

    const died = await inspectJson(`${dir}/runs/die/remember-0.json`);
    const [remembered, dying] = died.calls as Json[];
    assert.equal(remembered!.result, "remembered Ada");
    assert.equal(dying!.tool, "die");
    assert.equal(dying!.is_error, true);
    assert.match(String(dying!.error), /server failed during the call/);
    const stderr = (dying!.metadata as Json).server_stderr as string[];
    assert.ok(stderr.some((line) => line.includes("FATAL segmentation fault")), stderr.join("\n"));

    const hung = await inspectJson(`${dir}/runs/hang/remember-0.json`);
    const [waiting] = hung.calls as Json[];
    assert.equal(waiting!.tool, "hang");
    assert.equal(waiting!.error, undefined);
    assert.equal(waiting!.result, undefined);
    assert.match(String((waiting!.metadata as Json).in_flight), /outcome is unknown/);
    assert.ok(
      ((waiting!.metadata as Json).server_stderr as string[]).some((l) => l.includes("a lock")),
    );
    assert.equal((hung.summary as Json).unknown_outcome_count, 1);
    const shown = await runCollect(["inspect", `${dir}/runs/hang/remember-0.json`]);
    assert.match(shown.out, /in flight no answer: no answer to tools\/call hang within 10 s/);
    assert.match(shown.out, /server stderr .*waiting for a lock/);
    const shownDeath = await runCollect(["inspect", `${dir}/runs/die/remember-0.json`]);
    assert.match(shownDeath.out, /FAILED: the server failed during the call/);
    assert.match(shownDeath.out, /server stderr .*FATAL segmentation fault/);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});
