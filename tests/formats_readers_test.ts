import assert from "node:assert/strict";
import { evaluate } from "../mod.ts";
import { traceFromValue } from "../lib/formats/detect.ts";
import { mcpContentText } from "../lib/formats/mcp.ts";
import { decodeAnyValue } from "../lib/formats/otel.ts";

Deno.test("evaluate() counts malformed argument JSON as wrong arguments, never as {}", () => {
  const gold = [{ tool: "search", args: { q: "deno" } }];
  const malformed = [{
    role: "assistant",
    tool_calls: [{
      id: "c",
      type: "function",
      function: { name: "search", arguments: '{"q": "deno"' },
    }],
  }];
  const wellFormed = [{
    role: "assistant",
    tool_calls: [{
      id: "c",
      type: "function",
      function: { name: "search", arguments: '{"q": "deno"}' },
    }],
  }];
  assert.equal(evaluate(gold, wellFormed).argumentF1, 1);
  assert.equal(evaluate(gold, malformed).argumentF1, 0);
  assert.equal(evaluate([{ tool: "search", args: {} }], malformed).argumentF1, 0);
});

Deno.test("openai: a legacy function message pairs with the earliest unanswered call of its name", () => {
  const trace = traceFromValue([
    { role: "assistant", content: null, function_call: { name: "a", arguments: "{}" } },
    { role: "assistant", content: null, function_call: { name: "b", arguments: "{}" } },
    { role: "function", name: "b", content: "B" },
    { role: "function", name: "a", content: "A" },
  ]);
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.result]), [["a", "A"], ["b", "B"]]);
});

Deno.test("openai: a completion appended to its request messages is one transcript", () => {
  const trace = traceFromValue({
    model: "gpt-4o",
    messages: [{ role: "user", content: "hi" }],
    choices: [{
      index: 0,
      message: { role: "assistant", content: "hello" },
      finish_reason: "stop",
    }],
    usage: { prompt_tokens: 3, completion_tokens: 1 },
  });
  assert.deepEqual(trace, {
    calls: [],
    format: "openai",
    finalAnswer: "hello",
    model: "gpt-4o",
    usage: { inputTokens: 3, outputTokens: 1 },
    notes: ["no tool calls: the openai transcript holds no tool call"],
  });
});

Deno.test("openai-responses: hosted tool calls, custom tools and a list of responses", () => {
  const trace = traceFromValue([
    {
      object: "response",
      model: "gpt-5",
      output: [
        {
          type: "web_search_call",
          id: "ws_1",
          status: "completed",
          action: { type: "search", query: "deno" },
        },
        { type: "custom_tool_call", call_id: "ct_1", name: "run_sql", input: "SELECT 1" },
      ],
      usage: { input_tokens: 10, output_tokens: 5 },
    },
    {
      object: "response",
      model: "gpt-5",
      output: [
        { type: "file_search_call", id: "fs_1", status: "failed", queries: ["q"] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] },
      ],
      usage: { input_tokens: 20, output_tokens: 7 },
    },
  ]);
  assert.equal(trace.format, "openai-responses");
  assert.deepEqual(trace.calls, [
    // The server ran it: status completed is a known success (issue 14).
    { tool: "web_search", args: { type: "search", query: "deno" }, id: "ws_1", isError: false },
    { tool: "run_sql", args: { input: "SELECT 1" }, id: "ct_1" },
    { tool: "file_search", args: { queries: ["q"] }, isError: true, error: "failed", id: "fs_1" },
  ]);
  assert.equal(trace.finalAnswer, "done");
  assert.deepEqual(trace.usage, { inputTokens: 30, outputTokens: 12 });
});

Deno.test("anthropic: a server tool's error result and a bare list of blocks", () => {
  const trace = traceFromValue([
    { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "x" } },
    {
      type: "web_search_tool_result",
      tool_use_id: "srv_1",
      content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" },
    },
    { type: "text", text: "Search is unavailable." },
  ]);
  assert.equal(trace.format, "anthropic");
  assert.equal(trace.calls[0]?.error, "max_uses_exceeded");
  assert.equal(trace.calls[0]?.isError, true);
  assert.equal(trace.finalAnswer, "Search is unavailable.");
});

