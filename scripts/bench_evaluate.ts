/**
 * Speed figures on the traces users really have, printed, never asserted
 * (issue 21). Each figure is printed beside its floor, measured in the same
 * run, because this machine's speed drifts by up to ±50% between minutes:
 *
 * - `evaluate()` in-process (gold loaded once) on 10,000 parsed documents of
 *   each shape of `_bench_traces.ts` — OpenAI chat transcripts, Anthropic
 *   message lists, OTLP exports, toolscore traces — beside a bare walk over
 *   the same documents' calls, and beside a loop that only parses the JSON
 *   strings in them (`parseJsonStrings`: the floor of reading them);
 * - `toolscore eval DIR` end to end over 10,000 and 2,000 files of each shape,
 *   console and `--json`, beside a separate `deno run` that only reads and
 *   `JSON.parse`s the same files (the targets' floor), with the peak memory
 *   (max RSS) of each, and beside a run that also parses every JSON string
 *   inside them (`inner`: what any reader of these transcripts must parse);
 * - pairing 500 × 500 calls of one tool, `toolscore eval` of one trace (start-up)
 *   and `toolscore --version`.
 *
 * Beside each wall-time ratio it prints the CPU-time ratio (user + system,
 * from GNU time): on cores shared with other jobs it moves less than wall
 * time, and it shows what worker threads cost.
 *
 * The comparison with the Python Toolscore is `scripts/bench_vs_python.ts`.
 *
 *     deno run --allow-read --allow-write --allow-run --allow-env scripts/bench_evaluate.ts [--quick]
 *
 * `--quick` runs one shape (openai) and one round, for a smoke test.
 *
 * @module
 */

import { evaluate, goldFromJson } from "../mod.ts";
import { pairCalls } from "../lib/scoring/pairing.ts";
import {
  BENCH_FORMATS,
  type BenchFormat,
  benchGold,
  benchTrace,
  parseJsonStrings,
  walkCalls,
} from "./_bench_traces.ts";

const quick = Deno.args.includes("--quick");
const formats: readonly BenchFormat[] = quick ? ["openai"] : BENCH_FORMATS;
const ROUNDS = quick ? 1 : 5;
const RUNS = quick ? 1 : 3;
const TRACES = 10_000;
const root = new URL("..", import.meta.url).pathname;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

function timeRounds(work: () => void): number[] {
  work(); // warm up the JIT
  return Array.from({ length: ROUNDS }, () => {
    const begin = performance.now();
    work();
    return (performance.now() - begin) / 1000;
  });
}

console.log(
  `# in-process: evaluate() with the gold loaded once, ${fmt(TRACES)} traces of 20 calls`,
);
const gold = goldFromJson(benchGold());
for (const format of formats) {
  const docs = Array.from(
    { length: TRACES },
    (_, t) => JSON.parse(JSON.stringify(benchTrace(format, t))),
  );
  let check = 0;
  const floor = timeRounds(() => {
    for (const doc of docs) check += walkCalls(format, doc);
  });
  let strings = 0;
  const parsing = timeRounds(() => {
    for (const doc of docs) strings += parseJsonStrings(doc);
  });
  let score = 0;
  const scoring = timeRounds(() => {
    score = 0;
    for (const doc of docs) score += evaluate(gold, doc).score;
  });
  const [e, f, p] = [median(scoring), median(floor), median(parsing)];
  console.log(
    `${format.padEnd(9)} evaluate(): median ${fmt(TRACES / e)} traces/s (rounds ` +
      `${scoring.map((s) => fmt(TRACES / s)).join(", ")}); bare walk ${fmt(TRACES / f)}/s, ` +
      `ratio ${(e / f).toFixed(1)}x; parsing the JSON strings only ${fmt(TRACES / p)}/s, ` +
      `ratio ${(e / p).toFixed(2)}x (mean score ${(score / TRACES).toFixed(3)}, check ${
        (check + strings) % 997
      })`,
  );
}

const many = Array.from({ length: 500 }, (_, i) => ({ tool: "t", args: { id: i, tag: i % 7 } }));
const shuffled = [...many].reverse().map((c, i) => ({
  ...c,
  args: { ...c.args, tag: (i * 3) % 7 },
}));
const pairingStart = performance.now();
const pairs = pairCalls(many, shuffled);
console.log(
  `pairCalls(): 500 x 500 calls of one tool in ` +
    `${((performance.now() - pairingStart) / 1000).toFixed(3)} s (${pairs.length} pairs)`,
);

interface Timed {
  seconds: number;
  maxRssMb: number;
  /** User + system CPU seconds: steadier than wall time on shared cores. */
  cpuSeconds: number;
}

