import assert from "node:assert/strict";
import fc from "fast-check";
import "../lib/base/_heavy.ts";
import { callToJson, type Trace } from "../lib/scoring/calls.ts";
import { traceFromValue, tracesFromText } from "../lib/formats/detect.ts";
import { mergeStream, streamFormat } from "../lib/formats/streams.ts";
import { looksLikeSse, sseEvents } from "../lib/formats/sse.ts";
import { InputError } from "../lib/base/errors.ts";

const REAL = "testdata/formats/real";

function read(file: string): Trace[] {
  return tracesFromText(Deno.readTextFileSync(`${REAL}/${file}`), `${REAL}/${file}`);
}

// Calls and arguments only: ids and usage differ between two recordings of one request.
function callsAndArgs(trace: Trace): unknown[] {
  return trace.calls.map((call) => [call.tool, call.args, call.rawArgs ?? null]);
}

// programmatic-tool-calling.1.* are not twins: the two recordings ran different program code, so
// their `program` calls (read as calls since issue 14) differ in arguments.
const TWINS: [string, string, string][] = [
  ["openai", "groq-tool-call.chunks.txt", "groq-tool-call.json"],
  ["openai", "mistral-tool-call.chunks.txt", "mistral-tool-call.json"],
  ["openai", "deepseek-tool-call.chunks.txt", "deepseek-tool-call.json"],
  [
    "openai-responses",
    "programmatic-tool-calling.2.chunks.txt",
    "programmatic-tool-calling.2.json",
  ],
  ["anthropic", "anthropic-tool-no-args.chunks.txt", "anthropic-tool-no-args.json"],
  ["gemini", "google-tool-call.chunks.txt", "google-tool-call.json"],
  [
    "gemini",
    "gemini-interactions-tool-call-step1.chunks.txt",
    "gemini-interactions-tool-call-step1.json",
  ],
];

for (const [format, stream, twin] of TWINS) {
  Deno.test(`tracesFromText() reads the ${format} stream ${stream} as one trace with its twin's calls`, () => {
    const streamed = read(stream);
    const whole = read(twin);
    assert.equal(streamed.length, 1);
    assert.equal(streamed[0]?.format, format);
    assert.equal(whole[0]?.format, format);
    assert.ok(streamed[0]!.calls.length > 0);
    assert.deepEqual(callsAndArgs(streamed[0]!), callsAndArgs(whole[0]!));
  });
}

// The same stream as saved from curl: one SSE event per JSONL line, with `event:` names.
function asSse(jsonl: string, named: boolean): string {
  return jsonl.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const type = (JSON.parse(line) as { type?: string }).type;
    return `${named && type ? `event: ${type}\n` : ""}data: ${line}\n\n`;
  }).join("");
}

Deno.test("tracesFromText() reads raw SSE text exactly as the same events as JSONL, before YAML", () => {
  for (
    const file of ["anthropic-json-tool.1.chunks.txt", "programmatic-tool-calling.2.chunks.txt"]
  ) {
    const jsonl = Deno.readTextFileSync(`${REAL}/${file}`);
    for (const name of ["stream.sse", "stream.txt", "stream.log", "stream.yaml"]) {
      const [trace] = tracesFromText(asSse(jsonl, true), name);
      assert.deepEqual(trace!.calls.map(callToJson), read(file)[0]!.calls.map(callToJson), name);
    }
  }
  // The copied .sse file: `data:` lines only, closed by [DONE].
  const [trace] = read("anthropic-fallback-tool-call.sse");
  assert.deepEqual(callsAndArgs(trace!), [["read_file", { path: "a.txt" }, null]]);
  assert.equal(trace?.format, "openai");
});

Deno.test("sseEvents() names the line of an event whose data is not JSON", () => {
  assert.throws(
    () => tracesFromText('event: message_start\ndata: {"type":\n\n', "cut.sse"),
    (error: unknown) => error instanceof InputError && /cut\.sse:2/.test(error.message),
  );
  assert.equal(looksLikeSse(": keep-alive\n\nevent: ping\n"), true);
  assert.equal(looksLikeSse("name: value\n"), false);
  assert.deepEqual(sseEvents('data: {"a":1}\r\n\r\ndata: [DONE]\r\n', "x.sse"), [{ a: 1 }]);
  // Multi-line data is joined with newlines before parsing.
  assert.deepEqual(sseEvents('data: {"a":\ndata: 2}\n\n', "x.sse"), [{ a: 2 }]);
});

