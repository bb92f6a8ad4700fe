/**
 * Hostile and huge input (issue 20): a corpus generated here (`tests/hostile/corpus.ts`) is fed
 * to every command that reads each kind of input. Each must finish within a generous bound, exit
 * as documented, say in one or two lines which file and where, print no stack trace and no raw
 * control character, and leave no partial or temporary file. Then one test per Fix item, and a
 * property test over random nested JSON and YAML.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import { type Case, type Kind, writeCorpus } from "./hostile/corpus.ts";
import { runCollect, runDeno } from "./_cli.ts";
import { InputError } from "../lib/base/errors.ts";
import { parseDocument } from "../lib/base/load.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { goldFromJson } from "../lib/evaluate/gold.ts";
import { evaluate } from "../lib/evaluate/evaluate.ts";
import { evaluateContract } from "../lib/evaluate/evaluate_contract.ts";
import { matcherFromJson } from "../lib/scoring/matchers.ts";
import { honestyConfigFromJson } from "../lib/checks/honesty_config.ts";
import { taskOfStem } from "../lib/stats/traces.ts";
import { protocolFromJson } from "../lib/stats/protocol.ts";
import { buildReceipt } from "../lib/receipts/build.ts";
import { loadReceipt, writeReceipt } from "../lib/receipts/io.ts";
import { verifyReceipt } from "../lib/receipts/verify.ts";
import { regrade } from "../lib/receipts/regrade.ts";
import { writeTextFileAtomic } from "../lib/base/atomic_write.ts";
import { escapeControl } from "../lib/base/terminal_safe.ts";
import { pairCalls } from "../lib/scoring/pairing.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DEMO = `${ROOT}data/demo`;
const RUNS = `${ROOT}testdata/runs/agent_runs.jsonl`;
const PROTOCOL = `${ROOT}testdata/runs/protocol.yaml`;
/** Raw control characters and bidi overrides: never on the console. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** A generous bound for one command on one corpus file (each takes well under a second). */
const BOUND_MS = 30_000;

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ dir: ROOT, prefix: ".hostile_", suffix: ".tmp" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every command that reads a kind of input, with the other inputs valid. */
function commandsFor(kind: Kind, path: string, dir: string, out: string): string[][] {
  const gold = `${DEMO}/gold.json`;
  const trace = `${DEMO}/good.json`;
  switch (kind) {
    case "gold": {
      const against = path.includes("backtracking") ? `${dir}/backtracking-trace.json` : trace;
      return [
        ["eval", path, against],
        ["regrade", against, "--gold", path, "--receipt-dir", out],
        ["doctor", "--contract", path, "--no-server"],
      ];
    }
    case "trace":
      return [
        ["eval", gold, path],
        ["inspect", path],
        ["contract", "init", path, "-o", `${out}/contract.json`],
        ["export", path, "-o", `${out}/export.jsonl`],
        ["regrade", path, "--gold", gold, "--receipt-dir", out],
      ];
    case "receipt":
      return [["verify", path], ["regrade", path, "--receipt-dir", out]];
    case "runs":
      return [
        ["compare", path],
        ["select", path],
        ["decide", PROTOCOL, path],
        ["export", path, "-o", `${out}/export.jsonl`],
      ];
    case "protocol":
      return [["decide", path, RUNS]];
    case "export":
      return [["validate-export", path]];
    case "spec":
      return [["doctor", "--spec", path, "--no-server"]];
    case "honesty":
      return [["eval", gold, trace, "--honesty", path, "--final-answer", `${"a".repeat(5000)}!`]];
    case "forbidden":
      return [["eval", gold, trace, "--forbidden", path]];
  }
}

/** The exit codes each command documents for input it cannot read. */
function errorCodes(command: string): number[] {
  if (command === "doctor") return [1]; // a spec or contract it cannot read is a failed check
  if (command === "validate-export") return [1, 2];
  return [2];
}

interface Outcome {
  id: string;
  code: number;
  out: string;
  err: string;
  ms: number;
}

