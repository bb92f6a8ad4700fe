// Agent frameworks: Claude Code / Agent SDK streams, the Vercel AI SDK and
// the OpenAI Agents SDK — shapes written from the SDKs' own types.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import { detectFormat, traceFromValue, tracesFromText } from "../lib/formats/detect.ts";
import { InputError } from "../lib/base/errors.ts";

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

const CLAUDE_STREAM = [
  {
    type: "system",
    subtype: "init",
    session_id: "s1",
    model: "claude-sonnet-4-5",
    tools: ["Task"],
  },
  {
    type: "assistant",
    parent_tool_use_id: null,
    session_id: "s1",
    message: {
      id: "msg_1",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "text", text: "I'll delegate." }],
      usage: { input_tokens: 10, output_tokens: 3 },
    },
  },
  {
    type: "assistant",
    parent_tool_use_id: null,
    session_id: "s1",
    message: {
      id: "msg_1",
      role: "assistant",
      content: [{
        type: "tool_use",
        id: "toolu_task",
        name: "Task",
        input: { description: "count", prompt: "count files", subagent_type: "Explore" },
      }],
      usage: { input_tokens: 10, output_tokens: 30 },
    },
  },
  {
    type: "assistant",
    parent_tool_use_id: "toolu_task",
    session_id: "s1",
    message: {
      id: "msg_sub",
      role: "assistant",
      content: [
        { type: "text", text: "sub-agent thinking aloud" },
        { type: "tool_use", id: "toolu_ls", name: "Bash", input: { command: "ls | wc -l" } },
      ],
      usage: { input_tokens: 5, output_tokens: 5 },
    },
  },
  {
    type: "user",
    parent_tool_use_id: "toolu_task",
    session_id: "s1",
    message: {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "toolu_ls",
        content: "bash: wc: not found",
        is_error: true,
      }],
    },
  },
  {
    type: "user",
    parent_tool_use_id: null,
    session_id: "s1",
    message: {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "toolu_task",
        content: [{ type: "text", text: "could not count" }],
      }],
    },
  },
  {
    type: "assistant",
    parent_tool_use_id: null,
    session_id: "s1",
    message: {
      id: "msg_2",
      role: "assistant",
      content: [{ type: "text", text: "I could not count them." }],
    },
  },
];

Deno.test("claude-code: a stream-json session keeps sub-agent calls, marked with their parent", () => {
  const [trace] = tracesFromText(jsonl(CLAUDE_STREAM), "session.jsonl");
  assert.equal(trace?.format, "claude-code");
  assert.deepEqual(trace?.calls, [
    {
      tool: "Task",
      args: { description: "count", prompt: "count files", subagent_type: "Explore" },
      id: "toolu_task",
      result: "could not count",
    },
    {
      tool: "Bash",
      args: { command: "ls | wc -l" },
      id: "toolu_ls",
      metadata: { parent_tool_use_id: "toolu_task" },
      result: "bash: wc: not found",
      isError: true,
      error: "bash: wc: not found",
    },
  ]);
  // The sub-agent's text is not the answer; msg_1's usage is counted once (its last line).
  assert.equal(trace?.finalAnswer, "I could not count them.");
  assert.deepEqual(trace?.usage, { inputTokens: 15, outputTokens: 35 });
  assert.equal(trace?.model, "claude-sonnet-4-5");
});

Deno.test("claude-code: the result message's text and usage win; a JSON list reads the same", () => {
  const rows = [
    ...CLAUDE_STREAM,
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "Done: could not count.",
      session_id: "s1",
      usage: { input_tokens: 40, output_tokens: 50 },
    },
  ];
  const trace = traceFromValue(rows);
  assert.equal(trace.format, "claude-code");
  assert.equal(trace.finalAnswer, "Done: could not count.");
  assert.deepEqual(trace.usage, { inputTokens: 40, outputTokens: 50 });
  assert.equal(detectFormat(rows), "claude-code");
});

Deno.test("claude-code: a saved transcript marks sidechain calls", () => {
  const trace = traceFromValue([
    {
      type: "assistant",
      sessionId: "t",
      uuid: "u1",
      isSidechain: true,
      message: {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "Grep", input: { pattern: "x" } }],
      },
    },
  ]);
  assert.deepEqual(trace.calls[0]?.metadata, { sidechain: true });
});

