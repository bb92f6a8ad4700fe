import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import type { FormatName } from "../lib/scoring/calls.ts";
import { traceFromValue, tracesFromText } from "../lib/formats/detect.ts";
import { findToolContent } from "../lib/formats/tool_content.ts";
import { InputError } from "../lib/base/errors.ts";

const GUARD = /read as [\w-]+ with 0 calls, but it holds tool-call content at /;

// Per shape family: a variant whose tool calls the reader cannot read. Each must be an error,
// never a trace of 0 calls. [family, document, format, what the error must say]
const UNREADABLE: [string, unknown, "auto" | FormatName, RegExp][] = [
  [
    "openai: a completion's calls under a key the reader does not read",
    {
      messages: [{ role: "user", content: "Weather in Paris?" }],
      response: {
        choices: [{
          message: {
            role: "assistant",
            tool_calls: [{ id: "1", type: "function", function: { name: "w", arguments: "{}" } }],
          },
        }],
      },
    },
    "auto",
    /at response\.choices\[0\]\.message\.tool_calls \(tool_calls: an array of 1/,
  ],
  [
    "openai-responses: a function_call item without a name",
    { object: "response", output: [{ type: "function_call", call_id: "c", arguments: "{}" }] },
    "auto",
    // The reader refuses the nameless item itself, before the general guard would.
    /items\[0\]: function_call item has no name/,
  ],
  [
    "anthropic: tool_use blocks outside the message content",
    {
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "On it." }],
      tool_uses: [{ type: "tool_use", id: "t", name: "a", input: {} }],
    },
    "auto",
    /read as anthropic with 0 calls, but it holds tool-call content at tool_uses\[0\] \(a tool_use item/,
  ],
  [
    "gemini: calls only in automaticFunctionCallingHistory",
    {
      candidates: [{ content: { role: "model", parts: [{ text: "It is sunny." }] } }],
      automaticFunctionCallingHistory: [{
        role: "model",
        parts: [{ functionCall: { name: "weather", args: {} } }],
      }],
    },
    "auto",
    /at automaticFunctionCallingHistory\[0\]\.parts\[0\]\.functionCall/,
  ],
  [
    "mcp: tools/call requests outside the session's messages",
    {
      format: "mcp",
      server: "files",
      messages: [{ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }],
      log: [{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read" } }],
    },
    "auto",
    /read as mcp with 0 calls, but it holds tool-call content at log\[0\] \(a tools\/call request/,
  ],
  [
    "otel: an execute_tool span without a tool name",
    {
      resourceSpans: [{
        scopeSpans: [{
          spans: [{
            name: "execute_tool",
            traceId: "a",
            spanId: "b",
            startTimeUnixNano: "1",
            endTimeUnixNano: "2",
            attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } }],
          }],
        }],
      }],
    },
    "auto",
    /tool span b names no tool \(no gen_ai\.tool\.name/,
  ],
  [
    "custom: calls whose entries name no tool",
    { calls: [{ function_name: "a" }] },
    "auto",
    /not a trace in any known format \(saw an object with keys calls; calls holds an array of 1, each an object with keys function_name\)/,
  ],
  [
    "toolscore: calls left in a steps list",
    { format: "toolscore", calls: [], steps: [{ tool_calls: [{ name: "a" }] }] },
    "auto",
    /read as toolscore with 0 calls, but it holds tool-call content at steps\[0\]\.tool_calls/,
  ],
  [
    "streams: chunks whose tool call never names its tool",
    [{
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "{}" } }] } }],
    }],
    "auto",
    /never names its tool/,
  ],
  [
    "run files: a tau-bench record whose calls have no function name",
    [{
      task_id: 1,
      reward: 0,
      info: {},
      traj: [{
        role: "assistant",
        content: null,
        tool_calls: [{ id: "1", type: "function", function: { arguments: "{}" } }],
      }],
    }],
    "auto",
    /\[0\]\.traj: messages\[0\]\.tool_calls\[0\]: tool call has no function name/,
  ],
  [
    "a format forced onto another provider's calls",
    {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tool_calls: [{ id: "1", type: "function", function: { name: "a", arguments: "{}" } }],
    },
    "gemini",
    /read as gemini with 0 calls, but it holds tool-call content at tool_calls/,
  ],
];

