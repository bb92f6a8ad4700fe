/**
 * Issue 34: τ² dual control (the user's calls, `actor: "user"`), a single
 * τ-bench record, Claude Code messages without a session, and run files that
 * fail per run.
 *
 * @module
 */

import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import type { InputError } from "../lib/base/errors.ts";
import { traceFromValue, tracesFromText, tracesFromValue } from "../lib/formats/detect.ts";
import { evaluate } from "../lib/evaluate/evaluate.ts";
import { evaluateContract } from "../lib/evaluate/evaluate_contract.ts";
import { callFromJson, callToJson } from "../lib/scoring/calls.ts";
import { TRACE_FILE_EXTENSIONS } from "../lib/formats/registry.ts";
import { runCollect } from "./_cli.ts";

function simulation(taskId: string, messages: unknown[]): Record<string, unknown> {
  return { id: `sim-${taskId}`, task_id: taskId, trial: 0, reward_info: { reward: 1 }, messages };
}

// A telecom-style simulation: the agent looks the customer up, the user toggles airplane mode.
const DUAL = [
  { role: "user", content: "My phone has no signal." },
  {
    role: "assistant",
    content: null,
    tool_calls: [{
      id: "a1",
      name: "get_customer_by_phone",
      arguments: { phone_number: "555-1234" },
      requestor: "assistant",
    }],
  },
  {
    role: "tool",
    id: "a1",
    content: '{"customer_id": "C1"}',
    requestor: "assistant",
    error: false,
  },
  { role: "assistant", content: "Please turn airplane mode off." },
  {
    role: "user",
    content: null,
    tool_calls: [{ id: "a1", name: "toggle_airplane_mode", arguments: {}, requestor: "user" }],
  },
  { role: "tool", id: "a1", content: "Airplane Mode: OFF", requestor: "user", error: false },
  { role: "assistant", content: "Your signal should be back." },
];

Deno.test("readTau2Messages() reads the user's calls, marked actor user, results paired per requestor", () => {
  const trace = traceFromValue({ simulations: [simulation("1", DUAL)] }, { source: "sims.json" });
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.actor, c.result]), [
    ["get_customer_by_phone", undefined, { customer_id: "C1" }],
    ["toggle_airplane_mode", "user", "Airplane Mode: OFF"],
  ]);
  // The user's call does not end the agent's turn: the final answer is the agent's last text.
  assert.equal(trace.finalAnswer, "Your signal should be back.");
});

Deno.test("a simulation where only the user calls tools reads, instead of failing as 0 calls", () => {
  const messages = [DUAL[0], DUAL[3], DUAL[4], DUAL[5], DUAL[6]];
  const trace = traceFromValue({ simulations: [simulation("2", messages)] });
  assert.deepEqual(trace.calls.map((c) => [c.tool, c.actor]), [["toggle_airplane_mode", "user"]]);
});

Deno.test("evaluate() leaves the user's calls out of the score unless the gold names one", () => {
  const doc = { simulations: [simulation("1", DUAL)] };
  const gold = [{ tool: "get_customer_by_phone" }];
  const result = evaluate(gold, doc);
  assert.equal(result.score, 1);
  assert.equal(result.scoredCalls.length, 1);
  assert.equal(result.traceCalls.length, 2);
  const json = result.toJSON() as { trace: { counts: unknown }; calls: { actual: unknown[] } };
  assert.deepEqual(json.trace.counts, { agent_calls: 1, user_calls: 1 });
  assert.equal((json.calls.actual[1] as { actor?: string }).actor, "user");
  // Without a user call there is no counts block.
  const plain = evaluate(gold, [{ tool: "get_customer_by_phone" }]).toJSON();
  assert.equal(plain.trace, undefined);
});