Deno.test("gemini: results pair by id when given, else by name and order; stream usage is not summed", () => {
  const trace = traceFromValue([
    {
      candidates: [{
        content: {
          role: "model",
          parts: [
            { functionCall: { id: "x1", name: "f", args: { n: 1 } } },
            { functionCall: { id: "x2", name: "f", args: { n: 2 } } },
          ],
        },
      }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4 },
      responseId: "r1",
    },
    {
      candidates: [{ content: { role: "model", parts: [{ text: "thinking aloud" }] } }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 9 },
      responseId: "r1",
    },
  ]);
  assert.deepEqual(trace.usage, { inputTokens: 10, outputTokens: 9 });
  const paired = traceFromValue({
    contents: [
      {
        role: "model",
        parts: [
          { functionCall: { id: "x1", name: "f", args: { n: 1 } } },
          { functionCall: { id: "x2", name: "f", args: { n: 2 } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "x2", name: "f", response: { output: "two" } } },
          { functionResponse: { id: "x1", name: "f", response: { output: "one" } } },
        ],
      },
    ],
  });
  assert.deepEqual(paired.calls.map((c) => c.result), [{ output: "one" }, { output: "two" }]);
  const code = traceFromValue([
    { executableCode: { language: "PYTHON", code: "1/0" } },
    { codeExecutionResult: { outcome: "OUTCOME_FAILED", output: "ZeroDivisionError" } },
  ]);
  assert.deepEqual(code.calls, [{
    tool: "code_execution",
    args: { language: "PYTHON", code: "1/0" },
    result: "ZeroDivisionError",
    error: "OUTCOME_FAILED",
  }]);
});

Deno.test("mcp: batches, numeric ids and unanswered requests", () => {
  const trace = traceFromValue([
    [
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "a", arguments: { x: 0 } } },
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "b" } },
    ],
    { jsonrpc: "2.0", id: 7, result: { content: [], isError: false } },
  ]);
  assert.deepEqual(trace.calls, [
    { tool: "a", args: { x: 0 }, id: "7", result: "", isError: false },
    { tool: "b", args: {}, id: "8" },
  ]);
  assert.equal(
    mcpContentText([{ type: "resource_link", uri: "file:///a" }, {
      type: "resource",
      resource: { uri: "x://b" },
    }]),
    "[resource_link file:///a]\n[resource x://b]",
  );
});

Deno.test("langchain: messages_to_dict and lc-serialized messages read like plain dicts", () => {
  const trace = traceFromValue([
    { type: "human", data: { content: "hi", type: "human" } },
    {
      type: "ai",
      data: {
        content: "",
        tool_calls: [{ name: "f", args: { a: 1 }, id: "t1", type: "tool_call" }],
        type: "ai",
      },
    },
    {
      lc: 1,
      type: "constructor",
      id: ["langchain", "schema", "messages", "ToolMessage"],
      kwargs: { content: "ok", tool_call_id: "t1", status: "success" },
    },
    { type: "AIMessageChunk", content: "All good." },
  ]);
  assert.equal(trace.format, "langchain");
  assert.deepEqual(trace.calls, [{
    tool: "f",
    args: { a: 1 },
    id: "t1",
    result: "ok",
    isError: false,
  }]);
  assert.equal(trace.finalAnswer, "All good.");
});

Deno.test("otel: AnyValue decoding, exact nanosecond durations, start-time order, merged MCP child spans", () => {
  assert.equal(decodeAnyValue({ doubleValue: 1.5 }), 1.5);
  assert.deepEqual(decodeAnyValue({ arrayValue: { values: [{ stringValue: "a" }, {}] } }), [
    "a",
    null,
  ]);
  const span = (
    id: string,
    start: string,
    end: string | undefined,
    attrs: Record<string, string>,
    parent?: string,
  ) => ({
    spanId: id,
    parentSpanId: parent,
    name: `execute_tool ${attrs["gen_ai.tool.name"] ?? ""}`.trim(),
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
  });
  const op = { "gen_ai.operation.name": "execute_tool" };
  const trace = traceFromValue({
    resourceSpans: [{
      scopeSpans: [{
        spans: [
          span("b", "1733000000000000002", "1733000000000000003", {
            ...op,
            "gen_ai.tool.name": "second",
          }),
          span("a", "1733000000000000001", "1733000000900000001", {
            ...op,
            "gen_ai.tool.name": "first",
          }),
          span("c", "1733000000000000001", "1733000000000000002", {
            "mcp.method.name": "tools/call",
            "gen_ai.tool.name": "first",
            "gen_ai.tool.call.result": "from the child",
          }, "a"),
          span("d", "1733000000000000009", undefined, { ...op, "gen_ai.tool.name": "unfinished" }),
        ],
      }],
    }],
  });
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.durationS, c.result, c.isError]), [
    ["first", 0.9, "from the child", false],
    ["second", 1e-9, undefined, false],
    ["unfinished", undefined, undefined, undefined],
  ]);
});