Deno.test("claude-code: real sub-agent calls are marked with their parent Task call or as sidechain", () => {
  // Copied from public repositories (see testdata/formats/real/SOURCES.md).
  const real = (name: string) => {
    const file = `testdata/formats/real/${name}`;
    const [trace] = tracesFromText(Deno.readTextFileSync(file), file);
    return trace?.calls ?? [];
  };
  const stream = real("claudecode-task-subagent-stream.jsonl");
  assert.equal(stream[0]?.tool, "Task");
  assert.equal(stream[0]?.metadata, undefined);
  const parents = new Set(stream.slice(1).map((call) => call.metadata?.parent_tool_use_id));
  assert.deepEqual([...parents], [stream[0]?.id]);
  assert.equal(stream.length, 36);

  const transcript = real("claudecode-transcript-sidechain-tasks.jsonl");
  const marks = transcript.map((call) => `${call.tool}${call.metadata?.sidechain ? "*" : ""}`);
  // `*` = a sidechain call: the second Task's sub-agent (Glob, Read), then the third's.
  assert.equal(
    marks.join(" "),
    "TodoWrite Glob Glob TodoWrite Task Task TodoWrite Glob* Read* Task " +
      "Bash* Bash* Bash* Bash* Read* Bash* TodoWrite Edit Read MultiEdit TodoWrite",
  );
});

Deno.test("claude-code: a tool_use block without a name is an error naming where, never 0 calls", () => {
  assert.throws(
    () =>
      tracesFromText(
        jsonl([{
          type: "assistant",
          session_id: "s",
          message: { role: "assistant", content: [{ type: "tool_use", id: "t1", input: {} }] },
        }]),
        "broken.jsonl",
      ),
    (error: unknown) =>
      error instanceof InputError &&
      error.message === "broken.jsonl: [0].message.content[0]: tool_use block has no name",
  );
});

Deno.test("vercel-ai: a generateText result's steps (content parts) with a tool error", () => {
  const trace = traceFromValue({
    steps: [
      {
        stepNumber: 0,
        model: { provider: "openai.responses", modelId: "gpt-5-mini" },
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Oslo" } },
          { type: "tool-call", toolCallId: "c2", toolName: "weather", input: { city: "Atlantis" } },
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "weather",
            input: { city: "Oslo" },
            output: { temp: -2 },
          },
          {
            type: "tool-error",
            toolCallId: "c2",
            toolName: "weather",
            input: { city: "Atlantis" },
            error: { message: "unknown city" },
          },
        ],
        finishReason: "tool-calls",
        usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      },
      {
        stepNumber: 1,
        content: [{ type: "text", text: "Oslo is at -2°C; Atlantis is unknown." }],
        finishReason: "stop",
        usage: { inputTokens: 150, outputTokens: 12, totalTokens: 162 },
      },
    ],
  });
  assert.equal(trace.format, "vercel-ai");
  assert.deepEqual(trace.calls, [
    { tool: "weather", args: { city: "Oslo" }, id: "c1", result: { temp: -2 }, isError: false },
    { tool: "weather", args: { city: "Atlantis" }, id: "c2", isError: true, error: "unknown city" },
  ]);
  assert.equal(trace.finalAnswer, "Oslo is at -2°C; Atlantis is unknown.");
  assert.deepEqual(trace.usage, { inputTokens: 250, outputTokens: 32 });
  assert.equal(trace.model, "gpt-5-mini");
});

Deno.test("vercel-ai: v4 steps with toolCalls/toolResults lists and totalUsage", () => {
  const trace = traceFromValue({
    text: "It is sunny.",
    steps: [{
      toolCalls: [{
        type: "tool-call",
        toolCallId: "a",
        toolName: "weather",
        args: { city: "Rome" },
      }],
      toolResults: [{
        type: "tool-result",
        toolCallId: "a",
        toolName: "weather",
        args: { city: "Rome" },
        result: "sunny",
      }],
      usage: { promptTokens: 10, completionTokens: 5 },
    }],
    totalUsage: { promptTokens: 30, completionTokens: 9 },
  });
  assert.deepEqual(trace.calls, [
    { tool: "weather", args: { city: "Rome" }, id: "a", result: "sunny", isError: false },
  ]);
  assert.equal(trace.finalAnswer, "It is sunny.");
  assert.deepEqual(trace.usage, { inputTokens: 30, outputTokens: 9 });
});

