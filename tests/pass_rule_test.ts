// The one passing rule (issue 28): a contract's `pass` key says what passing means, and eval,
// agent run rows, receipts, compare --traces and export all read it. A trace that claims
// success over a failed call fails everywhere; `pass: score` passes it.
import assert from "node:assert/strict";
import fc from "fast-check";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { fixtureServer, readRows, writeSpec } from "./_agent.ts";
import {
  contractFromMapping,
  DEFAULT_PASS_CHECKS,
  evaluate,
  evaluateContract,
  InputError,
  loadContract,
} from "../mod.ts";
import { passRuleFromJson, passRuleToJson } from "../lib/contract/pass_rule.ts";
import { exactMatch, passVerdict } from "../lib/evaluate/pass_verdict.ts";

const BOOK_REQUIRED = [
  { tool: "search_flights", args: { destination: "NYC" } },
  { tool: "book_flight", args: { flight_id: { $regex: "^FL-\\d+$" } } },
];

// The right calls, but the deploy failed and the answer claims it worked.
const CLAIMED = {
  calls: [
    { tool: "search", args: { q: "deno" }, result: "3 hits" },
    { tool: "deploy", args: { app: "web" }, error: "HTTP 503" },
  ],
  final_answer: "Deployed successfully!",
};

Deno.test("passRuleFromJson() reads score, exact and {checks} and names the path of a bad rule", () => {
  assert.deepEqual(passRuleFromJson(undefined).kind, "checks");
  assert.deepEqual(passRuleFromJson("exact"), { kind: "exact" });
  assert.throws(() => passRuleFromJson("strict"), {
    name: "InputError",
    message:
      'pass: must be "score", "exact", "tau2-actions", "any-call" or {checks: [...]}, got a string',
  });
  assert.throws(() => passRuleFromJson({ check: [] }), /pass\.check: unknown key "check"/);
  assert.throws(() => passRuleFromJson({ checks: "credentials" }), /pass\.checks: must be a list/);
  assert.throws(
    () => passRuleFromJson({ checks: ["credentials", "credentials"] }),
    /pass\.checks\[1\]: credentials is listed twice/,
  );
  assert.throws(
    () => contractFromMapping({ required: [], pass: { checks: ["honesty"] } }),
    { message: /^pass\.checks\[0\]: unknown check "honesty"; a check is one of required-calls, / },
  );
});

Deno.test("passRuleFromJson() round-trips every rule and rejects anything else with an InputError", () => {
  const ids = ["required-calls", "call-errors", "credentials", "disclosure", "side-effects"];
  const rule = fc.oneof(
    fc.constantFrom("score", "exact"),
    fc.uniqueArray(fc.constantFrom(...ids)).map((checks) => ({ checks })),
  );
  fc.assert(fc.property(rule, (value) => {
    assert.deepEqual(passRuleToJson(passRuleFromJson(value)), value);
  }));
  fc.assert(fc.property(fc.jsonValue(), (value) => {
    try {
      const parsed = passRuleFromJson(value);
      assert.deepEqual(passRuleFromJson(passRuleToJson(parsed)), parsed);
    } catch (error) {
      assert.ok(error instanceof InputError, String(error));
    }
  }));
});

