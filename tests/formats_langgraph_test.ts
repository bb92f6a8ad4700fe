// LangGraph stream output and LangChain / LangSmith run trees, read as `langchain`.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import fc from "fast-check";
import { traceFromValue, tracesFromText } from "../lib/formats/detect.ts";

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

const HUMAN = { type: "human", content: "What is 3 * 7?", id: "h1" };
const AI_CALL = {
  type: "ai",
  content: "",
  id: "a1",
  tool_calls: [{ name: "multiply", args: { a: 3, b: 7 }, id: "call_m", type: "tool_call" }],
  usage_metadata: { input_tokens: 50, output_tokens: 10, total_tokens: 60 },
  response_metadata: { model_name: "gpt-4o-mini-2024-07-18" },
};
const TOOL = {
  type: "tool",
  content: "21",
  tool_call_id: "call_m",
  name: "multiply",
  status: "success",
  id: "t1",
};
const AI_ANSWER = {
  type: "ai",
  content: "3 * 7 = 21.",
  id: "a2",
  usage_metadata: { input_tokens: 70, output_tokens: 8, total_tokens: 78 },
};

Deno.test("langgraph: stream_mode values tuples — the last state is the run", () => {
  const [trace] = tracesFromText(
    jsonl([
      ["values", { messages: [HUMAN] }],
      ["updates", { agent: { messages: [AI_CALL] } }],
      ["values", { messages: [HUMAN, AI_CALL] }],
      [["tools:1"], "values", { messages: [] }],
      ["values", { messages: [HUMAN, AI_CALL, TOOL] }],
      ["values", { messages: [HUMAN, AI_CALL, TOOL, AI_ANSWER] }],
    ]),
    "stream.jsonl",
  );
  assert.equal(trace?.format, "langchain");
  assert.deepEqual(trace?.calls, [{
    tool: "multiply",
    args: { a: 3, b: 7 },
    id: "call_m",
    result: "21",
    isError: false,
  }]);
  assert.equal(trace?.finalAnswer, "3 * 7 = 21.");
  assert.deepEqual(trace?.usage, { inputTokens: 120, outputTokens: 18 });
});

Deno.test("langgraph: SDK {event, data} updates without values", () => {
  const trace = traceFromValue([
    { event: "metadata", data: { run_id: "r1" } },
    { event: "updates", data: { agent: { messages: [AI_CALL] } } },
    {
      event: "updates",
      data: { tools: { messages: [{ ...TOOL, status: "error", content: "overflow" }] } },
    },
    { event: "updates", data: { agent: { messages: [AI_ANSWER] } } },
  ]);
  assert.equal(trace.format, "langchain");
  assert.equal(trace.calls[0]?.isError, true);
  assert.equal(trace.calls[0]?.error, "overflow");
  assert.equal(trace.finalAnswer, "3 * 7 = 21.");
});

Deno.test("langgraph: messages-mode chunks of one id are merged, tool_call_chunks joined by index", () => {
  const trace = traceFromValue([
    ["messages", [{
      type: "AIMessageChunk",
      id: "run-1",
      content: "",
      tool_call_chunks: [{
        name: "multiply",
        args: '{"a": 3',
        id: "call_m",
        index: 0,
        type: "tool_call_chunk",
      }],
    }, { langgraph_node: "agent" }]],
    ["messages", [{
      type: "AIMessageChunk",
      id: "run-1",
      content: "",
      tool_call_chunks: [{
        name: null,
        args: ', "b": 7}',
        id: null,
        index: 0,
        type: "tool_call_chunk",
      }],
    }, { langgraph_node: "agent" }]],
    ["messages", [TOOL, { langgraph_node: "tools" }]],
    ["messages", [{ type: "AIMessageChunk", id: "run-2", content: "3 * 7 " }, {}]],
    ["messages", [{ type: "AIMessageChunk", id: "run-2", content: "= 21." }, {}]],
  ]);
  assert.deepEqual(trace.calls, [{
    tool: "multiply",
    args: { a: 3, b: 7 },
    id: "call_m",
    result: "21",
    isError: false,
  }]);
  assert.equal(trace.finalAnswer, "3 * 7 = 21.");
});

