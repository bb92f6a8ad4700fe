// Every OpenTelemetry convention in use: the same logical call seen in two
// spans (a model span's messages and a tool span, or two model spans) is read
// once, and token usage is counted once per model call. Spans are OTLP JSON
// with the attribute names each convention documents.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import fc from "fast-check";
import { detectFormat, traceFromValue, tracesFromText } from "../lib/formats/detect.ts";
import { InputError } from "../lib/base/errors.ts";

type Attr = string | number | boolean;

function anyValue(value: Attr) {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
}

interface SpanSpec {
  id: string;
  parent?: string;
  name: string;
  start: number; // milliseconds
  end: number;
  attrs: Record<string, Attr>;
  /** A failure: the status message, or `""` for none. */
  error?: string;
}

function otlp(spans: SpanSpec[]) {
  return {
    resourceSpans: [{
      resource: { attributes: [] },
      scopeSpans: [{
        scope: { name: "test" },
        spans: spans.map((s) => ({
          traceId: "0af7651916cd43dd8448eb211c80319c",
          spanId: s.id,
          ...(s.parent ? { parentSpanId: s.parent } : {}),
          name: s.name,
          startTimeUnixNano: String(BigInt(s.start) * 1_000_000n),
          endTimeUnixNano: String(BigInt(s.end) * 1_000_000n),
          attributes: Object.entries(s.attrs).map(([key, value]) => ({
            key,
            value: anyValue(value),
          })),
          status: s.error === undefined ? { code: 0 } : s.error === ""
            ? { code: 2 } // failed, no status message
            : { code: 2, message: s.error },
        })),
      }],
    }],
  };
}

const json = JSON.stringify;

Deno.test("otel GenAI: a call in a chat span's output, its execute_tool span and the next chat's input is one call; an agent span's usage is not added again", () => {
  const doc = otlp([
    {
      id: "a0",
      name: "invoke_agent weather",
      start: 0,
      end: 5000,
      attrs: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.usage.input_tokens": 250,
        "gen_ai.usage.output_tokens": 50,
      },
    },
    {
      id: "c1",
      parent: "a0",
      name: "chat gpt-4o",
      start: 100,
      end: 1000,
      attrs: {
        "gen_ai.operation.name": "chat",
        "gen_ai.response.model": "gpt-4o-2024-08-06",
        "gen_ai.usage.input_tokens": 100,
        "gen_ai.usage.output_tokens": 20,
        "gen_ai.output.messages": json([{
          role: "assistant",
          parts: [{
            type: "tool_call",
            id: "call_1",
            name: "get_weather",
            arguments: { city: "Paris" },
          }],
        }]),
      },
    },
    {
      id: "t1",
      parent: "a0",
      name: "execute_tool get_weather",
      start: 1100,
      end: 1600,
      attrs: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.tool.call.result": '{"temp_c":18}',
      },
    },
    {
      id: "c2",
      parent: "a0",
      name: "chat gpt-4o",
      start: 1700,
      end: 2500,
      attrs: {
        "gen_ai.operation.name": "chat",
        "gen_ai.usage.input_tokens": 150,
        "gen_ai.usage.output_tokens": 30,
        "gen_ai.input.messages": json([
          { role: "user", parts: [{ type: "text", content: "Weather in Paris?" }] },
          {
            role: "assistant",
            parts: [{
              type: "tool_call",
              id: "call_1",
              name: "get_weather",
              arguments: { city: "Paris" },
            }],
          },
          { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "18°C" }] },
        ]),
        "gen_ai.output.messages": json([{
          role: "assistant",
          parts: [{ type: "text", content: "It is 18°C in Paris." }],
        }]),
      },
    },
  ]);
  const trace = traceFromValue(doc, { source: "genai.json" });
  assert.equal(trace.format, "otel");
  assert.deepEqual(trace.calls, [{
    tool: "get_weather",
    args: { city: "Paris" },
    id: "call_1",
    result: { temp_c: 18 },
    isError: false,
    durationS: 0.5,
    metadata: { span_id: "t1", trace_id: "0af7651916cd43dd8448eb211c80319c" },
  }]);
  // The two chat spans' own usage; the agent span repeats their sum.
  assert.deepEqual(trace.usage, { inputTokens: 250, outputTokens: 50 });
  assert.equal(trace.model, "gpt-4o-2024-08-06");
  assert.equal(trace.finalAnswer, "It is 18°C in Paris.");
});

