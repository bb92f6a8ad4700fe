/**
 * Issue 36: observability exports and agent-framework states. The real files
 * are in `testdata/formats/real/` (checked by `formats_real_test.ts`); the
 * shapes with no public file are checked here on documents built from their
 * published schema or source, and say so:
 * - Langfuse `{trace, observations}`: the public API's `TraceWithFullDetails`
 *   / `ObservationsView` fields (`type`, `parentObservationId`, `level`,
 *   `statusMessage`, `usageDetails`);
 * - the Anthropic Python SDK's `MessageStream` events: `build_events` in
 *   `anthropic/lib/streaming/_messages.py` yields each raw event, then a
 *   `text` / `input_json` (with `snapshot`) event after a delta, and a
 *   `content_block_stop` / `message_stop` carrying the whole block / message;
 * - Claude Managed Agents session events (the Managed Agents API reference's
 *   event types and the SDKs' `BetaManagedAgents*Event` fields: `id`, `name`,
 *   `input`, `tool_use_id`, `mcp_tool_use_id`, `is_error`, `deny_message`),
 *   logged as `[event-name, payload]` pairs.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import "../lib/base/_heavy.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { InputError } from "../lib/base/errors.ts";
import { callFailed, type FormatName } from "../lib/scoring/calls.ts";

const REAL = "testdata/formats/real";

function read(value: unknown, format: "auto" | FormatName = "auto") {
  return tracesFromText(JSON.stringify(value), "doc.json", { format });
}

Deno.test("tracesFromText() reads the Braintrust OTel export as 2 traces, one per trace id, with its call", () => {
  const path = `${REAL}/braintrust-otel-python-export.json`;
  for (const format of ["auto", "otel"] as const) {
    const traces = tracesFromText(Deno.readTextFileSync(path), path, { format });
    assert.equal(traces.length, 2);
    assert.deepEqual(traces.map((t) => t.calls.map((c) => c.tool)), [["lookup_order"], []]);
    assert.deepEqual(traces[0]?.calls[0]?.args, { order_id: "A-1187" });
    assert.equal(traces[0]?.calls[0]?.id, "call_9RtYbK2mXqLp");
  }
});

Deno.test("tracesFromText() reads a Braintrust tool span as an executed call with its outcome", () => {
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const span = (spanId: string, parentSpanId: string | undefined, attributes: unknown[]) => ({
    traceId: "t1",
    spanId,
    parentSpanId,
    name: "span",
    startTimeUnixNano: spanId === "a" ? "1000000000" : "2000000000",
    endTimeUnixNano: "3000000000",
    attributes,
    status: spanId === "b" ? { code: 2, message: "lookup failed" } : {},
  });
  const [trace] = read({
    resourceSpans: [{
      scopeSpans: [{
        spans: [
          span("a", undefined, [attr("braintrust.span_attributes", '{"type": "task"}')]),
          span("b", "a", [
            attr("braintrust.span_attributes", '{"type": "tool", "name": "lookup_order"}'),
            attr("braintrust.input_json", '{"order_id": "A-1"}'),
            attr("braintrust.output_json", '{"error": "not found"}'),
          ]),
        ],
      }],
    }],
  });
  assert.equal(trace?.calls.length, 1);
  assert.equal(trace?.calls[0]?.tool, "lookup_order");
  assert.deepEqual(trace?.calls[0]?.args, { order_id: "A-1" });
  assert.equal(trace?.calls[0]?.error, "lookup failed");
  assert.equal(trace?.calls[0]?.durationS, 1);
});

// Built from Langfuse's public API schema (TraceWithFullDetails, ObservationsView): no public
// export with tool observations was found.
const LANGFUSE = {
  trace: { id: "t-1", name: "weather-agent", input: "Weather in Paris?", output: null },
  observations: [
    {
      id: "o-agent",
      traceId: "t-1",
      type: "AGENT",
      name: "invoke_agent weather",
      parentObservationId: null,
      startTime: "2025-06-01T10:00:00.000Z",
      endTime: "2025-06-01T10:00:03.000Z",
      level: "DEFAULT",
    },
    {
      id: "o-gen1",
      traceId: "t-1",
      type: "GENERATION",
      name: "chat gpt-4o",
      parentObservationId: "o-agent",
      model: "gpt-4o-2024-08-06",
      startTime: "2025-06-01T10:00:00.100Z",
      endTime: "2025-06-01T10:00:01.000Z",
      output: {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "call_1",
          type: "function",
          function: { name: "get_weather", arguments: '{"city":"Paris"}' },
        }],
      },
      usageDetails: { input: 120, output: 20, total: 140 },
      level: "DEFAULT",
    },
    {
      id: "o-tool2",
      traceId: "t-1",
      type: "TOOL",
      name: "execute_tool get_forecast",
      parentObservationId: "o-agent",
      startTime: "2025-06-01T10:00:01.500Z",
      endTime: "2025-06-01T10:00:01.600Z",
      input: '{"city": "Paris", "days": 3}',
      output: null,
      level: "ERROR",
      statusMessage: "forecast service unavailable",
    },
    {
      id: "o-tool1",
      traceId: "t-1",
      type: "TOOL",
      name: "get_weather",
      parentObservationId: "o-agent",
      startTime: "2025-06-01T10:00:01.100Z",
      endTime: "2025-06-01T10:00:01.400Z",
      input: { city: "Paris" },
      output: { temp_c: 18, sky: "sunny" },
      level: "DEFAULT",
    },
    {
      id: "o-gen2",
      traceId: "t-1",
      type: "GENERATION",
      name: "chat gpt-4o",
      parentObservationId: "o-agent",
      model: "gpt-4o-2024-08-06",
      startTime: "2025-06-01T10:00:01.700Z",
      endTime: "2025-06-01T10:00:02.900Z",
      output: { role: "assistant", content: "It is 18°C and sunny in Paris." },
      usage: { input: 180, output: 12, total: 192, unit: "TOKENS" },
      level: "DEFAULT",
    },
  ],
};

Deno.test("tracesFromText() reads a Langfuse export's TOOL observations in start order (synthetic, from the API schema)", () => {
  for (const format of ["auto", "langfuse"] as const) {
    const [trace, ...rest] = read(LANGFUSE, format);
    assert.equal(rest.length, 0);
    assert.equal(trace?.format, "langfuse");
    assert.deepEqual(trace?.calls.map((c) => c.tool), ["get_weather", "get_forecast"]);
    assert.deepEqual(trace?.calls[1]?.args, { city: "Paris", days: 3 });
    assert.equal(trace?.calls[0]?.isError, false);
    assert.equal(trace?.calls[1]?.error, "forecast service unavailable");
    assert.equal(trace?.calls[1]?.metadata?.parent_observation_id, "o-agent");
    assert.equal(trace?.finalAnswer, "It is 18°C and sunny in Paris.");
    assert.deepEqual(trace?.usage, { inputTokens: 300, outputTokens: 32 });
    assert.equal(trace?.model, "gpt-4o-2024-08-06");
  }
});

Deno.test("tracesFromText() reads a Langfuse export without TOOL observations from its generations' requests", () => {
  const observations = LANGFUSE.observations.filter((o) => o.type !== "TOOL");
  const [trace] = read({ ...LANGFUSE, observations });
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.id, c.result]), [
    ["get_weather", "call_1", undefined],
  ]);
});

Deno.test("tracesFromText() reads a list of Langfuse exports (API traces) as one trace each", () => {
  const api = { ...LANGFUSE.trace, id: "t-2", observations: LANGFUSE.observations.slice(3, 4) };
  const traces = read([LANGFUSE, api]);
  assert.deepEqual(traces.map((t) => [t.format, t.calls.length]), [["langfuse", 2], [
    "langfuse",
    1,
  ]]);
  assert.deepEqual(traces.map((t) => t.metadata?.trace_id), ["t-1", "t-2"]);
});

Deno.test("tracesFromText() refuses a Langfuse TOOL observation that names no tool", () => {
  const doc = { trace: { id: "t" }, observations: [{ id: "o", type: "TOOL", name: " " }] };
  assert.throws(
    () => read(doc),
    (e) => e instanceof InputError && /names? no|has no name/.test(e.message),
  );
});

Deno.test("tracesFromText() refuses a fast-agent call that names no tool, never 0 calls", () => {
  const doc = {
    messages: [{
      role: "assistant",
      content: [],
      tool_calls: { c1: { method: "tools/call", params: {} } },
    }],
  };
  assert.throws(
    () => read(doc),
    (e) => e instanceof InputError && /tool_calls\.c1 names no tool/.test(e.message),
  );
});

Deno.test("fastAgentReader reads every call of a history and pairs each result by id (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ name: fc.stringMatching(/^[a-z_]{1,12}$/), error: fc.boolean() }), {
        minLength: 1,
        maxLength: 8,
      }),
      (entries) => {
        const messages: unknown[] = [{ role: "user", content: [{ type: "text", text: "go" }] }];
        entries.forEach((entry, i) => {
          messages.push({
            role: "assistant",
            content: [],
            tool_calls: {
              [`id${i}`]: { method: "tools/call", params: { name: entry.name, arguments: { i } } },
            },
          });
          messages.push({
            role: "user",
            content: [],
            tool_results: {
              [`id${i}`]: { content: [{ type: "text", text: `r${i}` }], isError: entry.error },
            },
          });
        });
        const [trace] = read({ messages });
        assert.equal(trace?.format, "fast-agent");
        assert.deepEqual(trace?.calls.map((c) => c.tool), entries.map((e) => e.name));
        assert.deepEqual(trace?.calls.map((c) => callFailed(c)), entries.map((e) => e.error));
        assert.deepEqual(trace?.calls.map((c) => c.args), entries.map((_, i) => ({ i })));
      },
    ),
    { numRuns: 50 },
  );
});

// Built from the Anthropic Python SDK's MessageStream (build_events): each raw event, then its
// derived event. No public JSONL dump of these was found.
const DERIVED = [
  {
    type: "message_start",
    message: {
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [],
      stop_reason: null,
      usage: { input_tokens: 410, output_tokens: 1 },
    },
  },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me check." } },
  { type: "text", text: "Let me check.", snapshot: "Let me check." },
  { type: "content_block_stop", index: 0, content_block: { type: "text", text: "Let me check." } },
  {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_01", name: "get_weather", input: {} },
  },
  {
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: '{"city": "Pa' },
  },
  { type: "input_json", partial_json: '{"city": "Pa', snapshot: { city: "Pa" } },
  {
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: 'ris"}' },
  },
  { type: "input_json", partial_json: 'ris"}', snapshot: { city: "Paris" } },
  {
    type: "content_block_stop",
    index: 1,
    content_block: {
      type: "tool_use",
      id: "toolu_01",
      name: "get_weather",
      input: { city: "Paris" },
    },
  },
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 52 } },
  {
    type: "message_stop",
    message: {
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 410, output_tokens: 52 },
    },
  },
];

Deno.test("tracesFromText() reads an Anthropic SDK MessageStream dump with derived events once (synthetic, from the SDK source)", () => {
  const jsonl = DERIVED.map((e) => JSON.stringify(e)).join("\n");
  for (const format of ["auto", "anthropic"] as const) {
    const traces = tracesFromText(jsonl, "stream.jsonl", { format });
    assert.equal(traces.length, 1);
    assert.equal(traces[0]?.format, "anthropic");
    assert.deepEqual(traces[0]?.calls.map((c) => [c.tool, c.id, c.args]), [
      ["get_weather", "toolu_01", { city: "Paris" }],
    ]);
    assert.deepEqual(traces[0]?.usage, { inputTokens: 410, outputTokens: 52 });
  }
  // Without the final snapshot events, the raw deltas still give the call once.
  const raw = DERIVED.filter((e) => e.type !== "message_stop" && e.type !== "content_block_stop");
  const [trace] = tracesFromText(raw.map((e) => JSON.stringify(e)).join("\n"), "s.jsonl", {
    format: "auto",
  });
  assert.deepEqual(trace?.calls.map((c) => c.args), [{ city: "Paris" }]);
});

Deno.test("tracesFromText() reads mcp-recorder lines with their summary line, also under --format mcp", () => {
  const path = `${REAL}/mcprecorder-echo-session.jsonl`;
  for (const format of ["auto", "mcp"] as const) {
    const [trace] = tracesFromText(Deno.readTextFileSync(path), path, { format });
    assert.equal(trace?.calls.length, 1);
    // t is Unix seconds: 1776658414.953 → .969 is 16 ms.
    assert.ok(Math.abs((trace?.calls[0]?.durationS ?? 0) - 0.016) < 1e-6);
  }
});

// Built from the Managed Agents API's session event schema: no public log was found.
const MANAGED_AGENTS = [
  ["user.message", { id: "sevt_01", content: [{ type: "text", text: "List the files." }] }],
  ["session.status_running", { id: "sevt_02" }],
  ["agent.thinking", { id: "sevt_03" }],
  ["agent.tool_use", { id: "sevt_04", name: "bash", input: { command: "ls" } }],
  [
    "agent.tool_result",
    { id: "sevt_05", tool_use_id: "sevt_04", content: [{ type: "text", text: "README.md" }] },
  ],
  ["agent.mcp_tool_use", { id: "sevt_06", name: "fetch_page", input: { url: "https://a.test" } }],
  [
    "agent.mcp_tool_result",
    {
      id: "sevt_07",
      mcp_tool_use_id: "sevt_06",
      content: [{ type: "text", text: "timeout" }],
      is_error: true,
    },
  ],
  ["agent.custom_tool_use", { id: "sevt_08", name: "delete_file", input: { path: "src" } }],
  ["session.status_idle", { id: "sevt_09", stop_reason: { type: "requires_action" } }],
  ["user.tool_confirmation", {
    id: "sevt_10",
    tool_use_id: "sevt_08",
    result: "deny",
    deny_message: "not allowed",
  }],
  ["agent.message", { id: "sevt_11", content: [{ type: "text", text: "There is a README." }] }],
  ["session.status_idle", { id: "sevt_12", stop_reason: { type: "end_turn" } }],
];

Deno.test("tracesFromText() reads a Claude Managed Agents event log of [name, payload] lines under anthropic (synthetic, from the API schema)", () => {
  const jsonl = MANAGED_AGENTS.map((e) => JSON.stringify(e)).join("\n");
  for (const format of ["auto", "anthropic"] as const) {
    const [trace, ...rest] = tracesFromText(jsonl, "session.jsonl", { format });
    assert.equal(rest.length, 0);
    assert.equal(trace?.format, "anthropic");
    assert.deepEqual(trace?.calls.map((c) => [c.tool, c.id, callFailed(c)]), [
      ["bash", "sevt_04", false],
      ["fetch_page", "sevt_06", true],
      ["delete_file", "sevt_08", true],
    ]);
    assert.equal(trace?.calls[0]?.result, "README.md");
    assert.equal(trace?.calls[2]?.error, "denied: not allowed");
    assert.equal(trace?.finalAnswer, "There is a README.");
  }
  // The events as objects with their type read the same.
  const typed = MANAGED_AGENTS.map(([type, payload]) =>
    JSON.stringify({ type, ...payload as object })
  );
  const [trace] = tracesFromText(typed.join("\n"), "events.jsonl", { format: "auto" });
  assert.equal(trace?.calls.length, 3);
});

Deno.test("tracesFromText() refuses a Managed Agents tool_use event without a name, never 0 calls", () => {
  const jsonl = [
    JSON.stringify(["agent.tool_use", { id: "sevt_1", input: {} }]),
    JSON.stringify(["session.status_idle", {}]),
  ].join("\n");
  assert.throws(() => tracesFromText(jsonl, "s.jsonl", { format: "auto" }), InputError);
});

// The API server's `/run` answer as ADK's deployment docs print it (camelCase events, call ids).
const ADK_RUN = [
  {
    content: {
      parts: [{ functionCall: { id: "adk-1", args: { sides: 50 }, name: "roll_die" } }],
      role: "model",
    },
    usageMetadata: { candidatesTokenCount: 5, promptTokenCount: 555, totalTokenCount: 560 },
    invocationId: "e-1",
    author: "hello_world_agent",
    actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {} },
    id: "uolapJWG",
    timestamp: 1750052502.569582,
  },
  {
    content: {
      parts: [{ functionResponse: { id: "adk-1", name: "roll_die", response: { result: 13 } } }],
      role: "user",
    },
    invocationId: "e-1",
    author: "hello_world_agent",
    actions: { stateDelta: { rolls: [13] } },
    id: "1pMoqAFd",
  },
  {
    content: { parts: [{ text: "I rolled a 50 sided die and got 13.\n" }], role: "model" },
    usageMetadata: { candidatesTokenCount: 15, promptTokenCount: 565, totalTokenCount: 580 },
    invocationId: "e-1",
    author: "hello_world_agent",
    actions: {},
    id: "Q7gQktaR",
  },
];

Deno.test("tracesFromText() reads an ADK /run event list with call ids and usage", () => {
  for (const format of ["auto", "adk"] as const) {
    const [trace] = read(ADK_RUN, format);
    assert.equal(trace?.format, "adk");
    assert.deepEqual(trace?.calls.map((c) => [c.tool, c.id, c.result]), [
      ["roll_die", "adk-1", { result: 13 }],
    ]);
    assert.equal(trace?.finalAnswer, "I rolled a 50 sided die and got 13.\n");
    assert.deepEqual(trace?.usage, { inputTokens: 1120, outputTokens: 20 });
  }
  const session = { id: "s", events: [{ ...ADK_RUN[0], partial: true }, ...ADK_RUN] };
  assert.equal(read(session)[0]?.calls.length, 1, "a partial event is not read again");
});

Deno.test("tracesFromText() refuses an ADK functionCall without a name, naming the event", () => {
  const events = [{
    author: "a",
    invocationId: "e",
    content: { role: "model", parts: [{ functionCall: { args: {} } }] },
  }];
  assert.throws(
    () => read({ id: "s", events }),
    (e) => e instanceof InputError && /events\[0\]\.content\.parts\[0\]/.test(e.message),
  );
});

Deno.test("fastAgentReader marks an answer cut at maxTokens as truncated", () => {
  const [trace] = read({
    messages: [
      { role: "user", content: [{ type: "text", text: "essay" }], is_template: false },
      {
        role: "assistant",
        content: [{ type: "text", text: "Once upon" }],
        stop_reason: "maxTokens",
      },
    ],
  });
  assert.equal(trace?.finalAnswer, "Once upon");
  assert.equal(trace?.finalAnswerTruncated, true);
});