/** Run invocations through `tests/hostile/driver.ts` in one process, bounded as a whole. */
async function drive(cases: { id: string; args: string[] }[]): Promise<Map<string, Outcome>> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}tests/hostile/driver.ts`],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(cases.length * BOUND_MS),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(cases)));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const lines = new TextDecoder().decode(stdout).split("\n").filter((l) => l !== "");
  const results = new Map<string, Outcome>();
  let started = "";
  let startedAt = performance.now();
  for (const line of lines) {
    const value = JSON.parse(line);
    if (value.start !== undefined) {
      started = value.start;
      startedAt = performance.now();
    } else results.set(value.id, { ...value, ms: performance.now() - startedAt });
  }
  assert.equal(
    code,
    0,
    `the driver died (exit ${code}) in ${started}: ${new TextDecoder().decode(stderr).slice(-400)}`,
  );
  return results;
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesUnder(path));
    else found.push(path);
  }
  return found;
}

function checkError(c: Case, command: string[], r: Outcome): void {
  const label = `${c.id} ${command.slice(0, 2).join(" ")}: exit ${r.code}\n${r.err}${r.out}`;
  assert.ok(errorCodes(command[0]!).includes(r.code), label);
  const name = c.path.slice(c.path.lastIndexOf("/") + 1);
  if (r.code === 2) {
    const lines = r.err.split("\n").filter((l) => l.trim() !== "");
    assert.ok(lines.length >= 1 && lines.length <= 2, label);
    assert.match(lines[0]!, /^toolscore: /, label);
    assert.ok(lines[0]!.includes(name), `names the file: ${label}`);
    if (c.says) assert.match(lines[0]!, c.says, label);
  } else {
    // doctor: the failed check on stdout names the file; validate-export lists problems.
    assert.ok(r.out.includes(name) || r.err.includes(name), `names the file: ${label}`);
  }
}

Deno.test("every command that reads an input survives the hostile corpus", async () => {
  await withTemp(async (dir) => {
    const corpus = await writeCorpus(dir);
    const runs: { id: string; args: string[]; c: Case; command: string[]; out: string }[] = [];
    for (const c of corpus) {
      for (const [i, command] of commandsFor(c.kind, c.path, dir, "").entries()) {
        const out = `${dir}/out/${runs.length}`;
        await Deno.mkdir(out, { recursive: true });
        const args = commandsFor(c.kind, c.path, dir, out)[i]!;
        runs.push({ id: `${c.id} #${i} ${command[0]}`, args, c, command: args, out });
      }
    }
    const results = await drive(runs.map(({ id, args }) => ({ id, args })));
    for (const run of runs) {
      const r = results.get(run.id)!;
      assert.ok(r !== undefined, `${run.id} did not finish`);
      assert.ok(r.ms < BOUND_MS, `${run.id} took ${r.ms} ms`);
      const text = r.out + r.err;
      assert.doesNotMatch(text, /^\s+at .*:\d+:\d+\)?$/m, `${run.id}: a stack trace\n${text}`);
      assert.doesNotMatch(text, /internal error/, `${run.id}\n${text}`);
      assert.doesNotMatch(text, RAW_CONTROL, `${run.id}: a raw control character`);
      if (run.c.expect === "error") {
        checkError(run.c, run.command, r);
        // Nothing half-written, and an input's fault never names the output file.
        assert.deepEqual(await filesUnder(run.out), [], `${run.id} left files`);
        assert.ok(!r.err.includes(`${run.out}/`), `${run.id} blames its output: ${r.err}`);
      } else {
        assert.ok(r.code !== 2 && r.code !== 70, `${run.id}: exit ${r.code}\n${text}`);
      }
    }
    const temps = (await filesUnder(dir)).filter((p) => p.endsWith(".tmp"));
    assert.deepEqual(temps, []);
    // Escaped, not dropped: the tool name from the trace is still there, readable.
    const escaped = results.get("trace/control-chars #1 inspect")!;
    assert.match(escaped.out, /search\\u001b\]0;pwned\\u0007\\u001b\[2J/);
    assert.match(escaped.out, /\\u202egnp\.exe\\u009b31m/);
  });
});