Deno.test("otel GenAI: a call seen only in messages takes its result from the tool_call_response", () => {
  const trace = traceFromValue(otlp([
    {
      id: "c1",
      name: "chat m",
      start: 0,
      end: 10,
      attrs: {
        "gen_ai.operation.name": "chat",
        "gen_ai.output.messages": json([{
          role: "assistant",
          parts: [{ type: "tool_call", id: "x1", name: "lookup", arguments: { q: "a" } }],
        }]),
      },
    },
    {
      id: "c2",
      name: "chat m",
      start: 20,
      end: 30,
      attrs: {
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": json([
          {
            role: "tool",
            parts: [{ type: "tool_call_response", id: "x1", response: { error: "no such key" } }],
          },
        ]),
      },
    },
  ]));
  assert.equal(trace.calls.length, 1);
  assert.equal(trace.calls[0]?.error, "no such key");
});

Deno.test("otel OpenLLMetry: completion tool_calls, the traceloop tool span and the next prompt's history are one call", () => {
  const trace = traceFromValue(otlp([
    {
      id: "w0",
      name: "agent.workflow",
      start: 0,
      end: 3000,
      attrs: { "traceloop.span.kind": "workflow", "traceloop.entity.name": "agent" },
    },
    {
      id: "c1",
      parent: "w0",
      name: "openai.chat",
      start: 10,
      end: 900,
      attrs: {
        "llm.request.type": "chat",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.prompt_tokens": 80,
        "gen_ai.usage.completion_tokens": 12,
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "weather in Oslo?",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.finish_reason": "tool_calls",
        "gen_ai.completion.0.tool_calls.0.id": "call_oslo",
        "gen_ai.completion.0.tool_calls.0.name": "get_weather",
        "gen_ai.completion.0.tool_calls.0.arguments": '{"city": "Oslo"}',
      },
    },
    {
      id: "t1",
      parent: "w0",
      name: "get_weather.tool",
      start: 1000,
      end: 1250,
      attrs: {
        "traceloop.span.kind": "tool",
        "traceloop.entity.name": "get_weather",
        "traceloop.entity.input": '{"args": [], "kwargs": {"city": "Oslo"}}',
        "traceloop.entity.output": '"-2°C, snow"',
      },
    },
    {
      id: "c2",
      parent: "w0",
      name: "openai.chat",
      start: 1300,
      end: 2000,
      attrs: {
        "llm.request.type": "chat",
        "gen_ai.usage.prompt_tokens": 120,
        "gen_ai.usage.completion_tokens": 9,
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "weather in Oslo?",
        "gen_ai.prompt.1.role": "assistant",
        "gen_ai.prompt.1.tool_calls.0.id": "call_oslo",
        "gen_ai.prompt.1.tool_calls.0.name": "get_weather",
        "gen_ai.prompt.1.tool_calls.0.arguments": '{"city": "Oslo"}',
        "gen_ai.prompt.2.role": "tool",
        "gen_ai.prompt.2.tool_call_id": "call_oslo",
        "gen_ai.prompt.2.content": "-2°C, snow",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "It is -2°C with snow in Oslo.",
      },
    },
  ]));
  assert.equal(trace.calls.length, 1);
  const call = trace.calls[0];
  assert.equal(call?.tool, "get_weather");
  assert.deepEqual(call?.args, { city: "Oslo" });
  assert.equal(call?.id, "call_oslo");
  assert.equal(call?.result, "-2°C, snow");
  assert.equal(call?.isError, false);
  assert.equal(call?.durationS, 0.25);
  assert.deepEqual(trace.usage, { inputTokens: 200, outputTokens: 21 });
  assert.equal(trace.finalAnswer, "It is -2°C with snow in Oslo.");
});