Deno.test("langgraph: astream_events tool events are calls paired by run_id", () => {
  const trace = traceFromValue([
    { event: "on_chain_start", run_id: "g", name: "LangGraph", data: { input: {} } },
    { event: "on_tool_start", run_id: "r1", name: "multiply", data: { input: { a: 3, b: 7 } } },
    {
      event: "on_tool_end",
      run_id: "r1",
      name: "multiply",
      data: { output: { ...TOOL } },
    },
    { event: "on_tool_start", run_id: "r2", name: "divide", data: { input: { a: 1, b: 0 } } },
    { event: "on_tool_error", run_id: "r2", name: "divide", data: { error: "division by zero" } },
    { event: "on_chat_model_end", run_id: "m", name: "ChatOpenAI", data: { output: AI_ANSWER } },
  ]);
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.result, c.isError, c.error]), [
    ["multiply", { a: 3, b: 7 }, "21", false, undefined],
    ["divide", { a: 1, b: 0 }, undefined, true, "division by zero"],
  ]);
  assert.equal(trace.finalAnswer, "3 * 7 = 21.");
});

const protocol = (seq: number, method: string, namespace: string[], data: unknown) => ({
  type: "event",
  event_id: String(seq),
  seq,
  method,
  params: { namespace, timestamp: 1777587969651 + seq, data },
});

Deno.test("langgraph: protocol events — the last top-level values state is the run", () => {
  const [trace] = tracesFromText(
    [
      protocol(1, "lifecycle", [], { event: "running", graph_name: "agent" }),
      protocol(2, "values", [], { messages: [HUMAN] }),
      protocol(3, "messages", ["model_request:1"], { event: "message-start", id: "a1" }),
      protocol(4, "values", ["sub:1"], { messages: [] }),
      protocol(5, "values", [], { messages: [HUMAN, AI_CALL, TOOL, AI_ANSWER] }),
    ].map((e) => `event: ${e.method}\ndata: ${JSON.stringify(e)}\nid: ${e.seq}\n\n`).join(""),
    "run.sse",
  );
  assert.equal(trace?.format, "langchain");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.args, c.result, c.isError]), [
    ["multiply", { a: 3, b: 7 }, "21", false],
  ]);
  assert.equal(trace?.finalAnswer, "3 * 7 = 21.");
});

Deno.test("langgraph: protocol events without values read the tools channel, paired by tool_call_id", () => {
  const trace = traceFromValue([
    protocol(1, "lifecycle", [], { event: "running" }),
    protocol(2, "tools", ["tools:1"], {
      event: "tool-started",
      tool_call_id: "c1",
      tool_name: "multiply",
      input: '{"a":3,"b":7}',
    }),
    protocol(3, "tools", ["tools:2"], {
      event: "tool-started",
      tool_call_id: "c2",
      tool_name: "divide",
      input: { a: 1, b: 0 },
    }),
    protocol(4, "tools", ["tools:2"], {
      event: "tool-error",
      tool_call_id: "c2",
      message: "division by zero",
    }),
    protocol(5, "tools", ["tools:1"], {
      event: "tool-finished",
      tool_call_id: "c1",
      output: { ...TOOL, tool_call_id: "c1" },
    }),
  ]);
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.result, c.isError, c.error, c.id]), [
    ["multiply", { a: 3, b: 7 }, "21", false, undefined, "c1"],
    ["divide", { a: 1, b: 0 }, undefined, true, "division by zero", undefined],
  ]);
  assert.equal(trace.finalAnswer, undefined);
  assert.throws(
    () =>
      traceFromValue([protocol(1, "lifecycle", [], { event: "running" })], { source: "p.json" }),
    /p\.json: LangGraph protocol stream has no values, updates or tools events to read/,
  );
});

