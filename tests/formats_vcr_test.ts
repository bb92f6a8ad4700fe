// Issue 35, part A: HTTP cassettes (`--format vcr`) — bodies (parsed, text, base64, gzip, SSE),
// the provider APIs inside (Bedrock Converse and Cohere v2 besides the existing readers), a zip
// bomb refused, and a folder of YAML where a config is skipped, not an error.
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseJsonLossless } from "../lib/base/lossless_json.ts";
import { gzipSync, zlibSync } from "fflate";
import "../lib/base/_heavy.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { decodeBody, inflateCapped } from "../lib/formats/vcr_body.ts";
import { vcrReader } from "../lib/formats/vcr.ts";
import { InputError } from "../lib/base/errors.ts";
import { runCollect } from "./_cli.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function base64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function exchange(uri: string, request: unknown, response: unknown) {
  return {
    request: { method: "POST", uri, body: JSON.stringify(request), headers: {} },
    response: { status: { code: 200, message: "OK" }, body: { string: JSON.stringify(response) } },
  };
}

const BEDROCK = "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse";
const COHERE = "https://api.cohere.com/v2/chat";

Deno.test("vcrReader reads a Bedrock Converse cassette: toolUse calls, a toolResult with status error fails", () => {
  const use = { toolUse: { toolUseId: "t1", name: "lookup", input: { id: 7 } } };
  const cassette = {
    interactions: [
      exchange(BEDROCK, { messages: [{ role: "user", content: [{ text: "find 7" }] }] }, {
        output: { message: { role: "assistant", content: [{ text: "Looking." }, use] } },
        stopReason: "tool_use",
        usage: { inputTokens: 10, outputTokens: 4 },
      }),
      exchange(BEDROCK, {
        messages: [
          { role: "user", content: [{ text: "find 7" }] },
          { role: "assistant", content: [{ text: "Looking." }, use] },
          {
            role: "user",
            content: [{
              toolResult: { toolUseId: "t1", content: [{ text: "no such id" }], status: "error" },
            }],
          },
        ],
      }, {
        output: { message: { role: "assistant", content: [{ text: "Not found." }] } },
        stopReason: "end_turn",
        usage: { inputTokens: 20, outputTokens: 3 },
      }),
    ],
    version: 1,
  };
  const [trace] = tracesFromText(JSON.stringify(cassette), "c.json");
  assert.equal(trace?.format, "vcr");
  assert.equal(trace?.calls.length, 1);
  assert.deepEqual(trace?.calls[0]?.args, { id: 7 });
  assert.equal(trace?.calls[0]?.isError, true);
  assert.equal(trace?.finalAnswer, "Not found.");
  assert.deepEqual(trace?.usage, { inputTokens: 30, outputTokens: 7 });
  assert.deepEqual(trace?.metadata?.apis, ["bedrock-converse"]);
});

Deno.test("vcrReader reads a Cohere v2 cassette: TOOL_CALL tool_calls answered by document tool content", () => {
  const call = {
    id: "c1",
    type: "function",
    function: { name: "weather", arguments: '{"city":"Oslo"}' },
  };
  const cassette = {
    interactions: [
      exchange(COHERE, { messages: [{ role: "user", content: "Oslo?" }] }, {
        message: { role: "assistant", tool_plan: "I will look.", tool_calls: [call] },
        finish_reason: "TOOL_CALL",
      }),
      exchange(COHERE, {
        messages: [
          { role: "user", content: "Oslo?" },
          { role: "assistant", tool_plan: "I will look.", tool_calls: [call] },
          {
            role: "tool",
            tool_call_id: "c1",
            content: [{ type: "document", document: { data: "rain, 4C" } }],
          },
        ],
      }, {
        message: { role: "assistant", content: [{ type: "text", text: "Rain, 4C." }] },
        finish_reason: "COMPLETE",
      }),
    ],
  };
  const trace = vcrReader.read(cassette, "c.json");
  assert.equal(trace.calls.length, 1);
  assert.equal(trace.calls[0]?.tool, "weather");
  assert.equal(trace.calls[0]?.result, "rain, 4C");
  assert.equal(trace.finalAnswer, "Rain, 4C.");
});