Deno.test("otel OpenInference: output tool_calls, the TOOL span and the next LLM span's input are one call; the AGENT span's token counts are not added again", () => {
  const trace = traceFromValue(otlp([
    {
      id: "g0",
      name: "Agent",
      start: 0,
      end: 4000,
      attrs: {
        "openinference.span.kind": "AGENT",
        "llm.token_count.prompt": 300,
        "llm.token_count.completion": 40,
      },
    },
    {
      id: "l1",
      parent: "g0",
      name: "ChatOpenAI",
      start: 10,
      end: 800,
      attrs: {
        "openinference.span.kind": "LLM",
        "llm.model_name": "gpt-4-0613",
        "llm.token_count.prompt": 97,
        "llm.token_count.completion": 12,
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": "1234",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_weather",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":
          '{"location":"Paris"}',
      },
    },
    {
      id: "t1",
      parent: "g0",
      name: "get_weather",
      start: 900,
      end: 1900,
      attrs: {
        "openinference.span.kind": "TOOL",
        "tool.name": "get_weather",
        "tool.parameters": '{"type":"object","properties":{"location":{"type":"string"}}}',
        "input.value": '{"location":"Paris"}',
        "output.value": "rainy, 57°F",
      },
    },
    {
      id: "l2",
      parent: "g0",
      name: "ChatOpenAI",
      start: 2000,
      end: 3000,
      attrs: {
        "openinference.span.kind": "LLM",
        "llm.token_count.prompt": 203,
        "llm.token_count.completion": 28,
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "Weather in Paris?",
        "llm.input_messages.1.message.role": "assistant",
        "llm.input_messages.1.message.tool_calls.0.tool_call.id": "1234",
        "llm.input_messages.1.message.tool_calls.0.tool_call.function.name": "get_weather",
        "llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments":
          '{"location":"Paris"}',
        "llm.input_messages.2.message.role": "tool",
        "llm.input_messages.2.message.content": "rainy, 57°F",
        "llm.input_messages.2.message.tool_call_id": "1234",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": "It is rainy and 57°F in Paris.",
      },
    },
  ]));
  assert.equal(trace.calls.length, 1);
  const call = trace.calls[0];
  assert.deepEqual(
    call?.args,
    { location: "Paris" },
    "input.value, not the tool.parameters schema",
  );
  assert.equal(call?.id, "1234");
  assert.equal(call?.result, "rainy, 57°F");
  assert.equal(call?.isError, false);
  assert.equal(call?.durationS, 1);
  assert.deepEqual(trace.usage, { inputTokens: 300, outputTokens: 40 });
  assert.equal(trace.model, "gpt-4-0613");
  assert.equal(trace.finalAnswer, "It is rainy and 57°F in Paris.");
});