Deno.test("langgraph: protocol events and [mode, payload] tuples of one run read the same trace", () => {
  const call = fc.record({
    tool: fc.constantFrom("add", "search", "lookup"),
    a: fc.integer({ min: -5, max: 5 }),
    ok: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(call, { maxLength: 5 }), fc.boolean(), (calls, noise) => {
      const messages: unknown[] = [HUMAN];
      calls.forEach((c, i) => {
        messages.push({
          type: "ai",
          content: "",
          id: `a${i}`,
          tool_calls: [{ name: c.tool, args: { a: c.a }, id: `c${i}`, type: "tool_call" }],
        });
        messages.push({
          type: "tool",
          content: c.ok ? String(c.a) : "boom",
          tool_call_id: `c${i}`,
          status: c.ok ? "success" : "error",
        });
      });
      messages.push(AI_ANSWER);
      const states = messages.map((_, i) => ({ messages: messages.slice(0, i + 1) }));
      const tuples = states.map((state) => ["values", state]);
      const events = states.flatMap((state, i) => [
        ...(noise ? [protocol(2 * i, "values", ["tools:1"], { messages: [] })] : []),
        protocol(2 * i + 1, "values", [], state),
      ]);
      const view = (trace: ReturnType<typeof traceFromValue>) =>
        JSON.stringify([trace.calls, trace.finalAnswer]);
      assert.equal(view(traceFromValue(events)), view(traceFromValue(tuples)));
      assert.equal(traceFromValue(events).calls.length, calls.length);
    }),
    { numRuns: 60 },
  );
});

Deno.test("langgraph: [namespace, [message, metadata]] pairs — subgraph items count only when nothing is top-level", () => {
  const chunk = (id: string, content: string, ns: string[]) => [ns, [
    { type: "AIMessageChunk", id, content },
    { langgraph_node: "agent" },
  ]];
  const onlySub = traceFromValue([
    chunk("m1", "Hel", ["supervisor:1", "agent:2"]),
    chunk("m1", "lo", ["supervisor:1", "agent:2"]),
  ]);
  assert.equal(onlySub.format, "langchain");
  assert.equal(onlySub.finalAnswer, "Hello");
  const mixed = traceFromValue([
    chunk("m1", "inner", ["agent:2"]),
    chunk("m2", "outer", []),
  ]);
  assert.equal(mixed.finalAnswer, "outer");
});

Deno.test("langgraph: role dicts in a state read as LangChain makes them", () => {
  const trace = traceFromValue([
    ["metadata", { thread_id: "thread-1" }],
    ["values", {
      messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "Done" }],
    }],
  ]);
  assert.equal(trace.format, "langchain");
  assert.deepEqual(trace.calls, []);
  assert.equal(trace.finalAnswer, "Done");
});

Deno.test("langgraph: a state message that is not a LangChain message is an error, never 0 calls", () => {
  assert.throws(
    () =>
      traceFromValue([["values", { messages: [{ role: "robot", text: "x" }] }]], {
        source: "s.json",
      }),
    /s\.json: values\[0\]\.messages\[0\]: not a LangChain message/,
  );
  assert.throws(
    () =>
      traceFromValue([{ event: "on_tool_start", run_id: "r", data: { input: {} } }], {
        source: "e.json",
      }),
    /e\.json: \[0\]: on_tool_start event has no name/,
  );
});

const RUN_TREE = {
  id: "root",
  name: "AgentExecutor",
  run_type: "chain",
  start_time: "2024-05-01T10:00:00.000000",
  end_time: "2024-05-01T10:00:05.000000",
  inputs: { input: "3 * 7 and 1 / 0?" },
  outputs: { output: "21, and 1 / 0 fails." },
  child_runs: [
    {
      id: "llm1",
      name: "ChatOpenAI",
      run_type: "llm",
      start_time: "2024-05-01T10:00:00.100000",
      end_time: "2024-05-01T10:00:01.000000",
      inputs: {},
      outputs: {},
      extra: { metadata: { ls_model_name: "gpt-4o-mini" } },
      prompt_tokens: 40,
      completion_tokens: 12,
      child_runs: [],
    },
    {
      id: "tool2",
      name: "divide",
      run_type: "tool",
      start_time: "2024-05-01T10:00:02.000000",
      end_time: "2024-05-01T10:00:02.500000",
      inputs: { a: 1, b: 0 },
      outputs: null,
      error: "ZeroDivisionError('division by zero')",
      child_runs: [],
    },
    {
      id: "tool1",
      name: "multiply",
      run_type: "tool",
      start_time: "2024-05-01T10:00:01.100000",
      end_time: "2024-05-01T10:00:01.350000",
      inputs: { input: '{"a": 3, "b": 7}' },
      outputs: {
        output: {
          lc: 1,
          type: "constructor",
          id: ["langchain", "schema", "messages", "ToolMessage"],
          kwargs: { content: "21", tool_call_id: "call_m", status: "success" },
        },
      },
      error: null,
      child_runs: [],
    },
  ],
};

