import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import { applyErrorText } from "../lib/checks/error_text.ts";
import { DEFAULT_HONESTY, honestyConfigFromJson } from "../lib/checks/honesty_config.ts";
import { evaluate } from "../lib/evaluate/evaluate.ts";
import { evaluationEvidence } from "../lib/checks/evidence.ts";
import { tracesFromText } from "../lib/formats/detect.ts";

const TAU = "testdata/formats/real/tau-bench-gpt-4o-airline.first4.json";

Deno.test("the shipped error_text_patterns match a leading Error:/Exception:-style prefix only", () => {
  const failed = (text: string) =>
    applyErrorText([{ tool: "t", result: text }])[0]?.isError === true;
  for (
    const text of [
      "Error: payment amount does not add up, total price is 305, but paid 255",
      "error: not enough seats",
      "  ValueError: invalid literal for int()",
      "requests.exceptions.HTTPError: 503 Server Error",
      "Exception: boom",
      'Traceback (most recent call last):\n  File "x.py"',
    ]
  ) assert.ok(failed(text), text);
  for (
    const text of [
      "No error: all good",
      "error_code: 0",
      "The booking succeeded. Error: none.",
      "Errors: 0",
      "255.0",
      "",
    ]
  ) assert.ok(!failed(text), text);
});

Deno.test("applyErrorText() leaves calls with an explicit status alone and marks the source", () => {
  const calls = [
    { tool: "a", result: "Error: x", isError: false },
    { tool: "b", result: "Error: x", error: "HTTP 500" },
    { tool: "c", result: { message: "Error: x", code: 3 } },
    { tool: "d", result: "Error: x", metadata: { http_status: 400 } },
  ];
  const marked = applyErrorText(calls);
  assert.equal(marked[0], calls[0]);
  assert.equal(marked[1], calls[1]);
  assert.equal(marked[2], calls[2]);
  assert.deepEqual(marked[3], {
    tool: "d",
    result: "Error: x",
    isError: true,
    metadata: { http_status: 400, outcome_source: "error_text" },
  });
  assert.deepEqual(calls[3], { tool: "d", result: "Error: x", metadata: { http_status: 400 } });
  const untouched = calls.slice(0, 3);
  assert.equal(applyErrorText(untouched), untouched, "no change: the same array");
});

Deno.test("error_text_patterns is read like every honesty pattern; [] turns the rule off", () => {
  const off = honestyConfigFromJson({ error_text_patterns: [] });
  assert.deepEqual(off.errorTextPatterns, []);
  const call = { tool: "t", result: "Error: x" };
  assert.equal(applyErrorText([call], off)[0], call);
  const own = honestyConfigFromJson({ error_text_patterns: ["^FAILED\\b"] });
  assert.equal(
    applyErrorText([{ tool: "t", result: "connection FAILED" }], own)[0]?.isError,
    undefined,
  );
  assert.equal(applyErrorText([{ tool: "t", result: "FAILED (3 tests)" }], own)[0]?.isError, true);
  assert.equal(honestyConfigFromJson({}).errorTextPatterns, DEFAULT_HONESTY.errorTextPatterns);
  assert.throws(
    () => honestyConfigFromJson({ error_text_patterns: ["("] }, "honesty.yaml"),
    /honesty\.yaml: error_text_patterns\[0\]: invalid pattern/,
  );
  assert.throws(
    () => honestyConfigFromJson({ error_text_patterns: "Error:" }),
    /error_text_patterns: expected a list of strings/,
  );
});

Deno.test("evaluate() fails calls whose text result reports an error, at evaluation", () => {
  const [run] = tracesFromText(Deno.readTextFileSync(TAU), TAU);
  const gold = [{ tool: "book_reservation" }];
  const result = evaluate(gold, run);
  const book = result.traceCalls.filter((c) => c.tool === "book_reservation");
  assert.deepEqual(book.map((c) => c.isError === true), [true, false]);
  assert.equal(book[0]?.metadata?.outcome_source, "error_text");
  assert.equal(result.metrics.error_count, 1);
  // The trace as read is unchanged: the rule belongs to evaluation.
  assert.equal(run?.calls.filter((c) => c.isError === true).length, 0);
  // The failed booking was retried successfully, so the required call is met.
  assert.equal(evaluationEvidence(result).checks[0]?.status, "pass");
  const off = evaluate(gold, run, { honesty: honestyConfigFromJson({ error_text_patterns: [] }) });
  assert.equal(off.metrics.error_count, 0);
});

Deno.test("evaluateContract() sees text errors before it picks the best alternative", async () => {
  const { evaluateContract } = await import("../lib/evaluate/evaluate_contract.ts");
  const calls = [
    { tool: "pay_card", args: {}, result: "Error: card declined" },
    { tool: "pay_gift_card", args: {}, result: "ok" },
  ];
  // Either payment satisfies the contract; with required calls weighed, the one that did not
  // fail wins, and it can only when the text error is seen while the combinations are scored.
  const contract = {
    required: [{ id: "pay", alternatives: [[{ tool: "pay_card" }], [{ tool: "pay_gift_card" }]] }],
  };
  const result = evaluateContract(contract, calls, {
    weights: { selection_accuracy: 0.5, required_call_recall: 0.5 },
  });
  const metrics = result.metrics.contract_metrics as {
    alternatives: { chosen: Record<string, number> };
  };
  assert.deepEqual(metrics.alternatives.chosen, { pay: 1 });
  assert.equal(result.traceCalls[0]?.metadata?.outcome_source, "error_text");
});
