// Newer provider items: Responses approvals, tool search, programmatic tool
// calling and hosted-tool statuses; Gemini Interactions; OpenAI tool messages
// without tool_call_id.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import { traceFromValue } from "../lib/formats/detect.ts";

Deno.test("openai-responses: an mcp_approval_request is kept with no outcome; its approved mcp_call is the same call", () => {
  const pending = traceFromValue({
    object: "response",
    output: [{
      type: "mcp_approval_request",
      id: "mcpr_1",
      name: "search_docs",
      arguments: '{"query":"streaming"}',
      server_label: "docs",
    }],
  });
  assert.deepEqual(pending.calls, [{
    tool: "search_docs",
    args: { query: "streaming" },
    id: "mcpr_1",
    metadata: { server_label: "docs", approval: "requested" },
  }]);
  const approved = traceFromValue({
    input: [
      {
        type: "mcp_approval_request",
        id: "mcpr_1",
        name: "search_docs",
        arguments: '{"query":"streaming"}',
        server_label: "docs",
      },
      { type: "mcp_approval_response", approval_request_id: "mcpr_1", approve: true },
    ],
    output: [{
      type: "mcp_call",
      id: "mcp_9",
      approval_request_id: "mcpr_1",
      name: "search_docs",
      arguments: '{"query":"streaming"}',
      server_label: "docs",
      output: "3 pages",
      status: "completed",
    }],
  });
  assert.equal(approved.calls.length, 1);
  assert.equal(approved.calls[0]?.metadata?.approval, "approved");
  assert.equal(approved.calls[0]?.result, "3 pages");
  assert.equal(approved.calls[0]?.isError, false);
  const denied = traceFromValue([
    {
      type: "mcp_approval_request",
      id: "r2",
      name: "delete_all",
      arguments: "{}",
      server_label: "db",
    },
    {
      type: "mcp_approval_response",
      approval_request_id: "r2",
      approve: false,
      reason: "too risky",
    },
  ]);
  assert.equal(denied.calls[0]?.error, "not approved: too risky");
});

Deno.test("openai-responses: tool_search, programmatic tool calling and hosted-tool statuses", () => {
  const trace = traceFromValue({
    object: "response",
    output: [
      {
        type: "tool_search_call",
        id: "ts_1",
        call_id: "s1",
        execution: "client",
        status: "completed",
        arguments: { query: "calendar" },
      },
      {
        type: "tool_search_output",
        id: "tso_1",
        call_id: "s1",
        execution: "client",
        status: "completed",
        tools: [],
      },
      {
        type: "program",
        id: "p_1",
        call_id: "prog",
        code: "await tools.lookup({id: 1})",
        fingerprint: "f",
      },
      {
        type: "function_call",
        id: "fc_1",
        call_id: "c1",
        name: "lookup",
        arguments: '{"id":1}',
        caller: { type: "program", caller_id: "prog" },
      },
      { type: "function_call_output", call_id: "c1", output: '{"name":"Ada"}' },
      { type: "program_output", id: "po_1", call_id: "prog", result: "Ada", status: "completed" },
      {
        type: "web_search_call",
        id: "ws_1",
        status: "completed",
        action: { type: "search", query: "x" },
      },
      { type: "file_search_call", id: "fs_1", status: "failed", queries: ["q"] },
      {
        type: "code_interpreter_call",
        id: "ci_1",
        status: "in_progress",
        code: "1+1",
        container_id: "c",
      },
    ],
  });
  assert.deepEqual(
    trace.calls.map((c) => [c.tool, c.args, c.result, c.isError ?? null, c.metadata?.caller_id]),
    [
      ["tool_search", { query: "calendar" }, [], false, undefined],
      ["program", { code: "await tools.lookup({id: 1})" }, "Ada", false, undefined],
      ["lookup", { id: 1 }, { name: "Ada" }, null, "prog"],
      ["web_search", { type: "search", query: "x" }, undefined, false, undefined],
      ["file_search", { queries: ["q"] }, undefined, true, undefined],
      ["code_interpreter", { code: "1+1", container_id: "c" }, undefined, null, undefined],
    ],
  );
});

Deno.test("openai-responses: xAI's hosted calls read their `arguments` text; x_search_call is one", () => {
  const trace = traceFromValue({
    object: "response",
    output: [
      {
        type: "web_search_call",
        id: "fc_1",
        call_id: "",
        name: "web_search",
        arguments: '{"query":"what is xAI"}',
        status: "completed",
      },
      {
        type: "x_search_call",
        id: "fc_2",
        call_id: "",
        name: "x_semantic_search",
        arguments: '{"query":"AI"}',
        status: "completed",
      },
      { type: "code_interpreter_call", id: "fc_3", arguments: "{bad", status: "completed" },
    ],
  });
  assert.deepEqual(
    trace.calls.map((c) => [c.tool, c.args, c.rawArgs ?? null, c.isError]),
    [
      ["web_search", { query: "what is xAI" }, null, false],
      ["x_search", { query: "AI" }, null, false],
      ["code_interpreter", {}, "{bad", false],
    ],
  );
});