Deno.test("an input deno may not read is one line naming --allow-read, exit 2", async () => {
  await withTemp(async (dir) => {
    await Deno.copyFile(`${DEMO}/gold.json`, `${dir}/gold.json`);
    const allowed = `--allow-read=${ROOT}cli.ts,${ROOT}lib,${ROOT}data,${ROOT}deno.json,${DEMO}`;
    const run = await runDeno([
      "run",
      "--no-prompt",
      allowed,
      `${ROOT}cli.ts`,
      "eval",
      `${dir}/gold.json`,
      `${DEMO}/good.json`,
    ]);
    assert.equal(run.code, 2, run.err);
    assert.equal(run.err.trim().split("\n").length, 1, run.err);
    assert.match(run.err, /gold\.json: no permission to read it; run deno with --allow-read/);
  });
});

// --- item 1: user patterns run in linear time ----------------------------------------------------

Deno.test("a backtracking $regex, honesty pattern or task pattern finishes in linear time", () => {
  // With RegExp, (a+)+$ took 36 s at 28 characters and doubled with each one more.
  const text = `${"a".repeat(100_000)}!`;
  const gold = goldFromJson([{ tool: "s", args: { q: { $regex: "(a+)+$" } } }]);
  assert.equal(evaluate(gold, [{ tool: "s", args: { q: text } }]).metrics.argument_f1, 0);
  const honesty = honestyConfigFromJson({ success_patterns: ["(a+)+$", "(x+x+)+y"] });
  assert.equal(honesty.successPatterns[0]!.test(text), false);
  const errorText = honestyConfigFromJson({ error_text_patterns: ["^(a|a)+$"] });
  assert.equal(errorText.errorTextPatterns![0]!.test(text), false);
  assert.equal(taskOfStem(text, "^(?<task>(a+)+)$"), text);
  assert.throws(
    () => matcherFromJson({ q: { $regex: "(?<=a)b" } }, "gold.json: required[0].args"),
    /^InputError: gold\.json: required\[0\]\.args\.q: \$regex "\(\?<=a\)b" uses lookbehind/,
  );
});

// --- item 4: huge groups of one tool -------------------------------------------------------------

