import assert from "node:assert/strict";
import { checkServer, DoctorCheck, doctorReport, runDoctor } from "../mod.ts";
import { costUsd, DEFAULT_PRICES, lookupPrice, pricesFromJson } from "../lib/spec/prices.ts";
import { AGENT_SPEC_SCHEMA, agentSpecFromJson, loadAgentSpec } from "../lib/spec/agent_spec.ts";
import { inspectServer } from "../lib/doctor/check_server.ts";
import { checkBudget, checkKeys, checkPackages, checkPrices } from "../lib/doctor/checks.ts";
import { closestName } from "../lib/doctor/closest_name.ts";
import { checkContractTools } from "../lib/doctor/contract_checks.ts";
import { formatDoctorReport } from "../lib/doctor/report.ts";
import { toolListIssues, toolsSha256 } from "../lib/doctor/tool_schemas.ts";
import { runCollect } from "./_cli.ts";
import {
  FIXTURE,
  fixture,
  fixtureWriting,
  isAlive,
  readPidFile,
  recordedMethods,
  tempDir,
} from "./_mcp.ts";

const CHECK_ORDER = [
  "spec",
  "contract",
  "keys",
  "packages",
  "prices",
  "budget",
  "server-start",
  "tools-list",
  "tool-schemas",
  "server-build",
  "contract-tools",
];

function byName(checks: DoctorCheck[], name: string): DoctorCheck {
  const check = checks.find((c) => c.name === name);
  assert.ok(check, `no ${name} check`);
  return check;
}

// --- checkServer against the fixture server ------------------------------------------------------

