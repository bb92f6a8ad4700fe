// MCP recordings: recorder cassettes, proxy logs and MCP client log text.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import { traceFromValue, tracesFromText } from "../lib/formats/detect.ts";
import { InputError } from "../lib/base/errors.ts";
import { logTextEntries } from "../lib/formats/mcp_recordings.ts";
import { callFailed, hasOutcome, type ToolCall } from "../lib/scoring/calls.ts";

const corpusOutcomes = (calls: ToolCall[]) =>
  calls.map((c) => callFailed(c) ? false : hasOutcome(c) ? true : null);

const CALL = (id: number, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
const OK = (id: number, text: string) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text }], isError: false },
});

Deno.test("mcp: a cassette's interactions, latency as duration", () => {
  const trace = traceFromValue({
    version: "1.0",
    interactions: [
      {
        type: "jsonrpc_request",
        request: { jsonrpc: "2.0", id: 0, method: "initialize" },
        response: null,
      },
      {
        type: "jsonrpc_request",
        request: CALL(2, "add", { a: 2, b: 3 }),
        response: OK(2, "5"),
        latency_ms: 4,
      },
      {
        type: "jsonrpc_request",
        request: CALL(3, "divide", { a: 1, b: 0 }),
        response: { jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Division by zero" } },
        latency_ms: 2,
      },
      { type: "lifecycle", request: null, response: null },
    ],
  });
  assert.equal(trace.format, "mcp");
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.result, c.isError, c.error, c.durationS]), [
    ["add", "5", false, undefined, 0.004],
    ["divide", undefined, true, "Division by zero", 0.002],
  ]);
});

Deno.test("mcp: a proxy log (JSONL lines with a direction and a message), timestamps as duration", () => {
  const rows = [
    {
      direction: "client->server",
      timestamp: "2025-06-01T10:00:00.000Z",
      message: CALL(1, "read", { path: "a" }),
    },
    { direction: "server->client", timestamp: "2025-06-01T10:00:00.300Z", message: OK(1, "hello") },
    {
      direction: "client->server",
      timestamp: "2025-06-01T10:00:01.000Z",
      message: JSON.stringify(CALL(2, "read", {})),
    },
  ];
  const [trace] = tracesFromText(rows.map((r) => JSON.stringify(r)).join("\n"), "proxy.jsonl");
  assert.equal(trace?.format, "mcp");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.args, c.result, c.durationS]), [
    ["read", { path: "a" }, "hello", 0.3],
    ["read", {}, undefined, undefined],
  ]);
});

// MCPSpy's capture lines: the direction as its transport object, the message as `raw`
// text, and a decoded copy beside it whose empty `error: {}` is no failure.
const SPY = (pids: [number, number], time: string, message: unknown) => {
  const raw = JSON.stringify(message);
  const decoded = JSON.parse(raw);
  delete decoded.jsonrpc;
  return {
    timestamp: time,
    transport_type: "stdio",
    stdio_transport: { from_pid: pids[0], from_comm: "python", to_pid: pids[1], to_comm: "python" },
    type: decoded.method === undefined ? "response" : "request",
    ...decoded,
    error: decoded.error ?? {},
    raw,
  };
};

Deno.test("mcp: an MCPSpy capture reads its raw messages, never the decoded copies", () => {
  const rows = [
    SPY([7, 8], "2025-11-29T21:54:51.585900784+02:00", CALL(7, "get_weather", { city: "Oslo" })),
    SPY([8, 7], "2025-11-29T21:54:51.835900784+02:00", OK(7, "Snow")),
  ];
  const text = rows.map((r) => JSON.stringify(r)).join("\n");
  const [trace] = tracesFromText(text, "capture.jsonl");
  assert.equal(trace?.format, "mcp");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.args, c.result, c.isError, c.durationS]), [
    ["get_weather", { city: "Oslo" }, "Snow", false, 0.25],
  ]);
  // A line whose raw message was cut is not a capture line: an error, never 0 calls.
  const cut = { ...rows[1], raw: '{"jsonrpc":"2.0","id":7,"res' };
  for (const format of ["auto", "mcp"] as const) {
    assert.throws(
      () =>
        tracesFromText(`${JSON.stringify(rows[0])}\n${JSON.stringify(cut)}`, "c.jsonl", { format }),
      InputError,
    );
  }
});