Deno.test("1,000 × 100,000 calls of one tool are refused up front, naming the tool", async () => {
  const expected = Array.from({ length: 1_000 }, (_, i) => ({ tool: "search", args: { q: i } }));
  const actual = Array.from({ length: 100_000 }, (_, i) => ({ tool: "search", args: { q: i } }));
  const started = performance.now();
  assert.throws(
    () => pairCalls(expected, actual),
    /^InputError: tool search: 1000 expected and 100000 actual calls .* over the 1000000/,
  );
  // Refused before the 10^8-cell matrix is allocated: milliseconds, not seconds.
  assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`);
  // Within the limit, pairing is exact: 1,000 × 1,000 in reverse order pairs each with its twin.
  const twins = pairCalls(expected, [...expected].reverse());
  assert.ok(twins.every((p) => p.actual === 999 - p.expected && p.matchedKeys === 1));
  await withTemp(async (dir) => {
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(expected));
    await Deno.writeTextFile(`${dir}/trace.json`, JSON.stringify(actual));
    const cli = await runCollect(["eval", `${dir}/gold.json`, `${dir}/trace.json`]);
    assert.equal(cli.code, 2);
    assert.match(cli.err, /^toolscore: tool search: 1000 expected and 100000 actual calls/);
    assert.match(cli.err, /score the trace in smaller runs/);
    await Deno.writeTextFile(`${dir}/t.json`, JSON.stringify(actual.slice(0, 1_001)));
    const init = await runCollect(["contract", "init", `${dir}/t.json`, "-o", `${dir}/c.json`]);
    assert.equal(init.code, 0, init.err);
    assert.match(init.err, /note: 1001 calls of search: .* will be refused/);
  });
});

// --- item 6: a receipt built by the library verifies -------------------------------------------

Deno.test("buildReceipt() with absolute or relative paths verifies in memory and once written", async () => {
  await withTemp(async (dir) => {
    await Deno.copyFile(`${DEMO}/gold.json`, `${dir}/gold.json`);
    await Deno.copyFile(`${DEMO}/good.json`, `${dir}/good.json`);
    const result = evaluate(
      goldFromJson(JSON.parse(await Deno.readTextFile(`${dir}/gold.json`))),
      JSON.parse(await Deno.readTextFile(`${dir}/good.json`)),
    );
    const absolute = await buildReceipt(result, {
      inputs: { gold: `${dir}/gold.json`, trace: `${dir}/good.json` },
    });
    assert.deepEqual(await verifyReceipt(absolute), []);
    await Deno.mkdir(`${dir}/receipts`);
    await writeReceipt(`${dir}/receipts/run.receipt.json`, absolute);
    const written = await loadReceipt(`${dir}/receipts/run.receipt.json`);
    assert.equal(written.inputs.trace?.path, "../good.json");
    assert.deepEqual(await verifyReceipt(written, { base: `${dir}/receipts` }), []);
    assert.equal((await regrade(`${dir}/receipts/run.receipt.json`)).scoreDelta, 0);
    const rel = `${dir.slice(ROOT.length)}/good.json`; // relative to the current directory
    const relative = await buildReceipt(result, { inputs: { trace: rel } });
    await writeReceipt(`${dir}/receipts/rel.receipt.json`, relative);
    assert.deepEqual(
      await verifyReceipt(await loadReceipt(`${dir}/receipts/rel.receipt.json`), {
        base: `${dir}/receipts`,
      }),
      [],
    );
  });
});

// --- items 7, 8: temp files and modes ------------------------------------------------------------

const WRITER = `
import { openTempFile } from "${ROOT}lib/base/atomic_write.ts";
const temp = await openTempFile(Deno.args[0]);
await temp.file.write(new TextEncoder().encode("partial"));
console.log(temp.path);
await new Promise(() => {}); // hold it until killed
`;

async function startWriter(
  dir: string,
  target: string,
): Promise<{ child: Deno.ChildProcess; temp: string }> {
  await Deno.writeTextFile(`${dir}/writer.ts`, WRITER);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${dir}/writer.ts`, target],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { child, temp: text.trim() };
}

Deno.test("temp files are named after target and pid, and removed on SIGINT, SIGTERM and when stale", async () => {
  await withTemp(async (dir) => {
    const target = `${dir}/out.json`;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const { child, temp } = await startWriter(dir, target);
      assert.match(temp, new RegExp(`/\\.out\\.json\\.${child.pid}-1\\.toolscore\\.tmp$`));
      assert.ok((await Deno.stat(temp)).isFile);
      child.kill(signal);
      const status = await child.status;
      assert.equal(status.code, signal === "SIGINT" ? 130 : 143);
      await assert.rejects(() => Deno.stat(temp), Deno.errors.NotFound);
      await child.stdout.cancel().catch(() => {});
    }
    // A writer still running keeps its temp file; one killed by SIGKILL leaves it, and the next
    // write to the same target removes it.
    const running = await startWriter(dir, target);
    await writeTextFileAtomic(target, "{}\n");
    assert.ok((await Deno.stat(running.temp)).isFile, "a running writer's temp file was removed");
    running.child.kill("SIGKILL");
    await running.child.status;
    await running.child.stdout.cancel().catch(() => {});
    assert.ok((await Deno.stat(running.temp)).isFile);
    await writeTextFileAtomic(target, "{}\n");
    await assert.rejects(() => Deno.stat(running.temp), Deno.errors.NotFound);
    assert.deepEqual((await filesUnder(dir)).filter((p) => p.endsWith(".tmp")), []);
  });
});

