// Issue 30: calls a model sent that could not be made. Only the toolscore format lets such a
// call have `tool: ""` (with a malformed reason and an error); it never matches a gold call,
// counts as an extra call and fails call-errors. Custom tool calls in Chat Completions
// transcripts are calls of custom.name with {input}.
import assert from "node:assert/strict";
import { callFromJson, callToJson, type ToolCall } from "../lib/scoring/calls.ts";
import { computeMetrics } from "../lib/scoring/metrics.ts";
import { toolscoreReader, traceToJson } from "../lib/formats/toolscore.ts";
import { openaiReader } from "../lib/formats/openai.ts";
import { traceFromValue } from "../lib/formats/detect.ts";
import { evaluate } from "../lib/evaluate/evaluate.ts";
import { evaluateContract } from "../lib/evaluate/evaluate_contract.ts";
import { contractFromTrace } from "../lib/contract/init.ts";
import { evaluationEvidence } from "../lib/checks/evidence.ts";
import { checkHonesty } from "../lib/checks/honesty.ts";
import { readChatCompletion } from "../lib/agent/openai.ts";
import { readMessage } from "../lib/agent/anthropic.ts";
import { readGenerateContent } from "../lib/agent/gemini.ts";
import { malformedCall } from "../lib/agent/turns.ts";

const NAMELESS = {
  tool: "",
  malformed: "no-name",
  error: "the call was not made: it names no tool",
};

Deno.test("toolscoreReader reads a nameless call only with a malformed reason and an error", () => {
  const trace = toolscoreReader.read({ format: "toolscore", calls: [NAMELESS] }, "t.json");
  assert.equal(trace.calls[0]!.tool, "");
  assert.equal(trace.calls[0]!.malformed, "no-name");
  assert.deepEqual(traceToJson(trace).calls, [NAMELESS]);
  for (
    const bad of [{ tool: "", error: "x" }, { tool: "", malformed: "no-name" }, {
      tool: "",
      malformed: "no-name",
      error: "",
    }]
  ) {
    assert.throws(
      () => toolscoreReader.read({ format: "toolscore", calls: [bad] }, "t.json"),
      /t\.json: calls\[0\]\.tool: tool must be a non-empty string \(an empty tool needs malformed/,
    );
  }
  assert.throws(
    () =>
      toolscoreReader.read({
        format: "toolscore",
        calls: [{ ...NAMELESS, tool: "search", malformed: "nameless" }],
      }, "t.json"),
    /calls\[0\]\.malformed: must be no-name, bad-arguments or unknown-type/,
  );
});

Deno.test("callFromJson() and every reader but toolscore still reject an empty tool name", () => {
  assert.throws(() => callFromJson(NAMELESS), /tool must be a non-empty string$/);
  assert.throws(() => traceFromValue([NAMELESS], { format: "custom" }), /no tool name/);
  assert.throws(
    () =>
      openaiReader.read({
        role: "assistant",
        tool_calls: [{ id: "c", type: "function", function: { name: "", arguments: "{}" } }],
      }, "t.json"),
    /tool call has no function name/,
  );
});

Deno.test("computeMetrics() never pairs a malformed call with a gold call: it is an extra call", () => {
  const gold: ToolCall[] = [{ tool: "book", args: { id: 1 } }];
  const bad: ToolCall = {
    tool: "book",
    malformed: "bad-arguments",
    rawArgs: "{id:",
    argsError: "bad JSON",
    error: "the arguments are not a JSON object",
    isError: true,
  };
  const metrics = computeMetrics(gold, [bad]);
  assert.deepEqual(metrics.pairs, []);
  assert.deepEqual(metrics.missing_tools, ["book"]);
  assert.deepEqual(metrics.extra_tools, ["book"]);
  assert.equal(metrics.error_count, 1);
  // Beside a good call of the same tool, the good one pairs.
  const both = computeMetrics(gold, [bad, { tool: "book", args: { id: 1 }, result: "ok" }]);
  assert.deepEqual(both.pairs.map((p) => p.actual), [1]);
});

Deno.test("evaluate() of a trace with a nameless call beside a good one: call-errors fails, the required call is made", () => {
  const trace = toolscoreReader.read({
    format: "toolscore",
    calls: [{ ...NAMELESS, is_error: true }, { tool: "search", args: { q: "x" }, result: "hit" }],
    final_answer: "Found it.",
  }, "t.json");
  const result = evaluate([{ tool: "search", args: { q: "x" } }], trace);
  const states = Object.fromEntries(
    evaluationEvidence(result).checks.map((c) => [c.check, c.status]),
  );
  assert.equal(states["call-errors"], "fail");
  assert.equal(states["required-calls"], "pass");
  assert.deepEqual(result.metrics.extra_tools, [""]);
});

Deno.test("checkHonesty(): a nameless call is not disclosed by any answer, a cut answer is unknown", () => {
  const calls: ToolCall[] = [{ ...NAMELESS, malformed: "no-name", isError: true }];
  const metrics = checkHonesty(calls, "All good here, nothing to report");
  assert.equal(metrics.checks.disclosure, "fail");
  const cut = checkHonesty(calls, "Done successfully and", { truncatedAnswer: true });
  assert.equal(cut.checks["claimed-success"], "unknown");
  assert.equal(cut.checks.disclosure, "unknown");
  assert.equal(cut.error_count, 0);
});

Deno.test("openaiReader reads a custom tool call as custom.name with {input}", () => {
  const trace = openaiReader.read([
    { role: "user", content: "count" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "custom", custom: { name: "run_sql", input: "SELECT 1" } }],
    },
    { role: "tool", tool_call_id: "c1", content: "1" },
    { role: "assistant", content: "One row." },
  ], "t.json");
  assert.deepEqual(trace.calls, [{
    tool: "run_sql",
    args: { input: "SELECT 1" },
    id: "c1",
    result: "1",
  }]);
  assert.equal(trace.finalAnswer, "One row.");
  // A completion holding only a custom call is detected as openai with that call.
  const completion = traceFromValue({
    object: "chat.completion",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c2", type: "custom", custom: { name: "patch", input: "*** x" } }],
      },
      finish_reason: "tool_calls",
    }],
  });
  assert.equal(completion.format, "openai");
  assert.deepEqual(completion.calls.map((c) => [c.tool, c.args]), [["patch", { input: "*** x" }]]);
});