for (const [family, value, format, message] of UNREADABLE) {
  Deno.test(`no silent zero: ${family} is an error, not 0 calls`, () => {
    assert.throws(
      () => traceFromValue(value, { source: "trace.json", format }),
      (error: unknown) =>
        error instanceof InputError && /^trace\.json/.test(error.message) &&
        message.test(error.message),
    );
  });
}

Deno.test("the guard names the file, where the content is and what it looks like", () => {
  // A chat whose calls sit under a key no reader reads: only the general guard sees them.
  const value = {
    messages: [{ role: "user", content: "hi" }],
    result: {
      tool_calls: [{ id: "1", type: "function", function: { name: "a", arguments: "{}" } }],
    },
  };
  assert.throws(
    () => traceFromValue(value, { source: "r.json" }),
    (error: unknown) =>
      error instanceof InputError && /^r\.json/.test(error.message) &&
      GUARD.test(error.message) && /result\.tool_calls/.test(error.message),
  );
});

Deno.test("a genuine plain chat reads as 0 calls with a note, in every provider shape", () => {
  const chats: [unknown, string][] = [
    [[{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }], "openai"],
    [
      { type: "message", role: "assistant", content: [{ type: "text", text: "hello" }] },
      "anthropic",
    ],
    [{ candidates: [{ content: { role: "model", parts: [{ text: "hello" }] } }] }, "gemini"],
    [{
      object: "response",
      output: [{
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "hello" }],
      }],
    }, "openai-responses"],
  ];
  for (const [value, format] of chats) {
    const trace = traceFromValue(value);
    assert.equal(trace.format, format);
    assert.deepEqual(trace.calls, []);
    assert.deepEqual(trace.notes, [`no tool calls: the ${format} transcript holds no tool call`]);
    assert.equal(trace.finalAnswer, "hello");
  }
});

Deno.test("tool definitions are not tool-call content", () => {
  assert.equal(
    findToolContent({
      tools: [{ type: "function", function: { name: "a" } }],
      functions: [{ name: "b" }],
      tool_choice: { type: "function", function: { name: "a" } },
      messages: [{ role: "user", content: "hi", tool_calls: [] }],
    }),
    undefined,
  );
  const trace = traceFromValue({
    tools: [{ type: "function", function: { name: "a" } }],
    messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }],
  });
  assert.equal(trace.calls.length, 0);
});

Deno.test("unknown item types inside a known format are skipped and listed, not a rejection", () => {
  const responses = traceFromValue({
    object: "response",
    output: [
      { type: "brand_new_item", id: "x" },
      { type: "function_call", call_id: "c", name: "a", arguments: "{}" },
      { type: "brand_new_item", id: "y" },
    ],
  });
  assert.deepEqual(responses.calls.map((c) => c.tool), ["a"]);
  assert.deepEqual(responses.skipped, [{ type: "brand_new_item", count: 2 }]);
  const anthropic = traceFromValue({
    type: "message",
    role: "assistant",
    content: [{ type: "future_block", data: 1 }, {
      type: "tool_use",
      id: "t",
      name: "b",
      input: {},
    }],
  });
  assert.deepEqual(anthropic.calls.map((c) => c.tool), ["b"]);
  assert.deepEqual(anthropic.skipped, [{ type: "future_block", count: 1 }]);
  const gemini = traceFromValue({
    candidates: [{
      content: {
        role: "model",
        parts: [{ videoMetadata: {} }, { functionCall: { name: "c", args: {} } }],
      },
    }],
  });
  assert.deepEqual(gemini.skipped, [{ type: "videoMetadata", count: 1 }]);
});

Deno.test("a saved stream in a .txt file is read, and a directory's README.txt is not a trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-txt-" });
  try {
    const stream = Deno.readTextFileSync("testdata/formats/real/groq-tool-call.chunks.txt");
    await Deno.writeTextFile(`${dir}/stream.txt`, stream);
    await Deno.writeTextFile(`${dir}/README.txt`, "These are the traces of Monday.\n");
    const { expandTraceArgument } = await import("../lib/cli/inputs.ts");
    assert.deepEqual(expandTraceArgument(dir), [`${dir}/stream.txt`]);
    assert.equal(tracesFromText(stream, `${dir}/stream.txt`)[0]?.calls[0]?.tool, "weather");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