Deno.test("written files get mode 0666 less the umask, not 0600", async () => {
  await withTemp(async (dir) => {
    for (const [umask, mode] of [["022", 0o644], ["002", 0o664]] as const) {
      const out = `${dir}/${umask}`;
      const script =
        `umask ${umask} && "$0" run -A "${ROOT}cli.ts" contract init "${DEMO}/good.json" -o "${out}.contract.json" && ` +
        `"$0" run -A "${ROOT}cli.ts" eval "${DEMO}/gold.json" "${DEMO}/good.json" --receipt-out "${out}.receipt.json" && ` +
        `"$0" run -A "${ROOT}cli.ts" export "${RUNS}" -o "${out}.jsonl"`;
      const run = await new Deno.Command("sh", { args: ["-c", script, Deno.execPath()] }).output();
      assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
      for (
        const file of [
          `${out}.contract.json`,
          `${out}.receipt.json`,
          `${out}.jsonl`,
          `${out}.manifest.json`,
        ]
      ) {
        assert.equal((await Deno.stat(file)).mode! & 0o777, mode, `${file} with umask ${umask}`);
      }
    }
  });
});

// --- item 11: exit codes -------------------------------------------------------------------------

Deno.test("every help lists exit code 70; verify of a non-JSON file exits 2 on stderr", async () => {
  const top = await runCollect(["--help"]);
  assert.match(top.out, /70 internal error — a bug, please report it with TOOLSCORE_DEBUG=1/);
  const names = [...top.out.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]!);
  assert.ok(names.length >= 10, names.join(" "));
  for (const name of names) {
    const help = await runCollect([name, "--help"]);
    assert.match(
      help.out,
      /Exit codes:[^]*70 internal error — a bug, please report it with TOOLSCORE_DEBUG=1/,
      name,
    );
  }
  assert.match(
    (await runCollect(["doctor", "--help"])).out,
    /1 a check failed[^]*a spec or contract that cannot be read\s+or parsed\s+is a failed check/,
  );
  await withTemp(async (dir) => {
    await Deno.writeTextFile(`${dir}/x.receipt.json`, "not json at all");
    const verify = await runCollect(["verify", `${dir}/x.receipt.json`]);
    assert.equal(verify.code, 2);
    assert.equal(verify.out, "");
    assert.match(verify.err, /^toolscore: .*x\.receipt\.json:1:1: invalid JSON/);
  });
});

Deno.test("an internal error says exit 70's hint in its second line, and that TOOLSCORE_DEBUG is unreadable", async () => {
  await withTemp(async (dir) => {
    // A real internal error: the output stream itself fails with a non-toolscore error.
    await Deno.writeTextFile(
      `${dir}/bug.ts`,
      `import { runCli } from "${ROOT}lib/cli/run.ts";
const code = await runCli(["--version"], {
  stdout: () => { throw new TypeError("boom"); },
  stderr: (t) => void Deno.stderr.writeSync(new TextEncoder().encode(t)),
  color: false, progress: false, stdin: () => Promise.resolve(""),
});
Deno.exit(code);
`,
    );
    for (
      const [flags, hint] of [
        [
          ["--allow-read"],
          /deno may not read TOOLSCORE_DEBUG here: add --allow-env=TOOLSCORE_DEBUG/,
        ],
        [
          ["--allow-read", "--allow-env=TOOLSCORE_DEBUG"],
          /a bug, please report it with TOOLSCORE_DEBUG=1/,
        ],
      ] as const
    ) {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", ...flags, `${dir}/bug.ts`],
        env: { NO_COLOR: "1", TOOLSCORE_DEBUG: "0" },
      }).output();
      const err = new TextDecoder().decode(output.stderr).trim().split("\n");
      assert.equal(output.code, 70);
      assert.equal(err.length, 2, err.join("\n"));
      assert.equal(err[0], "toolscore: internal error: TypeError: boom");
      assert.match(err[1]!, hint);
    }
  });
});

// --- item 12: one overwrite rule -----------------------------------------------------------------

