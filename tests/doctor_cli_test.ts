import assert from "node:assert/strict";
import { runCollect, runDeno } from "./_cli.ts";
import { FIXTURE, fixtureWriting, isAlive, readPidFile, tempDir } from "./_mcp.ts";
import { badServer, CHECK_ORDER } from "./_doctor.ts";

// --- the CLI -------------------------------------------------------------------------------------

Deno.test("toolscore doctor prints a checklist and exits 0 when nothing fails", async () => {
  const { code, out } = await runCollect(["doctor", "--", ...badServer([]).command]);
  assert.equal(code, 0, out);
  assert.match(out, /^- spec {12}no spec given \(--spec\)$/m);
  assert.match(out, /^✓ tools-list {6}1 tool: echo; /m);
  assert.match(
    out,
    /^✓ tool-schemas {4}the list is valid MCP and every input and output schema compiles$/m,
  );
  assert.match(out, /\n7 pass, 0 warn, 0 fail, 10 skip\n$/);
});

Deno.test("toolscore doctor exits 1 on a failure and never prints a key's value", async () => {
  Deno.env.set("TOOLSCORE_DOCTOR_TEST_KEY", "sk-doctor-test-VALUE-42");
  Deno.env.delete("TOOLSCORE_DOCTOR_TEST_UNSET_KEY");
  try {
    for (const json of [false, true]) {
      const { code, out, err } = await runCollect([
        "doctor",
        "--key",
        "TOOLSCORE_DOCTOR_TEST_KEY",
        "--key",
        "TOOLSCORE_DOCTOR_TEST_UNSET_KEY",
        "--contract",
        "testdata/mcp/contract_flights.json",
        ...(json ? ["--json"] : []),
        "--",
        Deno.execPath(),
        "run",
        "--no-prompt",
        FIXTURE,
        "--crash-on-start",
      ]);
      assert.equal(code, 1);
      const all = out + err;
      assert.ok(!all.includes("sk-doctor-test-VALUE-42"), all);
      assert.match(
        all,
        /not set: TOOLSCORE_DOCTOR_TEST_UNSET_KEY \(set: TOOLSCORE_DOCTOR_TEST_KEY\)/,
      );
      assert.match(all, /FATAL missing FIXTURE_DB_URL/);
      if (json) {
        const report = JSON.parse(out);
        assert.equal(report.worst, "fail");
        assert.deepEqual(report.checks.map((c: { name: string }) => c.name), CHECK_ORDER);
        assert.deepEqual(Object.keys(report.checks[0]), [
          "name",
          "status",
          "detail",
          "fix",
          "findings",
        ]);
        assert.equal(report.counts.fail, 2);
        assert.deepEqual(Object.keys(report), [
          "schema",
          "toolscore_version",
          "checks",
          "counts",
          "worst",
          "name",
          "server",
          "timings_s",
          "output",
        ]);
        assert.equal(report.server, null);
        assert.match(report.output.stderr.join("\n"), /FATAL missing FIXTURE_DB_URL/);
      }
    }
  } finally {
    Deno.env.delete("TOOLSCORE_DOCTOR_TEST_KEY");
  }
});