Deno.test("langsmith: a run tree's tool runs in start order, with errors, ids and durations", () => {
  const trace = traceFromValue(RUN_TREE);
  assert.equal(trace.format, "langchain");
  assert.deepEqual(trace.calls, [
    {
      tool: "multiply",
      args: { a: 3, b: 7 },
      result: "21",
      id: "call_m",
      isError: false,
      durationS: 0.25,
      metadata: { run_id: "tool1" },
    },
    {
      tool: "divide",
      args: { a: 1, b: 0 },
      isError: true,
      error: "ZeroDivisionError('division by zero')",
      durationS: 0.5,
      metadata: { run_id: "tool2" },
    },
  ]);
  assert.equal(trace.finalAnswer, "21, and 1 / 0 fails.");
  assert.deepEqual(trace.usage, { inputTokens: 40, outputTokens: 12 });
  assert.equal(trace.model, "gpt-4o-mini");
  // A flat JSONL of the same runs (children linked by parent_run_id) reads the same calls.
  const { child_runs, ...root } = RUN_TREE;
  const flat = [root, ...child_runs.map((r) => ({ ...r, parent_run_id: "root" }))];
  const [again] = tracesFromText(jsonl(flat), "runs.jsonl");
  assert.deepEqual(again?.calls, trace.calls);
});

Deno.test("langsmith: runs keyed by run_id find their root in any order; chain answer keys are the final answer", () => {
  const root = {
    run_id: "root",
    name: "qa",
    run_type: "chain",
    parent_run_id: null,
    inputs: { question: "2 + 2?" },
    outputs: { answer: "4" },
  };
  const tool = {
    run_id: "t1",
    name: "calculator",
    run_type: "tool",
    parent_run_id: "root",
    inputs: { expression: "2 + 2" },
    outputs: null,
    error: "calculator unavailable",
  };
  const [trace] = tracesFromText(jsonl([tool, root]), "runs.jsonl");
  assert.equal(trace?.finalAnswer, "4");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.isError, c.error, c.metadata]), [
    ["calculator", true, "calculator unavailable", { run_id: "t1" }],
  ]);
  for (const key of ["result", "response", "text"]) {
    const read = traceFromValue([{ ...root, outputs: { [key]: "four" } }, tool]);
    assert.equal(read.finalAnswer, "four", key);
  }
  assert.equal(
    traceFromValue([{ ...root, outputs: { answer: "  " } }, tool]).finalAnswer,
    undefined,
  );
});

Deno.test("langsmith: a run list whose root has a run_type LangSmith does not name is still runs", () => {
  const runs = [
    {
      id: "root",
      name: "agent",
      run_type: "agent",
      parent_run_id: null,
      inputs: {},
      outputs: null,
    },
    {
      id: "t1",
      name: "weather",
      run_type: "tool",
      parent_run_id: "root",
      inputs: { city: "London" },
      error: "timed out",
    },
  ];
  const trace = traceFromValue(runs);
  assert.equal(trace.format, "langchain");
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.error]), [
    ["weather", { city: "London" }, "timed out"],
  ]);
  // Without one run of LangSmith's own types, the list is not taken for runs.
  assert.notEqual(traceFromValue([runs[0], { ...runs[0], id: "r2" }]).format, "langchain");
});

Deno.test("langchain: a list of lc-serialized messages is LangChain, never Responses items", () => {
  const lc = (cls: string, kwargs: Record<string, unknown>) => ({
    lc: 1,
    type: "constructor",
    id: ["langchain", "schema", "messages", cls],
    kwargs,
  });
  const [trace] = tracesFromText(
    JSON.stringify([
      lc("HumanMessage", { content: "3 * 7?", type: "human" }),
      lc("AIMessage", { ...AI_CALL, type: "ai" }),
      lc("ToolMessage", { ...TOOL }),
      lc("AIMessage", { ...AI_ANSWER, type: "ai" }),
    ]),
    "messages.json",
  );
  assert.equal(trace?.format, "langchain");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.result, c.isError]), [
    ["multiply", "21", false],
  ]);
  // An item type that is an inherited object key is no Responses item type.
  assert.throws(
    () =>
      tracesFromText(JSON.stringify([{ type: "constructor" }, { type: "toString" }]), "r.json", {
        format: "openai-responses",
      }),
    (error: Error) => error.name === "InputError",
  );
});
