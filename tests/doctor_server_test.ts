import assert from "node:assert/strict";
import { checkServer } from "../mod.ts";
import { inspectServer } from "../lib/doctor/check_server.ts";
import { toolListIssues, toolsSha256 } from "../lib/doctor/tool_schemas.ts";
import { SERVER_CHECKS } from "../lib/doctor/check_server.ts";
import { fixture, fixtureWriting, isAlive, readPidFile, recordedMethods, tempDir } from "./_mcp.ts";
import { byName } from "./_doctor.ts";
import { npmBin } from "./_deps.ts";

// --- checkServer against the fixture server ------------------------------------------------------

Deno.test("checkServer() lists the fixture's tools, fails the bad schema with its path and never calls a tool", async () => {
  const dir = await tempDir(".doctor_test_");
  const record = `${dir}/requests.jsonl`;
  try {
    const spec = fixtureWriting(record, "--record", record, "--page-size", "2");
    const checks = await checkServer(spec, { timeout: 20 });
    assert.deepEqual(checks.map((c) => [c.name, c.status]), [
      ["server-start", "pass"],
      ["handshake", "pass"],
      ["stdout", "pass"],
      ["tools-list", "pass"],
      ["tool-schemas", "fail"],
      ["tool-lint", "warn"],
      ["resources", "skip"],
      ["prompts", "skip"],
      ["shutdown", "pass"],
      ["server-build", "skip"],
    ]);
    assert.match(
      checks[0]!.detail,
      /^fixture 1\.2\.3 answered initialize in [\d.]+ s \(protocol \d{4}-\d{2}-\d{2}\)/,
    );
    assert.match(
      byName(checks, "tools-list").detail,
      /^7 tools: search_flights, book_flight, add, get_weather, count_items, ping, env_names; tools_sha256 [0-9a-f]{64}$/,
    );
    assert.equal(
      byName(checks, "tool-schemas").detail,
      "tools[4].inputSchema.properties.count.minimum: must be number (not a valid draft-07 JSON Schema) (tool count_items)",
    );
    assert.ok(
      byName(checks, "tool-lint").findings.some((f) =>
        f.code === "lint.no-description" && f.path === "/tools/ping/description"
      ),
    );
    assert.equal(
      byName(checks, "shutdown").detail,
      "the server was stopped and nothing it started is left",
    );

    const methods = await recordedMethods(record);
    // Seven tools in pages of two: four tools/list requests, and nothing else.
    assert.deepEqual(methods, [
      "initialize",
      "notifications/initialized",
      "tools/list",
      "tools/list",
      "tools/list",
      "tools/list",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkServer() checks the pinned build and fails a mismatch with both values", async () => {
  const first = await inspectServer(fixture(), { timeout: 20, linger: 0.1 });
  const hash = /tools_sha256 ([0-9a-f]{64})/.exec(byName(first.checks, "tools-list").detail)![1]!;

  const ok = await checkServer(fixture(), {
    timeout: 20,
    linger: 0.1,
    verify: { name: "fixture", version: "1.2.3", toolsSha256: hash },
  });
  assert.equal(byName(ok, "server-build").status, "pass");
  assert.equal(
    byName(ok, "server-build").detail,
    "matches the pinned name, version, tools_sha256",
  );

  const changed = await checkServer(
    { ...fixture("--version", "1.3.0"), verify: { version: "1.2.3", toolsSha256: "0".repeat(64) } },
    { timeout: 20, linger: 0.1 },
  );
  const build = byName(changed, "server-build");
  assert.equal(build.status, "fail");
  assert.match(build.detail, /serverInfo\.version is "1\.3\.0", pinned "1\.2\.3"/);
  assert.match(build.detail, new RegExp(`tools_sha256 is ${hash}, pinned 0{64}`));
});

Deno.test("checkServer() says how to fix a server command that cannot start", async () => {
  const missing = await checkServer({ command: ["toolscore-no-such-server-xyz"] });
  assert.deepEqual(missing.map((c) => c.name), SERVER_CHECKS);
  assert.equal(missing[0]!.status, "fail");
  assert.equal(missing[0]!.fix, "install toolscore-no-such-server-xyz or fix the server command");
  assert.ok(missing.slice(1).every((check) => check.status !== "fail"));
  const folder = await checkServer({ command: ["./testdata"] });
  assert.equal(folder[0]!.fix, "make ./testdata an executable file, or fix the server command");
});

Deno.test("checkServer() times out on a hung server within the timeout and leaves no process behind", async () => {
  const dir = await tempDir(".doctor_test_");
  const pidFile = `${dir}/pid`;
  try {
    const spec = fixtureWriting(pidFile, "--hang", "--pid-file", pidFile);
    const started = performance.now();
    const checks = await checkServer(spec, { timeout: 1, killGraceMs: 500 });
    const seconds = (performance.now() - started) / 1000;
    assert.equal(checks[0]!.status, "fail");
    assert.match(checks[0]!.detail, /no answer to initialize within 1 s/);
    assert.match(checks[0]!.detail, /hanging on purpose/);
    // 1 s timeout, then SIGTERM (ignored by --hang), 0.5 s grace, SIGKILL; generous for a busy CI.
    assert.ok(seconds >= 0.95 && seconds < 15, `took ${seconds} s`);
    assert.match(checks[0]!.fix ?? "", /raise the timeout option$/);
    const pid = await readPidFile(pidFile, 0);
    assert.ok(pid > 0);
    assert.equal(isAlive(pid), false, `the hung server ${pid} is still running`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- real servers from the npm registry (installed by scripts/test_setup.sh) -------------------

Deno.test("checkServer() passes @modelcontextprotocol/server-everything over stdio, lists its resources and prompts", async () => {
  const bin = npmBin("mcp-server-everything");
  if (bin === undefined) return;
  const inspection = await inspectServer({ command: [bin, "stdio"] }, { timeout: 60 });
  const checks = inspection.checks;
  for (const name of ["server-start", "handshake", "stdout", "tools-list", "tool-schemas"]) {
    assert.equal(byName(checks, name).status, "pass", `${name}: ${byName(checks, name).detail}`);
  }
  assert.match(byName(checks, "server-start").detail, /^mcp-servers\/everything \d/);
  assert.match(byName(checks, "tools-list").detail, /^\d+ tools: echo, /);
  assert.match(byName(checks, "resources").detail, /^\d+ resources: demo:\/\/resource\//);
  assert.match(byName(checks, "resources").detail, /\d+ templates: demo:\/\/resource\/dynamic/);
  assert.match(byName(checks, "prompts").detail, /^\d+ prompts: simple-prompt, args-prompt/);
  assert.match(byName(checks, "tool-lint").detail, /the catalog is ≈ [\d,]+ tokens \(an estimate/);
  assert.equal(byName(checks, "shutdown").status, "pass");
  assert.ok(inspection.server!.tools.length >= 10);
  assert.deepEqual(Object.keys(inspection.timings).sort(), [
    "initialize",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "tools/list",
  ]);
});

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

// Start server-everything in an HTTP mode and wait until it listens; `stop()` ends it.
async function everythingOverHttp(mode: "streamableHttp" | "sse") {
  const bin = npmBin("mcp-server-everything");
  if (bin === undefined) return undefined;
  const port = freePort();
  const child = new Deno.Command(bin, {
    args: [mode],
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const decoder = new TextDecoder();
  const pump = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(new WritableStream({ write: (chunk) => void (out += decoder.decode(chunk)) }));
  const pumps = [pump(child.stdout), pump(child.stderr)];
  const until = Date.now() + 20_000;
  while (!/listening on port|running on port/i.test(out) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    output: () => out,
    async stop() {
      child.kill("SIGKILL");
      await child.status;
      await Promise.all(pumps).catch(() => {});
    },
  };
}

Deno.test("checkServer() passes server-everything over Streamable HTTP and ends its session with a DELETE", async () => {
  const server = await everythingOverHttp("streamableHttp");
  if (server === undefined) return;
  try {
    const checks = await checkServer({ url: server.url }, { timeout: 30 });
    assert.equal(
      byName(checks, "server-start").status,
      "pass",
      byName(checks, "server-start").detail,
    );
    assert.equal(byName(checks, "tool-schemas").status, "pass");
    assert.equal(byName(checks, "stdout").detail, "a remote server has no stdout");
    assert.equal(byName(checks, "shutdown").detail, "the session was ended (HTTP DELETE)");
    // The server saw the DELETE.
    const until = Date.now() + 5000;
    while (!/Received session termination request/.test(server.output()) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(server.output(), /Received session termination request for session [\w-]+/);
  } finally {
    await server.stop();
  }
});

Deno.test("checkServer() speaks legacy SSE to server-everything's sse mode, with a deprecation warning", async () => {
  const server = await everythingOverHttp("sse");
  if (server === undefined) return;
  try {
    const checks = await checkServer({ url: server.url }, { timeout: 30 });
    assert.equal(
      byName(checks, "server-start").status,
      "pass",
      byName(checks, "server-start").detail,
    );
    const handshake = byName(checks, "handshake");
    assert.equal(handshake.status, "warn");
    assert.match(
      handshake.detail,
      /^it speaks the legacy HTTP\+SSE transport, deprecated since MCP 2025-03-26; /,
    );
    assert.equal(handshake.fix, "move the server to Streamable HTTP (one endpoint, usually /mcp)");
    assert.match(byName(checks, "tools-list").detail, /^\d+ tools: echo/);
  } finally {
    await server.stop();
  }
});

Deno.test("checkServer() passes @modelcontextprotocol/server-memory and server-filesystem", async () => {
  const memory = npmBin("mcp-server-memory");
  const filesystem = npmBin("mcp-server-filesystem");
  if (memory === undefined || filesystem === undefined) return;
  const dir = await tempDir(".doctor_test_");
  try {
    const fromMemory = await checkServer({
      command: [memory],
      env: { MEMORY_FILE_PATH: `${dir}/memory.jsonl` },
    }, { timeout: 60 });
    assert.equal(byName(fromMemory, "server-start").status, "pass");
    assert.match(byName(fromMemory, "tools-list").detail, /\bcreate_entities\b.*\bread_graph\b/);
    assert.equal(
      byName(fromMemory, "tool-schemas").status,
      "pass",
      byName(fromMemory, "tool-schemas").detail,
    );

    const fromFiles = await checkServer({ command: [filesystem, dir] }, { timeout: 60 });
    assert.equal(byName(fromFiles, "server-start").status, "pass");
    assert.match(byName(fromFiles, "tools-list").detail, /\bread_text_file\b|\bread_file\b/);
    assert.equal(
      byName(fromFiles, "tool-schemas").status,
      "pass",
      byName(fromFiles, "tool-schemas").detail,
    );
    assert.equal(
      byName(fromFiles, "shutdown").status,
      "pass",
      byName(fromFiles, "shutdown").detail,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- tool lists -----------------------------------------------------------------------------------

Deno.test("toolListIssues() reports the SDK's refusals and invalid schemas with their JSON paths", () => {
  const issues = toolListIssues([
    {
      name: "ok",
      description: "Fine.",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
    },
    { description: "No name.", inputSchema: { type: "object" } },
    { name: "no_schema", description: "x" },
    { name: "array_schema", description: "x", inputSchema: { type: "array" } },
    {
      name: "old",
      description: "x",
      inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
    },
    {
      name: "dangling_ref",
      description: "x",
      inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/nope" } } },
    },
    "not an object",
  ]);
  assert.deepEqual(issues.fails.slice(0, 4), [
    "tools[1].name: Invalid input: expected string, received undefined (the SDK's client refuses the list)",
    "tools[2].inputSchema: Invalid input: expected object, received undefined (the SDK's client refuses the list; tool no_schema)",
    'tools[3].inputSchema.type: Invalid input: expected "object" (the SDK\'s client refuses the list; tool array_schema)',
    "tools[6]: Invalid input: expected object, received string (the SDK's client refuses the list)",
  ]);
  assert.match(
    issues.fails[4]!,
    /^tools\[5\]\.inputSchema: not a usable draft-07 \(the protocol's default\) JSON Schema .*\(tool dangling_ref\)$/,
  );
  assert.deepEqual(issues.warns, [
    "tools[4].inputSchema.$schema: http://json-schema.org/draft-04/schema# is not a dialect we can check (tool old)",
  ]);
});

Deno.test("toolListIssues() checks each schema in the dialect its $schema names, else the protocol's", () => {
  // Array-form items: valid in draft-07, not in 2020-12 (which has prefixItems).
  const tuple = {
    type: "object",
    properties: { pair: { type: "array", items: [{ type: "string" }] } },
  };
  const tool = (name: string, $schema?: string) => ({
    name,
    description: "x",
    inputSchema: $schema === undefined ? tuple : { $schema, ...tuple },
  });
  const tools = [
    tool("no_schema"),
    tool("d7_http", "http://json-schema.org/draft-07/schema#"),
    tool("d7_https", "https://json-schema.org/draft-07/schema"),
    tool("d2019", "https://json-schema.org/draft/2019-09/schema"),
    tool("d2020_https", "https://json-schema.org/draft/2020-12/schema"),
    tool("d2020_http", "http://json-schema.org/draft/2020-12/schema#"),
  ];
  const old = toolListIssues(tools, { protocolVersion: "2025-06-18" });
  assert.deepEqual(old.fails.map((line) => /\(tool (\w+)\)$/.exec(line)?.[1]), [
    "d2020_https",
    "d2020_http",
  ]);
  for (const line of old.fails) assert.match(line, /\(not a valid 2020-12 JSON Schema\)/);
  // From 2025-11-25 on, a schema without $schema is 2020-12.
  const current = toolListIssues(tools, { protocolVersion: "2025-11-25" });
  assert.match(
    current.fails[0]!,
    /^tools\[0\]\.inputSchema\.properties\.pair\.items: must be object,boolean \(not a valid 2020-12 \(the protocol's default\) JSON Schema\) \(tool no_schema\)$/,
  );
  assert.equal(current.fails.length, 3);
});

Deno.test("toolsSha256() ignores the order of the tools but not their content", () => {
  const a = { name: "a", inputSchema: { type: "object" } };
  const b = { name: "b", inputSchema: { type: "object" } };
  assert.equal(toolsSha256([a, b]), toolsSha256([b, a]));
  assert.notEqual(toolsSha256([a, b]), toolsSha256([a, { ...b, description: "changed" }]));
});