Deno.test("tracesFromText() reads a YAML cassette whose response body is gzip bytes (!!binary)", () => {
  const response = {
    type: "message",
    role: "assistant",
    content: [{ type: "tool_use", id: "tu1", name: "calc", input: { e: "1+1" } }],
    stop_reason: "tool_use",
  };
  const packed = base64(gzipSync(encode(JSON.stringify(response))));
  const text = [
    "interactions:",
    "- request:",
    `    body: '{"messages": [{"role": "user", "content": "1+1?"}]}'`,
    "    method: POST",
    "    uri: https://api.anthropic.com/v1/messages",
    "  response:",
    "    body:",
    "      string: !!binary |",
    `        ${packed}`,
    "    headers:",
    "      Content-Encoding:",
    "      - gzip",
    "    status:",
    "      code: 200",
    "      message: OK",
    "version: 1",
    "",
  ].join("\n");
  const [trace] = tracesFromText(text, "cassette.yaml");
  assert.equal(trace?.format, "vcr");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.args]), [["calc", { e: "1+1" }]]);
});

Deno.test("decodeBody() reads SSE text, Ruby VCR base64 and zlib bodies", () => {
  const sse = 'data: {"object":"chat.completion.chunk","choices":[]}\n\ndata: [DONE]\n\n';
  assert.deepEqual(decodeBody({ body: { string: sse } }, "r"), [
    { object: "chat.completion.chunk", choices: [] },
  ]);
  const zlib = base64(zlibSync(encode('{"a":[1,2]}')));
  assert.deepEqual(decodeBody({ body: { encoding: "", base64_string: zlib } }, "r"), { a: [1, 2] });
  assert.equal(decodeBody({ body: { string: "<html>not json</html>" } }, "r"), undefined);
});

Deno.test("decodeBody() round-trips any JSON object through gzip and base64", () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
      const packed = base64(gzipSync(encode(JSON.stringify(value))));
      const decoded = decodeBody({ body: { base64_string: packed } }, "r");
      // Integers a double cannot hold read as their digits (issue 42).
      assert.deepEqual(decoded, parseJsonLossless(JSON.stringify(value)));
    }),
    { numRuns: 100 },
  );
});

Deno.test("inflateCapped() refuses a gzip bomb and broken gzip with one clear line", () => {
  const bomb = gzipSync(new Uint8Array(4 * 1024 * 1024)); // ~4 KiB that inflates 1000 times over
  assert.throws(
    () => inflateCapped(bomb, "gzip", "c.yaml: interactions[0].response.body"),
    (error: unknown) =>
      error instanceof InputError && /inflates past/.test(error.message) &&
      /interactions\[0\]/.test(error.message) && !error.message.includes("\n"),
  );
  const broken = gzipSync(encode('{"a": 1}')).slice(0, 12);
  assert.throws(
    () =>
      decodeBody({ body: { base64_string: base64(broken) } }, "c.yaml: interactions[0].response"),
    /broken|inflates/,
  );
});

Deno.test("vcrReader leaves MCP recorder cassettes to the mcp reader", () => {
  const mcp = {
    interactions: [{
      request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } },
      response: { jsonrpc: "2.0", id: 1, result: { content: [] } },
    }],
  };
  assert.equal(vcrReader.claims(mcp), false);
  assert.equal(tracesFromText(JSON.stringify(mcp), "m.json")[0]?.format, "mcp");
});

Deno.test("a cassette with no model API exchange is an input error naming its URIs", () => {
  const cassette = {
    interactions: [{
      request: { method: "GET", uri: "https://example.com/image.png", body: null },
      response: { status: { code: 200 }, body: { string: "" } },
    }],
  };
  assert.throws(
    () => tracesFromText(JSON.stringify(cassette), "c.json", { format: "vcr" }),
    /c\.json: the HTTP cassette holds no model API exchange .*example\.com\/image\.png/,
  );
});

