/**
 * Issue 44: `contractsFromTau2()` and `toolscore import tau2` — τ²-bench
 * tasks as contracts (`compare_args`, user actions, `$` keys, defaults,
 * file-safe names, bad input), the `tau2-actions` verdict and its note, and
 * the command writing `DIR/<id>.json` and `DIR/index.json`.
 *
 * @module
 */

import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import { contractFromMapping, contractsFromTau2, evaluateContract, tau2Index } from "../mod.ts";
import { importTau2 } from "../lib/cli/import_tau2.ts";
import type { CliIO } from "../lib/cli/command.ts";
import { COMMANDS } from "../lib/cli/commands.ts";
import { formatResult } from "../lib/report/console.ts";
import { evaluationEvidence } from "../lib/checks/evidence.ts";
import type { MatchingBlock } from "../lib/evaluate/matching_metrics.ts";
import { runCollect } from "./_cli.ts";

function task(id: string, actions: unknown[], basis?: string[]): Record<string, unknown> {
  return {
    id,
    evaluation_criteria: { actions, ...(basis ? { reward_basis: basis } : {}) },
  };
}

function action(name: string, args: Record<string, unknown>, extra: object = {}) {
  return { action_id: `${name}_0`, requestor: "assistant", name, arguments: args, ...extra };
}

Deno.test("contractsFromTau2() writes compare_args as the compared arguments and metadata", () => {
  const [imported] = contractsFromTau2([
    task("1", [
      action("cancel", { order_id: "#W1", reason: "x" }, { compare_args: ["order_id"] }),
      action("ping", { a: 1 }, { compare_args: [] }),
      action("get", { id: "u1", extra: true }, { compare_args: null }),
    ]),
  ]);
  assert.deepEqual(imported!.contract.required, [
    {
      tool: "cancel",
      args: { order_id: "#W1" },
      metadata: { action_id: "cancel_0", compare_args: ["order_id"] },
    },
    { tool: "ping", args: null, metadata: { action_id: "ping_0", compare_args: [] } },
    { tool: "get", args: { id: "u1", extra: true }, metadata: { action_id: "get_0" } },
  ]);
  assert.deepEqual(imported!.contract.source, {
    benchmark: "tau2",
    id: "1",
    reward_basis: ["DB", "COMMUNICATE"],
  });
  assert.equal(contractFromMapping(imported!.contract).matching, "non-consuming");
});

Deno.test("contractsFromTau2() marks user actions actor user, and τ²'s matcher ignores the requestor", () => {
  const [imported] = contractsFromTau2([
    task("t", [action("toggle_airplane_mode", {}, { requestor: "user" })], ["ACTION"]),
  ], { domain: "telecom", tau2Commit: "a2c0247" });
  const contract = imported!.contract;
  assert.equal((contract.required as { actor?: string }[])[0]!.actor, "user");
  assert.deepEqual(contract.source, {
    benchmark: "tau2",
    id: "t",
    domain: "telecom",
    reward_basis: ["ACTION"],
    tau2_commit: "a2c0247",
  });
  // τ²'s compare_with_tool_call compares name and arguments only.
  const byAgent = evaluateContract(contract, [{ tool: "toggle_airplane_mode", args: {} }]);
  assert.equal(byAgent.passed(0.9), true);
  const byUser = evaluateContract(contract, [
    { tool: "toggle_airplane_mode", args: {}, actor: "user" },
  ]);
  assert.equal(byUser.passed(0.9), true);
  assert.equal(byUser.metrics.required_call_recall, 1, "the score pairs the user's call");
});

Deno.test("contractsFromTau2() keeps argument values with $ keys as data", () => {
  const [imported] = contractsFromTau2([task("d", [action("q", { filter: { $gt: 5 } })])]);
  assert.deepEqual((imported!.contract.required as { args: unknown }[])[0]!.args, {
    filter: { $eq: { $gt: 5 } },
  });
  const result = evaluateContract(imported!.contract, [{
    tool: "q",
    args: { filter: { $gt: 5 } },
  }]);
  assert.equal((result.metrics.matching as MatchingBlock).matched_count, 1);
  const other = evaluateContract(imported!.contract, [{ tool: "q", args: { filter: { $gt: 6 } } }]);
  assert.equal((other.metrics.matching as MatchingBlock).matched_count, 0);
});

Deno.test("contractsFromTau2() reads a results file's tasks and domain; no criteria passes", () => {
  const imported = contractsFromTau2({
    info: { environment_info: { domain_name: "airline" } },
    tasks: [{ id: 7, evaluation_criteria: null }, { id: "8" }],
  });
  assert.deepEqual(imported.map((c) => c.id), ["7", "8"]);
  assert.equal((imported[0]!.contract.source as { domain: string }).domain, "airline");
  assert.deepEqual(imported[0]!.contract.required, []);
  assert.equal(evaluateContract(imported[0]!.contract, []).passed(0.9), true);
  assert.deepEqual(tau2Index(imported), {
    contracts: [{ id: "7", file: "7.json" }, { id: "8", file: "8.json" }],
  });
});

