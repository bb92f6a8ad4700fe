import assert from "node:assert/strict";
import { McpServerError } from "../mod.ts";
import { describeServer, serverSpecToJson } from "../lib/mcp/server_spec.ts";
import { serverSpecFromJson } from "../lib/mcp/spec_from_json.ts";
import { splitCommandLine } from "../lib/mcp/command_line.ts";
import { serverSpecFromCommandLine } from "../lib/mcp/spec_from_command.ts";
import { BASE_ENV_NAMES, looksSecret, serverEnvironment } from "../lib/mcp/server_env.ts";
import { McpSession } from "../lib/mcp/client.ts";
import { closeAllTransports, DenoCommandTransport } from "../lib/mcp/transport.ts";
import { MARKER_VARIABLE } from "../lib/mcp/process_sweep.ts";
import {
  FIXTURE,
  fixture,
  fixtureWriting,
  isAlive,
  readPidFile,
  recordedMethods,
  tempDir,
} from "./_mcp.ts";
import { Client } from "@modelcontextprotocol/sdk/client";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";

// --- McpServerSpec -----------------------------------------------------------------------------

Deno.test("serverSpecFromJson() reads our shape with env, cwd, timeout and verify", () => {
  const spec = serverSpecFromJson({
    name: "files",
    command: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."],
    env: { ROOT: "/tmp" },
    cwd: "sandbox",
    timeout_s: 12,
    verify: { name: "fs", version: "1.0.0", tools_sha256: "a".repeat(64) },
  });
  assert.deepEqual(spec, {
    name: "files",
    command: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."],
    env: { ROOT: "/tmp" },
    cwd: "sandbox",
    timeoutS: 12,
    verify: { name: "fs", version: "1.0.0", toolsSha256: "a".repeat(64) },
  });
});

Deno.test("serverSpecFromJson() reads one mcpServers entry as desktop clients write it", () => {
  const spec = serverSpecFromJson({
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-everything"],
    env: { DEBUG: "1" },
    disabled: false,
    autoApprove: [],
  });
  assert.deepEqual(spec, {
    command: ["npx", "-y", "@modelcontextprotocol/server-everything"],
    env: { DEBUG: "1" },
  });
});

Deno.test("serverSpecFromJson() picks an entry of a whole client config", async () => {
  const config = JSON.parse(await Deno.readTextFile("testdata/mcp/claude_desktop_config.json"));
  assert.throws(
    () => serverSpecFromJson(config),
    /server\.mcpServers: 2 servers \(everything, fixture\); name the one to use/,
  );
  assert.deepEqual(serverSpecFromJson(config, { entry: "fixture" }), {
    name: "fixture",
    command: ["deno", "run", "--no-prompt", FIXTURE],
    env: { FIXTURE_MODE: "demo" },
  });
  assert.throws(
    () => serverSpecFromJson(config, { entry: "nope" }),
    /no server named "nope"; the servers are everything, fixture/,
  );
  // VS Code writes `servers` and a `type`.
  assert.deepEqual(
    serverSpecFromJson({ servers: { web: { type: "http", url: "http://127.0.0.1:3000/mcp" } } }),
    { name: "web", url: "http://127.0.0.1:3000/mcp", transport: "streamable-http" },
  );
});

Deno.test("serverSpecFromJson() reads a remote server with headers", () => {
  assert.deepEqual(
    serverSpecFromJson({
      url: "https://example.test/mcp",
      headers: { Authorization: "Bearer ${T}" },
    }),
    { url: "https://example.test/mcp", headers: { Authorization: "Bearer ${T}" } },
  );
});

