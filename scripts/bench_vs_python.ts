/**
 * toolscore's `evaluate()` against the Python Toolscore's `evaluate()` on the
 * same raw OpenAI chat transcripts (20 calls over 5 tools, half the argument
 * values off), side by side in one run. Target (issue 21): toolscore at least
 * 8× the Python throughput, gold loaded once.
 *
 * This machine is shared and its speed drifts from one second to the next, so
 * the two sides alternate in short slices (250 traces; which side goes first
 * alternates too) against one Python process that stays up, and each figure
 * is a median over slices of the ratio measured within the slice. Beside wall
 * time, CPU time (of the whole process: Deno's own garbage-collector and
 * compiler threads count) shows what the work costs when other processes take
 * turns on the cores.
 *
 * A third side is the floor of any reader of these transcripts: a loop that
 * only `JSON.parse`s each call's `arguments` string and each tool message's
 * content — what toolscore must do before it scores anything. Its ratio to
 * Python is the most that scoring could reach.
 *
 * Outside CI. The Python side is the public repository yotambraun/Toolscore at
 * commit 731743ef652d61c5551001e1a4e068cf1da7596d (version 1.8.1, Apache-2.0),
 * checked out beside the project, with its dependencies (click, rich, jinja2,
 * Levenshtein, PyYAML) from the machine's package index:
 *
 *     python3 -m pip install levenshtein rich click jinja2 pyyaml
 *     deno run --allow-read --allow-write --allow-run --allow-env scripts/bench_vs_python.ts CHECKOUT [TRACES] [ROUNDS]
 *
 * @module
 */

import process from "node:process";
import { evaluate, goldFromJson } from "../mod.ts";
import { benchGold, benchTrace } from "./_bench_traces.ts";

const [checkout, count = "5000", roundsArg = "3"] = Deno.args;
if (!checkout) {
  console.error(
    "usage: bench_vs_python.ts CHECKOUT [TRACES] [ROUNDS]  (CHECKOUT: a Toolscore checkout)",
  );
  Deno.exit(2);
}
const n = Number(count);
const ROUNDS = Number(roundsArg);
const SLICE = 250;
const docs = Array.from({ length: n }, (_, t) => benchTrace("openai", t));
const file = await Deno.makeTempFile({ suffix: ".json" });
await Deno.writeTextFile(file, JSON.stringify({ gold: benchGold(), traces: docs }));
const script = new URL("./bench_vs_python.py", import.meta.url).pathname;

// One Python process for the whole run: a line "START END" in, a line of JSON out.
const child = new Deno.Command("python3", {
  args: [script, checkout, file],
  stdin: "piped",
  stdout: "piped",
}).spawn();
const writer = child.stdin.getWriter();
const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
let buffered = "";
async function readLine(): Promise<string> {
  while (!buffered.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) throw new Error("the Python side stopped (see its error above)");
    buffered += value;
  }
  const at = buffered.indexOf("\n");
  const line = buffered.slice(0, at);
  buffered = buffered.slice(at + 1);
  return line;
}
interface Timing {
  wall: number;
  cpu: number;
  score: number;
}
async function python(start: number, end: number): Promise<Timing> {
  await writer.write(new TextEncoder().encode(`${start} ${end}\n`));
  return JSON.parse(await readLine()) as Timing;
}
await readLine(); // {"ready": n}: loaded and warmed up

const gold = goldFromJson(benchGold());
// Parsed the same way the Python side gets them: from the JSON text.
const parsed = (JSON.parse(await Deno.readTextFile(file)) as { traces: unknown[] }).traces;
function timed(work: () => number): Timing {
  const cpu = process.cpuUsage();
  const begin = performance.now();
  const score = work();
  const wall = (performance.now() - begin) / 1000;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1e6, score };
}
function toolscore(start: number, end: number): Timing {
  return timed(() => {
    let score = 0;
    for (let i = start; i < end; i++) score += evaluate(gold, parsed[i]).score;
    return score;
  });
}
type Message = {
  role?: string;
  content?: unknown;
  tool_calls?: { function: { arguments: string } }[];
};
function parseFloor(start: number, end: number): Timing {
  return timed(() => {
    let sum = 0;
    for (let i = start; i < end; i++) {
      for (const m of (parsed[i] as { messages: Message[] }).messages) {
        for (const c of m.tool_calls ?? []) sum += JSON.parse(c.function.arguments) ? 1 : 0;
        if (m.role === "tool") sum += JSON.parse(m.content as string) ? 1 : 0;
      }
    }
    return sum;
  });
}

toolscore(0, n); // warm up the JIT
parseFloor(0, n);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const x = (v: number) => `${v.toFixed(1)}x`;
const all = { wall: [] as number[], cpu: [] as number[], floor: [] as number[] };
let scores = "";
for (let round = 0; round < ROUNDS; round++) {
  const wall: number[] = [];
  const cpu: number[] = [];
  const floor: number[] = [];
  let deno = 0;
  let py = 0;
  let score = [0, 0];
  for (let start = 0, k = 0; start < n; start += SLICE, k++) {
    const end = Math.min(n, start + SLICE);
    let p: Timing;
    let d: Timing;
    if ((k + round) % 2 === 0) {
      d = toolscore(start, end);
      p = await python(start, end);
    } else {
      p = await python(start, end);
      d = toolscore(start, end);
    }
    const f = parseFloor(start, end);
    wall.push(p.wall / d.wall);
    cpu.push(p.cpu / d.cpu);
    floor.push(p.wall / f.wall);
    deno += d.wall;
    py += p.wall;
    score = [score[0]! + d.score, score[1]! + p.score];
  }
  all.wall.push(...wall);
  all.cpu.push(...cpu);
  all.floor.push(...floor);
  scores = `mean score: toolscore ${(score[0]! / n).toFixed(4)}, Python ${
    (score[1]! / n).toFixed(4)
  }`;
  console.log(
    `round ${round + 1}: toolscore ${Math.round(n / deno)} traces/s, Python ${
      Math.round(n / py)
    } traces/s; per-slice median ${x(median(wall))} wall (slices ${x(Math.min(...wall))}–${
      x(Math.max(...wall))
    }), ${x(median(cpu))} CPU; parse-only floor ${x(median(floor))}`,
  );
}
await writer.close();
await child.status;
await Deno.remove(file);
console.log(
  `median over ${all.wall.length} slices of ${SLICE} OpenAI transcripts: toolscore/Python ` +
    `${x(median(all.wall))} wall, ${x(median(all.cpu))} CPU (target >= 8x); a loop that only ` +
    `JSON.parses the calls' argument and result strings: ${x(median(all.floor))}; ${scores}`,
);