Deno.test("otel Vercel AI SDK: ai.response.toolCalls, the ai.toolCall span and ai.prompt.messages are one call; 412 input tokens stay 412", () => {
  const trace = traceFromValue(otlp([
    {
      id: "r0",
      name: "ai.generateText",
      start: 0,
      end: 3000,
      attrs: {
        "ai.operationId": "ai.generateText",
        "ai.model.id": "gpt-4o-mini",
        "ai.usage.promptTokens": 912,
        "ai.usage.completionTokens": 30,
        "ai.response.text": "Sunny, 21°C.",
      },
    },
    {
      id: "d1",
      parent: "r0",
      name: "ai.generateText.doGenerate",
      start: 10,
      end: 900,
      attrs: {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.id": "gpt-4o-mini",
        "ai.usage.promptTokens": 412,
        "ai.usage.completionTokens": 20,
        "gen_ai.usage.input_tokens": 412,
        "gen_ai.usage.output_tokens": 20,
        "ai.response.toolCalls": json([{
          toolCallType: "function",
          toolCallId: "call_w",
          toolName: "weather",
          args: '{"city":"Rome"}',
        }]),
      },
    },
    {
      id: "t1",
      parent: "r0",
      name: "ai.toolCall",
      start: 950,
      end: 1150,
      attrs: {
        "ai.operationId": "ai.toolCall",
        "ai.toolCall.name": "weather",
        "ai.toolCall.id": "call_w",
        "ai.toolCall.args": '{"city":"Rome"}',
        "ai.toolCall.result": '{"temp":21,"sky":"sunny"}',
      },
    },
    {
      id: "d2",
      parent: "r0",
      name: "ai.generateText.doGenerate",
      start: 1200,
      end: 2900,
      attrs: {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.usage.promptTokens": 500,
        "ai.usage.completionTokens": 10,
        "ai.prompt.messages": json([
          { role: "user", content: [{ type: "text", text: "Weather in Rome?" }] },
          {
            role: "assistant",
            content: [{
              type: "tool-call",
              toolCallId: "call_w",
              toolName: "weather",
              input: { city: "Rome" },
            }],
          },
          {
            role: "tool",
            content: [{
              type: "tool-result",
              toolCallId: "call_w",
              toolName: "weather",
              output: { type: "json", value: { temp: 21, sky: "sunny" } },
            }],
          },
        ]),
        "ai.response.text": "Sunny, 21°C.",
      },
    },
  ]));
  assert.equal(trace.calls.length, 1);
  assert.deepEqual(trace.calls[0]?.args, { city: "Rome" });
  assert.deepEqual(trace.calls[0]?.result, { temp: 21, sky: "sunny" });
  assert.equal(trace.calls[0]?.isError, false);
  assert.deepEqual(trace.usage, { inputTokens: 912, outputTokens: 30 });
  assert.equal(trace.finalAnswer, "Sunny, 21°C.");

  const single = traceFromValue(otlp([
    {
      id: "r0",
      name: "ai.generateText",
      start: 0,
      end: 100,
      attrs: { "ai.usage.promptTokens": 412, "ai.usage.completionTokens": 7 },
    },
    {
      id: "d1",
      parent: "r0",
      name: "ai.generateText.doGenerate",
      start: 1,
      end: 99,
      attrs: { "ai.usage.promptTokens": 412, "ai.usage.completionTokens": 7 },
    },
  ]));
  assert.deepEqual(single.usage, { inputTokens: 412, outputTokens: 7 });
});

Deno.test("otel Vercel AI SDK: a failed ai.toolCall span fails the call the model asked for", () => {
  const trace = traceFromValue(otlp([
    {
      id: "d1",
      name: "ai.generateText.doGenerate",
      start: 0,
      end: 10,
      attrs: {
        "ai.response.toolCalls": json([{
          toolCallId: "c9",
          toolName: "pay",
          input: '{"amount":5}',
        }]),
      },
    },
    {
      id: "t1",
      name: "ai.toolCall",
      start: 20,
      end: 30,
      attrs: {
        "ai.toolCall.name": "pay",
        "ai.toolCall.id": "c9",
        "ai.toolCall.args": '{"amount":5}',
      },
      error: "card declined",
    },
  ]));
  assert.equal(trace.calls.length, 1);
  assert.equal(trace.calls[0]?.isError, true);
  assert.equal(trace.calls[0]?.error, "card declined");
});

Deno.test("otel: the real AI SDK 6 span dump counts each model call once (parents repeat their child's usage)", () => {
  const file = "testdata/formats/real/openinference-vercel-v6-all-spans.json";
  const [trace] = tracesFromText(Deno.readTextFileSync(file), file);
  // doGenerate/doStream spans: 14+50+63+15 input, 20+9+156+112 output; their
  // ai.generateText/generateObject/streamText parents repeat the same numbers.
  assert.deepEqual(trace?.usage, { inputTokens: 142, outputTokens: 297 });
});

Deno.test("otel: a tool span or a message tool call without a name is an error, never 0 calls", () => {
  assert.throws(
    () =>
      traceFromValue(
        otlp([{
          id: "t1",
          name: "ai.toolCall",
          start: 0,
          end: 1,
          attrs: { "ai.toolCall.args": "{}" },
        }]),
        { source: "noname.json" },
      ),
    (error: unknown) =>
      error instanceof InputError && /noname\.json/.test(error.message) &&
      /tool span t1 names no tool/.test(error.message),
  );
  assert.throws(
    () =>
      traceFromValue(
        otlp([{
          id: "c1",
          name: "chat m",
          start: 0,
          end: 1,
          attrs: {
            "gen_ai.operation.name": "chat",
            "gen_ai.output.messages": json([{
              role: "assistant",
              parts: [{ type: "tool_call", id: "x" }],
            }]),
          },
        }]),
        { source: "parts.json" },
      ),
    /parts\.json: span c1 records a tool call without a name/,
  );
  assert.throws(
    () =>
      traceFromValue(
        otlp([{
          id: "l1",
          name: "LLM",
          start: 0,
          end: 1,
          attrs: {
            "openinference.span.kind": "LLM",
            "llm.output_messages.0.message.tool_calls.0.tool_call.id": "1",
          },
        }]),
        { source: "oi.json" },
      ),
    /span l1 records a tool call without a name/,
  );
});

