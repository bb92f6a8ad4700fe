// Issue 42, item 2: 300,000 traces through eval (one process and the worker pool), inspect and
// contract init, and a server listing 150,000 tools through doctor. Before, each exited 70 with
// "Maximum call stack size exceeded" (a list spread into a call's arguments). Heavy: each runs in
// its own process, so the memory is not the test runner's.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SERVER = `${ROOT}testdata/hostile/endless_server.ts`;
const COUNT = 300_000;

async function toolscore(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-net=127.0.0.1",
      `${ROOT}cli.ts`,
      ...args,
    ],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

function traceLines(from: number, count: number): string {
  let text = "";
  for (let i = from; i < from + count; i++) text += `{"calls":[{"tool":"a","args":{"i":${i}}}]}\n`;
  return text;
}

const dir = Deno.makeTempDirSync({ prefix: "toolscore_many_" });
const many = `${dir}/many.jsonl`;
Deno.writeTextFileSync(many, traceLines(0, COUNT));
const gold = `${dir}/gold.json`;
Deno.writeTextFileSync(gold, JSON.stringify({ calls: [{ tool: "a" }] }));
addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

Deno.test("eval scores 300,000 traces of one file", async () => {
  const run = await toolscore(["eval", gold, many]);
  assert.equal(run.code, 0, run.err.slice(0, 2000));
  assert.match(run.out, /300000 traces?|300,000/);
});

Deno.test("eval scores 300,000 traces of a folder with the worker pool", async () => {
  const folder = `${dir}/folder`;
  await Deno.mkdir(folder);
  for (let i = 0; i < 3; i++) {
    await Deno.writeTextFile(`${folder}/part${i}.jsonl`, traceLines(i * 100_000, 100_000));
  }
  const run = await toolscore(["eval", gold, folder, "--jobs", "2"]);
  assert.equal(run.code, 0, run.err.slice(0, 2000));
});

Deno.test("inspect lists 300,000 traces", async () => {
  const run = await toolscore(["inspect", many]);
  assert.equal(run.code, 0, run.err.slice(0, 2000));
});

Deno.test("contract init refuses 300,000 traces in one line, exit 2", async () => {
  const run = await toolscore(["contract", "init", many, "-o", `${dir}/contract.json`]);
  assert.equal(run.code, 2, run.err.slice(0, 2000));
  assert.match(run.err, /holds 300000 traces; give one known-good trace/);
});

Deno.test("doctor checks a server listing 150,000 tools", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-net=127.0.0.1", SERVER, "http-tools", "150000"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let text = "";
    while (!/listening \d+/.test(text)) text += (await reader.read()).value ?? "";
    const url = `http://127.0.0.1:${/listening (\d+)/.exec(text)![1]}/mcp`;
    const run = await toolscore(["doctor", "--timeout", "120", "--url", url]);
    assert.equal(run.code, 0, run.out.slice(0, 2000) + run.err.slice(0, 2000));
    assert.match(run.out, /tools-list .*150000|150,000/);
  } finally {
    child.kill("SIGKILL");
    await reader.cancel().catch(() => {});
    await child.status;
  }
});