Deno.test("serverSpecFromJson() names the JSON path of every mistake", () => {
  const cases: [unknown, RegExp][] = [
    [[], /InputError: server: expected a server object/],
    [{ command: [] }, /InputError: server\.command: empty command/],
    [{ command: ["a", 1] }, /InputError: server\.command\[1\]: expected a non-empty string/],
    [{ command: ["a"], args: ["b"] }, /InputError: server\.args: args goes with a string command/],
    [{ command: "a", args: "b" }, /InputError: server\.args: expected an array of strings/],
    [{ command: "a", args: ["b", 2] }, /InputError: server\.args\[1\]: expected a string/],
    [{ command: ["a"], bogus: 1 }, /InputError: server\.bogus: unknown key; a local server takes/],
    [
      { url: "https://x.test", env: {} },
      /InputError: server\.env: unknown key; a remote server takes/,
    ],
    [{ url: "ftp://x.test" }, /InputError: server\.url: expected an http: or https: URL/],
    [{ url: "not a url" }, /InputError: server\.url: not a URL/],
    [{ command: ["a"], timeout_s: 0 }, /InputError: server\.timeout_s: expected a positive number/],
    [{ command: ["a"], env: { A: 1 } }, /InputError: server\.env\.A: expected a string/],
    [
      { command: ["a"], verify: { tools_sha256: "abc" } },
      /InputError: server\.verify\.tools_sha256: expected 64/,
    ],
    [{ command: ["a"], verify: { build: "x" } }, /InputError: server\.verify\.build: unknown key/],
    [
      { type: "websocket", url: "https://x.test" },
      /InputError: server\.type: unsupported transport "websocket"/,
    ],
    [{ env: {} }, /InputError: server\.command: missing command \(or url\)/],
  ];
  for (const [value, pattern] of cases) {
    assert.throws(() => serverSpecFromJson(value), pattern, JSON.stringify(value));
  }
});

Deno.test("splitCommandLine() handles quotes and escapes like a shell", () => {
  assert.deepEqual(splitCommandLine(`deno run --allow-read="a b" 'x y' z\\ w ""`), [
    "deno",
    "run",
    "--allow-read=a b",
    "x y",
    "z w",
    "",
  ]);
  assert.deepEqual(splitCommandLine(`  npx   -y  pkg  `), ["npx", "-y", "pkg"]);
  assert.deepEqual(splitCommandLine(`echo "say \\"hi\\""`), ["echo", 'say "hi"']);
  assert.throws(() => splitCommandLine(`npx "unclosed`), /unclosed " in the command line/);
});

Deno.test("serverSpecFromCommandLine() takes tokens or one line, and refuses an empty one", () => {
  assert.deepEqual(serverSpecFromCommandLine(["node", "server.js"]), {
    command: ["node", "server.js"],
  });
  assert.deepEqual(serverSpecFromCommandLine(`node "my server.js"`), {
    command: ["node", "my server.js"],
  });
  assert.throws(() => serverSpecFromCommandLine("   "), /empty server command/);
  assert.throws(() => serverSpecFromCommandLine([]), /empty server command/);
});

Deno.test("serverSpecToJson() and describeServer() never show env or header values", () => {
  const spec = { name: "s", command: ["srv", "a b"], env: { API_TOKEN: "tok-SECRET-1" } };
  const json = JSON.stringify(serverSpecToJson(spec));
  assert.ok(!json.includes("tok-SECRET-1"));
  assert.ok(json.includes("API_TOKEN"));
  assert.equal(describeServer(spec), `s (srv 'a b')`);
  const remote = { url: "https://x.test/mcp", headers: { Authorization: "Bearer tok-SECRET-2" } };
  assert.ok(!JSON.stringify(serverSpecToJson(remote)).includes("tok-SECRET-2"));
  assert.ok(!describeServer(remote).includes("tok-SECRET-2"));
});

Deno.test("serverEnvironment() passes the minimal base and the spec's env, never our keys", () => {
  const ours: Record<string, string> = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    DENO_DIR: "/cache/deno",
    NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
    HTTPS_PROXY: "http://proxy:3128",
    OPENAI_API_KEY: "sk-ours",
    GITHUB_TOKEN: "ghp-ours",
    AWS_SECRET_ACCESS_KEY: "aws-ours",
    DB_PASSWORD: "pw",
    RANDOM_VAR: "x",
    SERVICE_TOKEN: "svc-token",
  };
  const env = serverEnvironment(
    { command: ["srv"], env: { TOKEN: "${SERVICE_TOKEN}", MODE: "fast", URL: "http://${HOME}/x" } },
    (name) => ours[name],
  );
  assert.deepEqual(env, {
    PATH: "/usr/bin",
    HOME: "/home/me",
    DENO_DIR: "/cache/deno",
    NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
    HTTPS_PROXY: "http://proxy:3128",
    TOKEN: "svc-token",
    MODE: "fast",
    URL: "http:///home/me/x",
  });
  assert.throws(
    () => serverEnvironment({ command: ["s"], env: { K: "${MISSING_KEY}" } }, (n) => ours[n]),
    (error: Error) =>
      /server\.env\.K: refers to \$\{MISSING_KEY\}, but MISSING_KEY is not set/.test(error.message),
  );
});