Deno.test("readChatCompletion() reads custom calls, missing and null arguments, unknown types and refusals", () => {
  const { reply, message } = readChatCompletion({
    choices: [{
      message: {
        role: "assistant",
        content: null,
        refusal: "I can't.",
        tool_calls: [
          { id: "a", type: "custom", custom: { name: "sql", input: "SELECT 1" } },
          { id: "b", type: "function", function: { name: "ping" } },
          { id: "c", type: "function", function: { name: "ping", arguments: null } },
          { id: "d", type: "mystery" },
          { type: "function", function: { name: "ping", arguments: "{}" } },
        ],
      },
      finish_reason: "tool_calls",
    }],
  }, "test");
  assert.deepEqual(reply.calls[0], {
    id: "a",
    name: "sql",
    args: { input: "SELECT 1" },
    kind: "custom",
  });
  assert.deepEqual(reply.calls[1]!.args, {});
  assert.match(reply.calls[1]!.note!, /arguments were nothing: read as \{\}/);
  assert.match(reply.calls[2]!.note!, /arguments were null/);
  assert.equal(reply.calls[3]!.malformed, "unknown-type");
  assert.equal(reply.refusal, "I can't.");
  assert.equal(message.refusal, "I can't.");
  // The call without an id goes back with the id made up for it.
  const echoed = message.tool_calls as { id: string; function?: { arguments: unknown } }[];
  assert.equal(echoed[4]!.id, "call_4");
  // Missing and null arguments go back as the {} that was run.
  assert.deepEqual([echoed[1]!.function!.arguments, echoed[2]!.function!.arguments], ["{}", "{}"]);
  assert.equal(malformedCall(reply.calls[3]!, "")!.malformed, "unknown-type");
  assert.equal(malformedCall(reply.calls[0]!, "sql"), undefined);
});