Deno.test("openai-responses: client-run calls take their outcome from their output item, not their own status", () => {
  const trace = traceFromValue({
    object: "response",
    output: [
      {
        type: "local_shell_call",
        id: "lsh_1",
        call_id: "l1",
        status: "completed",
        action: { type: "exec", command: ["ls"], env: {} },
      },
      {
        type: "shell_call",
        id: "sh_1",
        call_id: "s1",
        status: "completed",
        action: { commands: ["uname"] },
      },
      {
        type: "shell_call_output",
        call_id: "s1",
        status: "completed",
        output: [{ stdout: "Linux\n", stderr: "", outcome: { type: "exit", exit_code: 0 } }],
      },
      { type: "shell_call", call_id: "s2", status: "completed", action: { commands: ["a", "b"] } },
      {
        type: "shell_call_output",
        call_id: "s2",
        output: [
          { stdout: "ok", stderr: "", outcome: { type: "exit", exit_code: 0 } },
          { stdout: "", stderr: "no such file", outcome: { type: "exit", exit_code: 2 } },
        ],
      },
      {
        type: "shell_call",
        call_id: "s3",
        status: "completed",
        action: { commands: ["sleep 99"] },
      },
      { type: "shell_call_output", call_id: "s3", output: [{ outcome: { type: "timeout" } }] },
      {
        type: "apply_patch_call",
        call_id: "p1",
        status: "completed",
        operation: { type: "delete_file", path: "a.txt" },
      },
      { type: "apply_patch_call", call_id: "p2", status: "completed", operation: { type: "x" } },
      { type: "apply_patch_call_output", call_id: "p2", status: "failed", output: "no a.txt" },
      { type: "computer_call", call_id: "c1", status: "completed", action: { type: "click" } },
      { type: "shell_call", call_id: "s4", status: "completed", action: { commands: ["true"] } },
      { type: "shell_call_output", call_id: "s4", output: [] },
    ],
  });
  assert.deepEqual(
    trace.calls.map((c) => [c.tool, c.result, c.isError ?? null, c.error ?? null]),
    [
      ["local_shell", undefined, null, null],
      ["shell", "Linux\n", false, null],
      ["shell", "ok\nno such file", true, "exit code 2"],
      ["shell", "", true, "timeout"],
      ["apply_patch", undefined, null, null],
      ["apply_patch", "no a.txt", true, "no a.txt"],
      ["computer", undefined, null, null],
      ["shell", undefined, null, null],
    ],
  );
});

Deno.test("openai-responses: a call item without a name is an error naming the item, never 0 calls", () => {
  assert.throws(
    () =>
      traceFromValue({
        object: "response",
        output: [{ type: "mcp_approval_request", id: "x", arguments: "{}" }],
      }, {
        source: "r.json",
      }),
    /r\.json: items\[0\]: mcp_approval_request item has no name/,
  );
});

Deno.test("gemini: an Interactions API response with steps (function_call, function_result, model_output)", () => {
  const trace = traceFromValue({
    id: "int_002",
    status: "completed",
    model: "gemini-3-flash-preview",
    steps: [
      { type: "user_input", content: [{ type: "text", text: "Weather in Boston?" }] },
      { type: "thought", summary: [] },
      { type: "function_call", id: "fc_1", name: "get_weather", arguments: { location: "Boston" } },
      {
        type: "function_result",
        call_id: "fc_1",
        name: "get_weather",
        result: [{ type: "text", text: "52°F with rain" }],
      },
      { type: "google_search_call", id: "gs_1", arguments: { queries: ["boston rain"] } },
      { type: "google_search_result", call_id: "gs_1", result: [{ url: "u" }], is_error: false },
      { type: "function_call", id: "fc_2", name: "book", arguments: {} },
      { type: "function_result", call_id: "fc_2", result: "no seats", is_error: true },
      {
        type: "model_output",
        content: [{ type: "text", text: "It is 52°F " }, { type: "text", text: "and rainy." }],
      },
    ],
    usage: { total_input_tokens: 120, total_output_tokens: 30 },
  });
  assert.equal(trace.format, "gemini");
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.result, c.isError, c.error]), [
    ["get_weather", { location: "Boston" }, "52°F with rain", undefined, undefined],
    ["google_search", { queries: ["boston rain"] }, [{ url: "u" }], false, undefined],
    ["book", {}, "no seats", true, "no seats"],
  ]);
  assert.equal(trace.finalAnswer, "It is 52°F and rainy.");
  assert.deepEqual(trace.usage, { inputTokens: 120, outputTokens: 30 });
  assert.equal(trace.model, "gemini-3-flash-preview");
});