Deno.test("contractsFromTau2() refuses bad tasks, naming the JSON path", () => {
  assert.throws(() => contractsFromTau2({ simulations: [] }), /not a τ² tasks file/);
  assert.throws(
    () => contractsFromTau2([task("a", []), task("a", [])]),
    /\[1\]\.id: task id "a" repeats \[0\]\.id/,
  );
  assert.throws(
    () => contractsFromTau2([task("a", [{ name: "", arguments: {} }])]),
    /\[0\]\.evaluation_criteria\.actions\[0\]\.name: an action needs a name/,
  );
  assert.throws(
    () => contractsFromTau2([task("a", [action("x", {}, { compare_args: "id" })])]),
    /actions\[0\]\.compare_args: compare_args must be a list/,
  );
  assert.throws(
    () => contractsFromTau2([task("a", [action("x", {}, { requestor: "system" })])]),
    /actions\[0\]\.requestor: requestor must be "assistant" or "user"/,
  );
  assert.throws(
    () => contractsFromTau2([task("a", [], ["DB", "VIBES"])]),
    /reward_basis\[1\]: unknown reward type "VIBES"/,
  );
});

Deno.test("contractsFromTau2() names files safely and uniquely", () => {
  const ids = ["[crear_sic]x[PERSONA:None]", "a/b", "A?b", "..", "index", ""];
  const files = contractsFromTau2(ids.map((id) => ({ id: id || 1, evaluation_criteria: null })))
    .map((c) => c.file);
  assert.deepEqual(files, [
    "_crear_sic_x_PERSONA_None_.json",
    "a_b.json",
    "A_b-2.json",
    "__.json",
    "index_.json",
    "1.json",
  ]);
});

Deno.test("a tau2-actions verdict notes action agreement only, on the console and in JSON", () => {
  const [imported] = contractsFromTau2([task("n", [action("a", { x: 1 }), action("b", {})])]);
  const result = evaluateContract(imported!.contract, [{ tool: "a", args: { x: 1 } }]);
  assert.equal(result.passed(0.9), false);
  assert.deepEqual(result.verdict(0.9).failedChecks, ["tau2-actions"]);
  const block = result.toJSON().metrics as { matching: MatchingBlock };
  assert.deepEqual(block.matching.matches, [{ expected: 0, actual: 0 }, {
    expected: 1,
    actual: null,
  }]);
  assert.match(
    block.matching.note!,
    /^action agreement only: the task's reward_basis is DB, COMMUNICATE/,
  );
  const lines = formatResult("n.json", result, evaluationEvidence(result), { gated: true });
  assert.match(lines[0]!, /FAIL: failed tau2-actions/);
  assert.ok(
    lines.includes(
      "  non-consuming matching: 1 of 2 required calls matched; not matched: b (required 2)",
    ),
  );
  assert.ok(lines.some((line) => line.startsWith("  note: action agreement only")));
});

Deno.test("a τ² simulation that ended early fails tau2-actions, as τ² gives it reward 0", () => {
  const [imported] = contractsFromTau2([task("e", [action("a", {})], ["ACTION"])]);
  const simulation = (termination_reason: string) => ({
    simulations: [{
      task_id: "e",
      trial: 0,
      termination_reason,
      reward_info: { reward: 0 },
      messages: [{
        role: "assistant",
        tool_calls: [{ id: "1", name: "a", arguments: {}, requestor: "assistant" }],
      }],
    }],
  });
  const early = evaluateContract(imported!.contract, simulation("max_steps"));
  assert.equal(early.passed(0.9), false);
  const block = early.metrics.matching as MatchingBlock;
  assert.equal(block.ended_early, "max_steps");
  assert.equal(block.matched_count, 1);
  assert.match(block.note!, /ended early \(termination_reason "max_steps"\)/);
  assert.equal(early.trace.metadata?.termination_reason, "max_steps");
  const normal = evaluateContract(imported!.contract, simulation("agent_stop"));
  assert.equal(normal.passed(0.9), true);
  assert.equal((normal.metrics.matching as MatchingBlock).note, undefined);
});

Deno.test("contractFromMapping() refuses pass tau2-actions without matching non-consuming", () => {
  assert.throws(
    () => contractFromMapping({ required: [], pass: "tau2-actions" }),
    /pass: "tau2-actions" needs matching: "non-consuming"/,
  );
});

function collect(): { io: CliIO; out: () => string } {
  let out = "";
  return {
    io: {
      stdout: (text) => void (out += text),
      stderr: () => {},
      color: false,
      progress: false,
      stdin: () => Promise.resolve(""),
    },
    out: () => out,
  };
}