const chunk = (delta: unknown, extra: Record<string, unknown> = {}) => ({
  object: "chat.completion.chunk",
  model: "gpt-4o",
  choices: [{ index: 0, delta }],
  ...extra,
});

Deno.test("mergeStream() concatenates chat.completion.chunk fragments by index, usage from the last chunk", () => {
  const trace = traceFromValue([
    chunk({ role: "assistant", content: "Let me look." }),
    chunk({ tool_calls: [{ index: 1, id: "b", function: { name: "get_", arguments: "" } }] }),
    chunk({
      tool_calls: [{ index: 0, id: "a", function: { name: "search", arguments: '{"q":' } }],
    }),
    chunk({ tool_calls: [{ index: 1, function: { name: "time", arguments: "{}" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"deno"}' } }] }),
    chunk({}, { usage: { prompt_tokens: 10, completion_tokens: 4 } }),
  ]);
  assert.equal(trace.format, "openai");
  assert.deepEqual(callsAndArgs(trace), [["search", { q: "deno" }, null], ["get_time", {}, null]]);
  assert.deepEqual(trace.calls.map((c) => c.id), ["a", "b"]);
  assert.deepEqual(trace.usage, { inputTokens: 10, outputTokens: 4 });
  assert.equal(trace.finalAnswer, undefined);
});

Deno.test("mergeStream() keeps cut streamed arguments as raw_args, never as {}", () => {
  const openai = traceFromValue([
    chunk({
      tool_calls: [{ index: 0, id: "a", function: { name: "search", arguments: '{"q": "de' } }],
    }),
  ]);
  assert.equal(openai.calls[0]?.rawArgs, '{"q": "de');
  assert.ok(openai.calls[0]?.argsError);
  const anthropic = traceFromValue([
    {
      type: "message_start",
      message: { id: "m", role: "assistant", content: [], model: "claude" },
    },
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "t", name: "search", input: {} },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: '{"q": ' },
    },
    { type: "content_block_stop", index: 0 },
  ]);
  assert.equal(anthropic.format, "anthropic");
  assert.equal(anthropic.calls[0]?.rawArgs, '{"q": ');
});

Deno.test("mergeStream() prefers response.completed and else builds the output from item events", () => {
  const item = { type: "function_call", id: "fc", call_id: "c1", name: "search", arguments: "" };
  const events = [
    { type: "response.created", response: { object: "response", model: "gpt-5", output: [] } },
    { type: "response.output_item.added", output_index: 0, item },
    {
      type: "response.function_call_arguments.delta",
      item_id: "fc",
      output_index: 0,
      delta: '{"q":',
    },
    {
      type: "response.function_call_arguments.delta",
      item_id: "fc",
      output_index: 0,
      delta: '"x"}',
    },
  ];
  assert.deepEqual(callsAndArgs(traceFromValue(events)), [["search", { q: "x" }, null]]);
  const completed = {
    type: "response.completed",
    response: {
      object: "response",
      output: [{ ...item, name: "lookup", arguments: '{"id":1}' }],
      usage: { input_tokens: 3, output_tokens: 2 },
    },
  };
  const trace = traceFromValue([...events, completed]);
  assert.deepEqual(callsAndArgs(trace), [["lookup", { id: 1 }, null]]);
  assert.deepEqual(trace.usage, { inputTokens: 3, outputTokens: 2 });
});

Deno.test("a streamed tool call that never names its tool is an error naming the chunk", () => {
  assert.throws(
    () =>
      traceFromValue([chunk({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] })], {
        source: "s.jsonl",
      }),
    /s\.jsonl: \[0\]\.choices\[0\]\.delta\.tool_calls: a streamed tool call \(first seen in chunk 0\) never names its tool/,
  );
});