Deno.test("toolscore doctor reads a server from a client config and a quoted command line", async () => {
  const dir = await tempDir(".doctor_test_");
  try {
    const config = `${dir}/mcp.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: { fx: { command: Deno.execPath(), args: ["run", "--no-prompt", FIXTURE] } },
      }),
    );
    const fromConfig = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--mcp-config",
      config,
      "--json",
    ]);
    // The fixture's count_items has an invalid schema on purpose: tool-schemas fails.
    assert.equal(fromConfig.code, 1, fromConfig.out);
    assert.equal(JSON.parse(fromConfig.out).checks[6].status, "pass");

    const line = `"${Deno.execPath()}" run --no-prompt ${FIXTURE} --name quoted`;
    const fromLine = await runCollect(["doctor", "--linger", "0.1", "--server", line, "--json"]);
    assert.equal(fromLine.code, 1, fromLine.out);
    assert.match(JSON.parse(fromLine.out).checks[6].detail, /^quoted 1\.2\.3/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore doctor refuses a bad command line with exit 2", async () => {
  const cases: [string[], RegExp][] = [
    [["doctor", "--"], /nothing after --/],
    [["doctor", "stray"], /unexpected argument stray; put the server command after --/],
    [["doctor", "--server", "a", "--", "b"], /give the server one way/],
    [["doctor", "--mcp-server", "x"], /--mcp-server goes with --mcp-config/],
    [
      ["doctor", "--mcp-config", "testdata/mcp/claude_desktop_config.json"],
      /claude_desktop_config\.json: mcpServers: 2 servers \(everything, fixture\); name the one to use \(--mcp-server NAME\)/,
    ],
    [["doctor", "--timeout", "soon"], /--timeout soon: expected a number/],
    [["doctor", "--bogus"], /bogus/],
  ];
  for (const [args, pattern] of cases) {
    const { code, err } = await runCollect(args);
    assert.equal(code, 2, args.join(" "));
    assert.match(err, pattern);
  }
  const help = await runCollect(["doctor", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /--allow-unknown-price/);
});

Deno.test("toolscore doctor tells a ${VAR} deno may not read from one that is not set", async () => {
  const dir = await tempDir(".doctor_test_");
  const name = "TOOLSCORE_TEST_REF_TOKEN";
  const value = "tok-REF-VALUE-9";
  try {
    const spec = `${dir}/agent.yaml`;
    await Deno.writeTextFile(
      spec,
      JSON.stringify({
        spec_version: 1,
        server: { command: [Deno.execPath(), "run", FIXTURE], env: { T: `\${${name}}` } },
        arms: [{ id: "a", provider: "openai", model: "gpt-4.1-mini" }],
        tasks: [{ id: "t", prompt: "p", contract: "../testdata/mcp/contract_flights.json" }],
      }),
    );
    const doctor = async (allowEnv: string, env: Record<string, string>) => {
      const args = ["run", "--no-prompt", "--allow-read", "--allow-run", allowEnv, "cli.ts"];
      const { stdout } = await new Deno.Command(Deno.execPath(), {
        args: [...args, "doctor", "--linger", "0.1", "--spec", spec],
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(stdout);
      assert.ok(!out.includes(value), out);
      return out;
    };
    assert.match(
      await doctor("--allow-env=PATH,HOME", { [name]: value }),
      new RegExp(
        `server\\.env\\.T: refers to \\$\\{${name}\\}, but deno may not read ${name}; ` +
          `run deno with --allow-env=${name}`,
      ),
    );
    assert.match(
      await doctor(`--allow-env=PATH,HOME,${name}`, {}),
      new RegExp(`server\\.env\\.T: refers to \\$\\{${name}\\}, but ${name} is not set`),
    );
    assert.match(
      await doctor(`--allow-env=PATH,HOME,${name}`, { [name]: value }),
      /^✓ server-start {4}fixture 1\.2\.3/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "toolscore doctor kills the server on Ctrl-C and on SIGTERM",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await tempDir(".doctor_test_");
    const pids: number[] = [];
    const clis: Deno.ChildProcess[] = [];
    try {
      for (const [signal, expected] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
        const pidFile = `${dir}/${signal}.pid`;
        const cli = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--no-prompt",
            "--allow-read=.",
            "--allow-env",
            "--allow-run",
            "cli.ts",
            "doctor",
            "--timeout",
            "60",
            "--",
            ...fixtureWriting(pidFile, "--hang", "--pid-file", pidFile).command,
          ],
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        clis.push(cli);
        // The CLI listens for signals before it starts the server, so once the server wrote its
        // pid the handler is in place.
        const pid = await readPidFile(pidFile);
        assert.ok(pid > 0, "the server did not start");
        pids.push(pid);
        cli.kill(signal);
        const { code } = await cli.output();
        assert.equal(code, expected, signal);
        assert.equal(isAlive(pid), false, `the server ${pid} outlived the CLI (${signal})`);
      }
    } finally {
      // On a failure above, leave nothing running.
      for (const pid of pids) if (isAlive(pid)) Deno.kill(pid, "SIGKILL");
      for (const cli of clis) {
        try {
          cli.kill("SIGKILL");
          await cli.output();
        } catch {
          // Already ended and read.
        }
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("toolscore doctor --all checks every server of a config, one section each, with a summary", async () => {
  const dir = await tempDir(".doctor_test_");
  try {
    const config = `${dir}/mcp.json`;
    const entry = (flags: string[]) => {
      const [command, ...args] = badServer(flags).command;
      return { command, args };
    };
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          clean: entry([]),
          noisy: entry(["--banner"]),
          broken: entry(["--bad-tools"]),
        },
      }),
    );
    const text = await runCollect(["doctor", "--linger", "0.1", "--mcp-config", config, "--all"]);
    assert.equal(text.code, 1);
    assert.match(text.out, /^== clean ==\n✓ server-start /m);
    assert.match(text.out, /^== noisy ==\n/m);
    assert.match(text.out, /^== broken ==\n/m);
    assert.doesNotMatch(text.out, /^. (spec|keys|contract-tools) /m);
    assert.match(text.out, /\n3 servers: clean: pass, noisy: warn, broken: fail\n$/);

    const json = JSON.parse(
      (await runCollect(["doctor", "--linger", "0.1", "--mcp-config", config, "--all", "--json"]))
        .out,
    );
    assert.deepEqual(Object.keys(json), [
      "schema",
      "toolscore_version",
      "servers",
      "counts",
      "worst",
    ]);
    assert.deepEqual(json.counts, { pass: 1, warn: 1, fail: 1, skip: 0 });
    assert.equal(json.worst, "fail");
    const [clean, noisy] = json.servers;
    assert.equal(clean.name, "clean");
    assert.deepEqual(Object.keys(clean.server), [
      "info",
      "protocol_version",
      "capabilities",
      "instructions",
      "tools",
      "resources",
      "resource_templates",
      "prompts",
    ]);
    assert.deepEqual(clean.server.info, { name: "bad", version: "0.1.0" });
    assert.equal(clean.server.tools[0].name, "echo");
    assert.deepEqual(Object.keys(clean.timings_s), ["initialize", "tools/list"]);
    assert.deepEqual(noisy.output.stdout, ["bad_server v0.1 starting", "listening on stdio"]);

    // --fail-on-warn: the noisy server alone fails.
    const noisyOnly = [
      "doctor",
      "--linger",
      "0.1",
      "--mcp-config",
      config,
      "--mcp-server",
      "noisy",
    ];
    assert.equal((await runCollect(noisyOnly)).code, 0);
    assert.equal((await runCollect([...noisyOnly, "--fail-on-warn"])).code, 1);
    // --all refuses what is not about servers.
    const mixed = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--mcp-config",
      config,
      "--all",
      "--key",
      "K",
    ]);
    assert.equal(mixed.code, 2);
    assert.match(mixed.err, /--all checks the servers only/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore doctor without --allow-run names the unscoped flag the README uses", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const run = await runDeno(
    [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      "mod.ts",
      "doctor",
      "--",
      Deno.execPath(),
      "run",
      FIXTURE,
    ],
    { cwd: root },
  );
  assert.equal(run.code, 1, run.err);
  assert.match(
    run.out,
    /✗ server-start +no permission to start .*; run deno with --allow-run \(without a list, so the server's process group can be stopped\)/,
  );
});
