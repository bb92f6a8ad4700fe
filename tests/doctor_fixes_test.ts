// Issue 18's Fix list, one test per item (3, processes left running, is in doctor_orphans_test.ts),
// each against the scripted misbehaving server testdata/mcp/bad_server.ts or a loopback HTTP server.
import assert from "node:assert/strict";
import { checkServer, runDoctor } from "../mod.ts";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { BAD_SERVER, badServer, byName } from "./_doctor.ts";

Deno.test("fix 1: an invalid tool list fails with the JSON paths the SDK's client and JSON Schema name", async () => {
  const checks = await checkServer(badServer(["--bad-tools"]), { timeout: 20 });
  const schemas = byName(checks, "tool-schemas");
  assert.equal(schemas.status, "fail");
  assert.equal(
    schemas.detail,
    "tools[1].annotations.readOnlyHint: Invalid input: expected boolean, received string " +
      "(the SDK's client refuses the list; tool lookup); " +
      "tools[2].outputSchema.properties.count.minimum: must be number " +
      "(not a valid 2020-12 (the protocol's default) JSON Schema) (tool report)",
  );
  // The initialize answer is checked with the SDK's schema too.
  const init = await checkServer(badServer(["--bad-init"]), { timeout: 20 });
  assert.equal(
    byName(init, "server-start").detail,
    "the initialize answer is not valid MCP (the SDK's client refuses it): " +
      "capabilities.tools: Invalid input: expected object, received string; " +
      "serverInfo.version: Invalid input: expected string, received undefined",
  );
});

Deno.test("fix 2: an unsupported protocol version is refused by name, with the versions supported", async () => {
  const checks = await checkServer(badServer(["--protocol", "1999-01-01"]), { timeout: 20 });
  const start = byName(checks, "server-start");
  assert.equal(start.status, "fail");
  assert.equal(
    start.detail,
    'the server offered protocol version "1999-01-01", which was refused: this client supports ' +
      "2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07",
  );
  assert.doesNotMatch(start.detail, /exited/);
  // An old but supported version is a warning.
  const old = await checkServer(badServer(["--protocol", "2024-11-05"]), { timeout: 20 });
  assert.equal(byName(old, "handshake").status, "warn");
  assert.match(
    byName(old, "handshake").detail,
    /^protocol 2024-11-05 is old \(current: 2025-11-25\)/,
  );
});

Deno.test("fix 4: a banner on stdout is a warning that shows the lines", async () => {
  const checks = await checkServer(badServer(["--banner"]), { timeout: 20 });
  const stdout = byName(checks, "stdout");
  assert.equal(stdout.status, "warn");
  assert.equal(
    stdout.detail,
    'it wrote 2 lines to stdout that are not JSON-RPC: "bad_server v0.1 starting", "listening on stdio"',
  );
  assert.equal(byName(checks, "tools-list").status, "pass");
});