// --- transport and session against the fixture server -------------------------------------------

Deno.test("McpSession lists every page of tools from the fixture server and calls one", async () => {
  const dir = await tempDir(".mcp_test_");
  const record = `${dir}/requests.jsonl`;
  try {
    const spec = fixtureWriting(record, "--record", record, "--page-size", "4");
    await using session = await McpSession.open(spec, { timeoutS: 20 });
    assert.equal(session.identity.name, "fixture");
    assert.equal(session.identity.version, "1.2.3");
    assert.match(session.identity.protocolVersion ?? "", /^\d{4}-\d{2}-\d{2}$/);
    const tools = await session.listToolsRaw();
    assert.deepEqual(
      tools.map((tool) => (tool as { name: string }).name),
      ["search_flights", "book_flight", "add", "get_weather", "count_items", "ping", "env_names"],
    );
    const result = await session.callTool("add", { a: 2, b: 3 });
    assert.deepEqual(result.content, [{ type: "text", text: "5" }]);
    assert.deepEqual(await recordedMethods(record), [
      "initialize",
      "notifications/initialized",
      "tools/list",
      "tools/list",
      "tools/call",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("McpSession stops a tools/list pagination loop and the server with it", async () => {
  const dir = await tempDir(".mcp_test_");
  const pidFile = `${dir}/pid`;
  try {
    const spec = fixtureWriting(pidFile, "--page-size", "2", "--page-loop", "--pid-file", pidFile);
    const session = await McpSession.open(spec, { timeoutS: 20 });
    const error = await session.listToolsRaw().then(
      () => assert.fail("expected a failure"),
      (error: unknown) => error,
    );
    assert.ok(error instanceof McpServerError);
    assert.equal(error.kind, "protocol");
    assert.equal(
      error.message,
      'tools/list returned the cursor "page-2" twice (a pagination loop)',
    );
    const pid = await readPidFile(pidFile, 0);
    assert.ok(pid > 0);
    assert.equal(isAlive(pid), false, `the server ${pid} is still running`);
    await session.close(); // already closed: a no-op
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("McpSession starts the server with the spec's env and none of our keys", async () => {
  Deno.env.set("TOOLSCORE_TEST_OPENAI_API_KEY", "sk-test-never-passed");
  Deno.env.set("TOOLSCORE_TEST_PLAIN", "plain");
  try {
    const spec = {
      command: [Deno.execPath(), "run", "--no-prompt", "--allow-env", FIXTURE],
      env: { FIXTURE_MODE: "demo", FROM_OURS: "${TOOLSCORE_TEST_PLAIN}" },
    };
    await using session = await McpSession.open(spec, { timeoutS: 20 });
    const result = await session.callTool("env_names");
    const names = JSON.parse((result.content as { text: string }[])[0]!.text) as string[];
    assert.ok(names.includes("FIXTURE_MODE"));
    assert.ok(names.includes("FROM_OURS"));
    assert.ok(names.includes("PATH"));
    assert.ok(!names.includes("TOOLSCORE_TEST_OPENAI_API_KEY"));
    assert.ok(!names.includes("TOOLSCORE_TEST_PLAIN"));
    for (const name of names) {
      assert.ok(
        BASE_ENV_NAMES.includes(name) || name === "FIXTURE_MODE" || name === "FROM_OURS" ||
          name === MARKER_VARIABLE,
        `unexpected variable ${name} in the server's environment`,
      );
    }
    assert.deepEqual(BASE_ENV_NAMES.filter(looksSecret), []);
  } finally {
    Deno.env.delete("TOOLSCORE_TEST_OPENAI_API_KEY");
    Deno.env.delete("TOOLSCORE_TEST_PLAIN");
  }
});

Deno.test("McpSession reports a crash on start with the server's stderr and exit code", async () => {
  const error = await McpSession.open(fixture("--crash-on-start"), { timeoutS: 20 }).then(
    () => assert.fail("expected a failure"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof McpServerError);
  assert.equal(error.kind, "exit");
  assert.match(error.message, /the server exited with code 3 during initialize/);
  assert.match(error.message, /FATAL missing FIXTURE_DB_URL/);
  assert.ok(error.stderr.includes("fixture: FATAL missing FIXTURE_DB_URL; cannot start"));
});

Deno.test("McpSession hides a secret the server echoes to stderr", async () => {
  const secret = "tok-ECHOED-4711";
  const error = await McpSession.open({
    command: [
      Deno.execPath(),
      "run",
      "--no-prompt",
      "--allow-env=FIXTURE_TOKEN",
      FIXTURE,
      "--crash-on-start",
    ],
    env: { FIXTURE_TOKEN: "${TOOLSCORE_TEST_SERVICE_TOKEN}" },
  }, {
    timeoutS: 20,
    lookup: (name) => name === "TOOLSCORE_TEST_SERVICE_TOKEN" ? secret : Deno.env.get(name),
  }).then(() => assert.fail("expected a failure"), (error: unknown) => error);
  assert.ok(error instanceof McpServerError);
  assert.match(error.message, /fixture: token \*\*\* was rejected/);
  assert.ok(!error.message.includes(secret), error.message);
  assert.ok(!error.stderr.join("\n").includes(secret));
});

Deno.test("McpSession times out on a hung server and leaves no process behind", async () => {
  const dir = await tempDir(".mcp_test_");
  const pidFile = `${dir}/pid`;
  try {
    const spec = fixtureWriting(pidFile, "--hang", "--pid-file", pidFile);
    const started = performance.now();
    const error = await McpSession.open(spec, { timeoutS: 1, killGraceMs: 500 }).then(
      () => assert.fail("expected a timeout"),
      (error: unknown) => error,
    );
    const seconds = (performance.now() - started) / 1000;
    assert.ok(error instanceof McpServerError);
    assert.equal(error.kind, "timeout");
    assert.match(error.message, /no answer to initialize within 1 s/);
    assert.match(error.message, /fixture: hanging on purpose/);
    // 1 s timeout + 0.5 s grace after SIGTERM (ignored) + SIGKILL. The upper bound is generous for
    // a loaded CI machine and still far below the 30 s default.
    assert.ok(seconds >= 0.95 && seconds < 15, `took ${seconds} s`);
    const pid = await readPidFile(pidFile, 0);
    assert.ok(pid > 0);
    assert.equal(isAlive(pid), false, `the hung server ${pid} is still running`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("McpSession says when the executable does not exist", async () => {
  const error = await McpSession.open({ command: ["toolscore-no-such-server-xyz"] }).then(
    () => assert.fail("expected a failure"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof McpServerError);
  assert.equal(error.kind, "spawn");
  assert.match(error.message, /cannot start toolscore-no-such-server-xyz: not found/);

  const folder = await McpSession.open({ command: ["./testdata"] }).then(
    () => assert.fail("expected a failure"),
    (error: unknown) => error,
  );
  assert.ok(folder instanceof McpServerError);
  assert.equal(folder.kind, "spawn");
  assert.match(
    folder.message,
    /^cannot start \.\/testdata: .+; check that it is an executable file$/,
  );
});

Deno.test("McpSession reports an unset ${VAR} in the spec's env by name, before starting", async () => {
  const error = await McpSession.open({
    command: ["srv"],
    env: { KEY: "${TOOLSCORE_TEST_SURELY_UNSET_KEY}" },
  }).then(() => assert.fail("expected a failure"), (error: unknown) => error);
  assert.ok(error instanceof McpServerError);
  assert.equal(error.kind, "config");
  assert.match(error.message, /TOOLSCORE_TEST_SURELY_UNSET_KEY is not set/);
});

Deno.test("McpSession tolerates a server that logs to stdout", async () => {
  await using session = await McpSession.open(fixture("--stdout-noise"), { timeoutS: 20 });
  assert.equal((await session.listToolsRaw()).length, 7);
});

Deno.test("closeAllTransports() kills and reaps every running server", async () => {
  const transport = new DenoCommandTransport(Deno.execPath(), {
    args: ["run", "--no-prompt", FIXTURE, "--hang"],
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" },
    killGraceMs: 300,
  });
  let closed = false;
  transport.onclose = () => void (closed = true);
  await transport.start();
  const pid = transport.pid!;
  assert.equal(isAlive(pid), true);
  assert.equal(await closeAllTransports(), 1);
  assert.equal(isAlive(pid), false);
  assert.equal(closed, true);
  assert.ok(transport.exit !== undefined);
  assert.equal(await closeAllTransports(), 0);
});

Deno.test("McpSession speaks Streamable HTTP to a remote server, with ${VAR} headers", async () => {
  const { McpServer } = await import(
    "@modelcontextprotocol/sdk/server/mcp.js"
  ) as typeof import("@modelcontextprotocol/sdk/server/mcp");
  const { WebStandardStreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
  ) as typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp");
  const mcp = new McpServer({ name: "remote-fixture", version: "0.9.0" });
  mcp.registerTool("lookup", { description: "Look up.", inputSchema: {} }, () => ({
    content: [{ type: "text", text: "ok" }],
  }));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    enableJsonResponse: true,
  });
  await mcp.connect(transport);
  const methods: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (request.headers.get("authorization") !== "Bearer tok-remote-1") {
      return new Response("unauthorized", { status: 401 });
    }
    if (request.method === "POST") {
      const body = await request.clone().json();
      for (const message of Array.isArray(body) ? body : [body]) methods.push(message.method);
    }
    return transport.handleRequest(request);
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/mcp`;
    const tokens: Record<string, string> = { REMOTE_TOKEN: "tok-remote-1" };
    const session = await McpSession.open(
      { url, headers: { Authorization: "Bearer ${REMOTE_TOKEN}" } },
      { timeoutS: 10, lookup: (name) => tokens[name] },
    );
    try {
      assert.equal(session.identity.name, "remote-fixture");
      assert.deepEqual(
        (await session.listToolsRaw()).map((tool) => (tool as { name: string }).name),
        ["lookup"],
      );
    } finally {
      await session.close();
    }
    assert.deepEqual(methods.filter(Boolean), [
      "initialize",
      "notifications/initialized",
      "tools/list",
    ]);

    const denied = await McpSession.open(
      { url, headers: { Authorization: "Bearer wrong" } },
      { timeoutS: 10 },
    ).then(() => assert.fail("expected a failure"), (error: unknown) => error);
    assert.ok(denied instanceof McpServerError);
    assert.equal(
      denied.message,
      "the server answered initialize with HTTP 401 Unauthorized: it wants credentials; " +
        "check server.headers.Authorization (the key or token it sends)",
    );
    assert.ok(!denied.message.includes("wrong"));
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});

Deno.test("the SDK's types are real under deno check, not a silent any", () => {
  // Each line below stops compiling (an unused @ts-expect-error) if its import falls back to `any`
  // (deno-toolchain.md §2h): `deno test` type-checks this file before it runs.
  const message: JSONRPCMessage = { jsonrpc: "2.0", method: "ping", id: 1 };
  // @ts-expect-error serializeMessage returns a string
  const line: number = serializeMessage(message);
  // @ts-expect-error deserializeMessage returns a JSONRPCMessage
  const parsed: number = deserializeMessage(String(line));
  // @ts-expect-error Client.getServerVersion returns an Implementation or undefined
  const version: number = new Client({ name: "t", version: "0" }).getServerVersion();
  // @ts-expect-error a number is not a Transport
  const transport: Transport = 42;
  // @ts-expect-error a string is not a JSONRPCMessage
  const notMessage: JSONRPCMessage = "ping";
  assert.deepEqual([typeof line, typeof parsed, version, transport, notMessage], [
    "string",
    "object",
    undefined,
    42,
    "ping",
  ]);
});