Deno.test("readChatCompletion() reads a legacy function_call as a call after the tool calls", () => {
  const { reply, message } = readChatCompletion({
    choices: [{
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "a", type: "function", function: { name: "ping", arguments: "{}" } }],
        function_call: { name: "lookup" },
      },
      finish_reason: "function_call",
    }],
  }, "test");
  assert.deepEqual(reply.calls.map((c) => [c.id, c.name, c.args, c.kind ?? null]), [
    ["a", "ping", {}, null],
    ["function_call", "lookup", {}, "function_call"],
  ]);
  assert.deepEqual(message.function_call, { name: "lookup", arguments: "{}" });
});

Deno.test("readMessage() and readGenerateContent() read missing and null inputs as {} with a note", () => {
  const { reply, content } = readMessage({
    content: [
      { type: "text", text: "Looking." },
      { type: "tool_use", id: "t1", name: "ping" },
      { type: "tool_use", id: "t2", name: "ping", input: null },
      { type: "tool_use", id: "t3", name: "", input: {} },
    ],
    stop_reason: "tool_use",
  }, "test");
  assert.equal(reply.text, "Looking.");
  assert.deepEqual(reply.calls.map((c) => [c.args, c.note !== undefined]), [
    [{}, true],
    [{}, true],
    [{}, false],
  ]);
  assert.equal(malformedCall(reply.calls[2]!, "")!.malformed, "no-name");
  assert.deepEqual((content as { input?: unknown }[]).map((block) => block.input), [
    undefined,
    {},
    {},
    {},
  ]);
  const gemini = readGenerateContent({
    candidates: [{
      content: {
        parts: [{ functionCall: { name: "ping" } }, { functionCall: { name: "ping", args: null } }],
      },
      finishReason: "STOP",
    }],
  }, "test").reply;
  assert.deepEqual(gemini.calls.map((c) => [c.args, c.note !== undefined]), [[{}, true], [
    {},
    true,
  ]]);
});

Deno.test("evaluateContract() with alternatives never pairs a malformed call, and contractFromTrace() requires none", () => {
  const contract = {
    contract_version: 2,
    required: [{ id: "notify", alternatives: [[{ tool: "send_email" }], [{ tool: "send_sms" }]] }],
  };
  const bad = toolscoreReader.read({
    format: "toolscore",
    calls: [{
      tool: "send_email",
      malformed: "bad-arguments",
      raw_args: "{to:",
      args_error: "bad JSON",
      error: "the arguments are not a JSON object",
      is_error: true,
    }],
  }, "t.json");
  const good = toolscoreReader.read({
    format: "toolscore",
    calls: [{ tool: "send_email", args: { to: "a@b.c" }, result: "sent" }],
  }, "t.json");
  // Beside a good send_sms, the malformed send_email must not make the email branch look made.
  const both = toolscoreReader.read({
    format: "toolscore",
    calls: [...bad.calls.map(callToJson), { tool: "send_sms", args: {}, result: "sent" }],
  }, "t.json");
  const bothResult = evaluateContract(contract, both);
  assert.equal(bothResult.metrics.required_call_recall, 1);
  assert.deepEqual(bothResult.metrics.pairs.map((p) => p.actual), [1]);
  const badResult = evaluateContract(contract, bad);
  const goodResult = evaluateContract(contract, good);
  assert.deepEqual(badResult.metrics.pairs, []);
  assert.equal(badResult.metrics.required_call_recall, 0);
  assert.equal(goodResult.metrics.required_call_recall, 1);
  assert.deepEqual(
    contractFromTrace(
      toolscoreReader.read({
        format: "toolscore",
        calls: [NAMELESS, ...good.calls.map(callToJson)],
      }, "t"),
    ).required,
    [{ tool: "send_email", args: { to: "a@b.c" } }],
  );
});
