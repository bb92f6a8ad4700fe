import assert from "node:assert/strict";
import fc from "fast-check";
import { InputError, type ToolCall } from "../mod.ts";
import { detectFormat, readTrace } from "../lib/formats/detect.ts";
import { parseFormatName, traceFromValue, tracesFromText } from "../lib/formats/detect.ts";
import { traceToJson } from "../lib/formats/toolscore.ts";
import { callToJson } from "../lib/scoring/calls.ts";

const INVALID = "testdata/formats_invalid";

async function rejects(input: unknown, pattern: RegExp): Promise<InputError> {
  try {
    const trace = await readTrace(input);
    assert.fail(`expected an error, read ${trace.calls.length} calls as ${trace.format}`);
  } catch (error) {
    assert.ok(error instanceof InputError, String(error));
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes("\n"), `not one line: ${error.message}`);
    return error;
  }
}

Deno.test("traceFromValue() reads the calls of a chat list that starts with a user message", () => {
  const trace = traceFromValue([
    { role: "user", content: "weather in Oslo?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "weather", arguments: '{"city":"Oslo"}' },
      }],
    },
    { role: "tool", tool_call_id: "c1", content: "4C" },
    { role: "assistant", content: "It is 4C in Oslo." },
  ]);
  assert.equal(trace.format, "openai");
  assert.deepEqual(trace.calls, [{
    tool: "weather",
    args: { city: "Oslo" },
    id: "c1",
    result: "4C",
  }]);
  assert.equal(trace.finalAnswer, "It is 4C in Oslo.");
});

Deno.test("traceFromValue() reads a chat list that starts with a system message", () => {
  const trace = traceFromValue({
    messages: [
      { role: "system", content: "be brief" },
      { role: "developer", content: "use tools" },
      { role: "user", content: "x" },
      {
        role: "assistant",
        tool_calls: [{ id: "a", type: "function", function: { name: "t", arguments: "{}" } }],
      },
    ],
  });
  assert.deepEqual(trace.calls.map((c) => c.tool), ["t"]);
  assert.equal(trace.finalAnswer, undefined);
});

Deno.test("openai: two parallel tool_calls get their results by tool_call_id, not by order", () => {
  const trace = traceFromValue([
    { role: "user", content: "both" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_A", type: "function", function: { name: "lookup", arguments: '{"k":"a"}' } },
        { id: "call_B", type: "function", function: { name: "lookup", arguments: '{"k":"b"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_B", content: "result of b" },
    { role: "tool", tool_call_id: "call_A", content: "result of a" },
  ]);
  assert.equal(trace.calls.length, 2);
  assert.deepEqual(trace.calls.map((c) => [c.id, c.args, c.result]), [
    ["call_A", { k: "a" }, "result of a"],
    ["call_B", { k: "b" }, "result of b"],
  ]);
});

Deno.test("openai: results always land on the call with their id (property)", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
      fc.integer(),
      (ids, seed) => {
        const toolCalls = ids.map((id, i) => ({
          id,
          type: "function",
          function: { name: `tool${i % 3}`, arguments: JSON.stringify({ i }) },
        }));
        // Answer in a shuffled order.
        const order = ids.map((_, i) => i).sort((a, b) =>
          ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13)
        );
        const messages = [
          { role: "user", content: "go" },
          { role: "assistant", content: null, tool_calls: toolCalls },
          ...order.map((i) => ({ role: "tool", tool_call_id: ids[i], content: `r${i}` })),
        ];
        const trace = traceFromValue(messages);
        trace.calls.forEach((call, i) => {
          assert.equal(call.id, ids[i]);
          assert.deepEqual(call.args, { i });
          assert.equal(call.result, `r${i}`);
        });
      },
    ),
  );
});