Deno.test("fix 5: Cursor and VS Code configs are read as those clients do, values never printed", async () => {
  const root = await tempDir(".doctor_test_");
  const secret = "sk-input-SECRET-7";
  const fromEnv = "env-VALUE-8";
  try {
    await Deno.mkdir(`${root}/.vscode`);
    const dump = `${root}/dump.json`;
    await Deno.writeTextFile(
      `${root}/.env`,
      "# from envFile\nFROM_FILE='file value'\nexport OVERRIDDEN=file\n",
    );
    const config = `${root}/.vscode/mcp.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        inputs: [{ type: "promptString", id: "api-key", description: "API key", password: true }],
        servers: {
          bad: {
            type: "stdio",
            command: Deno.execPath(),
            args: [
              "run",
              "--no-prompt",
              "--allow-env",
              "--allow-write=${workspaceFolder}/dump.json",
              `${Deno.cwd()}/${BAD_SERVER}`,
              "--dump",
              "${workspaceFolder}/dump.json",
              "--home",
              "${userHome}",
            ],
            envFile: "${workspaceFolder}/.env",
            env: {
              API_KEY: "${input:api-key}",
              FROM_ENV: "${env:TOOLSCORE_TEST_FROM_ENV}",
              OVERRIDDEN: "env",
            },
          },
        },
      }),
    );
    Deno.env.set("TOOLSCORE_TEST_FROM_ENV", fromEnv);
    const { code, out, err } = await runCollect([
      "doctor",
      "--mcp-config",
      config,
      "--input",
      `api-key=${secret}`,
      "--json",
    ]);
    assert.equal(code, 0, err);
    const report = JSON.parse(out);
    assert.equal(
      report.checks.find((c: { name: string }) => c.name === "server-start").status,
      "pass",
    );
    assert.ok(!out.includes(secret) && !err.includes(secret), "an input value was printed");
    assert.ok(!out.includes(fromEnv), "an env value was printed");
    const seen = JSON.parse(await Deno.readTextFile(dump));
    assert.equal(seen.env.API_KEY, secret);
    assert.equal(seen.env.FROM_ENV, fromEnv);
    assert.equal(seen.env.FROM_FILE, "file value");
    assert.equal(seen.env.OVERRIDDEN, "env"); // env wins over envFile
    assert.deepEqual(seen.args.slice(0, 2), ["--dump", `${root}/dump.json`]);
    assert.equal(seen.args[3], Deno.env.get("HOME"));

    // Without --input, doctor says which input is missing and how to give it.
    const missing = await runCollect(["doctor", "--mcp-config", config]);
    assert.match(
      missing.out,
      /server\.env\.API_KEY: refers to \$\{input:api-key\}, which the client asks for \("API key"\) when it starts the server; pass --input api-key=VALUE/,
    );
  } finally {
    Deno.env.delete("TOOLSCORE_TEST_FROM_ENV");
    await Deno.remove(root, { recursive: true });
  }
});

// A loopback server answering every request with one status and an HTML page.
function statusServer(status: number) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(
        `<!doctype html><html><head><title>${status}</title></head><body><h1>Error ${status}</h1><p>nginx</p></body></html>`,
        {
          status,
          headers: { "content-type": "text/html" },
        },
      ),
  );
}

Deno.test("fix 6: HTTP 401, 403 and 404 are one line each, naming the status and what to check", async () => {
  const expected: Record<number, string> = {
    401:
      "the server answered initialize with HTTP 401 Unauthorized: it wants credentials; check server.headers.Authorization (the key or token it sends)",
    403:
      "the server answered initialize with HTTP 403 Forbidden: the credentials were refused for this server (a wrong key, scope or plan); check server.headers.Authorization (the key or token it sends)",
  };
  for (const status of [401, 403, 404]) {
    const server = statusServer(status);
    try {
      const url = `http://127.0.0.1:${server.addr.port}/mcp`;
      const checks = await checkServer(
        { url, headers: { Authorization: "Bearer tok-WRONG-1234" } },
        { timeout: 10 },
      );
      const start = byName(checks, "server-start");
      assert.equal(start.status, "fail");
      assert.equal(
        start.detail,
        expected[status] ??
          `the server answered initialize with HTTP 404 Not Found: nothing serves MCP at ${url}; check the path (Streamable HTTP servers often serve /mcp, legacy SSE ones /sse)`,
      );
      assert.ok(!start.detail.includes("<"), "an HTML page in the checklist");
      assert.ok(!start.detail.includes("tok-WRONG"), "a header value in the checklist");
    } finally {
      await server.shutdown();
    }
  }
  // Without credentials, 401 says none were sent.
  const server = statusServer(401);
  try {
    const checks = await checkServer({ url: `http://127.0.0.1:${server.addr.port}/mcp` }, {
      timeout: 10,
    });
    assert.match(
      byName(checks, "server-start").detail,
      /; no credentials were sent; add headers: \{Authorization: "Bearer \$\{TOKEN\}"\}/,
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("fix 7: a Node crash keeps its first error lines as well as the tail of stderr", async () => {
  const checks = await checkServer(badServer(["--node-crash"]), { timeout: 20 });
  const detail = byName(checks, "server-start").detail;
  assert.match(
    detail,
    /^the server exited with code 1 during initialize \(.*\); its stderr says: Error: Cannot find module '\/srv\/app\/dist\/index\.js' \| {5}at Module\._resolveFilename .* … .*requireStack: \[\] \| \} \| Node\.js v22\.11\.0$/,
  );
});

Deno.test("fix 8: a server without the tools capability is told it has no tools, and what it has", async () => {
  const checks = await checkServer(badServer(["--no-tools"]), { timeout: 20 });
  const list = byName(checks, "tools-list");
  assert.equal(list.status, "warn");
  assert.equal(
    list.detail,
    'the server has no tools: it does not declare the tools capability and answers tools/list with "method not found"; it offers resources (2), prompts (1)',
  );
  assert.doesNotMatch(list.fix ?? "", /stderr|stdout/);
  assert.equal(
    byName(checks, "resources").detail,
    "2 resources: file:///docs/a.md, file:///docs/b.md (listed, never read)",
  );
  assert.equal(byName(checks, "prompts").detail, "1 prompt: summarize (listed, never called)");
});

Deno.test("fix 9: the run-it-yourself line is quoted for the shell and says which variables pass; -e adds one", async () => {
  const checks = await checkServer(
    { command: [Deno.execPath(), "run", "--no-prompt", BAD_SERVER, "--node-crash", "$HOME/it's"] },
    {
      timeout: 20,
      lookup: (name) => ({ PATH: "/usr/bin", HOME: "/home/t" } as Record<string, string>)[name],
      env: { EXTRA: "1" },
    },
  );
  assert.equal(
    byName(checks, "server-start").fix,
    `run \`${Deno.execPath()} run --no-prompt ${BAD_SERVER} --node-crash '$HOME/it'\\''s'\` yourself to see why it stops; ` +
      "doctor starts it with a cleared environment where only PATH, HOME, EXTRA pass (and its marker TOOLSCORE_MCP_RUN) " +
      "(add one with the env option)",
  );
  // On the CLI: -e KEY=VALUE reaches the server, and the fix names the flag.
  const dir = await tempDir(".doctor_test_");
  try {
    const dump = `${dir}/dump.json`;
    const { out } = await runCollect([
      "doctor",
      "-e",
      "EXTRA_FLAG=on",
      "--",
      ...badServer(["--dump", dump], { writable: dump }).command.toSpliced(3, 0, "--allow-env"),
    ]);
    assert.match(out, /✓ server-start/);
    assert.equal(JSON.parse(await Deno.readTextFile(dump)).env.EXTRA_FLAG, "on");
    const crash = await runCollect(["doctor", "--", ...badServer(["--node-crash"]).command]);
    assert.match(crash.out, /\(add one with -e KEY=VALUE\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fix 10: --timeout wins over the spec's timeout_s, and a total deadline stops endless paging", async () => {
  const started = performance.now();
  const checks = await checkServer({ ...badServer(["--hang"]), timeoutS: 60 }, {
    timeout: 1,
    killGraceMs: 300,
  });
  assert.ok((performance.now() - started) / 1000 < 15);
  assert.match(byName(checks, "server-start").detail, /^no answer to initialize within 1 s /);
  assert.match(
    byName(checks, "server-start").fix ?? "",
    /raise the timeout option \(it wins over server\.timeout_s\)$/,
  );

  const paging = await checkServer(badServer(["--slow-pages", "100"]), {
    timeout: 5,
    deadline: 1.5,
  });
  const list = byName(paging, "tools-list");
  assert.equal(list.status, "fail");
  assert.match(
    list.detail,
    /^no answer to tools\/list before the deadline \(the deadline option\) from |^tools\/list was not done within the deadline \(the deadline option\) after \d+ page\(s\) and \d+ item\(s\)$/,
  );
  assert.equal(
    list.fix,
    "raise the deadline option, or make the server's lists end (a cursor that never ends)",
  );
  const cli = await runCollect([
    "doctor",
    "--deadline",
    "1.5",
    "--",
    ...badServer(["--slow-pages", "100"]).command,
  ]);
  assert.match(cli.out, /\(--deadline\)/);
  assert.match(cli.out, /fix: raise --deadline, or make/);
});

Deno.test("fix 11: the library speaks of its options, the CLI of its flags", async () => {
  const library = await runDoctor({ server: badServer([]), startServer: false });
  assert.equal(byName(library, "server-start").detail, "not started (startServer: false)");
  assert.equal(byName(library, "spec").detail, "no spec given (the specPath option)");
  assert.equal(
    byName(library, "keys").detail,
    "no keys to check (the spec's keys, or the keys option)",
  );
  assert.match(byName(library, "contract").detail, /\(the contractPath option, /);
  const cli = await runCollect(["doctor", "--no-server", "--", ...badServer([]).command]);
  assert.match(cli.out, /not started \(--no-server\)/);
  assert.match(cli.out, /no spec given \(--spec\)/);
  assert.match(cli.out, /or --key NAME\)/);
  assert.doesNotMatch(JSON.stringify(library), /--no-server|--spec|--key|--timeout|--contract/);
});