Deno.test("toolscore inspect reads a folder of YAML: the cassette is read, a config is skipped with a note", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(
      "testdata/formats/real/pydantic-ai-tool-choice-auto-cohere.yaml",
      `${dir}/cassette.yaml`,
    );
    await Deno.writeTextFile(`${dir}/settings.yaml`, "name: demo\nretries: 3\n");
    const run = await runCollect(["inspect", dir]);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /format vcr/);
    assert.match(run.out, /get_weather \{"city":"Paris"\}/);
    assert.match(run.err, /skipped 1 file that is not a trace .*settings\.yaml/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a response of an unknown API that holds tool calls is an error, never a silent zero", () => {
  const cassette = {
    interactions: [
      exchange("https://api.example.com/v9/generate", { prompt: "x" }, {
        result: { tool_calls: [{ id: "1", function: { name: "a", arguments: "{}" } }] },
      }),
    ],
  };
  assert.throws(
    () => tracesFromText(JSON.stringify(cassette), "c.json"),
    /c\.json: interactions\[0\]\.response: the response holds tool-call content at result\.tool_calls/,
  );
});

Deno.test("vcrReader merges an Azure stream led by an empty prompt_filter_results chunk", () => {
  const chunk = (delta: object) => ({
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta }],
  });
  const sse = [
    { choices: [], object: "", prompt_filter_results: [{ prompt_index: 0 }] },
    chunk({
      role: "assistant",
      tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: "" } }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }),
  ].map((event) => `data: ${JSON.stringify(event)}\n\n`).join("") + "data: [DONE]\n\n";
  const cassette = {
    interactions: [{
      request: {
        method: "POST",
        uri: "https://x.openai.azure.com/openai/deployments/d/chat/completions",
        body: JSON.stringify({ messages: [{ role: "user", content: "go" }], stream: true }),
      },
      response: { status: { code: 200 }, body: { string: sse } },
    }],
  };
  const trace = vcrReader.read(cassette, "azure.yaml");
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args]), [["f", { x: 1 }]]);
});

Deno.test("a cassette of only a Bedrock InvokeModel stream says it is not read", () => {
  const cassette = {
    interactions: [{
      request: {
        method: "POST",
        uri: "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke-with-response-stream",
        body: "{}",
      },
      response: { status: { code: 200 }, body: { string: "\u0000\u0000\u0001\u0002binary" } },
    }],
  };
  assert.throws(
    () => vcrReader.read(cassette, "s.yaml"),
    /s\.yaml: the HTTP cassette holds no model API exchange .*InvokeModel stream is not read/,
  );
});

// One AWS event-stream frame: prelude (total and header lengths, CRC), string headers, payload, CRC.
function frame(eventType: string, payload: object): Uint8Array {
  const headers: number[] = [];
  const pairs: [string, string][] = [[":event-type", eventType], [":message-type", "event"]];
  for (const [name, value] of pairs) {
    const n = encode(name);
    const v = encode(value);
    headers.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
  }
  const body = encode(JSON.stringify(payload));
  const total = 12 + headers.length + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headers.length);
  out.set(headers, 12);
  out.set(body, 12 + headers.length);
  return out;
}

Deno.test("vcrReader reads Bedrock's converse-stream event frames as the Converse response", () => {
  const frames = [
    frame("messageStart", { role: "assistant" }),
    frame("contentBlockStart", {
      contentBlockIndex: 0,
      start: { toolUse: { toolUseId: "t9", name: "lookup" } },
    }),
    frame("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '{"id":' } } }),
    frame("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: "9}" } } }),
    frame("contentBlockStop", { contentBlockIndex: 0 }),
    frame("messageStop", { stopReason: "tool_use" }),
    frame("metadata", { usage: { inputTokens: 5, outputTokens: 2 } }),
  ];
  const bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    bytes.set(f, at);
    at += f.length;
  }
  const cassette = {
    interactions: [{
      request: { method: "POST", uri: `${BEDROCK}-stream`, body: "{}" },
      response: { status: { code: 200 }, body: { base64_string: base64(bytes) } },
    }],
  };
  const trace = vcrReader.read(cassette, "s.json");
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.id]), [["lookup", { id: 9 }, "t9"]]);
  assert.deepEqual(trace.usage, { inputTokens: 5, outputTokens: 2 });
  // A frame whose length runs past the bytes is not an event stream: the exchange is skipped.
  const cut = {
    ...cassette.interactions[0]!.response,
    body: { base64_string: base64(bytes.slice(0, 40)) },
  };
  assert.throws(
    () =>
      vcrReader.read({ interactions: [{ ...cassette.interactions[0], response: cut }] }, "s.json"),
    /no model API exchange/,
  );
});