Deno.test("mcp: requests logged without an id pair with their server's next response, never when ambiguous", () => {
  // The shape of the GitHub Agentic Workflows gateway's rpc-messages.jsonl.
  const line = (direction: string, server_id: string, payload: unknown) =>
    JSON.stringify({ timestamp: "2026-02-18T01:28:44.940Z", direction, server_id, payload });
  const unnumbered = (name: string) => {
    const { id: _id, ...request } = CALL(0, name, {});
    return request;
  };
  const text = [
    line("OUT", "github", { jsonrpc: "2.0", method: "tools/list", params: null }),
    line("OUT", "safe", unnumbered("add_comment")),
    line("IN", "github", { jsonrpc: "2.0", id: 1, result: { tools: [] } }), // answers tools/list
    line("OUT", "github", unnumbered("get_me")),
    line("IN", "safe", OK(1, "posted")),
    line("IN", "github", { jsonrpc: "2.0", id: 1, result: { content: [], isError: true } }),
    // Two waiting at once on one server: which response is whose is not known.
    line("OUT", "safe", unnumbered("a")),
    line("OUT", "safe", unnumbered("b")),
    line("IN", "safe", OK(2, "one")),
    line("IN", "safe", OK(3, "two")),
  ].join("\n");
  const [trace] = tracesFromText(text, "rpc-messages.jsonl");
  assert.deepEqual(trace?.calls.map((c) => [c.tool, c.metadata?.server, c.result, c.isError]), [
    ["add_comment", "safe", "posted", false],
    ["get_me", "github", "", true],
    ["a", "safe", undefined, undefined],
    ["b", "safe", undefined, undefined],
  ]);
});

const LOG = [
  "2025-07-20T13:44:16.395Z [weather] [info] Initializing server... { metadata: undefined }",
  '2025-07-20T13:44:16.395Z [weather] [info] Message from client: {"method":"initialize","params":{"protocolVersion":"2025-06-18"},"jsonrpc":"2.0","id":0} { metadata: undefined }',
  '2025-07-20T13:44:18.950Z [weather] [info] Message from server: {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}} { metadata: undefined }',
  '2025-07-20T13:45:00.000Z [weather] [info] Message from client: {"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Oslo"}},"jsonrpc":"2.0","id":5} { metadata: undefined }',
  '2025-07-20T13:45:00.100Z [memory] [info] Message from client: {"method":"tools/call","params":{"name":"read_graph","arguments":{}},"jsonrpc":"2.0","id":5} { metadata: undefined }',
  '2025-07-20 13:45:00 - httpx - INFO - HTTP Request: POST http://localhost:4041/mcp "HTTP/1.1 200 OK"',
  '2025-07-20T13:45:00.600Z [memory] [info] Message from server: {"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}',
  '2025-07-20T13:45:01.500Z [weather] [info] Message from server: {"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"Snow, -2°C"}],"isError":false}} { metadata: undefined }',
].join("\n");

Deno.test("mcp: MCP client log text, line by line, servers kept apart, times as duration", () => {
  for (const name of ["mcp.log", "mcp-server-weather.txt", "claude.json"]) {
    const [trace] = tracesFromText(LOG, name);
    assert.equal(trace?.format, "mcp", name);
    assert.deepEqual(
      trace?.calls.map((c) => [c.tool, c.metadata?.server, c.result, c.error, c.durationS]),
      [
        ["get_forecast", "weather", "Snow, -2°C", undefined, 1.5],
        ["read_graph", "memory", undefined, "Method not found", 0.5],
      ],
    );
  }
  assert.equal(tracesFromText(LOG, "mcp.log", { format: "mcp" })[0]?.calls.length, 2);
  // Lines without a timestamp start with the [server] tag, which is not JSON.
  const untimed = LOG.split("\n").map((line) => line.replace(/^\S+Z /, "")).join("\n");
  assert.deepEqual(tracesFromText(untimed, "mcp.log")[0]?.calls.map((c) => c.tool), [
    "get_forecast",
    "read_graph",
  ]);
});

Deno.test("mcp: unreadable recordings are errors naming where, never 0 calls", () => {
  // A log line whose message was cut off.
  assert.throws(
    () =>
      tracesFromText(
        LOG + '\n2025-07-20T13:46:00.000Z [x] [info] Message from client: {"method":"tools/ca',
        "mcp.log",
      ),
    (error: unknown) => error instanceof InputError && /^mcp\.log:9: /.test(error.message),
  );
  // A cassette's tools/call without a tool name.
  assert.throws(
    () =>
      traceFromValue({
        interactions: [{ request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} } }],
      }, { source: "c.json" }),
    /c\.json: interactions\[0\]\.request: tools\/call has no params\.name/,
  );
});

Deno.test("logTextEntries() reads real Claude Desktop logs' messages with their server, either tag order", () => {
  const read = (name: string) => {
    const file = `testdata/formats/real/${name}`; // copied from a public repository (SOURCES.md)
    return logTextEntries(Deno.readTextFileSync(file), file).map((e) =>
      `${e.scope} ${(e.message as { method?: string }).method} ${e.where}`
    );
  };
  // `[info] [filesystem]` in mcp.log; the servers exited before answering initialize.
  assert.deepEqual(read("claudedesktop-mcp.log"), [
    "filesystem initialize line 3",
    "filesystem initialize line 6",
    "server initialize line 19",
    "server initialize line 22",
    "server initialize line 35",
    "server initialize line 38",
  ]);
  // `[server] [info]` in mcp-server-server.log, the server's stderr lines between.
  assert.deepEqual(read("claudedesktop-mcp-server-server.log").map((e) => e.split(" ")[0]), [
    "server",
    "server",
    "server",
    "server",
  ]);
});