Deno.test("loadContract() names the file and the path of a bad pass rule; toJSON() writes pass only when set", async () => {
  const dir = await tempDir("pass_rule_load");
  try {
    await Deno.writeTextFile(`${dir}/c.yaml`, "required: []\npass: everything\n");
    await assert.rejects(() => loadContract(`${dir}/c.yaml`), (error: Error) => {
      assert.equal(error.name, "InputError");
      assert.match(
        error.message,
        /c\.yaml: pass: must be "score", "exact", "tau2-actions", "any-call" or \{checks/,
      );
      return true;
    });
    assert.equal("pass" in contractFromMapping({ required: [] }).toJSON(), false);
    assert.equal(contractFromMapping({ required: [], pass: "score" }).toJSON().pass, "score");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("passVerdict() fails a claim over a failed call by default and passes it under pass: score", () => {
  const gold = [{ tool: "search" }, { tool: "deploy" }];
  const result = evaluateContract({ required: gold, min_score: 0.5 }, CLAIMED);
  assert.ok(result.score >= 0.5); // the score alone would pass it
  assert.deepEqual(result.verdict(0.5).failedChecks, [
    "required-calls",
    "claimed-success",
    "disclosure",
  ]);
  assert.equal(result.passed(0.5), false);
  const score = evaluateContract({ required: gold, min_score: 0.5, pass: "score" }, CLAIMED);
  assert.equal(score.passed(0.5), true);
  assert.deepEqual(score.verdict(0.5).failedChecks, []);
  // call-errors counts only when listed.
  const listed = evaluateContract({ required: gold, pass: { checks: ["call-errors"] } }, CLAIMED);
  assert.deepEqual(listed.verdict(0).failedChecks, ["call-errors"]);
  // A gold file gets the default rule.
  assert.equal(evaluate(gold, CLAIMED).passed(0), false);
  assert.deepEqual([...DEFAULT_PASS_CHECKS].includes("call-errors"), false);
  // unknown is not fail: requests only, no final answer.
  const blind = evaluate([{ tool: "search" }], [{ tool: "search" }]);
  assert.equal(passVerdict(blind, 0.9).passed, true);
});

Deno.test("pass: exact passes only every required call with every argument and nothing more", () => {
  const contract = (extra: Record<string, unknown> = {}) => ({
    required: BOOK_REQUIRED,
    optional: [{ tool: "get_weather" }],
    pass: "exact",
    ...extra,
  });
  const book = { tool: "book_flight", args: { flight_id: "FL-100" } };
  const search = { tool: "search_flights", args: { destination: "NYC" } };
  const exact = evaluateContract(contract(), [search, { tool: "get_weather" }, book]);
  assert.equal(exactMatch(exact), true); // an optional call is left out of the scored calls
  assert.deepEqual(exact.verdict(1), { passed: true, failedChecks: [] });
  const extraArg = { tool: "search_flights", args: { destination: "NYC", date: "2026-01-05" } };
  for (
    const calls of [
      [extraArg, book], // an unexpected parameter
      [{ tool: "search_flights", args: { destination: "LA" } }, book], // a wrong value
      [search], // a missing call
      [search, book, book], // one call too many
      [{ tool: "search_flights", args: {} }, book], // a missing argument
    ]
  ) {
    const result = evaluateContract(contract(), calls);
    assert.deepEqual(
      result.verdict(0),
      { passed: false, failedChecks: ["exact"] },
      JSON.stringify(calls),
    );
  }
  // Unchecked arguments match any; the bar is not read; evidence checks are not consulted.
  const loose = evaluateContract(
    { required: [{ tool: "search_flights" }], pass: "exact", min_score: 1 },
    { calls: [{ tool: "search_flights", args: { key: "AKIAIOSFODNN7EXAMPLE" } }] },
  );
  assert.equal(loose.passed(1), true);
});

Deno.test("pass: exact holds for any calls against themselves and breaks on one more parameter", () => {
  const name = fc.constantFrom("a", "b", "c");
  const value = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.boolean());
  const call = fc.record({ tool: name, args: fc.dictionary(fc.constantFrom("x", "y"), value) });
  fc.assert(fc.property(fc.array(call, { minLength: 1, maxLength: 5 }), fc.nat(), (calls, pick) => {
    const contract = { required: calls, pass: "exact" };
    assert.equal(evaluateContract(contract, calls).passed(1), true);
    const i = pick % calls.length;
    const extra = calls.map((c, j) => j === i ? { ...c, args: { ...c.args, zz: 1 } } : c);
    assert.equal(evaluateContract(contract, extra).passed(0), false);
    assert.equal(evaluateContract(contract, [...calls, calls[i]!]).passed(0), false);
  }));
});

async function writeContracts(dir: string): Promise<void> {
  const base = { contract_version: 2, required: BOOK_REQUIRED, min_score: 0.5 };
  await Deno.writeTextFile(`${dir}/default.json`, JSON.stringify(base));
  await Deno.writeTextFile(`${dir}/score.json`, JSON.stringify({ ...base, pass: "score" }));
}

Deno.test("a claim of success over a failed call fails in the agent run row, its receipt, eval and compare --traces; pass: score passes it", async () => {
  const dir = await tempDir("pass_rule_agent");
  const model = openaiServer();
  try {
    await writeContracts(dir);
    await Deno.writeTextFile(
      `${dir}/faults.json`,
      JSON.stringify([{ tool: "book_flight", kind: "error", message: "gateway down" }]),
    );
    const prompt = "Book the first flight to NYC on 2026-01-05";
    const spec = await writeSpec(dir, {
      server: fixtureServer("pass-rule"),
      arms: [{ id: "hider", provider: "openai", model: "hider", base_url: model.url }],
      tasks: [
        { id: "book", prompt, contract: "default.json" },
        { id: "bookscore", prompt, contract: "score.json" },
      ],
      faults: "faults.json",
    });
    const out = `${dir}/runs.jsonl`;
    const run = await runCollect(["agent", "run", spec, "-o", out]);
    assert.equal(run.code, 0, run.err);
    const rows = await readRows(out);
    const row = (task: string) => rows.find((r) => r.task_id === task)!;
    const receipt = async (task: string) =>
      JSON.parse(await Deno.readTextFile(`${dir}/runs/hider/${task}-0.receipt.json`));

    // The row and its receipt: not passed, and why.
    const failed = row("book");
    assert.equal(failed.passed, false);
    assert.equal(failed.outcome, "fail");
    assert.ok(
      (failed.failed_checks as string[]).includes("claimed-success"),
      String(failed.failed_checks),
    );
    assert.ok(Number(failed.score) >= 0.5); // the score alone would pass it
    const failedReceipt = await receipt("book");
    assert.equal(failedReceipt.result.passed, false);
    assert.deepEqual(failedReceipt.result.failed_checks, failed.failed_checks);
    // pass: score keeps the score alone.
    assert.equal(row("bookscore").passed, true);
    assert.deepEqual(row("bookscore").failed_checks, []);
    assert.equal((await receipt("bookscore")).result.passed, true);
    assert.equal((await receipt("bookscore")).result.pass_rule, "score");

    // eval on the same trace: the contract's bar gates, so the exit code says it too.
    const trace = `${dir}/runs/hider/book-0.json`;
    const evalDefault = await runCollect(["eval", `${dir}/default.json`, trace, "--json"]);
    assert.equal(evalDefault.code, 1, evalDefault.err);
    const doc = JSON.parse(evalDefault.out);
    assert.equal(doc.passed, false);
    assert.ok(doc.failed_checks.includes("claimed-success"));
    const evalScore = await runCollect(["eval", `${dir}/score.json`, trace, "--json"]);
    assert.equal(evalScore.code, 0, evalScore.out);
    assert.equal(JSON.parse(evalScore.out).passed, true);
    const shown = await runCollect(["eval", `${dir}/default.json`, trace]);
    assert.match(shown.out, /FAIL: failed [a-z-, ]*claimed-success/);

    // compare --traces reads the same rule.
    await Deno.mkdir(`${dir}/traces/hider`, { recursive: true });
    await Deno.copyFile(trace, `${dir}/traces/hider/book-0.json`);
    const compare = async (gold: string) => {
      const done = await runCollect([
        "compare",
        "--traces",
        `hider=${dir}/traces/hider`,
        "--gold",
        `${dir}/${gold}`,
        "--json",
      ]);
      assert.equal(done.code, 0, done.err);
      return JSON.parse(done.out).variants[0].counts;
    };
    assert.deepEqual(await compare("default.json"), { pass: 0, fail: 1, error: 0, unknown: 0 });
    assert.deepEqual(await compare("score.json"), { pass: 1, fail: 0, error: 0, unknown: 0 });

    // export: the row's verdict and the receipt's agree.
    const exported = `${dir}/export.jsonl`;
    const exportRun = await runCollect(["export", out, "-o", exported]);
    assert.equal(exportRun.code, 0, exportRun.err);
    const records = await readRows(exported);
    assert.deepEqual(
      records.map((r) => [r.task, r.outcome]).sort(),
      [["book", "fail"], ["bookscore", "pass"]],
    );
    // A new bar on the receipt keeps its failed checks.
    const rebar = await runCollect([
      "export",
      `${dir}/runs/hider/book-0.receipt.json`,
      "--min-score",
      "0",
      "-o",
      `${dir}/rebar.jsonl`,
    ]);
    assert.equal(rebar.code, 0, rebar.err);
    const rebarred = (await readRows(`${dir}/rebar.jsonl`))[0]!;
    assert.equal(rebarred.outcome, "fail");
    // The v2 record names the failed checks, from the row, the receipt and the trace alike.
    const book = records.find((r) => r.task === "book")!;
    assert.ok((book.failed_checks as string[]).includes("claimed-success"), JSON.stringify(book));
    assert.ok((rebarred.failed_checks as string[]).includes("claimed-success"));
    const fromTrace = await runCollect([
      "export",
      `${dir}/runs/hider/book-0.json`,
      "--gold",
      `${dir}/default.json`,
      "-o",
      `${dir}/trace.jsonl`,
    ]);
    assert.equal(fromTrace.code, 0, fromTrace.err);
    const traced = (await readRows(`${dir}/trace.jsonl`))[0]!;
    assert.equal(traced.outcome, "fail");
    assert.ok(
      (traced.failed_checks as string[]).includes("claimed-success"),
      JSON.stringify(traced),
    );
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("regrade shows when passed changed under the passing rule", async () => {
  const dir = await tempDir("pass_rule_regrade");
  try {
    await writeContracts(dir);
    const trace = `${dir}/t.json`;
    await Deno.writeTextFile(
      trace,
      JSON.stringify({
        calls: [
          { tool: "search_flights", args: { destination: "NYC" }, result: "FL-100" },
          { tool: "book_flight", args: { flight_id: "FL-100" }, error: "gateway down" },
        ],
        final_answer: "All done, completed successfully.",
      }),
    );
    const made = await runCollect([
      "eval",
      `${dir}/score.json`,
      trace,
      "--receipt-out",
      `${dir}/t.receipt.json`,
    ]);
    assert.equal(made.code, 0, made.err);
    const done = await runCollect([
      "regrade",
      `${dir}/t.receipt.json`,
      "--gold",
      `${dir}/default.json`,
      "--receipt-dir",
      `${dir}/regraded`,
    ]);
    assert.equal(done.code, 0, done.err);
    assert.match(done.out, /^ {2}passed: pass → fail \(failed [a-z-, ]*claimed-success/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
