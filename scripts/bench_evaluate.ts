/**
 * Speed figures for the foundation (issue 2), printed, never asserted:
 *
 * - `evaluate()` in-process over 10,000 generated traces of 20 calls
 *   (credential scan and honesty checks included): traces/second;
 * - pairing 500 calls of one tool;
 * - `toolscore eval` over a directory of 10,000 trace files, end to end;
 * - `toolscore --version` start-up time.
 *
 * Run: deno run --allow-read --allow-write --allow-run --allow-env scripts/bench_evaluate.ts
 *
 * @module
 */

import { evaluate } from "../lib/evaluate/evaluate.ts";
import { goldFromJson } from "../lib/evaluate/gold.ts";
import { pairCalls } from "../lib/scoring/pairing.ts";

const TOOLS = ["search", "fetch", "summarize", "write_file", "send_email"];

function makeCall(i: number, jitter: number) {
  return {
    tool: TOOLS[i % TOOLS.length]!,
    args: { query: `item ${i}`, limit: 10 + (i % 3), page: jitter % 2 === 0 ? i : i + 1 },
    result: { ok: true, items: [`result ${i}`] },
    duration_s: 0.01 * (i + 1),
  };
}

const gold = Array.from({ length: 20 }, (_, i) => ({
  tool: TOOLS[i % TOOLS.length]!,
  args: { query: `item ${i}`, limit: 10 + (i % 3), page: i },
}));
const traces = Array.from({ length: 10_000 }, (_, t) => ({
  format: "toolscore",
  calls: Array.from({ length: 20 }, (_, i) => makeCall(i, t + i)),
  final_answer: "Here is the summary you asked for.",
}));

// The gold list as loadGold() returns it (converted and frozen once), and as raw JSON, which
// evaluate() compares with its snapshot on every call to notice edits.
const loaded = goldFromJson(gold);
for (const [label, expected] of [["loaded gold", loaded], ["raw JSON gold", gold]] as const) {
  // Warm up the JIT, then time several rounds: this machine's speed varies between rounds.
  for (let i = 0; i < 2000; i++) evaluate(expected, traces[i]!);
  const rates: number[] = [];
  let sum = 0;
  for (let round = 0; round < 5; round++) {
    const begin = performance.now();
    sum = 0;
    for (const trace of traces) sum += evaluate(expected, trace).score;
    rates.push(traces.length / ((performance.now() - begin) / 1000));
  }
  rates.sort((a, b) => a - b);
  console.log(
    `evaluate() with ${label}: ${traces.length} traces x 20 calls, 5 rounds: median ` +
      `${Math.round(rates[2]!)} traces/s, best ${Math.round(rates[4]!)}, worst ` +
      `${Math.round(rates[0]!)} (mean score ${(sum / traces.length).toFixed(3)})`,
  );
}

const many = Array.from({ length: 500 }, (_, i) => ({ tool: "t", args: { id: i, tag: i % 7 } }));
const shuffled = [...many].reverse().map((c, i) => ({
  ...c,
  args: { ...c.args, tag: (i * 3) % 7 },
}));
const start = performance.now();
const pairs = pairCalls(many, shuffled);
const seconds = (performance.now() - start) / 1000;
console.log(
  `pairCalls(): 500 x 500 calls of one tool in ${seconds.toFixed(3)} s (${pairs.length} pairs)`,
);

const dir = await Deno.makeTempDir({ prefix: "toolscore-bench-" });
try {
  await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(gold));
  await Deno.mkdir(`${dir}/traces`);
  for (let t = 0; t < traces.length; t++) {
    await Deno.writeTextFile(
      `${dir}/traces/run-${String(t).padStart(5, "0")}.json`,
      JSON.stringify(traces[t]),
    );
  }
  const cli = new URL("../cli.ts", import.meta.url).pathname;
  const run = async (args: string[]) => {
    const begin = performance.now();
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", `--allow-read=${dir}`, cli, ...args],
      stdout: "null",
      stderr: "piped",
    }).output();
    const elapsed = (performance.now() - begin) / 1000;
    if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
    return elapsed;
  };
  await run(["--version"]); // warm the module cache
  for (const mode of [[] as string[], ["--json"]]) {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await run(["eval", `${dir}/gold.json`, `${dir}/traces`, ...mode]));
    }
    runs.sort((a, b) => a - b);
    console.log(
      `toolscore eval DIR ${mode.join(" ") || "(console)"}: ${traces.length} files, 3 runs: ` +
        `median ${runs[1]!.toFixed(2)} s = ${Math.round(traces.length / runs[1]!)} traces/s ` +
        `end to end (best ${Math.round(traces.length / runs[0]!)}, worst ` +
        `${Math.round(traces.length / runs[2]!)})`,
    );
  }
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push(await run(["--version"]));
  times.sort((a, b) => a - b);
  console.log(`toolscore --version: median ${(times[2]! * 1000).toFixed(0)} ms over 5 runs`);
} finally {
  await Deno.remove(dir, { recursive: true });
}
