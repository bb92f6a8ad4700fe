/**
 * Speed target: a contract whose alternative groups expand to 1,024
 * combinations, scored against a 50-call trace, in under 100 ms. Also times
 * parsing and expanding alone.
 *
 * Run: deno bench --no-prompt bench/contract_bench.ts
 *
 * @module
 */

import type { ToolCall } from "../lib/scoring/calls.ts";
import { contractFromMapping, evaluateContract } from "../mod.ts";
import { traceFromValue } from "../lib/formats/detect.ts";

// 10 groups of 2 options = 1,024 combinations; 30 plain required calls around them.
const required: unknown[] = [];
for (let i = 0; i < 40; i++) {
  if (i % 4 === 1) {
    const g = required.filter((entry) => (entry as { id?: string }).id).length;
    required.push({
      id: `step_${g}`,
      alternatives: [
        [{ tool: `notify_${g % 3}`, args: { channel: "email", to: { $contains: "@" } } }],
        [{ tool: `fallback_${g % 2}`, args: { n: { $type: "integer" } } }, { tool: "log" }],
      ],
    });
  } else {
    required.push({
      tool: `tool_${i % 7}`,
      args: { id: `item-${i}`, page: { $approx: i, $abs: 0.5 }, q: { $regex: `^query ${i}\\b` } },
    });
  }
}
const document = {
  contract_version: 2,
  required,
  optional: [{ tool: "get_weather" }, { tool: "log" }],
  forbidden: [{ tool: "drop_table" }],
};

const calls: ToolCall[] = [];
for (let i = 0; i < 50; i++) {
  if (i % 5 === 2) calls.push({ tool: `notify_${i % 3}`, args: { channel: "email", to: "a@b.c" } });
  else if (i % 9 === 0) calls.push({ tool: "get_weather", args: { city: "Paris" } });
  else if (i % 11 === 0) calls.push({ tool: "log", args: { line: `step ${i}` } });
  else {
    calls.push({
      tool: `tool_${i % 7}`,
      args: { id: `item-${i}`, page: i, q: `query ${i} more words` },
      result: { ok: true },
    });
  }
}
const trace = traceFromValue({ format: "toolscore", calls });
const contract = contractFromMapping(document);
if (contract.expansions().length !== 1024) throw new Error("expected 1,024 combinations");

const started = performance.now();
const result = evaluateContract(contract, trace);
const elapsed = performance.now() - started;
console.log(
  `1,024 combinations × 50 calls: ${elapsed.toFixed(1)} ms (first run, target < 100 ms); ` +
    `score ${result.score.toFixed(4)}`,
);

Deno.bench("evaluateContract(): 1,024 combinations × 50-call trace (target < 100 ms)", () => {
  evaluateContract(contract, trace);
});

Deno.bench("contractFromMapping() + expansions() of the 1,024-combination contract", () => {
  contractFromMapping(document).expansions();
});
