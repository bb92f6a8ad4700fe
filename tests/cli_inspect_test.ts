import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";

const run = (args: string[], stdin = "") => runCollect(args, stdin);

Deno.test("toolscore inspect prints the format, calls with outcomes and the final answer", async () => {
  const { code, out, err } = await run(["inspect", "testdata/formats/openai/failed_call.json"]);
  assert.equal(code, 0, err);
  assert.match(out, /^testdata\/formats\/openai\/failed_call\.json\n/);
  assert.match(out, /format openai {3}model gpt-4o-2024-08-06 {3}usage unknown/);
  assert.match(
    out,
    /1 call: 1 failed, 0 without a captured outcome; duration unknown, cost unknown/,
  );
  assert.match(out, /1\. get_weather \{"city":"Atlantis","unit":"celsius"\}/);
  assert.match(
    out,
    /outcome FAILED: city not found: Atlantis {3}duration unknown {3}cost unknown {3}id call_Vx1mN8qZr2/,
  );
  assert.match(out, /final answer "I couldn't find weather data for Atlantis/);
});

Deno.test("toolscore inspect shows durations, costs, unknown outcomes and bad arguments", async () => {
  const mcp = await run(["inspect", "testdata/formats/mcp/parallel_multiturn.jsonl"]);
  assert.equal(mcp.code, 0, mcp.err);
  assert.match(mcp.out, /format mcp/);
  assert.match(
    mcp.out,
    /3 calls: 1 failed, 0 without a captured outcome; duration 0\.56 s over 2 of 3 calls/,
  );
  assert.match(mcp.out, /outcome FAILED: cancelled: user aborted/);
  assert.match(mcp.out, /final answer unknown/);
  const custom = await run(["inspect", "testdata/formats/custom/failed_call.json"]);
  assert.match(custom.out, /duration 1\.59 s, cost \$0\.0004/);
  const completion = await run(["inspect", "testdata/formats/openai/completion.json"]);
  assert.match(completion.out, /arguments did not parse \(.+\) raw "\{\\"query\\": \\"deno test"/);
  assert.match(completion.out, /outcome unknown \(not captured\)/);
});

Deno.test("toolscore inspect --format overrides detection and rejects a wrong one", async () => {
  const ok = await run([
    "inspect",
    "testdata/formats/anthropic/message.json",
    "--format",
    "anthropic",
  ]);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /format anthropic/);
  const wrong = await run([
    "inspect",
    "testdata/formats/anthropic/message.json",
    "--format",
    "gemini",
  ]);
  assert.equal(wrong.code, 2);
  assert.match(
    wrong.err,
    /^toolscore: testdata\/formats\/anthropic\/message\.json: not a Gemini transcript/,
  );
  const unknown = await run(["inspect", "x.json", "--format", "gpt"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown format gpt/);
});

Deno.test("toolscore inspect --json prints one JSON document with nulls for unknowns", async () => {
  const { code, out } = await run(["inspect", "testdata/formats/mcp/failed_call.json", "--json"]);
  assert.equal(code, 0);
  const doc = JSON.parse(out);
  assert.equal(doc.traces.length, 1);
  const trace = doc.traces[0];
  assert.equal(trace.source, "testdata/formats/mcp/failed_call.json");
  assert.equal(trace.format, "mcp");
  assert.equal(trace.model, null);
  assert.equal(trace.final_answer, null);
  assert.deepEqual(trace.calls[1], {
    tool: "write_file",
    args: { path: "/tmp/out.txt" },
    id: "3",
    error: "Invalid params: missing required argument 'content'",
    is_error: true,
    duration_s: 0.002,
    metadata: { error_code: -32602 },
  });
  assert.deepEqual(trace.summary, {
    call_count: 3,
    failed_count: 2,
    unknown_outcome_count: 0,
    total_duration_s: 0.022,
    calls_with_duration: 3,
    total_cost_usd: null,
    calls_with_cost: 0,
  });
});

Deno.test("toolscore inspect reads stdin and every trace of a JSONL file", async () => {
  const stdin = await Deno.readTextFile("testdata/formats_invalid/two_traces.jsonl");
  const { code, out, err } = await run(["inspect", "-", "--json"], stdin);
  assert.equal(code, 0, err);
  const doc = JSON.parse(out);
  assert.deepEqual(doc.traces.map((t: { calls: { tool: string }[] }) => t.calls[0]?.tool), [
    "a",
    "b",
  ]);
});

Deno.test("toolscore inspect fails in one line on an unknown shape, a truncated file and a bad JSONL line", async () => {
  const dir = "testdata/formats_invalid";
  for (
    const [file, pattern] of [
      [
        "unknown_shape.json",
        /unknown_shape\.json: not a trace in any known format \(saw an object with keys runs/,
      ],
      ["truncated.json", /truncated\.json:\d+:\d+: invalid JSON/],
      ["bad_line.jsonl", /bad_line\.jsonl:4:\d+: invalid JSON .*on this line/],
    ] as const
  ) {
    const { code, out, err } = await run(["inspect", `${dir}/${file}`]);
    assert.equal(code, 2, file);
    assert.equal(out, "");
    assert.match(err, pattern);
    assert.equal(err.trim().split("\n").length, 1, err);
  }
  const missing = await run(["inspect"]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /inspect needs at least one TRACE/);
});

Deno.test("toolscore inspect --help shows examples", async () => {
  const { code, out } = await run(["inspect", "--help"]);
  assert.equal(code, 0);
  assert.match(out, /Examples:\n {2}toolscore inspect trace\.json/);
});