Deno.test("evaluate() pairs an expected user call only with a user call, never with the agent's", () => {
  const doc = { simulations: [simulation("1", DUAL)] };
  const both = evaluate(
    [{ tool: "get_customer_by_phone" }, { tool: "toggle_airplane_mode", actor: "user" }],
    doc,
  );
  assert.equal(both.score, 1);
  assert.equal(both.scoredCalls.length, 2);
  // The agent making the user's call does not satisfy an expected user call.
  const agentDidIt = evaluate(
    [{ tool: "toggle_airplane_mode", actor: "user" }],
    [{ tool: "toggle_airplane_mode", args: {} }],
  );
  assert.equal(agentDidIt.requiredCallRecall, 0);
  // And a user call does not satisfy an expected agent call.
  const userDidIt = evaluate([{ tool: "toggle_airplane_mode" }], [
    { tool: "toggle_airplane_mode", args: {}, actor: "user" },
  ]);
  assert.equal(userDidIt.requiredCallRecall, 0);
  assert.equal(userDidIt.scoredCalls.length, 0);
});

Deno.test("evaluateContract() scores the user's calls only in a combination that names one", () => {
  const doc = { simulations: [simulation("1", DUAL)] };
  const named = evaluateContract({
    required: [
      { tool: "get_customer_by_phone" },
      { tool: "toggle_airplane_mode", actor: "user" },
    ],
  }, doc);
  assert.equal(named.score, 1);
  const unnamed = evaluateContract({ required: [{ tool: "get_customer_by_phone" }] }, doc);
  assert.equal(unnamed.score, 1);
  assert.equal(unnamed.scoredCalls.length, 1);
  assert.throws(
    () => evaluateContract({ required: [{ tool: "x", actor: "customer" }] }, []),
    /required\[0\]\.actor: must be "user" or "agent"/,
  );
});

Deno.test("callFromJson() and callToJson() carry actor", () => {
  const call = callFromJson({ tool: "reboot_device", actor: "user" });
  assert.equal(call.actor, "user");
  assert.deepEqual(callToJson(call), { tool: "reboot_device", actor: "user" });
  assert.throws(() => callFromJson({ tool: "a", actor: 1 }), /actor: must be "user" or "agent"/);
});

const TAU_RECORD = {
  task_id: 12,
  reward: 0,
  info: { source: "user" },
  trial: 2,
  traj: [
    { role: "system", content: "You are an airline agent." },
    { role: "user", content: "Cancel my booking." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "get_reservation_details", arguments: '{"reservation_id": "X1"}' },
      }],
    },
    { role: "tool", tool_call_id: "c1", name: "get_reservation_details", content: "{}" },
    { role: "assistant", content: "Done." },
  ],
};

Deno.test("a single tau-bench record reads as one trace, under auto and --format tau-bench", () => {
  for (const format of ["auto", "tau-bench"] as const) {
    const traces = tracesFromText(JSON.stringify(TAU_RECORD), "record.json", { format });
    assert.equal(traces.length, 1, format);
    assert.equal(traces[0]?.format, "tau-bench");
    assert.deepEqual(traces[0]?.run, { task: "12", trial: 2 });
    assert.equal(traces[0]?.metadata?.recorded_reward, 0);
    assert.deepEqual(traces[0]?.calls.map((c) => c.tool), ["get_reservation_details"]);
  }
  assert.throws(
    () => traceFromValue({ task_id: 1 }, { format: "tau-bench" }),
    /not a tau-bench file: expected a \{task_id, reward, info, traj\} record or a list of them/,
  );
});

Deno.test("Claude Code messages without a session, a result or a role read, also under --format", () => {
  const messages = [
    { type: "user", parent_tool_use_id: null, message: { content: "list files" } },
    {
      type: "assistant",
      parent_tool_use_id: null,
      message: {
        content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }],
      },
    },
    {
      type: "user",
      parent_tool_use_id: null,
      message: {
        content: [{ type: "tool_result", tool_use_id: "t1", content: "a\nb", is_error: false }],
      },
    },
    {
      type: "assistant",
      parent_tool_use_id: null,
      message: { content: [{ type: "text", text: "Two files." }] },
    },
  ];
  for (const format of ["auto", "claude-code"] as const) {
    const [trace] = tracesFromText(JSON.stringify(messages), "messages.json", { format });
    assert.equal(trace?.format, "claude-code");
    assert.deepEqual(trace?.calls.map((c) => [c.tool, c.isError]), [["Bash", false]]);
    assert.equal(trace?.finalAnswer, "Two files.");
  }
  // Content that is not typed blocks is not a Claude Code message.
  const untyped = [{ type: "assistant", message: { content: [{ text: "hi" }] } }];
  assert.throws(() => traceFromValue(untyped, { format: "claude-code" }), /not a Claude Code/);
});