/** Run a command with stdout to /dev/null; wall time, max RSS and CPU time (GNU time). */
async function timed(args: string[]): Promise<Timed> {
  const rssFile = await Deno.makeTempFile();
  const begin = performance.now();
  const { code, stderr } = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M %U %S", "-o", rssFile, ...args],
    stdout: "null",
    stderr: "piped",
    cwd: root,
  }).output();
  const seconds = (performance.now() - begin) / 1000;
  const [kilobytes, user, system] = (await Deno.readTextFile(rssFile)).trim().split("\n").at(-1)!
    .split(" ").map(Number) as [number, number, number];
  await Deno.remove(rssFile);
  // eval exits 1 when traces fail the bar, which half-wrong traces do.
  if (code > 1) {
    throw new Error(`${args.join(" ")} exited ${code}: ${new TextDecoder().decode(stderr)}`);
  }
  return { seconds, maxRssMb: kilobytes / 1024, cpuSeconds: user + system };
}

const deno = Deno.execPath();
const dir = await Deno.makeTempDir({ prefix: "toolscore-bench-" });
try {
  await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(benchGold()));
  for (const count of [10_000, 2_000]) {
    console.log(
      `\n# end to end: toolscore eval DIR over ${fmt(count)} files (median of ${RUNS} runs)`,
    );
    for (const format of formats) {
      const traces = `${dir}/${format}-${count}`;
      await Deno.mkdir(traces);
      for (let t = 0; t < count; t++) {
        await Deno.writeTextFile(
          `${traces}/run-${String(t).padStart(5, "0")}.json`,
          JSON.stringify(benchTrace(format, t)),
        );
      }
      const commands: Record<string, string[]> = {
        floor: [deno, "run", "--allow-read", "scripts/_bench_floor.ts", traces],
        inner: [deno, "run", "--allow-read", "scripts/_bench_floor.ts", traces, "--inner"],
        console: [deno, "run", "--allow-read", "cli.ts", "eval", `${dir}/gold.json`, traces],
        json: [deno, "run", "--allow-read", "cli.ts", "eval", `${dir}/gold.json`, traces, "--json"],
      };
      const results: Record<string, Timed[]> = { floor: [], inner: [], console: [], json: [] };
      // Interleaved, so a slow minute hits every command alike.
      for (let run = 0; run < RUNS; run++) {
        for (const [name, args] of Object.entries(commands)) results[name]!.push(await timed(args));
      }
      const wall = (name: string) => median(results[name]!.map((r) => r.seconds));
      const rss = (name: string) => median(results[name]!.map((r) => r.maxRssMb));
      const cpu = (name: string) =>
        (median(results[name]!.map((r) => r.cpuSeconds)) /
          median(results.floor!.map((r) => r.cpuSeconds))).toFixed(2);
      const floor = wall("floor");
      // Beside the target's floor, the floor of reading these transcripts at all: the same
      // read + parse, and a parse of every JSON string inside (arguments, results).
      const inner = wall("inner");
      const of = (name: string) =>
        `${(wall(name) / floor).toFixed(2)}x, ${(wall(name) / inner).toFixed(2)}x inner`;
      console.log(
        `${format.padEnd(9)} read+parse ${floor.toFixed(2)} s (${rss("floor").toFixed(0)} MB); ` +
          `+ inner strings ${inner.toFixed(2)} s = ${(inner / floor).toFixed(2)}x; ` +
          `console ${wall("console").toFixed(2)} s = ${of("console")} ` +
          `(${rss("console").toFixed(0)} MB, ${fmt(count / wall("console"))} traces/s, ` +
          `CPU ${cpu("console")}x); --json ${wall("json").toFixed(2)} s = ` +
          `${of("json")} (${rss("json").toFixed(0)} MB, CPU ${cpu("json")}x)`,
      );
      await Deno.remove(traces, { recursive: true });
    }
  }
  // Start-up: what a one-trace CI gate pays, and what weighs on the 2,000-file figures.
  await Deno.writeTextFile(`${dir}/one.json`, JSON.stringify(benchTrace("openai", 0)));
  const starts: Timed[] = [];
  for (let i = 0; i < 10; i++) {
    starts.push(
      await timed([
        deno,
        "run",
        "--allow-read",
        "cli.ts",
        "eval",
        `${dir}/gold.json`,
        `${dir}/one.json`,
        "--json",
      ]),
    );
  }
  console.log(
    `\ntoolscore eval of one trace: median ${
      (median(starts.map((r) => r.seconds)) * 1000).toFixed(0)
    } ms ` +
      `(CPU ${(median(starts.map((r) => r.cpuSeconds)) * 1000).toFixed(0)} ms) over 10 runs`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}

const versions: number[] = [];
for (let i = 0; i < 10; i++) {
  versions.push((await timed([deno, "run", "--allow-read", "cli.ts", "--version"])).seconds);
}
console.log(
  `\ntoolscore --version: median ${(median(versions) * 1000).toFixed(0)} ms over 10 runs`,
);