Deno.test("a plain chat with no tool calls is a trace with 0 calls, not an error", () => {
  const trace = traceFromValue([{ role: "user", content: "hi" }, {
    role: "assistant",
    content: "hello",
  }]);
  assert.equal(trace.format, "openai");
  assert.deepEqual(trace.calls, []);
  assert.equal(trace.finalAnswer, "hello");
});

Deno.test("a bare [] is a custom trace with no calls; {} and other shapes are errors", () => {
  assert.deepEqual(traceFromValue([]), {
    calls: [],
    format: "custom",
    notes: ["no tool calls: the custom transcript holds no tool call"],
  });
  for (const value of [{}, { hello: "world" }, [1, 2], "text", 3, null, [{ foo: 1 }]]) {
    assert.throws(
      () => traceFromValue(value, { source: "t.json" }),
      /t\.json: not a trace in any known format/,
    );
  }
});

Deno.test("readTrace() rejects a document of no known shape, naming the file and what it saw", async () => {
  const error = await rejects(
    `${INVALID}/unknown_shape.json`,
    /formats_invalid\/unknown_shape\.json: not a trace in any known format/,
  );
  assert.match(
    error.message,
    /an object with keys runs; runs holds an array of 2, each an object with keys step\)/,
  );
  assert.match(error.message, /pass --format/);
});

Deno.test("readTrace() rejects a truncated JSON file with file:line:column", async () => {
  await rejects(
    `${INVALID}/truncated.json`,
    /formats_invalid\/truncated\.json:\d+:\d+: invalid JSON/,
  );
});

Deno.test("tracesFromText() names the JSONL line (and column) of a bad line", async () => {
  await rejects(
    `${INVALID}/bad_line.jsonl`,
    /formats_invalid\/bad_line\.jsonl:4:\d+: invalid JSON/,
  );
  await rejects(
    `${INVALID}/unknown_line.jsonl`,
    /formats_invalid\/unknown_line\.jsonl:2: not a trace in any known format/,
  );
  // A line that parses but is no trace names its line too.
  assert.throws(
    () => tracesFromText('[{"tool":"a"}]\n{"x": 1}\n', "two.jsonl"),
    /two\.jsonl:2: not a trace in any known format/,
  );
  assert.throws(() => tracesFromText("\n\n", "empty.jsonl"), /empty\.jsonl: no traces/);
});

Deno.test("tracesFromText() scores a JSONL file of traces line by line", () => {
  const traces = tracesFromText(
    [
      JSON.stringify([{ tool: "a", args: {} }]),
      JSON.stringify({ messages: [{ role: "user", content: "x" }] }),
      JSON.stringify({ format: "toolscore", calls: [{ tool: "b" }, { tool: "c" }] }),
    ].join("\n"),
    "mixed.jsonl",
  );
  assert.deepEqual(traces.map((t) => [t.format, t.calls.length]), [
    ["custom", 1],
    ["openai", 0],
    ["toolscore", 2],
  ]);
});

Deno.test("tracesFromText() reads JSONL of JSON-RPC messages as one MCP session", async () => {
  const traces = tracesFromText(
    await Deno.readTextFile("testdata/formats/mcp/parallel_multiturn.jsonl"),
    "session.jsonl",
  );
  assert.equal(traces.length, 1);
  assert.equal(traces[0]?.format, "mcp");
  assert.equal(traces[0]?.calls.length, 3);
});

Deno.test("tracesFromText() reads JSONL of OTLP exports as one OTel trace, ordered by start", async () => {
  const traces = tracesFromText(
    await Deno.readTextFile("testdata/formats/otel/parallel_multiturn.jsonl"),
    "spans.jsonl",
  );
  assert.equal(traces.length, 1);
  assert.deepEqual(traces[0]?.calls.map((c) => c.id), ["t_aapl", "t_msft", "t_fx"]);
});