Deno.test("importTau2() writes one contract per task and the index, keeping big integers", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.copyFileSync("testdata/tau2/healthcare_macalupu.tasks.json", `${dir}/tasks.json`);
    const { io, out } = collect();
    assert.equal(
      await importTau2(
        [`${dir}/tasks.json`, "-o", `${dir}/c`, "--domain", "healthcare_macalupu"],
        io,
      ),
      0,
    );
    assert.match(out(), /^wrote 13 contracts and index\.json to /);
    const index = JSON.parse(Deno.readTextFileSync(`${dir}/c/index.json`));
    assert.equal(index.contracts.length, 13);
    for (const { id, file } of index.contracts) {
      const contract = JSON.parse(Deno.readTextFileSync(`${dir}/c/${file}`));
      assert.equal(contract.source.id, id);
      contractFromMapping(contract);
    }
    // Digits a double cannot hold survive into the contract.
    Deno.writeTextFileSync(
      `${dir}/big.json`,
      '[{"id": "b", "evaluation_criteria": {"actions": [{"action_id": "x", "name": "get", "arguments": {"n": 12345678901234567890}}]}}]',
    );
    assert.equal(await importTau2([`${dir}/big.json`, "-o", `${dir}/big`], io), 0);
    assert.match(Deno.readTextFileSync(`${dir}/big/b.json`), /"n": 12345678901234567890/);
    // An existing contract is replaced only with --force; nothing is written before that check.
    await assert.rejects(
      () => importTau2([`${dir}/big.json`, "-o", `${dir}/big`], io),
      /already exists/,
    );
    assert.equal(await importTau2([`${dir}/big.json`, "-o", `${dir}/big`, "--force"], io), 0);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("importTau2() says where bad input is and writes nothing", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const { io } = collect();
    Deno.writeTextFileSync(`${dir}/bad.json`, '[\n  {"id": "a",}\n]');
    await assert.rejects(
      () => importTau2([`${dir}/bad.json`, "-o", `${dir}/c`], io),
      /bad\.json:2:14/,
    );
    Deno.writeTextFileSync(
      `${dir}/task.json`,
      '[{"id": "a", "evaluation_criteria": {"actions": [{"name": 3}]}}]',
    );
    await assert.rejects(
      () => importTau2([`${dir}/task.json`, "-o", `${dir}/c`], io),
      /task\.json: \[0\]\.evaluation_criteria\.actions\[0\]\.name: an action needs a name/,
    );
    assert.throws(() => Deno.statSync(`${dir}/c`), "nothing written");
    await assert.rejects(() => importTau2([`${dir}/task.json`], io), /needs -o DIR/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

// Runs once `import` dispatches to `import tau2` (lib/cli/import.ts, issue 43's lane).
Deno.test({
  name: "toolscore import tau2 writes the contracts and exits 2 on bad input",
  ignore: !("import" in COMMANDS),
  fn: async () => {
    const dir = Deno.makeTempDirSync();
    try {
      const ok = await runCollect([
        "import",
        "tau2",
        "testdata/tau2/fishtrader_garbich.tasks.json",
        "-o",
        `${dir}/c`,
      ]);
      assert.equal(ok.code, 0, ok.err);
      assert.equal(JSON.parse(Deno.readTextFileSync(`${dir}/c/index.json`)).contracts.length, 15);
      Deno.writeTextFileSync(`${dir}/bad.json`, '[{"id": "a",}]');
      const bad = await runCollect(["import", "tau2", `${dir}/bad.json`, "-o", `${dir}/d`]);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /bad\.json:1:13/);
      assert.doesNotMatch(bad.err, /\n\s+at /, "no stack trace");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("CONTRACT_SCHEMA accepts every imported τ² contract", async () => {
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const { CONTRACT_SCHEMA } = await import("../mod.ts");
  const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(CONTRACT_SCHEMA);
  for (const file of ["fishtrader_garbich", "healthcare_macalupu", "restaurante_joaquin_cachay"]) {
    const tasks = JSON.parse(Deno.readTextFileSync(`testdata/tau2/${file}.tasks.json`));
    for (const { id, contract } of contractsFromTau2(tasks)) {
      assert.ok(validate(contract), `${file} ${id}: ${JSON.stringify(validate.errors)}`);
    }
  }
  const [dollar] = contractsFromTau2([
    task("d", [action("q", { f: { $gt: 5 } }, { requestor: "user", compare_args: [] })]),
  ]);
  assert.ok(validate(dollar!.contract), JSON.stringify(validate.errors));
});

Deno.test("toolscore eval --json of a τ² contract validates against schemas/result.schema.json", async () => {
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const schema = JSON.parse(Deno.readTextFileSync("schemas/result.schema.json"));
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  const dir = Deno.makeTempDirSync();
  try {
    const [imported] = contractsFromTau2([task("n", [action("a", {}), action("a", {})])]);
    Deno.writeTextFileSync(`${dir}/c.json`, JSON.stringify(imported!.contract));
    Deno.writeTextFileSync(
      `${dir}/r.json`,
      JSON.stringify({
        simulations: [{
          task_id: "n",
          trial: 0,
          termination_reason: "too_many_errors",
          reward_info: { reward: 0 },
          messages: [{ role: "assistant", tool_calls: [{ id: "1", name: "a", arguments: {} }] }],
        }],
      }),
    );
    const { code, out } = await runCollect(["eval", `${dir}/c.json`, `${dir}/r.json`, "--json"]);
    assert.equal(code, 1, "the gate fails the early ending");
    assert.ok(validate(JSON.parse(out)), JSON.stringify(validate.errors));
    const doc = JSON.parse(out) as {
      metrics: { matching: MatchingBlock };
      trace: { metadata: Record<string, unknown> };
      failed_checks: string[];
    };
    assert.deepEqual(doc.metrics.matching.matches, [{ expected: 0, actual: 0 }, {
      expected: 1,
      actual: 0,
    }]);
    assert.equal(doc.metrics.matching.ended_early, "too_many_errors");
    assert.equal(doc.trace.metadata.termination_reason, "too_many_errors");
    assert.deepEqual(doc.failed_checks, ["tau2-actions"]);
    const quiet = await runCollect(["eval", `${dir}/c.json`, `${dir}/r.json`, "-q"]);
    assert.match(quiet.out, /fail +tau2-actions: the simulation ended early \(too_many_errors\)/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("contractsFromTau2() reads fragments of the official telecom and banking_knowledge task files", () => {
  const telecom = contractsFromTau2(
    JSON.parse(Deno.readTextFileSync("testdata/tau2/telecom_small.10-13.tasks.json")),
    { domain: "telecom" },
  );
  const apn = telecom.find((c) => c.id === "[service_issue]break_apn_settings[PERSONA:None]")!;
  assert.equal(apn.file, "_service_issue_break_apn_settings_PERSONA_None_.json");
  assert.deepEqual(apn.contract.required, [
    {
      tool: "reset_apn_settings",
      args: {},
      actor: "user",
      metadata: { action_id: "reset_apn_settings_0" },
    },
    { tool: "reboot_device", args: {}, actor: "user", metadata: { action_id: "reboot_device_1" } },
  ]);
  assert.deepEqual(
    telecom.map((c) => (c.contract.source as { reward_basis: string[] }).reward_basis),
    [["ENV_ASSERTION", "ACTION"], ["ENV_ASSERTION"], ["ENV_ASSERTION"], [
      "ENV_ASSERTION",
      "ACTION",
    ]],
  );

  const banking = contractsFromTau2(
    JSON.parse(Deno.readTextFileSync("testdata/tau2/banking_knowledge.27-30.tasks.json")),
  );
  const speedbump = banking.find((c) => c.id === "task_034")!;
  const required = speedbump.contract.required as { tool: string; actor?: string; args: unknown }[];
  const transfers = required.filter((call) => call.tool === "request_human_agent_transfer");
  assert.equal(transfers.length, 8);
  assert.ok(transfers.every((call) => call.actor === "user" && call.args === null));
  // One user request satisfies all eight identical actions (τ² is non-consuming); the one-to-one
  // score pairs only one of them.
  const calls = required.filter((call) => call.tool !== "request_human_agent_transfer")
    .map((call) => ({ tool: call.tool, args: call.args as Record<string, unknown> }));
  const result = evaluateContract(speedbump.contract, [
    { tool: "request_human_agent_transfer", args: {}, actor: "user" },
    ...calls,
  ]);
  assert.equal((result.metrics.matching as MatchingBlock).matched_count, 9);
  assert.equal(result.passed(0.9), true);
  assert.ok(result.requiredCallRecall! < 1);
  assert.equal((result.metrics.matching as MatchingBlock).note, undefined, "ACTION-only");
});

Deno.test("fileSafeNames() stays fast when many ids share one name", async () => {
  const { fileSafeNames } = await import("../lib/benchmarks/tau2_file_names.ts");
  const ids = Array.from({ length: 50_000 }, (_, i) => `a${"?!#"[i % 3]}${"".padEnd(i % 2)}`);
  const started = performance.now();
  const names = fileSafeNames(ids);
  assert.ok(performance.now() - started < 2000, "linear, not quadratic");
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, ids.length);
  assert.deepEqual(fileSafeNames(["x?", "x!", "x_-2", "x#"]), [
    "x_.json",
    "x_-2.json",
    "x_-2-2.json",
    "x_-3.json",
  ]);
});
