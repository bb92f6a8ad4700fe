import assert from "node:assert/strict";
import { DoctorCheck, doctorReport, runDoctor } from "../mod.ts";
import { checkBudget, checkKeys, checkPackages, checkPrices } from "../lib/doctor/checks.ts";
import { closestName } from "../lib/doctor/closest_name.ts";
import { checkContractTools } from "../lib/doctor/contract_checks.ts";
import { formatDoctorReport } from "../lib/doctor/report.ts";
import { AGENT_SPEC_SCHEMA, agentSpecFromJson, loadAgentSpec } from "../lib/spec/agent_spec.ts";
import { costUsd, DEFAULT_PRICES, lookupPrice, pricesFromJson } from "../lib/spec/prices.ts";
import { fixture, tempDir } from "./_mcp.ts";
import { byName, CHECK_ORDER } from "./_doctor.ts";

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
    handshake: "pass",
    stdout: "pass",
    "tools-list": "pass",
    // The fixture's count_items has an invalid schema on purpose.
    "tool-schemas": "fail",
    "tool-lint": "warn",
    resources: "skip",
    prompts: "skip",
    shutdown: "pass",
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
  // The spec names `deno`: find this one, whatever is on PATH.
  const bin = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
  const checks = await runDoctor({
    specPath: "testdata/mcp/agent.yaml",
    env: (name) =>
      ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"].includes(name)
        ? "x"
        : name === "PATH"
        ? `${bin}:${Deno.env.get("PATH") ?? ""}`
        : Deno.env.get(name),
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
  for (const name of ["server-start", "tools-list", "tool-schemas", "shutdown", "server-build"]) {
    assert.equal(byName(checks, name).status, "skip");
    assert.equal(byName(checks, name).detail, "not started (startServer: false)");
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
  // The library speaks of its options; the CLI of its flags.
  assert.match(prices.fix ?? "", /, or pass allowUnknownPrice: true$/);
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
  assert.deepEqual(spec.budget, {
    maxUsd: 1,
    estimatePerRun: null,
    perShardUsd: null,
    maxUsdPerRun: null,
    maxTokensPerRun: null,
  });
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