Deno.test("gemini: a completed interaction's built-in search steps after its answer keep the answer", () => {
  const steps = [
    { type: "model_output", content: [{ type: "text", text: "Here is the news." }] },
    { type: "google_search_call", id: "g1", arguments: { queries: ["news"] } },
    { type: "google_search_result", call_id: "g1", is_error: false, result: [] },
  ];
  const completed = traceFromValue({ id: "i1", status: "completed", steps });
  assert.equal(completed.finalAnswer, "Here is the news.");
  assert.equal(completed.calls[0]?.isError, false);
  // Not completed, or a client function call after the text: no final answer.
  assert.equal(traceFromValue({ id: "i2", status: "incomplete", steps }).finalAnswer, undefined);
  const pending = traceFromValue({
    id: "i3",
    status: "requires_action",
    steps: [steps[0], { type: "function_call", id: "f1", name: "a", arguments: {} }],
  });
  assert.equal(pending.finalAnswer, undefined);
});

Deno.test("gemini: the older outputs form and a list of interactions with results in the next input", () => {
  const trace = traceFromValue([
    {
      id: "i1",
      status: "requires_action",
      model: "gemini-2.5-flash",
      outputs: [{ type: "function_call", id: "c1", name: "add", arguments: { a: 1, b: 2 } }],
      usage: { total_input_tokens: 10, total_output_tokens: 5 },
    },
    {
      id: "i2",
      status: "completed",
      previous_interaction_id: "i1",
      input: [{ type: "function_result", call_id: "c1", name: "add", result: { sum: 3 } }],
      outputs: [{ type: "text", text: "1 + 2 = 3" }],
      usage: { total_input_tokens: 20, total_output_tokens: 4 },
    },
  ]);
  assert.deepEqual(trace.calls, [{
    tool: "add",
    args: { a: 1, b: 2 },
    id: "c1",
    result: { sum: 3 },
  }]);
  assert.equal(trace.finalAnswer, "1 + 2 = 3");
  assert.deepEqual(trace.usage, { inputTokens: 30, outputTokens: 9 });
});

Deno.test("gemini: an interaction's function_call without a name is an error, never 0 calls", () => {
  assert.throws(
    () =>
      traceFromValue({
        id: "i",
        status: "completed",
        steps: [{ type: "function_call", id: "c", arguments: {} }],
      }, {
        source: "i.json",
      }),
    /i\.json: \[0\]\.steps\[0\]: function_call has no name/,
  );
});

Deno.test("openai: tool messages without tool_call_id pair by order only when unambiguous", () => {
  // The shape LangChain's trajectory evaluators document.
  const paired = traceFromValue([
    { role: "user", content: "What is the weather in SF?" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ function: { name: "get_weather", arguments: '{"city": "SF"}' } }],
    },
    { role: "tool", content: "It's 80 degrees and sunny in SF." },
    { role: "assistant", content: "The weather in SF is 80 degrees and sunny." },
  ]);
  assert.equal(paired.format, "openai");
  assert.deepEqual(paired.calls, [{
    tool: "get_weather",
    args: { city: "SF" },
    result: "It's 80 degrees and sunny in SF.",
  }]);
  assert.equal(paired.finalAnswer, "The weather in SF is 80 degrees and sunny.");
  const twoCalls = [
    {
      role: "assistant",
      tool_calls: [
        { function: { name: "a", arguments: "{}" } },
        { function: { name: "b", arguments: "{}" } },
      ],
    },
  ];
  // Two calls, one result: which one it answers is unknown.
  const ambiguous = traceFromValue([...twoCalls, { role: "tool", content: "x" }]);
  assert.deepEqual(ambiguous.calls.map((c) => c.result), [undefined, undefined]);
  // Two calls, two results in order: paired.
  const ordered = traceFromValue([...twoCalls, { role: "tool", content: "1" }, {
    role: "tool",
    content: "2",
  }]);
  assert.deepEqual(ordered.calls.map((c) => c.result), ["1", "2"]);
  // A name that contradicts the order: not paired.
  const named = traceFromValue([
    ...twoCalls,
    { role: "tool", name: "b", content: "1" },
    { role: "tool", name: "a", content: "2" },
  ]);
  assert.deepEqual(named.calls.map((c) => c.result), [undefined, undefined]);
});