Deno.test("otel: ReadableSpan JSON dumped without span ids is read as otel (not custom), its model steps' usage counted once", () => {
  const file = "testdata/formats/real/openinference-mastra-weather-agent-spans.json";
  const [trace] = tracesFromText(Deno.readTextFileSync(file), file);
  assert.equal(trace?.format, "otel");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.id, c.isError]), [
    ["weatherTool", "call_jNucVMVoqwhzfOZ1wfx92lXo", false],
  ]);
  // Parent ids name no span of the file, so the two doStream steps count
  // (179+246, 15+64) and ai.streamText's repeat of their sum (425, 79) does not.
  assert.deepEqual(trace?.usage, { inputTokens: 425, outputTokens: 79 });
  // An id-less list with no OTel start time is not a span list.
  assert.equal(detectFormat([{ name: "x", attributes: {}, startTime: "soon" }]), "custom");
});

Deno.test("otel GenAI: an execute_tool span without gen_ai.tool.call.* takes the generic input and output", () => {
  const trace = traceFromValue(otlp([{
    id: "t1",
    name: "execute_tool get_weather",
    start: 0,
    end: 10,
    attrs: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      input: '{"city": "Oslo"}',
      output: "sunny",
    },
  }, {
    id: "t2",
    name: "execute_tool echo",
    start: 20,
    end: 30,
    attrs: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "gen_ai.tool.call.arguments": '{"text": "a"}',
      "gen_ai.tool.call.result": "a",
      input: '{"ignored": true}',
      output: "ignored",
    },
  }, {
    id: "t3",
    name: "execute_tool ping",
    start: 40,
    end: 50,
    attrs: { "gen_ai.operation.name": "execute_tool", input: "not an object" },
  }]));
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.result]), [
    ["get_weather", { city: "Oslo" }, "sunny"],
    ["echo", { text: "a" }, "a"],
    ["ping", {}, undefined],
  ]);
});

Deno.test("otel OpenInference: Phoenix span JSON (top-level span_kind and status_code) reads its TOOL spans and their failures; the LLM's request is the same call", () => {
  const phoenix = (
    id: string,
    kind: string,
    start: string,
    end: string,
    attributes: Record<string, Attr>,
    status = "OK",
    message = "",
  ) => ({
    name: kind === "TOOL" ? String(attributes["tool.name"]) : "llm",
    context: { trace_id: "t", span_id: id },
    span_kind: kind,
    parent_id: "root",
    start_time: `2026-07-09T00:00:${start}+00:00`,
    end_time: `2026-07-09T00:00:${end}+00:00`,
    status_code: status,
    status_message: message,
    attributes,
    events: [],
  });
  const trace = traceFromValue([
    phoenix("s1", "LLM", "01", "02", {
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c1",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "add_spans",
      "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"ids": [1]}',
    }),
    phoenix(
      "s2",
      "TOOL",
      "03",
      "05",
      { "tool.name": "add_spans", "input.value": '{"ids": [1]}', "output.value": "failed" },
      "ERROR",
      "GraphQL error",
    ),
  ]);
  assert.equal(trace.format, "otel");
  assert.deepEqual(
    trace.calls.map((c) => [c.tool, c.args, c.isError, c.error, c.durationS]),
    [["add_spans", { ids: [1] }, true, "GraphQL error", 2]],
  );
});

