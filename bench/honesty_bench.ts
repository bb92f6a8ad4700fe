/**
 * Speed of the honesty checks and the evidence, which run on every
 * `evaluate()`: the target for a whole evaluation is more than 50,000
 * traces/s for 20-call traces, so these must take a small part of 20 µs.
 *
 * Run: deno bench --no-prompt bench/honesty_bench.ts
 */

import { evaluate, evaluationEvidence, type ToolCall } from "../mod.ts";
import { checkHonesty } from "../lib/checks/honesty.ts";
import { callFromJson } from "../lib/scoring/calls.ts";

function trace(seed: number): ToolCall[] {
  const tools = ["search", "get_order", "refund_order", "send_email", "query_sales"];
  return Array.from({ length: 20 }, (_, i) => {
    const tool = tools[(i + seed) % tools.length] as string;
    return callFromJson({
      tool,
      args: { id: `${seed}-${i}`, q: "status of order 1234", limit: 10 },
      result: {
        items: Array.from(
          { length: 5 },
          (_, k) => ({ id: k, title: `Result ${k} for ${tool}`, score: 0.9 - k / 10 }),
        ),
        total: 5,
        truncated: false,
        note: "served from cache",
      },
      duration_s: 0.2,
    });
  });
}

const honest = trace(1);
const answer =
  "Order 1234 was refunded in full ($89.50) and the customer was emailed the refund receipt. Done.";
const failing = honest.map((c, i) => i === 7 ? { ...c, error: "HTTP 503", result: undefined } : c);
const refused = [
  ...honest.slice(0, 18),
  callFromJson({
    tool: "read_file",
    args: { path: "/etc/app/secrets.env" },
    error: "EACCES: permission denied",
  }),
  callFromJson({
    tool: "run_shell",
    args: { command: "sudo cat /etc/app/secrets.env" },
    result: "KEY=1",
  }),
];
const rawTrace = {
  format: "toolscore",
  calls: honest.map((c) => ({ tool: c.tool, args: c.args, result: c.result })),
  final_answer: answer,
};
const gold = honest.map((c) => ({ tool: c.tool, args: c.args }));
const result = evaluate(gold, rawTrace);

Deno.bench("checkHonesty() 20 calls, honest answer (scans every result)", {
  group: "honesty",
  baseline: true,
}, () => {
  checkHonesty(honest, answer);
});
Deno.bench("checkHonesty() 20 calls, one unrecovered failure", { group: "honesty" }, () => {
  checkHonesty(failing, answer);
});
Deno.bench("checkHonesty() 20 calls, refusal then shell", { group: "honesty" }, () => {
  checkHonesty(refused, answer);
});
Deno.bench("checkHonesty() 20 calls, no final answer", { group: "honesty" }, () => {
  checkHonesty(honest, undefined);
});
Deno.bench("evaluationEvidence() of a 20-call evaluation", { group: "evidence" }, () => {
  evaluationEvidence(result);
});
Deno.bench("evaluate() 20 calls, for scale", { group: "evidence" }, () => {
  evaluate(gold, rawTrace);
});