// Claude Desktop cuts long messages in its logs, keeping head and tail:
// `…[11759 chars truncated]…` (lines shaped like a real 2026 mcp-server-filesystem.log).
const CUT_LOG = [
  '2026-03-01T09:40:03.382Z [filesystem] [info] Message from server: {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"read_file","inputSchema":{"$schema":"http://json-schema.org/draft-07/...[11759 chars truncated]...notations":{"readOnlyHint":true},"additionalProperties":false}}]}} { metadata: undefined }',
  '2026-03-01T09:47:44.588Z [filesystem] [info] Message from client: {"method":"tools/call","params":{"name":"write_file","arguments":{"path":"C:\\\\a.txt","content":"== A REVIEW OF THE HISTORY OF ARTIFICIAL IN...[8499 chars truncated]...END OF DOCUMENT\\n"}},"jsonrpc":"2.0","id":5} { metadata: undefined }',
  '2026-03-01T09:47:44.595Z [filesystem] [info] Message from server: {"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"Successfully wrote to C:\\\\a.txt"}]}} { metadata: undefined }',
  '2026-03-01T09:48:00.000Z [filesystem] [info] Message from client: {"method":"tools/call","params":{"name":"edit_file","arguments":{"path":"b","edits":[{"oldText":"x...[900 chars truncated]...y"}]}},"jsonrpc":"2.0","id":6} { metadata: undefined }',
  '2026-03-01T09:48:00.100Z [filesystem] [info] Message from server: {"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"Error: no match for ...[120 chars truncated]... in b"}],"isError":true}} { metadata: undefined }',
  '2026-03-01T09:49:03.586Z [filesystem] [info] Message from client: {"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"b"}},"jsonrpc":"2.0","id":7} { metadata: undefined }',
  '2026-03-01T09:49:03.590Z [filesystem] [info] Message from server: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"== A REVIEW ...[17280 chars truncated]...ntent":"END"}}} { metadata: undefined }',
  '2026-03-01T09:50:00.000Z [filesystem] [info] Message from client: {"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"c"}},"jsonrpc":"2.0","id":8} { metadata: undefined }',
  '2026-03-01T09:50:00.004Z [filesystem] [info] Message from server: {"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"== A REVIEW ...[17280 chars truncated]... END"}]}} { metadata: undefined }',
].join("\n");

Deno.test("mcp: a client log's cut messages read for what they still show, never guessed", () => {
  const [trace] = tracesFromText(CUT_LOG, "mcp-server-filesystem.log");
  const view = trace?.calls.map((
    c,
  ) => [c.tool, c.id, c.args, c.argsError !== undefined, c.isError]);
  assert.deepEqual(view, [
    ["write_file", "5", {}, true, undefined], // the cut fell inside a string: JSON whole, args cut
    ["edit_file", "6", {}, true, true], // cut across the structure; the tail shows id and isError
    ["read_text_file", "7", { path: "b" }, false, undefined], // the result's flag is not in sight
    ["read_text_file", "8", { path: "c" }, false, undefined], // cut inside the text: JSON whole
  ]);
  const [write, edit, read, whole] = trace?.calls ?? [];
  assert.equal(write?.result, "Successfully wrote to C:\\a.txt");
  assert.match(
    edit?.rawArgs ?? "",
    /^\{"method":"tools\/call".*\[900 chars truncated\].*"id":6\}$/,
  );
  assert.match(edit?.error ?? "", /\[120 chars truncated\]/);
  assert.equal(read?.result, undefined);
  assert.equal(read?.metadata?.log_cut, "...[17280 chars truncated]...");
  assert.equal(whole?.result, "== A REVIEW ...[17280 chars truncated]... END"); // no isError: success
  assert.deepEqual(corpusOutcomes(trace?.calls ?? []), [true, false, null, true]);
  // A cut before the tool's name is an error that says so.
  const nameless =
    '2026-03-01T09:50:00.000Z [x] [info] Message from client: {"method":"tools/call","params":{"na...[40 chars truncated]...,"jsonrpc":"2.0","id":9}';
  assert.throws(
    () => tracesFromText(nameless, "mcp.log"),
    (error: unknown) =>
      error instanceof InputError &&
      /tools\/call has no params\.name \(the log cut/.test(error.message),
  );
});

Deno.test("tracesFromText() of client log text is final: evaluating it reads no other format", () => {
  const file = "testdata/formats/real/claudedesktop-mcp.log"; // a real log without tools/call
  const [trace] = tracesFromText(Deno.readTextFileSync(file), file);
  assert.ok(trace !== undefined);
  assert.equal(traceFromValue(trace), trace); // was read again as a "custom" call list
  assert.deepEqual(trace.notes, ["no tool calls: the mcp transcript holds no tool call"]);
  const [withCalls] = tracesFromText(LOG, "mcp.log");
  assert.ok(withCalls !== undefined);
  assert.equal(traceFromValue(withCalls), withCalls);
  assert.equal(withCalls.notes, undefined);
});