Deno.test("tracesFromText() reads a .json file holding JSON lines as JSONL", () => {
  const text =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}}\n' +
    '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}\n';
  const traces = tracesFromText(text, "session.json");
  assert.equal(traces.length, 1);
  assert.deepEqual(traces[0]?.calls, [{ tool: "a", args: {}, id: "1", result: "ok" }]);
  // Not JSON lines: the original syntax error stands.
  assert.throws(() => tracesFromText('{"a":\n', "bad.json"), /bad\.json:\d+:\d+: invalid JSON/);
});

Deno.test("readTrace() takes a path, raw text or a parsed value alike", async () => {
  const path = "testdata/formats/custom/parallel_multiturn.json";
  const text = await Deno.readTextFile(path);
  const fromPath = await readTrace(path);
  const fromText = await readTrace(text);
  const fromValue = await readTrace(JSON.parse(text));
  assert.deepEqual(fromPath, fromText);
  assert.deepEqual(fromText, fromValue);
  assert.equal(await readTrace(fromValue), fromValue);
  await rejects(`${INVALID}/two_traces.jsonl`, /two_traces\.jsonl: holds 2 traces/);
  await rejects(`${path}.missing`, /file not found/);
});

Deno.test("--format overrides detection, and a mismatched format is an error, not 0 calls", () => {
  const openai = [
    { role: "user", content: "x" },
    {
      role: "assistant",
      tool_calls: [{ id: "1", type: "function", function: { name: "a", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "1", content: "r" },
  ];
  for (
    const format of [
      "anthropic",
      "gemini",
      "mcp",
      "otel",
      "custom",
      "toolscore",
      "openai-responses",
    ] as const
  ) {
    assert.throws(() => traceFromValue(openai, { format, source: "o.json" }), /o\.json/, format);
  }
  assert.throws(
    () => parseFormatName("gpt"),
    /unknown format gpt; use one of auto, toolscore, openai/,
  );
});

Deno.test("malformed argument JSON is kept as raw_args with args_error in every format", () => {
  const bad = '{"q": "unterminated';
  const traces = [
    traceFromValue([{ tool: "s", args: bad }]),
    traceFromValue([{
      role: "assistant",
      tool_calls: [{ id: "1", type: "function", function: { name: "s", arguments: bad } }],
    }]),
    traceFromValue([{ type: "function_call", call_id: "1", name: "s", arguments: bad }]),
    traceFromValue([{
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "s", arguments: bad },
    }]),
    traceFromValue([{ name: "s", args: bad, id: "1", type: "invalid_tool_call", error: "bad" }]),
    traceFromValue([{
      spanId: "1",
      name: "execute_tool s",
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } },
        { key: "gen_ai.tool.call.arguments", value: { stringValue: bad } },
      ],
    }]),
    traceFromValue([{ type: "tool_use", id: "1", name: "s", input: "[1]" }]),
    traceFromValue([{ functionCall: { name: "s", args: [1] } }]),
  ];
  for (const trace of traces) {
    const call = trace.calls[0] as ToolCall;
    assert.equal(call.tool, "s", trace.format);
    assert.deepEqual(call.args, {}, trace.format);
    assert.equal(typeof call.rawArgs, "string", trace.format);
    assert.ok(call.argsError, `${trace.format}: no args_error`);
  }
});

Deno.test("custom: calls in the file shape and the TypeScript shape keep every field", () => {
  const fileShape = [{
    tool: "a",
    args: {},
    id: "7",
    result: 0,
    error: null,
    is_error: false,
    duration_s: 0,
    cost_usd: 0,
    raw_args: "{x",
    args_error: "bad",
    metadata: { schema: { type: "object" } },
  }];
  const trace = traceFromValue(fileShape);
  assert.deepEqual(trace.calls, [{
    tool: "a",
    args: {},
    id: "7",
    result: 0,
    error: null,
    isError: false,
    durationS: 0,
    costUsd: 0,
    rawArgs: "{x",
    argsError: "bad",
    metadata: { schema: { type: "object" } },
  }]);
  // The TypeScript shape reads back to the same calls.
  assert.deepEqual(traceFromValue(trace.calls.map((c) => ({ ...c }))).calls, trace.calls);
  assert.throws(
    () => traceFromValue([{ tool: "a", duration_s: "1s" }], { source: "c.json" }),
    /c\.json: \[0\]\.duration_s: expected a number/,
  );
  assert.throws(
    () => traceFromValue([{ tool: "a", is_error: 1 }], { source: "c.json" }),
    /\[0\]\.is_error/,
  );
});