Deno.test("vcrReader reads Ollama's /api/chat: calls without ids, answered by the next tool message", () => {
  const ollama = (request: unknown, message: unknown) => ({
    request: {
      method: "POST",
      uri: "http://localhost:11434/api/chat",
      body: JSON.stringify(request),
    },
    response: {
      status: { code: 200 },
      body: { string: JSON.stringify({ model: "llama3.1", message, done: true }) },
    },
  });
  const call = { function: { name: "get_weather", arguments: { city: "Oslo" } } };
  const asked = { role: "user", content: "weather?" };
  const trace = vcrReader.read({
    interactions: [
      ollama({ messages: [asked] }, { role: "assistant", content: "", tool_calls: [call] }),
      ollama({
        messages: [asked, { role: "assistant", content: "", tool_calls: [call] }, {
          role: "tool",
          content: "rain",
          tool_name: "get_weather",
        }],
      }, { role: "assistant", content: "Rain." }),
    ],
  }, "o.yaml");
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.result]), [
    ["get_weather", { city: "Oslo" }, "rain"],
  ]);
  assert.equal(trace.finalAnswer, "Rain.");
});

Deno.test("vcrReader counts each call of a replayed history once, whatever the turns", () => {
  // A conversation of N calls recorded as N+1 exchanges, each request replaying the whole history.
  fc.assert(
    fc.property(
      fc.array(fc.record({ tool: fc.constantFrom("a", "b", "c"), n: fc.integer() }), {
        minLength: 1,
        maxLength: 6,
      }),
      (steps) => {
        const history: unknown[] = [{ role: "user", content: "go" }];
        const interactions = [];
        for (let i = 0; i <= steps.length; i++) {
          const step = steps[i];
          const message = step === undefined ? { role: "assistant", content: "done" } : {
            role: "assistant",
            content: null,
            tool_calls: [{
              id: `c${i}`,
              type: "function",
              function: { name: step.tool, arguments: JSON.stringify({ n: step.n }) },
            }],
          };
          interactions.push(
            exchange("https://api.openai.com/v1/chat/completions", { messages: [...history] }, {
              choices: [{ message }],
            }),
          );
          history.push(message);
          if (step !== undefined) {
            history.push({ role: "tool", tool_call_id: `c${i}`, content: `r${i}` });
          }
        }
        const trace = vcrReader.read({ interactions }, "p.json");
        assert.deepEqual(
          trace.calls.map((c) => [c.tool, c.args, c.result]),
          steps.map((s, i) => [s.tool, { n: s.n }, `r${i}`]),
        );
        assert.equal(trace.finalAnswer, "done");
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("vcrReader merges Ollama's streamed /api/chat JSON lines", () => {
  const lines = [
    {
      model: "qwen3",
      message: {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "f", arguments: { q: 1 } } }],
      },
      done: false,
    },
    {
      model: "qwen3",
      message: { role: "assistant", content: "" },
      done: true,
      done_reason: "stop",
    },
  ].map((line) => JSON.stringify(line)).join("\n") + "\n";
  const trace = vcrReader.read({
    interactions: [{
      request: {
        method: "POST",
        uri: "http://127.0.0.1:11434/api/chat",
        body: JSON.stringify({ messages: [{ role: "user", content: "go" }] }),
      },
      response: { status: { code: 200 }, body: { string: lines } },
    }],
  }, "o.yaml");
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.args]), [["f", { q: 1 }]]);
  assert.equal(trace.model, "qwen3");
});