Deno.test("no command replaces an input, and a non-toolscore file only with --force", async () => {
  await withTemp(async (dir) => {
    await Deno.copyFile(`${DEMO}/good.json`, `${dir}/good.json`);
    const gold = `${DEMO}/gold.json`;
    await Deno.writeTextFile(`${dir}/notes.json`, "mine\n");
    const receipt = await runCollect([
      "eval",
      gold,
      `${dir}/good.json`,
      "--receipt-out",
      `${dir}/notes.json`,
    ]);
    assert.equal(receipt.code, 2);
    assert.match(receipt.err, /notes\.json exists and is not a toolscore receipt/);
    assert.equal(await Deno.readTextFile(`${dir}/notes.json`), "mine\n");
    // Its own earlier receipt is replaced.
    assert.equal((await runCollect(["eval", gold, `${dir}/good.json`, "--receipt"])).code, 0);
    assert.equal((await runCollect(["eval", gold, `${dir}/good.json`, "--receipt"])).code, 0);
    // regrade: the same rule for its receipts.
    await Deno.writeTextFile(`${dir}/good.regraded.receipt.json`, "mine\n");
    const regraded = await runCollect(["regrade", `${dir}/good.receipt.json`]);
    assert.equal(regraded.code, 2);
    assert.equal(await Deno.readTextFile(`${dir}/good.regraded.receipt.json`), "mine\n");
    // Reports: an earlier toolscore report is replaced, another file is not, an input never.
    const report = `${dir}/report.md`;
    assert.equal(
      (await runCollect(["eval", gold, `${dir}/good.json`, "--markdown", report])).code,
      0,
    );
    assert.equal(
      (await runCollect(["eval", gold, `${dir}/good.json`, "--markdown", report])).code,
      0,
    );
    const notOurs = await runCollect([
      "eval",
      gold,
      `${dir}/good.json`,
      "--html",
      `${dir}/notes.json`,
    ]);
    assert.equal(notOurs.code, 2);
    assert.match(notOurs.err, /notes\.json exists and is not a toolscore report/);
    const input = await runCollect([
      "eval",
      gold,
      `${dir}/good.json`,
      "--junit",
      `${dir}/good.json`,
    ]);
    assert.equal(input.code, 2);
    assert.match(input.err, /is an input of this run/);
    // contract init: never its own input, even with --force.
    const own = await runCollect([
      "contract",
      "init",
      `${dir}/good.json`,
      "-o",
      `${dir}/good.json`,
      "--force",
    ]);
    assert.equal(own.code, 2);
    assert.match(own.err, /is an input of this run; toolscore never replaces an input/);
    assert.equal(
      await Deno.readTextFile(`${dir}/good.json`),
      await Deno.readTextFile(`${DEMO}/good.json`),
    );
  });
});

// --- item 13: library defaults -------------------------------------------------------------------

Deno.test("the pass bar is the given one, else the contract's, else 0.9, in every library function", async () => {
  const contract = {
    contract_version: 2,
    required: [{ tool: "a", args: { x: 1 } }],
    min_score: 0.5,
  };
  const result = evaluateContract(contract, [{ tool: "a", args: { x: 2 } }]);
  assert.ok(result.score >= 0.5 && result.score < 0.9);
  assert.equal((await buildReceipt(result)).result.min_score, 0.5);
  assert.equal((await buildReceipt(result)).result.passed, true);
  assert.equal((await buildReceipt(result, { minScore: 0.95 })).result.min_score, 0.95);
  assert.equal(
    (await buildReceipt(evaluate([{ tool: "a" }], [{ tool: "a" }]))).result.min_score,
    0.9,
  );
  // A protocol without protocol_version is version 1.
  const protocol = protocolFromJson({
    baseline: "a",
    candidate: "b",
    rules: [{ id: "r", metric: "pass_rate", expect: "candidate_better" }],
  });
  assert.equal(protocol.protocol_version, 1);
  assert.throws(
    () => protocolFromJson({ ...protocol, protocol_version: 2 }),
    /protocol_version: expected 1/,
  );
  assert.equal(taskOfStem("refund-3", "^(?P<task>[a-z]+)"), "refund");
});

// --- item 14: the README runs as written ---------------------------------------------------------