// Three simulations; the second holds a tool call without a name.
function runFile(): string {
  const bad = [{ role: "assistant", tool_calls: [{ id: "x", arguments: {} }] }];
  return JSON.stringify({
    simulations: [simulation("1", DUAL), simulation("2", bad), simulation("3", DUAL)],
  });
}

Deno.test("tracesFromText() reads the other runs of a run file when one cannot be read", () => {
  const errors: InputError[] = [];
  const traces = tracesFromText(runFile(), "sims.json", { onRunError: (e) => errors.push(e) });
  assert.deepEqual(traces.map((t) => t.run?.task), ["1", "3"]);
  assert.equal(errors.length, 1);
  assert.match(
    errors[0]!.message,
    /^sims\.json: simulations\[1\]\.messages\[0\]\.tool_calls\[0\]: /,
  );
  // Without a handler the bad run is an error, as before.
  assert.throws(() => tracesFromValue(JSON.parse(runFile())), /simulations\[1\]\.messages/);
});

Deno.test("toolscore eval scores the other runs, then exits 2 naming the bad run; --json lists it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-dual-" });
  try {
    await Deno.writeTextFile(`${dir}/sims.json`, runFile());
    await Deno.writeTextFile(
      `${dir}/gold.json`,
      JSON.stringify([{ tool: "get_customer_by_phone" }]),
    );
    const text = await runCollect(["eval", `${dir}/gold.json`, `${dir}/sims.json`]);
    assert.equal(text.code, 2, text.err);
    assert.match(text.out, /sims\.json\[1#0\]/);
    assert.match(text.out, /sims\.json\[3#0\]/);
    assert.match(
      text.err,
      /toolscore: .*sims\.json: simulations\[1\]\.messages\[0\]\.tool_calls\[0\]: tool call has no name/,
    );
    assert.doesNotMatch(text.err, /\n {4}at /, "no stack trace");
    const json = await runCollect(["eval", `${dir}/gold.json`, `${dir}/sims.json`, "--json"]);
    assert.equal(json.code, 2, json.err);
    const doc = JSON.parse(json.out) as { results: unknown[]; input_errors: string[] };
    assert.equal(doc.results.length, 2);
    assert.equal(doc.input_errors.length, 1);
    assert.match(doc.input_errors[0]!, /simulations\[1\]\.messages/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TRACE_FILE_EXTENSIONS lists the extensions the registry's readers claim", () => {
  for (const ext of [".json", ".jsonl", ".sse", ".txt", ".log", ".ndjson", ".vcr"]) {
    assert.ok(TRACE_FILE_EXTENSIONS.includes(ext), ext);
  }
  assert.deepEqual([...TRACE_FILE_EXTENSIONS].sort(), TRACE_FILE_EXTENSIONS);
});

Deno.test("toolscore inspect says how many calls the user made and marks them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-dual-" });
  try {
    await Deno.writeTextFile(
      `${dir}/sims.json`,
      JSON.stringify({ simulations: [simulation("1", DUAL)] }),
    );
    const text = await runCollect(["inspect", `${dir}/sims.json`]);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /2 calls \(1 by the user\): /);
    assert.match(text.out, /actor user/);
    const json = await runCollect(["inspect", `${dir}/sims.json`, "--json"]);
    assert.match(json.out, /"user_call_count": ?1/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const REAL_DUAL = "testdata/formats/real/tau2-bench-restaurant-dual-control.json";

Deno.test("a real τ² results file: the user's calls are read, counted apart and left out of the score", () => {
  const traces = tracesFromText(Deno.readTextFileSync(REAL_DUAL), REAL_DUAL);
  assert.equal(traces.length, 12);
  const delivery = traces.find((t) => t.run?.task === "restaurant_order_delivery_1")!;
  const user = delivery.calls.filter((c) => c.actor === "user");
  assert.deepEqual(user.map((c) => c.tool), [
    "add_item_to_cart",
    "add_item_to_cart",
    "submit_order",
    "add_item_to_cart",
    "add_item_to_cart",
    "add_item_to_cart",
  ]);
  assert.ok(user.every((c) => c.isError === true), "each user call failed (error: true)");
  const gold = [{ tool: "create_customer_profile" }, { tool: "get_menu" }, {
    tool: "create_order",
  }];
  const result = evaluate(gold, delivery);
  assert.equal(result.scoredCalls.length, 4);
  assert.ok(result.scoredCalls.every((c) => c.actor === undefined));
  const json = result.toJSON() as { trace: { counts: unknown } };
  assert.deepEqual(json.trace.counts, { agent_calls: 4, user_calls: 6 });
  // Named in the expected calls, the user's submit_order is scored against the user's calls only.
  const named = evaluate([...gold, { tool: "submit_order", actor: "user" }], delivery);
  assert.equal(named.scoredCalls.length, 10);
  assert.equal(named.requiredCallRecall, 0.75, "submit_order was made but failed");
});

Deno.test("toolscore eval -j 2 reports a bad run found by a worker thread, after the rest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-dual-" });
  try {
    // More than two slices of files, so the run goes to worker threads.
    for (let i = 0; i < 205; i++) {
      await Deno.writeTextFile(
        `${dir}/t${String(i).padStart(3, "0")}.json`,
        JSON.stringify([{ tool: "get_customer_by_phone", args: {} }]),
      );
    }
    await Deno.writeTextFile(`${dir}/u_sims.json`, runFile());
    const gold = `${dir}/../${dir.split("/").at(-1)}-gold.json`;
    await Deno.writeTextFile(gold, JSON.stringify([{ tool: "get_customer_by_phone" }]));
    const run = await runCollect(["eval", gold, dir, "-j", "2", "--json"]);
    await Deno.remove(gold);
    assert.equal(run.code, 2, run.err);
    const doc = JSON.parse(run.out) as { results: unknown[]; input_errors: string[] };
    assert.equal(doc.results.length, 207);
    assert.equal(doc.input_errors.length, 1);
    assert.match(doc.input_errors[0]!, /u_sims\.json: simulations\[1\]\.messages/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("contractFromTrace() keeps a user call the user's, so the contract scores the trace 1", async () => {
  const { contractFromTrace } = await import("../lib/contract/init.ts");
  const trace = traceFromValue({ simulations: [simulation("1", DUAL)] });
  const contract = contractFromTrace(trace) as { required: { tool: string; actor?: string }[] };
  assert.deepEqual(contract.required.map((c) => [c.tool, c.actor]), [
    ["get_customer_by_phone", undefined],
    ["toggle_airplane_mode", "user"],
  ]);
  assert.equal(evaluateContract(contract, trace).score, 1);
});

Deno.test("a τ² results file whose one simulation has no messages list fails that run alone", async () => {
  // The real dual-control file of testdata/formats/real with simulation 4's messages broken (a
  // crashed simulation saved with `messages: null`): the 11 others are read, the fifth is an
  // input error naming its path, and eval exits 2 after scoring the rest.
  const real = JSON.parse(
    await Deno.readTextFile(
      new URL("../testdata/formats/real/tau2-bench-restaurant-dual-control.json", import.meta.url),
    ),
  ) as { simulations: Record<string, unknown>[] };
  real.simulations[4]!.messages = null;
  const errors: InputError[] = [];
  const traces = tracesFromValue(real, { source: "sims.json", onRunError: (e) => errors.push(e) });
  assert.equal(traces.length, 11);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.message, /^sims\.json: simulations\[4\]\.messages: .*got null/);
  assert.throws(() => tracesFromValue(real), /simulations\[4\]\.messages/);
  const dir = await Deno.makeTempDir({ prefix: "toolscore-dual-" });
  try {
    await Deno.writeTextFile(`${dir}/sims.json`, JSON.stringify(real));
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify([{ tool: "get_menu" }]));
    const run = await runCollect(["eval", `${dir}/gold.json`, `${dir}/sims.json`, "--json"]);
    assert.equal(run.code, 2, run.err);
    const doc = JSON.parse(run.out) as { results: unknown[]; input_errors: string[] };
    assert.equal(doc.results.length, 11);
    assert.deepEqual(doc.input_errors.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