Deno.test("custom: any call list in the file shape reads back unchanged (property)", () => {
  const json = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  const call = fc.record({
    tool: fc.string({ minLength: 1, maxLength: 8 }),
    args: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), json, { maxKeys: 3 }),
    id: fc.string({ minLength: 1, maxLength: 5 }),
    result: json,
    error: fc.oneof(fc.string(), fc.constant(null)),
    isError: fc.boolean(),
    durationS: fc.double({ min: 0, max: 100, noNaN: true }),
    costUsd: fc.double({ min: 0, max: 1, noNaN: true }),
  }, { requiredKeys: ["tool", "args"] });
  fc.assert(
    fc.property(fc.array(call, { minLength: 1, maxLength: 6 }), (calls) => {
      const files = JSON.parse(JSON.stringify(calls.map((c) => callToJson(c as ToolCall))));
      const trace = traceFromValue(files);
      assert.equal(trace.format, "custom");
      assert.deepEqual(trace.calls.map(callToJson), files);
    }),
  );
});

Deno.test("a bare list of calls and a legacy call list stay custom", () => {
  assert.equal(detectFormat([{ tool: "a", args: {} }]), "custom");
  assert.equal(detectFormat({ calls: [{ tool: "a" }] }), "custom");
  assert.equal(detectFormat([{ name: "a", arguments: "{}" }]), "custom");
  assert.equal(detectFormat([{ name: "a", args: {}, id: "1" }]), "custom");
  assert.equal(detectFormat([{ name: "a", args: {}, id: "1", type: "tool_call" }]), "langchain");
  assert.equal(detectFormat([{ tool: "a", tool_input: "x", log: "" }]), "langchain");
});

Deno.test("traceToJson() writes a toolscore envelope that reads back to the same calls", async () => {
  for (
    const file of [
      "anthropic/parallel_multiturn.json",
      "otel/failed_call.json",
      "mcp/failed_call.json",
    ]
  ) {
    const trace = await readTrace(`testdata/formats/${file}`);
    const again = traceFromValue(JSON.parse(JSON.stringify(traceToJson(trace))));
    assert.equal(again.format, "toolscore");
    assert.deepEqual({ ...again, format: trace.format }, trace);
  }
});

Deno.test("readers name the place of a call without a tool name", () => {
  assert.throws(
    () =>
      traceFromValue([{
        role: "assistant",
        tool_calls: [{ id: "1", type: "function", function: { name: "" } }],
      }], { source: "x.json" }),
    /x\.json: messages\[0\]\.tool_calls\[0\]: tool call has no function name/,
  );
  assert.throws(
    () =>
      traceFromValue({ format: "mcp", messages: [{ id: 1, method: "tools/call", params: {} }] }, {
        source: "s.json",
      }),
    /s\.json: messages\[0\]: tools\/call has no params\.name/,
  );
  assert.throws(() => traceFromValue([{ tool: "", args: {} }], { source: "c.json" }), /c\.json/);
});

Deno.test("the final answer is unknown when the last assistant turn only called tools", () => {
  const trace = traceFromValue({
    type: "message",
    role: "assistant",
    content: [{ type: "text", text: "Let me look." }, {
      type: "tool_use",
      id: "t",
      name: "x",
      input: {},
    }],
  });
  assert.equal(trace.finalAnswer, undefined);
  const explicit = traceFromValue({ calls: [], final_answer: "" });
  assert.equal(explicit.finalAnswer, "");
});