Deno.test("otel OpenInference: an AGENT span's plain-text output.value is the final answer; JSON output is not", () => {
  const agent = (output: string, mime?: string) =>
    traceFromValue(otlp([
      {
        id: "g0",
        name: "AgentExecutor",
        start: 0,
        end: 300,
        attrs: {
          "openinference.span.kind": "AGENT",
          "output.value": output,
          ...(mime === undefined ? {} : { "output.mime_type": mime }),
        },
      },
      {
        id: "t1",
        parent: "g0",
        name: "tool.execute",
        start: 100,
        end: 200,
        attrs: { "openinference.span.kind": "TOOL", "tool.name": "cancel_order" },
      },
    ])).finalAnswer;
  assert.equal(agent("Order 123 cancelled."), "Order 123 cancelled.");
  assert.equal(agent('{"output": "Order 123 cancelled."}'), undefined);
  assert.equal(agent("Order 123 cancelled.", "application/json"), undefined);
  assert.equal(agent("  "), undefined);
});

Deno.test("otel OpenLLMetry: tool_calls written as one JSON list under gen_ai.completion.N / gen_ai.prompt.N are read, never 0 calls", () => {
  const call = { id: "call-1", type: "function", function: { name: "calc", arguments: '{"x":2}' } };
  const trace = traceFromValue(otlp([
    {
      id: "c1",
      name: "openai.chat",
      start: 0,
      end: 10,
      attrs: {
        "llm.request.type": "chat",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "",
        "gen_ai.completion.0.tool_calls": json([call]),
      },
    },
    {
      id: "c2",
      name: "openai.chat",
      start: 20,
      end: 30,
      attrs: {
        "llm.request.type": "chat",
        "gen_ai.prompt.0.role": "assistant",
        "gen_ai.prompt.0.tool_calls": json([call]),
        "gen_ai.prompt.1.role": "tool",
        "gen_ai.prompt.1.content": "4",
        "gen_ai.prompt.1.tool_call_id": "call-1",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "It is 4.",
      },
    },
  ]));
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.id, c.result]), [
    ["calc", { x: 2 }, "call-1", "4"],
  ]);
  assert.equal(trace.finalAnswer, "It is 4.");
});

Deno.test("otel: an AI SDK span dump reads the same calls and usage with or without its span ids", () => {
  const name = fc.stringMatching(/^[a-z][a-z_]{0,9}$/);
  const step = fc.record({
    tool: name,
    args: fc.dictionary(name, fc.oneof(fc.string(), fc.integer()), {
      maxKeys: 3,
      noNullPrototype: true,
    }),
    input: fc.nat({ max: 5000 }),
    output: fc.nat({ max: 5000 }),
  }, { noNullPrototype: true });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 5 }), (steps) => {
      const ms = (
        n: number,
      ): [number, number] => [1_700_000_000 + Math.floor(n / 1000), (n % 1000) * 1e6];
      const span = (
        id: string,
        parent: string | undefined,
        spanName: string,
        at: number,
        attributes: Record<string, unknown>,
      ) => ({
        name: spanName,
        spanContext: { traceId: "t", spanId: id },
        ...(parent === undefined ? {} : { parentSpanContext: { traceId: "t", spanId: parent } }),
        parentSpanId: parent,
        startTime: ms(at),
        endTime: ms(at + 10),
        status: { code: 0 },
        attributes,
      });
      const spans = [span("root", undefined, "ai.generateText", 0, {
        "ai.usage.promptTokens": steps.reduce((n, s) => n + s.input, 0),
        "ai.usage.completionTokens": steps.reduce((n, s) => n + s.output, 0),
      })];
      steps.forEach((s, i) => {
        spans.push(span(`g${i}`, "root", "ai.generateText.doGenerate", 100 * i + 1, {
          "ai.response.toolCalls": json([{ toolCallId: `c${i}`, toolName: s.tool, args: s.args }]),
          "ai.usage.promptTokens": s.input,
          "ai.usage.completionTokens": s.output,
        }));
        spans.push(span(`t${i}`, "root", "ai.toolCall", 100 * i + 50, {
          "ai.toolCall.name": s.tool,
          "ai.toolCall.id": `c${i}`,
          "ai.toolCall.args": json(s.args),
          "ai.toolCall.result": "ok",
        }));
      });
      // The same dump without any span's own id: parent ids then name no span of the file.
      const idless = spans.map(({ spanContext: _id, parentSpanContext: _parent, ...rest }) => rest);
      const view = (value: unknown[]) => {
        const trace = traceFromValue(value);
        return {
          calls: trace.calls.map((c) => [c.tool, c.args, c.id, c.isError]),
          usage: trace.usage,
        };
      };
      const expected = {
        calls: steps.map((s, i) => [s.tool, s.args, `c${i}`, false]),
        usage: {
          inputTokens: steps.reduce((n, s) => n + s.input, 0),
          outputTokens: steps.reduce((n, s) => n + s.output, 0),
        },
      };
      assert.deepEqual(view(spans), expected);
      assert.deepEqual(view(idless), expected);
    }),
    { numRuns: 100 },
  );
});