Deno.test("streamFormat() tells providers apart and leaves other lists alone", () => {
  assert.equal(streamFormat([chunk({})]), "openai");
  assert.equal(streamFormat([{ type: "response.created", response: {} }]), "openai-responses");
  assert.equal(streamFormat([{ type: "ping" }]), undefined);
  assert.equal(streamFormat([{ candidates: [] }]), undefined); // one response is not a stream
  assert.equal(streamFormat([{ candidates: [] }, { candidates: [] }]), "gemini");
  assert.equal(
    streamFormat([{ event_type: "interaction.created", interaction: {} }]),
    "gemini",
  );
  assert.equal(streamFormat([{ event_type: "step.stop", index: 0 }]), undefined);
  assert.equal(streamFormat([{ event_type: "interaction.created" }, { other: 1 }]), undefined);
  assert.equal(mergeStream([{ role: "user", content: "hi" }], "x"), undefined);
});

Deno.test("mergeStream() joins any split of the argument text into the same arguments (property)", () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string())),
      fc.array(fc.nat(), { maxLength: 8 }),
      (args, cuts) => {
        const text = JSON.stringify(args);
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let at = 0;
        for (const point of [...points, text.length]) {
          pieces.push(text.slice(at, point));
          at = point;
        }
        const openai = traceFromValue(pieces.map((piece, i) =>
          chunk({
            tool_calls: [{
              index: 0,
              ...(i === 0 ? { id: "a" } : {}),
              function: { ...(i === 0 ? { name: "t" } : {}), arguments: piece },
            }],
          })
        ));
        const anthropic = traceFromValue([
          {
            type: "content_block_start",
            index: 0,
            content_block: { type: "tool_use", id: "a", name: "t", input: {} },
          },
          ...pieces.map((piece) => ({
            type: "content_block_delta",
            index: 0,
            delta: { type: "input_json_delta", partial_json: piece },
          })),
        ]);
        const interactions = traceFromValue([
          { event_type: "interaction.created", interaction: { id: "v1", status: "in_progress" } },
          {
            event_type: "step.start",
            index: 0,
            step: { id: "a", type: "function_call", name: "t", arguments: {} },
          },
          ...pieces.map((piece) => ({
            event_type: "step.delta",
            index: 0,
            delta: { type: "arguments_delta", arguments: piece },
          })),
        ]);
        // Compared with the text parsed whole (a `__proto__` key stays an own key).
        assert.deepEqual(openai.calls[0]?.args, JSON.parse(text));
        assert.deepEqual(anthropic.calls[0]?.args, JSON.parse(text));
        assert.deepEqual(interactions.calls[0]?.args, JSON.parse(text));
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("a saved stream with a cut line names that line, whatever the extension", () => {
  const lines = Deno.readTextFileSync(`${REAL}/groq-tool-call.chunks.txt`).split("\n");
  const cut = [lines[0]!.slice(0, 120), ...lines.slice(1)].join("\n");
  for (const name of ["stream.txt", "stream.log", "stream.jsonl"]) {
    assert.throws(
      () => tracesFromText(cut, name),
      new RegExp(`${name.replace(".", "\\.")}:1:\\d+: .* on this line`),
    );
  }
});

Deno.test("sseEvents() reads back any events written as SSE (property)", () => {
  const event = fc.record({
    type: fc.constantFrom("message_start", "content_block_delta", "ping"),
    text: fc.string({ maxLength: 20 }),
    n: fc.integer(),
  });
  fc.assert(
    fc.property(
      fc.array(event, { maxLength: 12 }),
      fc.boolean(),
      fc.boolean(),
      (events, named, crlf) => {
        const eol = crlf ? "\r\n" : "\n";
        const text =
          events.map((e) =>
            `${named ? `event: ${e.type}${eol}` : ""}: comment${eol}data: ${
              JSON.stringify(e)
            }${eol}${eol}`
          ).join("") + `data: [DONE]${eol}`;
        // Compared through JSON: a generated record may have a null prototype.
        assert.deepEqual(
          sseEvents(text, "p.sse"),
          events.map((e) => JSON.parse(JSON.stringify(e))),
        );
        assert.equal(looksLikeSse(text), true);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("Gemini streamed function-call arguments are put together; a wild jsonPath is an error", () => {
  const part = (functionCall: unknown) => ({
    candidates: [{ content: { role: "model", parts: [{ functionCall }] } }],
  });
  const trace = traceFromValue([
    part({ name: "book", willContinue: true }),
    part({
      partialArgs: [{ jsonPath: "$.who['full name']", stringValue: "Ada ", willContinue: true }],
      willContinue: true,
    }),
    part({
      partialArgs: [{ jsonPath: "$.who['full name']", stringValue: "Lovelace" }],
      willContinue: true,
    }),
    part({
      partialArgs: [{ jsonPath: "$.seats[1]", numberValue: 2 }, {
        jsonPath: "$.vip",
        boolValue: true,
      }],
      willContinue: true,
    }),
    part({}),
  ]);
  assert.deepEqual(trace.calls.map(callToJson), [{
    tool: "book",
    args: { who: { "full name": "Ada Lovelace" }, seats: [null, 2], vip: true },
  }]);
  assert.throws(
    () =>
      traceFromValue([
        part({ name: "book", willContinue: true }),
        part({ partialArgs: [{ jsonPath: "$.seats[99999999]", numberValue: 1 }] }),
      ], { source: "g.jsonl" }),
    /g\.jsonl: \[1\]\.candidates\[0\]\.content\.parts\[0\]\.functionCall: jsonPath "\$\.seats\[99999999\]" has an index over 10000/,
  );
  // A fragment that belongs to no call is the reader's error, never 0 calls.
  assert.throws(
    () => traceFromValue([part({ partialArgs: [] }), part({})]),
    /functionCall has no name/,
  );
});

Deno.test("Gemini Interactions events are put together by step index; a delta before its step.start is an error", () => {
  const trace = traceFromValue([
    { event_type: "interaction.created", interaction: { id: "v1", status: "in_progress" } },
    { event_type: "step.start", index: 1, step: { type: "model_output" } },
    { event_type: "step.delta", index: 1, delta: { type: "text", text: "Found " } },
    { event_type: "step.start", index: 0, step: { type: "thought" } },
    { event_type: "step.delta", index: 0, delta: { type: "thought_signature", signature: "s" } },
    { event_type: "step.delta", index: 1, delta: { type: "text", text: "it." } },
    { event_type: "step.start", index: 2, step: { id: "g1", type: "google_search_call" } },
    {
      event_type: "step.delta",
      index: 2,
      delta: { type: "google_search_call", arguments: { queries: ["q"] } },
    },
    { event_type: "step.start", index: 3, step: { call_id: "g1", type: "google_search_result" } },
    {
      event_type: "step.delta",
      index: 3,
      delta: { type: "google_search_result", result: [{ url: "u" }], is_error: true },
    },
    { event_type: "step.start", index: 4, step: { id: "f", type: "function_call", name: "f" } },
    { event_type: "step.delta", index: 4, delta: { type: "arguments_delta", arguments: '{"a":' } },
    {
      event_type: "interaction.completed",
      interaction: { id: "v1", status: "completed", usage: { total_input_tokens: 3 } },
    },
  ]);
  assert.equal(trace.format, "gemini");
  assert.deepEqual(
    trace.calls.map((c) => [c.tool, c.args, c.isError ?? null, c.rawArgs ?? null]),
    [["google_search", { queries: ["q"] }, true, null], ["f", {}, null, '{"a":']],
  );
  assert.ok(trace.calls[1]?.argsError !== undefined);
  assert.equal(trace.usage?.inputTokens, 3);
  assert.throws(
    () =>
      tracesFromText(
        '{"event_type":"interaction.created","interaction":{"id":"v1"}}\n' +
          '{"event_type":"step.delta","index":0,"delta":{"type":"text","text":"x"}}\n',
        "cut.jsonl",
      ),
    /cut\.jsonl: \[1\]: step\.delta for step 0 before its step\.start/,
  );
});
