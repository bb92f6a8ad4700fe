// How `toolscore eval` writes long runs (issue 21): `--json` holds its documents back only up to
// JSON_HOLD_BYTES, then streams, so memory stays bounded; a run that fails before streaming
// prints nothing on stdout, one that fails after it leaves a document that is never closed
// (invalid JSON) and says so on stderr. Control characters from traces come out escaped the
// same on every path: one thread or several, JSON or console, in-process or a real stdout.
import assert from "node:assert/strict";
import { benchGold, benchTrace } from "../scripts/_bench_traces.ts";
import { JSON_HOLD_BYTES } from "../lib/cli/eval.ts";
import { runCollect, runDeno } from "./_cli.ts";

const cli = new URL("../cli.ts", import.meta.url).pathname;

async function benchDir(count: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-stream-" });
  await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(benchGold()));
  await Deno.mkdir(`${dir}/runs`);
  for (let t = 0; t < count; t++) {
    await Deno.writeTextFile(
      `${dir}/runs/run-${String(t).padStart(5, "0")}.json`,
      JSON.stringify(benchTrace("openai", t)),
    );
  }
  return dir;
}

Deno.test("toolscore eval --json streams past its hold-back and marks a run that fails later as incomplete", async () => {
  // Each benchmark transcript's document is about 8 KB: 1,100 of them pass the hold-back.
  const dir = await benchDir(1_100);
  try {
    const whole = await runCollect(["eval", `${dir}/gold.json`, `${dir}/runs`, "--json"]);
    assert.equal(whole.code, 0, whole.err);
    assert.ok(whole.out.length > JSON_HOLD_BYTES, `${whole.out.length} characters`);
    const doc = JSON.parse(whole.out);
    assert.equal(doc.results.length, 1_100);
    assert.equal(doc.summary.count, 1_100);
    assert.equal(whole.err, "");

    // The last file is broken: the documents before it were already written when it is read.
    // Named on its own it stops the run (issue 32: in a folder walk it would be counted unknown
    // and the document closed).
    await Deno.writeTextFile(`${dir}/runs/run-99999.json`, '[{"tool": "search", "args": ');
    const named = [...Deno.readDirSync(`${dir}/runs`)].map((e) => `${dir}/runs/${e.name}`).sort();
    const broken = await runCollect(["eval", `${dir}/gold.json`, ...named, "--json"]);
    assert.equal(broken.code, 2);
    assert.match(broken.err, /run-99999\.json:1:\d+: invalid JSON/);
    assert.match(broken.err, /the --json document on stdout is incomplete/);
    assert.ok(broken.err.trim().split("\n").length <= 2, broken.err);
    assert.ok(broken.out.startsWith(`{"results": [\n`));
    assert.ok(whole.out.startsWith(broken.out.slice(0, JSON_HOLD_BYTES)));
    assert.throws(() => JSON.parse(broken.out), SyntaxError);

    // Under the hold-back, a failing run prints nothing on stdout.
    const few = await Deno.makeTempDir({ prefix: "toolscore-stream-few-" });
    try {
      for (const name of ["run-00000.json", "run-00001.json", "run-99999.json"]) {
        await Deno.copyFile(`${dir}/runs/${name}`, `${few}/${name}`);
      }
      const small = await runCollect([
        "eval",
        `${dir}/gold.json`,
        ...["run-00000.json", "run-00001.json", "run-99999.json"].map((name) => `${few}/${name}`),
        "--json",
      ]);
      assert.equal(small.code, 2);
      assert.equal(small.out, "");
      assert.match(small.err, /run-99999\.json:1:\d+: invalid JSON/);
      assert.doesNotMatch(small.err, /incomplete/);
    } finally {
      await Deno.remove(few, { recursive: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const HOSTILE = "evil\u202e\x1b[2J\x7f\u2066é";

Deno.test("toolscore eval escapes control characters alike on one thread and on workers, JSON and console", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-stream-hostile-" });
  try {
    await Deno.writeTextFile(
      `${dir}/gold.json`,
      JSON.stringify([{ tool: HOSTILE, args: { q: "x" } }, { tool: "plain", args: {} }]),
    );
    await Deno.mkdir(`${dir}/runs`);
    // 250 files (more than two slices, so `-j 2` uses a worker); every fifth one hostile, every
    // 49th a chat without tool calls (a reader's note on stderr).
    const chat = {
      messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "ok" }],
    };
    for (let i = 0; i < 250; i++) {
      const tool = i % 5 === 0 ? HOSTILE : "plain";
      await Deno.writeTextFile(
        `${dir}/runs/r${String(i).padStart(3, "0")}.json`,
        JSON.stringify(
          i % 49 === 1 ? chat : [{ tool, args: { q: i % 5 === 0 ? `\u202ey${i}` : "x" } }],
        ),
      );
    }
    for (const mode of [["--json"], []]) {
      const args = ["eval", `${dir}/gold.json`, `${dir}/runs`, ...mode];
      const outs: string[] = [];
      for (const jobs of ["1", "2"]) {
        const inProcess = await runCollect([...args, "-j", jobs]);
        const real = await runDeno([
          "run",
          "--no-prompt",
          "--allow-read",
          cli,
          ...args,
          "-j",
          jobs,
        ]);
        assert.equal(inProcess.code, 0, inProcess.err);
        assert.equal(real.code, 0, real.err);
        outs.push(inProcess.out, real.out);
      }
      for (const out of outs) assert.equal(out, outs[0]);
      const out = outs[0]!;
      // deno-lint-ignore no-control-regex
      assert.doesNotMatch(out, /[\x1b\x7f\u202e\u2066]/);
      assert.match(out, /evil\\u202e/);
      assert.match(out, /\\u007f/);
      assert.match(out, /é/);
      if (mode.length > 0) assert.equal(JSON.parse(out).results.length, 250);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