Deno.test("otel OpenInference: a TOOL span without tool.name is named by its span; an error set as exception.message on the span is its error; an AGENT output of null is no answer", () => {
  const trace = traceFromValue(otlp([
    {
      id: "g0",
      name: "agent",
      start: 0,
      end: 3000,
      attrs: { "openinference.span.kind": "AGENT", "output.value": "null" },
    },
    {
      id: "t1",
      parent: "g0",
      name: "weather",
      start: 1000,
      end: 2000,
      attrs: {
        "openinference.span.kind": "TOOL",
        "input.value": '{"city":"London"}',
        "exception.message": "Weather service timed out",
      },
      error: "",
    },
  ]));
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.isError, c.error]), [
    ["weather", { city: "London" }, true, "Weather service timed out"],
  ]);
  assert.equal(trace.finalAnswer, undefined);
});

Deno.test("otel GenAI: a span with gen_ai.tool.call.* but no gen_ai.operation.name is a tool span; a tool name alone is not", () => {
  const tool = (attrs: Record<string, Attr>) =>
    traceFromValue(otlp([
      { id: "c1", name: "chat", start: 0, end: 100, attrs: { "gen_ai.operation.name": "chat" } },
      { id: "t1", parent: "c1", name: "lookup-span", start: 10, end: 20, attrs, error: "boom" },
    ])).calls.map((c) => [c.tool, c.args, c.isError]);
  assert.deepEqual(
    tool({ "gen_ai.tool.name": "lookup", "gen_ai.tool.call.arguments": '{"k":1}' }),
    [["lookup", { k: 1 }, true]],
  );
  assert.deepEqual(tool({ "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": "c" }), [
    ["lookup", {}, true],
  ]);
  assert.throws(
    () => tool({ "gen_ai.tool.name": "lookup" }),
    /read as otel with 0 calls, but it holds tool-call content/,
  );
});

Deno.test("tracesFromText() reads an OTLP export of two linked traces as two traces, an unlinked dump as one", () => {
  const run = (traceId: string, tool: string, q: string) =>
    otlp([
      {
        id: `${traceId}a`,
        name: "invoke_agent helper",
        start: 0,
        end: 10,
        attrs: { "gen_ai.operation.name": "invoke_agent" },
      },
      {
        id: `${traceId}b`,
        parent: `${traceId}a`,
        name: `execute_tool ${tool}`,
        start: 1,
        end: 2,
        attrs: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": tool,
          "gen_ai.tool.call.arguments": json({ q }),
        },
      },
    ]).resourceSpans[0]!.scopeSpans[0]!.spans.map((span) => ({ ...span, traceId }));
  const batch = {
    resourceSpans: [{
      scopeSpans: [{ spans: [...run("t1", "search", "a"), ...run("t2", "fetch", "b")] }],
    }],
  };
  for (const format of ["auto", "otel"] as const) {
    const traces = tracesFromText(json(batch), "batch.json", { format });
    assert.deepEqual(traces.map((t) => t.calls.map((c) => [c.tool, c.args])), [
      [["search", { q: "a" }]],
      [["fetch", { q: "b" }]],
    ]);
    assert.deepEqual(traces.map((t) => t.calls[0]?.metadata?.trace_id), ["t1", "t2"]);
  }
  // The same spans without parent links (a harness's dump) are one trace.
  const unlinked = batch.resourceSpans[0]!.scopeSpans[0]!.spans.map((
    { parentSpanId: _, ...span },
  ) => span);
  const [one, ...rest] = tracesFromText(json({ spans: unlinked }), "dump.json");
  assert.equal(rest.length, 0);
  assert.deepEqual(one?.calls.map((c) => c.tool), ["search", "fetch"]);
});