Deno.test("vercel-ai: UI message stream chunks (JSONL) with an output error, an input error and a denial", () => {
  const [trace] = tracesFromText(
    jsonl([
      { type: "start", messageId: "m1" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "c1", toolName: "search" },
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"q":' },
      { type: "tool-input-available", toolCallId: "c1", toolName: "search", input: { q: "deno" } },
      { type: "tool-output-available", toolCallId: "c1", output: { hits: 1 }, preliminary: true },
      { type: "tool-output-available", toolCallId: "c1", output: { hits: 3 } },
      { type: "tool-input-available", toolCallId: "c2", toolName: "fetch", input: { url: "x" } },
      { type: "tool-output-error", toolCallId: "c2", errorText: "timeout" },
      {
        type: "tool-input-error",
        toolCallId: "c3",
        toolName: "pay",
        input: '{"amount":',
        errorText: "bad JSON",
      },
      { type: "tool-input-available", toolCallId: "c4", toolName: "delete", input: {} },
      { type: "tool-output-denied", toolCallId: "c4" },
      { type: "finish-step" },
      { type: "start-step" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Found " },
      { type: "text-delta", id: "t1", delta: "3." },
      { type: "text-end", id: "t1" },
      { type: "finish-step" },
      { type: "finish" },
    ]),
    "chunks.jsonl",
  );
  assert.equal(trace?.format, "vercel-ai");
  assert.equal(trace?.calls.length, 4);
  assert.deepEqual(trace?.calls[0], {
    tool: "search",
    args: { q: "deno" },
    id: "c1",
    result: { hits: 3 },
    isError: false,
  });
  assert.equal(trace?.calls[1]?.error, "timeout");
  assert.equal(trace?.calls[2]?.rawArgs, '{"amount":');
  assert.equal(trace?.calls[2]?.error, "bad JSON");
  assert.equal(trace?.calls[3]?.error, "denied");
  assert.equal(trace?.finalAnswer, "Found 3.");
});

Deno.test("vercel-ai: a stream cut while a call's input was streaming keeps the call", () => {
  const trace = traceFromValue([
    { type: "start" },
    { type: "tool-input-start", toolCallId: "c1", toolName: "search" },
    { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"q":"de' },
    { type: "abort" },
  ]);
  assert.equal(trace.calls.length, 1);
  assert.equal(trace.calls[0]?.tool, "search");
  assert.equal(trace.calls[0]?.rawArgs, '{"q":"de');
  assert.ok(trace.calls[0]?.argsError);
  assert.equal(trace.calls[0]?.metadata?.input_incomplete, true);
});

Deno.test("vercel-ai: results logged without toolCallId pair with their calls in order", () => {
  const call = (store: string) => ({
    type: "tool-call",
    toolName: "price",
    input: { store },
  });
  const result = (store: string, output: string) => ({
    type: "tool-result",
    toolName: "price",
    input: { store },
    output,
  });
  const trace = traceFromValue({
    steps: [
      {
        content: [call("A"), call("B"), result("B", "1099"), result("A", "999")],
        finishReason: "tool-calls",
      },
      {
        content: [call("A"), result("A", "998"), { type: "text", text: "A is cheaper." }],
        finishReason: "stop",
      },
    ],
  });
  assert.deepEqual(trace.calls.map((c) => [c.args, c.result, c.isError]), [
    [{ store: "A" }, "999", false],
    [{ store: "B" }, "1099", false],
    [{ store: "A" }, "998", false],
  ]);
  assert.equal(trace.finalAnswer, "A is cheaper.");
  // A result no open call matches is a call of its own, never dropped.
  const orphan = traceFromValue({
    steps: [{ content: [result("C", "5")], finishReason: "stop" }],
  });
  assert.deepEqual(orphan.calls.map((c) => [c.tool, c.args, c.result]), [["price", {
    store: "C",
  }, "5"]]);
});

Deno.test("vercel-ai: a final answer keeps the blank text deltas between words", () => {
  const trace = traceFromValue([
    { type: "start" },
    { type: "text-start", id: "t1" },
    { type: "text-delta", id: "t1", delta: " " },
    { type: "text-delta", id: "t1", delta: "Weather" },
    { type: "text-delta", id: "t1", delta: ":" },
    { type: "text-delta", id: "t1", delta: " " },
    { type: "text-delta", id: "t1", delta: "20°C" },
    { type: "text-delta", id: "t1", delta: "\n" },
    { type: "text-delta", id: "t1", delta: "- Time" },
    { type: "text-delta", id: "t1", delta: "\n" },
    { type: "text-end", id: "t1" },
    { type: "finish" },
  ]);
  assert.equal(trace.finalAnswer, "Weather: 20°C\n- Time");
});

Deno.test("vercel-ai: a tool-input-available chunk without a toolName is an error, never 0 calls", () => {
  assert.throws(
    () =>
      traceFromValue([{ type: "tool-input-available", toolCallId: "c1", input: {} }], {
        source: "ui.json",
      }),
    /ui\.json: parts\[0\]: tool-input-available has no toolName/,
  );
});

const AGENTS_EXPORT = {
  data: [
    {
      object: "trace",
      id: "trace_1",
      workflow_name: "Agent workflow",
      group_id: null,
      metadata: null,
    },
    {
      object: "trace.span",
      id: "span_agent",
      trace_id: "trace_1",
      parent_id: null,
      started_at: "2025-09-30T09:03:59.962000+00:00",
      ended_at: "2025-09-30T09:04:02.152000+00:00",
      span_data: {
        type: "agent",
        name: "Hello world",
        handoffs: [],
        tools: ["get_weather"],
        output_type: "str",
      },
      error: null,
    },
    {
      object: "trace.span",
      id: "span_task",
      trace_id: "trace_1",
      parent_id: "span_agent",
      started_at: "2025-09-30T09:03:59.962000+00:00",
      ended_at: "2025-09-30T09:04:02.152000+00:00",
      span_data: {
        type: "custom",
        name: "task",
        data: {
          sdk_span_type: "task",
          name: "run",
          usage: { input_tokens: 140, output_tokens: 44 },
        },
      },
      error: null,
    },
    {
      object: "trace.span",
      id: "span_gen1",
      trace_id: "trace_1",
      parent_id: "span_agent",
      started_at: "2025-09-30T09:03:59.963000+00:00",
      ended_at: "2025-09-30T09:04:00.999000+00:00",
      span_data: {
        type: "generation",
        model: "gpt-4.1",
        input: [{ role: "user", content: "Weather in Tokyo and Paris?" }],
        output: [{ role: "assistant", content: null, tool_calls: [{ id: "c1" }] }],
        usage: { input_tokens: 55, output_tokens: 15 },
      },
      error: null,
    },
    {
      object: "trace.span",
      id: "span_fn1",
      trace_id: "trace_1",
      parent_id: "span_agent",
      started_at: "2025-09-30T09:04:01.000000+00:00",
      ended_at: "2025-09-30T09:04:01.250000+00:00",
      span_data: {
        type: "function",
        name: "get_weather",
        input: '{"city":"Tokyo"}',
        output: "The weather in Tokyo is sunny.",
        mcp_data: null,
      },
      error: null,
    },
    {
      object: "trace.span",
      id: "span_fn2",
      trace_id: "trace_1",
      parent_id: "span_agent",
      started_at: "2025-09-30T09:04:01.100000+00:00",
      ended_at: "2025-09-30T09:04:01.300000+00:00",
      span_data: {
        type: "function",
        name: "get_weather",
        input: '{"city":"Paris"}',
        output: null,
        mcp_data: null,
      },
      error: {
        message: "Error running tool",
        data: { tool_name: "get_weather", error: "timeout" },
      },
    },
    {
      object: "trace.span",
      id: "span_gen2",
      trace_id: "trace_1",
      parent_id: "span_agent",
      started_at: "2025-09-30T09:04:01.400000+00:00",
      ended_at: "2025-09-30T09:04:02.151000+00:00",
      span_data: {
        type: "generation",
        model: "gpt-4.1",
        output: [{ role: "assistant", content: "Tokyo is sunny; Paris timed out." }],
        usage: { input_tokens: 85, output_tokens: 29 },
      },
      error: null,
    },
  ],
};

Deno.test("openai-agents: a trace export's function spans, with errors, durations and usage once per model call", () => {
  const trace = traceFromValue(AGENTS_EXPORT);
  assert.equal(trace.format, "openai-agents");
  assert.deepEqual(
    trace.calls.map((c) => [c.tool, c.args, c.result, c.isError, c.error, c.durationS]),
    [
      ["get_weather", { city: "Tokyo" }, "The weather in Tokyo is sunny.", false, undefined, 0.25],
      ["get_weather", { city: "Paris" }, undefined, true, "timeout", 0.2],
    ],
  );
  // Generation spans: 55+85 / 15+29; the task span repeats that total.
  assert.deepEqual(trace.usage, { inputTokens: 140, outputTokens: 44 });
  assert.equal(trace.model, "gpt-4.1");
  assert.equal(trace.finalAnswer, "Tokyo is sunny; Paris timed out.");
  // The same objects one per JSONL line are one trace.
  const traces = tracesFromText(jsonl(AGENTS_EXPORT.data), "export.jsonl");
  assert.equal(traces.length, 1);
  assert.deepEqual(traces[0]?.calls, trace.calls);
});

Deno.test("openai-agents: a function span without a name is an error, never 0 calls", () => {
  assert.throws(
    () =>
      traceFromValue({
        data: [{
          object: "trace.span",
          id: "span_x",
          trace_id: "t",
          span_data: { type: "function", input: "{}" },
          error: null,
        }],
      }, { source: "export.json" }),
    /export\.json: span span_x: function span has no span_data\.name/,
  );
});
