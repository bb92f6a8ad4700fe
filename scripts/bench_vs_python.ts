/**
 * toolscore's `evaluate()` against the Python Toolscore's `evaluate()` on the
 * same raw OpenAI chat transcripts (20 calls over 5 tools, half the argument
 * values off), side by side in one run: the rounds alternate between the two
 * so that this machine's drifting speed hits both alike. Target (issue 21):
 * toolscore at least 8× the Python throughput, gold loaded once.
 *
 * Outside CI. The Python side is the public repository yotambraun/Toolscore at
 * commit 731743ef652d61c5551001e1a4e068cf1da7596d (version 1.8.1, Apache-2.0),
 * checked out beside the project, with its dependencies (click, rich, jinja2,
 * Levenshtein, PyYAML) from the machine's package index:
 *
 *     python3 -m pip install levenshtein rich click jinja2 pyyaml
 *     deno run --allow-read --allow-write --allow-run --allow-env scripts/bench_vs_python.ts CHECKOUT [TRACES]
 *
 * @module
 */

import { evaluate, goldFromJson } from "../mod.ts";
import { benchGold, benchTrace } from "./_bench_traces.ts";

const [checkout, count = "5000"] = Deno.args;
if (!checkout) {
  console.error("usage: bench_vs_python.ts CHECKOUT [TRACES]  (CHECKOUT: a Toolscore checkout)");
  Deno.exit(2);
}
const n = Number(count);
const docs = Array.from({ length: n }, (_, t) => benchTrace("openai", t));
const file = await Deno.makeTempFile({ suffix: ".json" });
await Deno.writeTextFile(file, JSON.stringify({ gold: benchGold(), traces: docs }));
const script = new URL("./bench_vs_python.py", import.meta.url).pathname;

async function pythonRound(): Promise<{ rate: number; score: number }> {
  const { code, stdout, stderr } = await new Deno.Command("python3", {
    args: [script, checkout!, file, "1"],
  })
    .output();
  if (code !== 0) throw new Error(new TextDecoder().decode(stderr));
  const { rates, score } = JSON.parse(new TextDecoder().decode(stdout)) as {
    rates: number[];
    score: number;
  };
  return { rate: rates[0]!, score };
}

const gold = goldFromJson(benchGold());
// Parsed the same way the Python side gets them: from the JSON text.
const parsed = (JSON.parse(await Deno.readTextFile(file)) as { traces: unknown[] }).traces;
function denoRound(): { rate: number; score: number } {
  let score = 0;
  const begin = performance.now();
  for (const doc of parsed) score += evaluate(gold, doc).score;
  return { rate: n / ((performance.now() - begin) / 1000), score: score / n };
}

denoRound(); // warm up
const python: number[] = [];
const deno: number[] = [];
let scores = "";
for (let round = 0; round < 3; round++) {
  const p = await pythonRound();
  const d = denoRound();
  python.push(p.rate);
  deno.push(d.rate);
  scores = `mean score: toolscore ${d.score.toFixed(4)}, Python ${p.score.toFixed(4)}`;
  console.log(
    `round ${round + 1}: toolscore ${Math.round(d.rate)} traces/s, Python ${Math.round(p.rate)} ` +
      `traces/s: ${(d.rate / p.rate).toFixed(1)}x`,
  );
}
await Deno.remove(file);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[1]!;
console.log(
  `median of 3 alternating rounds over ${n} OpenAI transcripts: toolscore ${
    Math.round(median(deno))
  }/s, ` +
    `Python ${Math.round(median(python))}/s, ratio ${
      (median(deno) / median(python)).toFixed(1)
    }x ` +
    `(target >= 8x); ${scores}`,
);
