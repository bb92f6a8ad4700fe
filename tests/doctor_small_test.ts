// Issue 37, the small fixes: each doctor message says what happened and what to do, once.
import assert from "node:assert/strict";
import { checkServer } from "../lib/doctor/check_server.ts";
import { badServer, byName } from "./_doctor.ts";
import { fixture, tempDir } from "./_mcp.ts";
import { runCollect } from "./_cli.ts";

const QUICK = { timeout: 20, linger: 0.1 };

Deno.test("handshake: the previous protocol revision (2025-06-18) is a note; an older one still warns", async () => {
  const previous = byName(
    await checkServer(badServer(["--protocol", "2025-06-18"]), QUICK),
    "handshake",
  );
  assert.equal(previous.status, "pass");
  assert.match(
    previous.detail,
    /^protocol 2025-06-18 \(the previous revision, supported; current: 2025-11-25\); /,
  );
  const old = byName(
    await checkServer(badServer(["--protocol", "2025-03-26"]), QUICK),
    "handshake",
  );
  assert.equal(old.status, "warn");
  assert.match(old.detail, /^protocol 2025-03-26 is old \(current: 2025-11-25\)/);
});

Deno.test("server-start: a server that pretty-prints JSON-RPC over several lines is a protocol error, not logging", async () => {
  const started = performance.now();
  const checks = await checkServer(badServer(["--pretty"]), QUICK);
  assert.ok(performance.now() - started < 10_000, "waited for the timeout"); // stopped at once
  const start = byName(checks, "server-start");
  assert.equal(start.status, "fail");
  assert.match(
    start.detail,
    /^no answer to initialize: the server writes each JSON-RPC message over several lines \(pretty-printed, e\.g\. " {2}\\"jsonrpc\\": \\"2\.0\\","\), and MCP's stdio transport reads one message per line \(/,
  );
  assert.doesNotMatch(start.detail, /log to stderr/);
  assert.equal(
    start.fix,
    "write each message as one line of JSON followed by a newline (JSON.stringify(message), without indentation)",
  );
});

Deno.test("tools-list: the pagination-loop fix names the cursor that came back", async () => {
  const checks = await checkServer(fixture("--page-size", "1", "--page-loop"), QUICK);
  const list = byName(checks, "tools-list");
  assert.equal(list.status, "fail");
  assert.match(list.detail, /tools\/list returned the cursor "page-1" twice \(a pagination loop\)/);
  assert.equal(
    list.fix,
    'make tools/list end: give each page a new nextCursor and the last page none (the cursor "page-1" came back)',
  );
});

function statusServer(status: number, headers: Record<string, string> = {}) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("no", { status, headers: { "content-type": "text/plain", ...headers } }),
  );
}

Deno.test("server-start: HTTP 403 without a header says no credentials were sent, not that they were refused", async () => {
  const server = statusServer(403);
  try {
    const start = byName(
      await checkServer({ url: `http://127.0.0.1:${server.addr.port}/mcp` }, { timeout: 10 }),
      "server-start",
    );
    assert.equal(
      start.detail,
      'the server answered initialize with HTTP 403 Forbidden, and no credentials were sent; add headers: {Authorization: "Bearer ${TOKEN}"} (or the header the server\'s docs name)',
    );
    assert.doesNotMatch(start.detail, /refused/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("server-start: a 401 that advertises OAuth says OAuth is not supported yet and how to pass a token", async () => {
  const server = statusServer(401, {
    "www-authenticate":
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
  });
  try {
    const start = byName(
      await checkServer({ url: `http://127.0.0.1:${server.addr.port}/mcp` }, { timeout: 10 }),
      "server-start",
    );
    assert.equal(
      start.detail,
      "the server answered initialize with HTTP 401 Unauthorized and asks for OAuth (WWW-Authenticate: Bearer resource_metadata=…), which doctor does not support yet; get a token from the server's provider and send it in a config entry's headers: {Authorization: \"Bearer ${TOKEN}\"} (--mcp-config FILE)",
    );
    assert.match(start.fix ?? "", /until doctor speaks OAuth/);
  } finally {
    await server.shutdown();
  }
  // A plain 401 (no OAuth challenge) keeps its message.
  const plain = statusServer(401, { "www-authenticate": 'Basic realm="x"' });
  try {
    const start = byName(
      await checkServer({ url: `http://127.0.0.1:${plain.addr.port}/mcp` }, { timeout: 10 }),
      "server-start",
    );
    assert.match(
      start.detail,
      /HTTP 401 Unauthorized: it wants credentials; no credentials were sent/,
    );
  } finally {
    await plain.shutdown();
  }
});

Deno.test("server-start: https:// to a plain-HTTP port gets a plain message", async () => {
  const server = statusServer(200);
  try {
    const url = `https://127.0.0.1:${server.addr.port}/mcp`;
    const start = byName(await checkServer({ url }, { timeout: 10 }), "server-start");
    assert.equal(
      start.detail,
      `${url} answered in plain HTTP, not TLS (https): the port serves http; use http://127.0.0.1:${server.addr.port}/mcp`,
    );
    assert.equal(start.fix, "use http:// in the URL (or serve TLS on that port)");
  } finally {
    await server.shutdown();
  }
});

Deno.test("toolscore doctor: a missing --input reads cleanly", async () => {
  const dir = await tempDir(".doctor_small_");
  try {
    await Deno.mkdir(`${dir}/.vscode`);
    await Deno.writeTextFile(
      `${dir}/.vscode/mcp.json`,
      JSON.stringify({
        inputs: [{ type: "promptString", id: "api-key", description: "Your API key" }],
        servers: { s: { command: "srv", env: { KEY: "${input:api-key}" } } },
      }),
    );
    const run = await runCollect(["doctor", "--mcp-config", `${dir}/.vscode/mcp.json`]);
    assert.equal(run.code, 1);
    assert.match(
      run.out,
      /^✗ server-start +server\.env\.KEY: refers to \$\{input:api-key\}, which the client asks for \("Your API key"\) when it starts the server; pass --input api-key=VALUE$/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