Deno.test("README: every CLI quick-start line runs as written; loadGold is awaited; 70 is listed", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  assert.match(readme, /await loadGold\(path\)/);
  assert.match(
    readme,
    /\| +70 \| internal error — a bug, please report it with `TOOLSCORE_DEBUG=1`/,
  );
  const block = /## CLI quick start\n\n```sh\n([^]*?)```/.exec(readme)![1]!;
  const lines = block.split("\n").filter((l) => l.startsWith("toolscore "));
  assert.ok(lines.length >= 4);
  for (const line of lines) {
    const args = line.replace(/\s+#.*$/, "").split(/\s+/).slice(1);
    for (const arg of args) {
      if (arg.startsWith("data/")) assert.ok((await Deno.stat(`${ROOT}${arg}`)).isFile, arg);
    }
    const run = await runCollect(args);
    assert.ok(run.code === 0 || run.code === 1, `${line}: exit ${run.code}\n${run.err}`);
  }
});

// --- the property test ---------------------------------------------------------------------------

/** JSON text with deep nesting, huge numbers, control characters and duplicate keys. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("1e400", "-1e400", "1e308", "0", "-0.0", "true", "null"),
    fc.string({ unit: fc.integer({ min: 0, max: 0x2070 }).map((c) => String.fromCharCode(c)) }).map(
      (s) => JSON.stringify(s),
    ),
    fc.tuple(fc.integer({ min: 1, max: 3000 }), tie("value")).map(([n, v]) =>
      "[".repeat(n) + v + "]".repeat(n)
    ),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc.array(
      fc.tuple(fc.constantFrom("tool", "args", "x", "$regex", "calls", "required"), tie("value")),
      { maxLength: 4 },
    )
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
  ),
})).value;

/** YAML text with anchors and aliases that may expand a lot, deep flow nesting and huge numbers. */
const yamlText: fc.Arbitrary<string> = fc.tuple(
  fc.integer({ min: 1, max: 12 }),
  fc.integer({ min: 1, max: 12 }),
  fc.integer({ min: 0, max: 2000 }),
  fc.constantFrom("1e400", "x", "\x1b[2J", ".inf", "~"),
).map(([levels, width, depth, leaf]) => {
  const lines = [
    `- tool: a`,
    `  args:`,
    `    l0: &l0 ${"[".repeat(depth)}${JSON.stringify(leaf)}${"]".repeat(depth)}`,
  ];
  for (let i = 1; i < levels; i++) {
    lines.push(`    l${i}: &l${i} [${Array(width).fill(`*l${i - 1}`).join(", ")}]`);
  }
  return lines.join("\n") + "\n";
});

function readsOrRefuses(text: string, name: string): void {
  const started = performance.now();
  for (
    const step of [
      () => parseDocument(text, name, { uniqueKeys: true }),
      () => tracesFromText(text, name),
      () => evaluate(goldFromJson(parseDocument(text, name)), tracesFromText(text, name)[0]!),
    ]
  ) {
    try {
      step();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
    }
  }
  assert.ok(
    performance.now() - started < 5_000,
    `${performance.now() - started} ms for ${text.slice(0, 80)}`,
  );
}

Deno.test("parsing random nested JSON and YAML gives a result or an InputError, within a bound", () => {
  fc.assert(fc.property(jsonText, (text) => readsOrRefuses(text, "x.json")), { numRuns: 150 });
  fc.assert(fc.property(yamlText, (text) => readsOrRefuses(text, "x.yaml")), { numRuns: 150 });
});

Deno.test("escapeControl() leaves no raw control character and keeps everything else", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.integer({ min: 0, max: 0x2100 }).map((c) => String.fromCharCode(c)) }),
      (text) => {
        const shown = escapeControl(text);
        assert.doesNotMatch(shown, RAW_CONTROL);
        // Unescaping the \uXXXX forms gives the text back (a backslash-u in the text is left as is).
        const back = shown.replace(/\\u([0-9a-f]{4})/g, (m, hex: string) => {
          const ch = String.fromCharCode(parseInt(hex, 16));
          return RAW_CONTROL.test(ch) ? ch : m;
        });
        if (!text.includes("\\u")) assert.equal(back, text);
      },
    ),
    { numRuns: 1000 },
  );
});