Deno.test("checkServer() lists the fixture's tools, warns about the bad schema and never calls a tool", async () => {
  const dir = await tempDir(".doctor_test_");
  const record = `${dir}/requests.jsonl`;
  try {
    const spec = fixtureWriting(record, "--record", record, "--page-size", "2");
    const checks = await checkServer(spec, { timeout: 20 });
    assert.deepEqual(checks.map((c) => [c.name, c.status]), [
      ["server-start", "pass"],
      ["tools-list", "pass"],
      ["tool-schemas", "warn"],
      ["server-build", "skip"],
    ]);
    assert.match(
      checks[0]!.detail,
      /^fixture 1\.2\.3 answered initialize in [\d.]+ s \(protocol \d{4}-\d{2}-\d{2}\)/,
    );
    assert.match(
      checks[1]!.detail,
      /^7 tools: search_flights, book_flight, add, get_weather, count_items, ping, env_names; tools_sha256 [0-9a-f]{64}$/,
    );
    assert.match(
      checks[2]!.detail,
      /count_items: not a valid draft-07 JSON Schema \(properties\.count\.minimum must be number\)/,
    );
    assert.match(checks[2]!.detail, /ping: no description/);
    assert.ok(!checks[2]!.detail.includes("search_flights"));
    assert.notEqual(checks[2]!.fix, null);

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
    assert.ok(!methods.includes("tools/call"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkServer() checks the pinned build and fails a mismatch with both values", async () => {
  const first = await inspectServer(fixture(), { timeout: 20 });
  const hash = /tools_sha256 ([0-9a-f]{64})/.exec(first.checks[1]!.detail)![1]!;

  const ok = await checkServer(fixture(), {
    timeout: 20,
    verify: { name: "fixture", version: "1.2.3", toolsSha256: hash },
  });
  assert.equal(ok[3]!.status, "pass");
  assert.equal(ok[3]!.detail, "matches the pinned name, version, tools_sha256");

  const changed = await checkServer(
    { ...fixture("--version", "1.3.0"), verify: { version: "1.2.3", toolsSha256: "0".repeat(64) } },
    { timeout: 20 },
  );
  assert.equal(changed[3]!.status, "fail");
  assert.match(changed[3]!.detail, /serverInfo\.version is "1\.3\.0", pinned "1\.2\.3"/);
  assert.match(changed[3]!.detail, new RegExp(`tools_sha256 is ${hash}, pinned 0{64}`));
});

Deno.test("checkServer() fails a crash on start with the server's stderr in the detail", async () => {
  const checks = await checkServer(fixture("--crash-on-start"), { timeout: 20 });
  assert.deepEqual(checks.map((c) => c.status), ["fail", "skip", "skip", "skip"]);
  assert.match(checks[0]!.detail, /exited with code 3 during initialize/);
  assert.match(checks[0]!.detail, /FATAL missing FIXTURE_DB_URL; cannot start/);
  assert.match(checks[0]!.fix ?? "", /run `.*fixture_server\.ts --crash-on-start` yourself/);
  assert.equal(checks[1]!.detail, "the server did not start");
});

Deno.test("checkServer() says how to fix a server command that cannot start", async () => {
  const missing = await checkServer({ command: ["toolscore-no-such-server-xyz"] });
  assert.deepEqual(missing.map((c) => c.status), ["fail", "skip", "skip", "skip"]);
  assert.equal(missing[0]!.fix, "install toolscore-no-such-server-xyz or fix the server command");
  const folder = await checkServer({ command: ["./testdata"] });
  assert.equal(folder[0]!.fix, "make ./testdata an executable file, or fix the server command");
});

Deno.test("checkServer() times out on a hung server within the timeout and leaves no process behind", async () => {
  const dir = await tempDir(".doctor_test_");
  const pidFile = `${dir}/pid`;
  try {
    const spec = { ...fixtureWriting(pidFile, "--hang", "--pid-file", pidFile), timeoutS: 1 };
    const started = performance.now();
    const checks = await checkServer(spec);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(checks[0]!.status, "fail");
    assert.match(checks[0]!.detail, /no answer to initialize within 1 s/);
    assert.match(checks[0]!.detail, /hanging on purpose/);
    // The 1 s timeout, then SIGTERM (ignored by --hang), 1.5 s grace, SIGKILL. The upper bound is
    // generous for a loaded CI machine and still far below the 30 s default.
    assert.ok(seconds >= 0.95 && seconds < 15, `took ${seconds} s`);
    assert.match(checks[0]!.fix ?? "", /raise server\.timeout_s$/);
    const pid = await readPidFile(pidFile, 0);
    assert.ok(pid > 0);
    assert.equal(isAlive(pid), false, `the hung server ${pid} is still running`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "checkServer() stops what the server started, or says how to when deno may not",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await tempDir(".doctor_test_");
    const pidFile = `${dir}/pid`;
    // sh has work after the server, so it stays the parent: the hung server is a grandchild.
    const line = `"${Deno.execPath()}" run --no-prompt --allow-write=${pidFile} ${FIXTURE}` +
      ` --hang --pid-file ${pidFile}; true`;
    const started: number[] = []; // killed at the end if still alive, whatever the outcome
    const readPid = async () => {
      const pid = await readPidFile(pidFile);
      if (pid > 0) started.push(pid);
      return pid;
    };
    try {
      // With --allow-run for every program (as here), the whole process group goes: nothing
      // holds the server's output open afterwards.
      const checks = await checkServer({ command: ["sh", "-c", line], timeoutS: 1 });
      assert.equal(checks[0]!.status, "fail");
      assert.match(checks[0]!.detail, /no answer to initialize within 1 s/);
      assert.doesNotMatch(checks[0]!.detail, /still runs/);
      await readPid();

      // With --allow-run=sh deno may signal only sh: the doctor names what is left and how to stop it.
      await Deno.remove(pidFile).catch(() => {});
      const cli = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--no-prompt",
          "--allow-read",
          "--allow-env=PATH,HOME",
          "--allow-run=sh",
          "cli.ts",
          "doctor",
          "--timeout",
          "1",
          "--",
          "sh",
          "-c",
          line,
        ],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const orphan = await readPid();
      const out = new TextDecoder().decode(cli.stdout);
      assert.equal(cli.code, 1, out + new TextDecoder().decode(cli.stderr));
      assert.match(
        out,
        /a process it started still runs after it was stopped \(process group (\d+)\): kill it with `kill -- -\1`; with --allow-run for every program/,
      );
      assert.ok(orphan > 0 && isAlive(orphan), "the grandchild should have outlived sh");
    } finally {
      for (const pid of started) if (isAlive(pid)) Deno.kill(pid, "SIGKILL");
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("checkServer() lists the tools of a real MCP server nobody here wrote", async () => {
  // Install first, so that a skip means "cannot be installed" and nothing else.
  let install: Deno.CommandOutput;
  try {
    install = await new Deno.Command("npx", {
      args: ["-y", "--package=@modelcontextprotocol/server-everything", "--", "node", "-e", "0"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    console.log(`skipped: npx cannot run here (${(error as Error).message})`);
    return;
  }
  if (!install.success) {
    const why = new TextDecoder().decode(install.stderr).trim().split("\n").slice(-3).join(" | ");
    console.log(`skipped: @modelcontextprotocol/server-everything cannot be installed: ${why}`);
    return;
  }
  const checks = await checkServer(
    { command: ["npx", "-y", "@modelcontextprotocol/server-everything"] },
    { timeout: 180 },
  );
  assert.equal(checks[0]!.status, "pass", checks[0]!.detail);
  assert.match(checks[0]!.detail, /everything/);
  assert.equal(checks[1]!.status, "pass", checks[1]!.detail);
  const count = Number(/^(\d+) tools/.exec(checks[1]!.detail)?.[1]);
  assert.ok(count >= 3, checks[1]!.detail);
  assert.match(checks[1]!.detail, /\becho\b/);
  assert.notEqual(checks[2]!.status, "fail", checks[2]!.detail);
});

// --- runDoctor -----------------------------------------------------------------------------------

Deno.test("runDoctor() runs every check in order and fails a dangling contract tool with the closest name", async () => {
  const checks = await runDoctor({
    contractPath: "testdata/mcp/contract_dangling.json",
    server: fixture(),
    timeout: 20,
  });
  assert.deepEqual(checks.map((c) => c.name), CHECK_ORDER);
  assert.equal(byName(checks, "contract").status, "pass");
  const tools = byName(checks, "contract-tools");
  assert.equal(tools.status, "fail");
  assert.match(
    tools.detail,
    /contract_dangling\.json names search_flight, which the server does not have \(closest: search_flights\)/,
  );
  assert.match(
    tools.detail,
    /cancel_booking, which the server does not have \(nothing similar among its 7 tools\)/,
  );
  assert.ok(!tools.detail.includes("names book_flight"));
  assert.equal(doctorReport(checks).worst, "fail");
});

Deno.test("runDoctor() passes a spec whose contract matches the server", async () => {
  const dir = await binDir(); // holds an executable named deno, for the packages check
  const env: Record<string, string> = {
    OPENAI_API_KEY: "sk-test-1",
    ANTHROPIC_API_KEY: "sk-ant-test-2",
    PATH: dir,
  };
  let checks: DoctorCheck[];
  try {
    checks = await runDoctor({
      specPath: "testdata/mcp/agent.yaml",
      server: fixture(),
      timeout: 20,
      env: (name) => env[name] ?? Deno.env.get(name),
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.deepEqual(checks.map((c) => c.name), CHECK_ORDER);
  const statuses = Object.fromEntries(checks.map((c) => [c.name, c.status]));
  assert.deepEqual(statuses, {
    spec: "pass",
    contract: "pass",
    keys: "pass",
    packages: "pass",
    prices: "pass",
    budget: "pass",
    "server-start": "pass",
    "tools-list": "pass",
    "tool-schemas": "warn",
    "server-build": "skip",
    "contract-tools": "pass",
  });
  assert.match(byName(checks, "contract").detail, /contract_flights\.json \(contract, 3 tools\)/);
  assert.match(byName(checks, "contract-tools").detail, /all 3 tool names/);
  assert.match(
    byName(checks, "prices").detail,
    /claude: claude-sonnet-4-5-20250929 as claude-sonnet-4-5/,
  );
  assert.match(byName(checks, "budget").detail, /the default estimate/);
  const text = JSON.stringify(doctorReport(checks));
  assert.ok(!text.includes("sk-test-1") && !text.includes("sk-ant-test-2"));
});

Deno.test("runDoctor() starts the spec's own server when none is given", async () => {
  const checks = await runDoctor({
    specPath: "testdata/mcp/agent.yaml",
    env: (name) =>
      ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"].includes(name) ? "x" : Deno.env.get(name),
  });
  assert.equal(
    byName(checks, "server-start").status,
    "pass",
    byName(checks, "server-start").detail,
  );
  assert.equal(byName(checks, "contract-tools").status, "pass");
});

Deno.test("runDoctor() with startServer false checks only files and environment", async () => {
  const checks = await runDoctor({
    contractPath: "testdata/mcp/contract_flights.json",
    server: fixture("--crash-on-start"),
    startServer: false,
  });
  for (const name of ["server-start", "tools-list", "tool-schemas", "server-build"]) {
    assert.equal(byName(checks, name).status, "skip");
    assert.equal(byName(checks, name).detail, "not started (--no-server)");
  }
  assert.equal(byName(checks, "contract-tools").status, "skip");
  assert.equal(doctorReport(checks).worst, "pass");
});

Deno.test("runDoctor() reports a bad spec with the file and JSON path, and skips what depends on it", async () => {
  const checks = await runDoctor({ specPath: "testdata/mcp/agent_bad.yaml", startServer: false });
  const spec = byName(checks, "spec");
  assert.equal(spec.status, "fail");
  assert.equal(spec.detail, "testdata/mcp/agent_bad.yaml: arms[1].model: missing; add it");
  for (const name of ["packages", "prices", "budget"]) {
    assert.equal(byName(checks, name).detail, "the spec did not load");
  }
  // Its server was not started because the spec did not load, not because there is none.
  const started = await runDoctor({ specPath: "testdata/mcp/agent_bad.yaml" });
  for (const name of ["server-start", "tools-list", "tool-schemas", "server-build"]) {
    assert.equal(byName(started, name).status, "skip");
    assert.equal(byName(started, name).detail, "the spec did not load");
  }
  const missing = await runDoctor({ specPath: "testdata/mcp/nope.yaml", startServer: false });
  assert.match(byName(missing, "spec").detail, /nope\.yaml: file not found/);
});

Deno.test("runDoctor() reports a broken contract file", async () => {
  const checks = await runDoctor({
    contractPath: "testdata/mcp/contract_broken.json",
    startServer: false,
  });
  const contract = byName(checks, "contract");
  assert.equal(contract.status, "fail");
  assert.match(contract.detail, /contract_broken\.json/);
  assert.match(contract.detail, /\$regexx/);
});

Deno.test("runDoctor() fails an unpriced model, or warns with allowUnknownPrice", async () => {
  const strict = await runDoctor({
    specPath: "testdata/mcp/agent_unpriced.yaml",
    startServer: false,
  });
  const prices = byName(strict, "prices");
  assert.equal(prices.status, "fail");
  assert.match(prices.detail, /no price for llama3\.1:8b \(arm local\)/);
  assert.match(prices.fix ?? "", /--allow-unknown-price/);
  assert.equal(byName(strict, "budget").status, "warn");
  assert.match(byName(strict, "budget").detail, /arms without a price are not counted: local/);

  const lenient = await runDoctor({
    specPath: "testdata/mcp/agent_unpriced.yaml",
    startServer: false,
    allowUnknownPrice: true,
  });
  assert.equal(byName(lenient, "prices").status, "warn");
});

// --- keys, packages, prices, budget --------------------------------------------------------------

Deno.test("checkKeys() names unset and unreadable keys and never shows a value", () => {
  const env: Record<string, string> = { SET_KEY: "value-SECRET-1", EMPTY_KEY: "" };
  const check = checkKeys(["SET_KEY", "EMPTY_KEY", "UNSET_KEY", "DENIED_KEY"], (name) => {
    if (name === "DENIED_KEY") throw new Deno.errors.NotCapable(`Requires env access to "${name}"`);
    return env[name];
  });
  assert.equal(check.status, "fail");
  assert.equal(
    check.detail,
    "not set: EMPTY_KEY, UNSET_KEY; no permission to read: DENIED_KEY (set: SET_KEY)",
  );
  assert.equal(check.fix, "export EMPTY_KEY=… UNSET_KEY=…; run deno with --allow-env=DENIED_KEY");
  assert.ok(!JSON.stringify(check).includes("value-SECRET-1"));
  assert.equal(checkKeys(["SET_KEY"], (name) => env[name]).status, "pass");
  assert.equal(checkKeys([], () => undefined).status, "skip");
});

// A folder inside the repository (the test task reads only `.`) with one executable and one plain file.
async function binDir(): Promise<string> {
  const dir = await tempDir(".doctor_test_");
  await Deno.writeTextFile(`${dir}/fake-tool`, "#!/bin/sh\n", { mode: 0o755 });
  await Deno.writeTextFile(`${dir}/deno`, "#!/bin/sh\n", { mode: 0o755 });
  await Deno.writeTextFile(`${dir}/not-executable`, "", { mode: 0o644 });
  return dir;
}

Deno.test("checkPackages() finds executables on PATH and names the missing ones", async () => {
  const dir = await binDir();
  try {
    const path = (name: string) => name === "PATH" ? `${dir}/no-such-dir:${dir}` : undefined;
    const found = checkPackages(["fake-tool"], path);
    assert.equal(found.status, "pass", found.detail);
    assert.equal(found.detail, `fake-tool at ${dir}/fake-tool`);
    const missing = checkPackages(["fake-tool", "not-executable", "toolscore-missing"], path);
    assert.equal(missing.status, "fail");
    assert.match(
      missing.detail,
      /^not on PATH: not-executable, toolscore-missing \(found: fake-tool at /,
    );
    assert.match(
      missing.fix ?? "",
      /^install not-executable, toolscore-missing or add their folder to PATH/,
    );
    assert.equal(checkPackages([`${dir}/fake-tool`], path).status, "pass");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const noRead = checkPackages(["sh"], () => "/bin:/usr/bin", {
    os: "linux",
    isExecutable: () => {
      throw new Deno.errors.NotCapable("Requires read access");
    },
  });
  assert.equal(noRead.status, "fail");
  assert.equal(noRead.detail, "not on PATH: sh; could not look in /bin, /usr/bin");
  assert.equal(
    noRead.fix,
    "run deno with --allow-read (the packages check looks files up on PATH)",
  );
  if (Deno.permissions.querySync({ name: "read", path: "/" }).state !== "granted") {
    const unreadable = checkPackages(["sh"], () => "/bin");
    assert.match(unreadable.detail, /could not look in \/bin/);
    assert.match(unreadable.fix ?? "", /--allow-read/);
  }
  const windows = checkPackages(
    ["npx"],
    (name) => name === "PATH" ? "C:\\bin;D:\\tools" : ".EXE;.CMD",
    {
      os: "windows",
      isExecutable: (path) => path === "D:\\tools\\npx.CMD",
    },
  );
  assert.equal(windows.detail, "npx at D:\\tools\\npx.CMD");
  const denied = checkPackages(["npx"], () => {
    throw new Deno.errors.NotCapable("no");
  });
  assert.equal(denied.fix, "run deno with --allow-env=PATH");
});

Deno.test("lookupPrice() takes the exact name, then a dated snapshot or tag, never a borrowed price", () => {
  assert.equal(lookupPrice("gpt-4.1-mini")?.match, "exact");
  assert.deepEqual(lookupPrice("gpt-4.1-mini-2025-04-14")?.key, "gpt-4.1-mini");
  assert.equal(lookupPrice("claude-sonnet-4-5-20250929")?.key, "claude-sonnet-4-5");
  assert.equal(lookupPrice("claude-sonnet-4-5@20250929")?.key, "claude-sonnet-4-5");
  assert.equal(lookupPrice("claude-3-5-haiku-latest")?.key, "claude-3-5-haiku");
  // A snapshot priced unlike its alias is listed by its full name, and the exact name wins.
  assert.deepEqual(lookupPrice("gpt-4o-2024-05-13"), {
    model: "gpt-4o-2024-05-13",
    key: "gpt-4o-2024-05-13",
    match: "exact",
    source: "default",
    price: { inputPerMtok: 5, outputPerMtok: 15 },
  });
  assert.equal(lookupPrice("gpt-4o-2024-08-06")?.key, "gpt-4o");
  for (
    const model of [
      "gpt-5-pro",
      "gpt-4o-audio-preview",
      "claude-opus-4-9",
      "llama3.1",
      "openai/gpt-4.1",
      "gpt",
    ]
  ) {
    assert.equal(lookupPrice(model), null, model);
  }
  const overrides = pricesFromJson({
    "gpt-4.1-mini": { input_per_mtok: 9, output_per_mtok: 9 },
    "llama3.1": { input_per_mtok: 0, output_per_mtok: 0 },
  });
  assert.deepEqual(lookupPrice("gpt-4.1-mini", { overrides })?.price, {
    inputPerMtok: 9,
    outputPerMtok: 9,
  });
  assert.equal(lookupPrice("gpt-4.1-mini", { overrides })?.source, "spec");
  assert.equal(lookupPrice("llama3.1:70b", { overrides })?.key, "llama3.1");
  assert.equal(lookupPrice("gpt-4o", { overrides })?.source, "default");
  // An exact shipped name beats a spec prefix.
  assert.equal(
    lookupPrice("o3-mini", { overrides: { o3: { inputPerMtok: 1, outputPerMtok: 1 } } })?.key,
    "o3-mini",
  );
});

Deno.test("DEFAULT_PRICES is the shipped table and pricesFromJson() rejects bad entries", () => {
  assert.deepEqual(DEFAULT_PRICES["gpt-4.1-mini"], { inputPerMtok: 0.4, outputPerMtok: 1.6 });
  assert.throws(() => pricesFromJson([]), /prices: expected/);
  assert.throws(() => pricesFromJson({ m: 1 }), /prices\.m: expected/);
  assert.throws(
    () => pricesFromJson({ m: { input_per_mtok: 1, output_per_mtok: 1, cached: 1 } }),
    /prices\.m\.cached: unknown key/,
  );
  assert.throws(
    () => pricesFromJson({ m: { input_per_mtok: 1 } }),
    /prices\.m\.output_per_mtok: expected a price/,
  );
  assert.equal(
    costUsd({ inputPerMtok: 3, outputPerMtok: 15 }, { inputTokens: 1e6, outputTokens: 1e6 }),
    18,
  );
});

Deno.test("checkPrices() names the arm and model without a price", () => {
  const arms = [
    { id: "mini", provider: "openai" as const, model: "gpt-4.1-mini" },
    { id: "local", provider: "openai" as const, model: "qwen3:4b" },
  ];
  const fail = checkPrices(arms, {});
  assert.equal(fail.status, "fail");
  assert.match(
    fail.detail,
    /^no price for qwen3:4b \(arm local\); its cost would be unknown \(priced: mini: gpt-4\.1-mini/,
  );
  assert.match(fail.fix ?? "", /add prices: \{"qwen3:4b": \{input_per_mtok/);
  assert.equal(checkPrices(arms, {}, { allowUnknownPrice: true }).status, "warn");
  assert.equal(checkPrices(arms, { qwen3: { inputPerMtok: 0, outputPerMtok: 0 } }).status, "pass");
});

function budgetSpec(budget: Record<string, unknown> | undefined, repeats = 1) {
  return agentSpecFromJson({
    spec_version: 1,
    server: { command: ["srv"] },
    arms: [
      { id: "mini", provider: "openai", model: "gpt-4.1-mini" },
      { id: "sonnet", provider: "anthropic", model: "claude-sonnet-4-5" },
    ],
    tasks: [{ id: "a", prompt: "p", contract: "a.json" }, {
      id: "b",
      prompt: "p",
      contract: "b.json",
    }],
    repeats,
    ...(budget ? { budget } : {}),
  });
}

Deno.test("checkBudget() needs one run of every arm × task and says which estimate it used", () => {
  // Per run at 20k in + 2k out: mini $0.0112, sonnet $0.09; 2 tasks: one round = $0.2024.
  const pass = checkBudget(budgetSpec({ max_usd: 1 }));
  assert.equal(pass.status, "pass");
  assert.match(pass.detail, /2 arms × 2 tasks × 1 repeat estimated at \$0\.20, within \$1\.00/);
  assert.match(pass.detail, /20,000 input \+ 2,000 output tokens per run \(the default estimate/);

  const fail = checkBudget(budgetSpec({ max_usd: 0.2 }));
  assert.equal(fail.status, "fail");
  assert.match(
    fail.detail,
    /\$0\.20 does not cover one run of every arm × task \(estimated \$0\.20\)/,
  );

  const repeats = checkBudget(budgetSpec({ max_usd: 1 }, 10));
  assert.equal(repeats.status, "warn");
  assert.match(
    repeats.detail,
    /^\$1\.00 covers one round \(\$0\.20\) but not 2 arms × 2 tasks × 10 repeats \(\$2\.02\), so the run will stop early; estimated from 20,000 input/,
  );

  const custom = checkBudget(budgetSpec({
    max_usd: 1,
    estimate_per_run: { input_tokens: 1000, output_tokens: 100 },
  }));
  assert.match(
    custom.detail,
    /1,000 input \+ 100 output tokens per run \(budget\.estimate_per_run\)/,
  );

  const none = checkBudget(budgetSpec(undefined));
  assert.equal(none.status, "warn");
  assert.match(none.detail, /no budget\.max_usd: nothing stops the spend/);
});

// --- the agent spec ------------------------------------------------------------------------------

Deno.test("loadAgentSpec() reads YAML, applies defaults and resolves paths against the spec", async () => {
  const spec = await loadAgentSpec("testdata/mcp/agent.yaml");
  assert.deepEqual(spec.server, {
    command: ["deno", "run", "--no-prompt", "testdata/mcp/fixture_server.ts"],
    timeoutS: 20,
  });
  assert.deepEqual(spec.arms[0], {
    id: "mini",
    provider: "openai",
    model: "gpt-4.1-mini",
    temperature: 0,
  });
  assert.equal(spec.tasks[0]!.contract, "testdata/mcp/contract_flights.json");
  assert.deepEqual(spec.keys, ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]);
  assert.deepEqual(spec.budget, { maxUsd: 1, estimatePerRun: null });
  assert.equal(spec.repeats, 3);
  assert.equal(spec.maxTurns, 20);
  assert.equal(spec.timeoutS, 120);
  assert.equal(AGENT_SPEC_SCHEMA.$schema, "https://json-schema.org/draft/2020-12/schema");
});

Deno.test("agentSpecFromJson() names the JSON path of every mistake", () => {
  const base = {
    spec_version: 1,
    server: { command: ["srv"] },
    arms: [{ id: "a", provider: "openai", model: "m" }],
    tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
  };
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...base, spec_version: 2 }, /spec_version: must be 1/],
    [{ ...base, bogus: 1 }, /bogus: unknown key; the keys are spec_version, server, arms/],
    [
      { ...base, arms: [{ id: "a", provider: "cohere", model: "m" }] },
      /arms\[0\]\.provider: must be one of "openai", "anthropic", "gemini"/,
    ],
    [{ ...base, arms: [] }, /arms: must NOT have fewer than 1 items/],
    [{ ...base, tasks: [{ id: "t", prompt: "p" }] }, /tasks\[0\]\.contract: missing; add it/],
    [{ ...base, keys: ["OK", "not valid"] }, /keys\[1\]: must match pattern/],
    [
      { ...base, prices: { m: { input_per_mtok: -1, output_per_mtok: 1 } } },
      /prices\.m\.input_per_mtok: must be >= 0/,
    ],
    [{ ...base, budget: { max_usd: 0 } }, /budget\.max_usd: must be > 0/],
    [{ ...base, server: { command: ["srv"], bogus: 1 } }, /server\.bogus: unknown key/],
    // command is a string or an array: name what is wrong with the one given, where it is.
    [{ ...base, server: { command: 5 } }, /server\.command: must be string or array$/],
    [{ ...base, server: { command: ["a", ""] } }, /server\.command\[1\]: must NOT have fewer/],
    [{ ...base, server: { command: ["a", 3] } }, /server\.command\[1\]: must be string$/],
    [{ ...base, server: { command: [] } }, /server\.command: must NOT have fewer than 1 items/],
    [
      { ...base, server: { url: "https://x.test", command: ["a"] } },
      /server\.command: unknown key; a remote server/,
    ],
    [{ ...base, arms: [base.arms[0], base.arms[0]] }, /arms\[1\]\.id: duplicate id "a"/],
    [{ ...base, tasks: [base.tasks[0], base.tasks[0]] }, /tasks\[1\]\.id: duplicate id "t"/],
  ];
  for (const [value, pattern] of cases) {
    assert.throws(() => agentSpecFromJson(value), pattern, JSON.stringify(value));
  }
  assert.throws(() => agentSpecFromJson([]), /\(the spec\): must be object/);
});

// --- pieces --------------------------------------------------------------------------------------

Deno.test("toolListIssues() fails unusable tools and warns about the rest", () => {
  const issues = toolListIssues([
    {
      name: "ok",
      description: "Fine.",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
    },
    { description: "No name.", inputSchema: { type: "object" } },
    { name: "no_schema", description: "x" },
    { name: "array_schema", description: "x", inputSchema: { type: "array" } },
    { name: "files.read", description: "x", inputSchema: { type: "object" } },
    {
      name: "modern",
      description: "x",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: { id: { type: "string" } },
        properties: { a: { $ref: "#/$defs/id" } },
      },
    },
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
  assert.deepEqual(issues.fails, [
    "tools[1]: no name",
    "no_schema: inputSchema is missing or not an object",
    'array_schema: inputSchema must have type "object" (MCP), got "array"',
    "tools[8]: not an object",
  ]);
  assert.equal(issues.warns.length, 3, issues.warns.join("\n"));
  assert.match(issues.warns[0]!, /^files\.read: model APIs accept only letters/);
  assert.match(
    issues.warns[1]!,
    /^old: its \$schema \(http:\/\/json-schema\.org\/draft-04\/schema#\) is not a draft we can check/,
  );
  assert.match(issues.warns[2]!, /^dangling_ref: not a usable draft-07 JSON Schema/);
});

Deno.test("toolListIssues() validates against the draft $schema names, however it is spelt", () => {
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
  const issues = toolListIssues([
    tool("no_schema"),
    tool("d7_http", "http://json-schema.org/draft-07/schema#"),
    tool("d7_https", "https://json-schema.org/draft-07/schema"),
    tool("d2019", "https://json-schema.org/draft/2019-09/schema"),
    tool("d2020_https", "https://json-schema.org/draft/2020-12/schema"),
    tool("d2020_http", "http://json-schema.org/draft/2020-12/schema#"),
  ]);
  assert.deepEqual(issues.fails, []);
  assert.deepEqual(issues.warns.map((warn) => warn.split(":")[0]), ["d2020_https", "d2020_http"]);
  for (const warn of issues.warns) assert.match(warn, /not a valid 2020-12 JSON Schema/);
});

Deno.test("toolsSha256() ignores the order of the tools but not their content", () => {
  const a = { name: "a", inputSchema: { type: "object" } };
  const b = { name: "b", inputSchema: { type: "object" } };
  assert.equal(toolsSha256([a, b]), toolsSha256([b, a]));
  assert.notEqual(toolsSha256([a, b]), toolsSha256([a, { ...b, description: "changed" }]));
});

Deno.test("closestName() and checkContractTools() point at the nearest real tool", () => {
  assert.equal(closestName("Search_Flight", ["book_flight", "search_flights"]), "search_flights");
  const check = checkContractTools(
    [{ path: "c.json", kind: "contract", tools: ["send_sms", "book_flight"] }],
    [],
  );
  assert.equal(
    check.detail,
    "c.json names send_sms, which the server does not have (it has no tools); c.json names book_flight, which the server does not have (it has no tools)",
  );
  assert.equal(checkContractTools([], ["a"]).status, "skip");
  assert.equal(
    checkContractTools([{ path: "c", kind: "gold", tools: ["a"] }], null).status,
    "skip",
  );
});

Deno.test("doctorReport() counts and formatDoctorReport() prints marks and fixes", () => {
  const report = doctorReport([
    new DoctorCheck("spec", "pass", "ok"),
    new DoctorCheck("keys", "fail", "not set: A_KEY", { fix: "export A_KEY=…" }),
    new DoctorCheck("prices", "warn", "no price for x", { fix: "add it" }),
    new DoctorCheck("budget", "skip", "no spec"),
  ]);
  assert.deepEqual(report.counts, { pass: 1, warn: 1, fail: 1, skip: 1 });
  assert.equal(report.worst, "fail");
  assert.equal(
    formatDoctorReport(report),
    [
      "✓ spec    ok",
      "✗ keys    not set: A_KEY",
      "    fix: export A_KEY=…",
      "! prices  no price for x",
      "    fix: add it",
      "- budget  no spec",
      "",
      "1 pass, 1 warn, 1 fail, 1 skip",
      "",
    ].join("\n"),
  );
  assert.ok(formatDoctorReport(report, { color: true }).includes("\x1b[31m✗\x1b[0m keys"));
  assert.equal(doctorReport([]).worst, "skip");
});

// --- the CLI -------------------------------------------------------------------------------------

Deno.test("toolscore doctor prints a checklist and exits 0 when nothing fails", async () => {
  const { code, out } = await runCollect(["doctor", "--", ...fixture().command]);
  assert.equal(code, 0, out);
  assert.match(out, /^- spec {12}no spec given \(--spec\)$/m);
  assert.match(out, /^✓ tools-list {6}7 tools: /m);
  assert.match(out, /^! tool-schemas {4}count_items: not a valid draft-07 JSON Schema/m);
  assert.match(out, /^ {4}fix: /m);
  assert.match(out, /\n2 pass, 1 warn, 0 fail, 8 skip\n$/);
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
        assert.deepEqual(Object.keys(report.checks[0]), ["name", "status", "detail", "fix"]);
        assert.equal(report.counts.fail, 2);
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
    const fromConfig = await runCollect(["doctor", "--mcp-config", config, "--json"]);
    assert.equal(fromConfig.code, 0, fromConfig.out);
    assert.equal(JSON.parse(fromConfig.out).checks[6].status, "pass");

    const line = `"${Deno.execPath()}" run --no-prompt ${FIXTURE} --name quoted`;
    const fromLine = await runCollect(["doctor", "--server", line, "--json"]);
    assert.equal(fromLine.code, 0, fromLine.out);
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
        args: [...args, "doctor", "--spec", spec],
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
