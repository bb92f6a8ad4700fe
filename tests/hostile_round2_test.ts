// Hostile input, round 2 (issue 42, part B): folder walks over links, FIFOs and devices; terminal
// codes from data; own-property config lookups; contract init of `$`-keys; redaction in every field.
import assert from "node:assert/strict";
import { scanTraceFolder, walkTracePaths } from "../lib/formats/trace_folder.ts";
import { runCollect } from "./_cli.ts";
import { runCli } from "../lib/cli/run.ts";
import { honestyConfigFromJson } from "../lib/checks/honesty_config.ts";
import { matcherFromJson } from "../lib/scoring/matcher_json.ts";
import { InputError } from "../lib/base/errors.ts";
import { redactText } from "../lib/checks/security.ts";
import { allTokens, markdownItGitHub } from "./_markdown.ts";
import fc from "fast-check";
import { contractFromTrace } from "../lib/contract/init.ts";
import { contractFromMapping, evaluateContract } from "../mod.ts";
import { traceFromValue } from "../lib/formats/detect.ts";
import { tempDir } from "./_mcp.ts";
import { PLANTED, R } from "./_planted_secrets.ts";
import { numberFromText, parseJsonLossless } from "../lib/base/lossless_json.ts";

const GOLD = [{ tool: "search", args: { q: "x" } }];
const GOOD = [{ tool: "search", args: { q: "x" } }];
const BAD = [{ tool: "delete", args: { q: "x" } }];

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(made.code, 0, "mkfifo");
}

Deno.test("scanTraceFolder() follows links to files and names FIFOs, dangling links, loops and second names", async () => {
  const dir = await tempDir("hostile2_scan");
  const outside = await tempDir("hostile2_outside");
  try {
    await Deno.writeTextFile(`${dir}/a.json`, "[]");
    await Deno.writeTextFile(`${outside}/bad.json`, "[]");
    await Deno.symlink(`${outside}/bad.json`, `${dir}/b.json`);
    await Deno.symlink(`${dir}/a.json`, `${dir}/c.json`); // a second name of a.json
    await Deno.symlink(`${dir}/nowhere.json`, `${dir}/d.json`);
    await Deno.symlink(`${dir}/f.json`, `${dir}/e.json`); // e -> f -> e
    await Deno.symlink(`${dir}/e.json`, `${dir}/f.json`);
    await mkfifo(`${dir}/g.jsonl`);
    await Deno.symlink("/dev/null", `${dir}/h.json`);
    await Deno.symlink(outside, `${dir}/linked.json`); // a directory: not walked, not named
    const scan = scanTraceFolder(dir);
    assert.deepEqual(scan.names, ["a.json", "b.json"]);
    assert.deepEqual(scan.skipped, [
      { path: "c.json", reason: "same file as a.json" },
      { path: "d.json", reason: "dangling link" },
      { path: "e.json", reason: "link loop" },
      { path: "f.json", reason: "link loop" },
      { path: "g.jsonl", reason: "FIFO" },
      { path: "h.json", reason: "device" },
    ]);
    const walk = walkTracePaths([dir]);
    assert.deepEqual(walk.files, [`${dir}/a.json`, `${dir}/b.json`]);
    assert.equal(walk.skipped.length, 6);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("toolscore eval scores a linked failing trace and names a FIFO in one note", async () => {
  const dir = await tempDir("hostile2_eval_links");
  const outside = await tempDir("hostile2_eval_outside");
  try {
    await Deno.writeTextFile(`${outside}/gold.json`, JSON.stringify(GOLD));
    await Deno.mkdir(`${dir}/runs`);
    await Deno.writeTextFile(`${dir}/runs/good.json`, JSON.stringify(GOOD));
    await Deno.writeTextFile(`${outside}/bad.json`, JSON.stringify(BAD));
    await Deno.symlink(`${outside}/bad.json`, `${dir}/runs/linked.json`);
    await mkfifo(`${dir}/runs/pipe.json`);
    const run = await runCollect([
      "eval",
      `${outside}/gold.json`,
      `${dir}/runs`,
      "--json",
      "--min-score",
      "0.9",
    ]);
    assert.equal(run.code, 1, run.err);
    assert.match(run.out, /linked\.json/);
    assert.match(run.out, /good\.json/);
    const notes = run.err.split("\n").filter((line) => line.includes("not a regular file"));
    assert.equal(notes.length, 1, run.err);
    assert.match(notes[0] ?? "", /runs\/pipe\.json \(FIFO\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("toolscore verify and regrade refuse a receipt input that became a FIFO, without waiting on it", async () => {
  const dir = await tempDir("hostile2_receipt_fifo");
  try {
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(GOLD));
    await Deno.writeTextFile(`${dir}/run.json`, JSON.stringify(GOOD));
    const receipt = `${dir}/run.receipt.json`;
    const made = await runCollect([
      "eval",
      `${dir}/gold.json`,
      `${dir}/run.json`,
      "--receipt-out",
      receipt,
    ]);
    assert.equal(made.code, 0, made.err);
    await Deno.remove(`${dir}/run.json`);
    await mkfifo(`${dir}/run.json`);
    // In a child process with a deadline: before the check, opening the FIFO blocked forever.
    for (const command of [["verify", receipt], ["regrade", receipt, "--no-verify"]]) {
      const child = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", new URL("../cli.ts", import.meta.url).pathname, ...command],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(20_000),
      }).output();
      const err = new TextDecoder().decode(child.stdout) + new TextDecoder().decode(child.stderr);
      assert.notEqual(child.signal, "SIGTERM", `${command[0]} waited on the FIFO`);
      assert.notEqual(child.code, 0, err);
      assert.match(err, /a FIFO, not a regular file/, err);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Run the CLI in-process on a colour terminal with a progress line. */
async function runOnTerminal(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(args, {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    color: true,
    progress: true,
    stdin: () => Promise.resolve(""),
  });
  return { code, out, err };
}

// Every raw control character left in console text, but newline and tab.
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

Deno.test("toolscore shows terminal codes from file names and tool names escaped, its own colours kept", async () => {
  const dir = await tempDir("hostile2_terminal");
  try {
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(GOLD));
    const evil = "\r\x1b[2K\x1b[32mok: all traces passed";
    // An error line naming a file: nothing of the name may move the cursor, erase or colour.
    const missing = await runOnTerminal(["eval", `${dir}/gold.json`, `${dir}/${evil}.json`]);
    assert.equal(missing.code, 2);
    assert.equal(missing.err.match(RAW_CONTROL), null, JSON.stringify(missing.err));
    assert.match(missing.err, /^toolscore: .*\\u000d\\u001b\[2K\\u001b\[32mok: all traces passed/);
    // A tool name with SGR codes, in eval's console report and in inspect.
    const tool = "\x1b[32mapproved\x1b[39m\r\x1b[2K";
    await Deno.writeTextFile(`${dir}/run.json`, JSON.stringify([{ tool, args: { q: "x" } }]));
    for (
      const args of [["eval", `${dir}/gold.json`, `${dir}/run.json`], [
        "inspect",
        `${dir}/run.json`,
      ]]
    ) {
      const shown = await runOnTerminal(args);
      // deno-lint-ignore no-control-regex
      const own = (shown.out + shown.err).replace(/\x1b\[(?:0|1|2|22|31|32|33|39)m/g, "");
      assert.match(shown.out, /\\u001b\[32mapproved\\u001b\[39m\\u000d\\u001b\[2K/, args[0]);
      // What is left raw is only our own colour codes around our own text.
      assert.equal(own.match(RAW_CONTROL), null, `${args[0]}: ${JSON.stringify(own)}`);
      assert.ok(shown.out.includes("\x1b["), `${args[0]} still colours its own text`);
      assert.ok(!(shown.out + shown.err).includes("\x1b[32mapproved"), args[0]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("honestyConfigFromJson() calls constructor, toString, hasOwnProperty and valueOf unknown keys", () => {
  for (const key of ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"]) {
    const value = JSON.parse(`{"${key}": ["x"]}`);
    assert.throws(
      () => honestyConfigFromJson(value, "honesty.json"),
      (error: Error) => error instanceof InputError && /unknown key/.test(error.message),
      key,
    );
  }
});

Deno.test("matcherFromJson() suggests no operator or type from Object.prototype", () => {
  for (const key of ["$constructor", "$toString", "$valueOf"]) {
    assert.throws(() => matcherFromJson({ [key]: 1 }), (error: Error) => {
      assert.ok(error instanceof InputError, String(error));
      assert.doesNotMatch(error.message, /function|native code/, error.message);
      return true;
    });
  }
  for (const name of ["constructor", "toString", "hasOwnProperty"]) {
    assert.throws(() => matcherFromJson({ $type: name }), (error: Error) => {
      assert.ok(error instanceof InputError, String(error));
      assert.doesNotMatch(error.message, /did you mean|function/, error.message);
      return true;
    });
  }
});

const dataKey = fc.oneof(
  fc.constantFrom(
    "$match",
    "$eq",
    "$any",
    "$regex",
    "$$x",
    "$",
    "$$",
    "q",
    "__proto__",
    "constructor",
  ),
  fc.string({ maxLength: 6 }),
);
const dataValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 8 }),
    fc.integer(),
    // A 64-bit id, read as its digits (issue 42, item 7).
    fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).filter((n) =>
      n > 2n ** 53n || n < -(2n ** 53n)
    )
      .map((n) => numberFromText(String(n))),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(dataKey, tie("value"), { maxKeys: 3 }),
  ),
})).value;

Deno.test("contractFromTrace() round-trips every argument object: eval of the contract scores its trace 1", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          tool: fc.constantFrom("search", "book", "send"),
          args: fc.dictionary(dataKey, dataValue, { maxKeys: 4 }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      (calls) => {
        const trace = traceFromValue(calls);
        const text = JSON.stringify(contractFromTrace(trace));
        assert.ok(!text.includes('"rawJSON"'), text); // a kept id is written as its digits
        const document = parseJsonLossless(text);
        assert.equal(evaluateContract(contractFromMapping(document), trace).score, 1);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("toolscore contract init of a top-level $-key writes a contract eval accepts and passes", async () => {
  const dir = await tempDir("hostile2_dollar");
  try {
    const trace = [{ tool: "find", args: { $match: { status: "open" }, $limit: 3 } }];
    await Deno.writeTextFile(`${dir}/run.json`, JSON.stringify(trace));
    const init = await runCollect([
      "contract",
      "init",
      `${dir}/run.json`,
      "-o",
      `${dir}/contract.json`,
    ]);
    assert.equal(init.code, 0, init.err);
    const run = await runCollect([
      "eval",
      `${dir}/contract.json`,
      `${dir}/run.json`,
      "--json",
      "--min-score",
      "1",
    ]);
    assert.equal(run.code, 0, run.err + run.out);
    assert.equal(JSON.parse(run.out).score, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("findSecrets() finds glued keys, JWTs, URL passwords and Bearer tokens", () => {
  for (const { kind, secret, needle } of PLANTED) {
    const shown = redactText(`see ${secret}_tail`);
    assert.ok(!shown.includes(needle), `${kind}: ${shown}`);
  }
  // Not secrets: a URL without a password, a word before sk-, "Bearer" without a token.
  for (
    const text of [
      "https://example.com:8080/a@b",
      `task-${R}`,
      "Bearer token",
      "user@host",
      "Bearer sk-proj-REDACTED",
      'WWW-Authenticate: Bearer resource_metadata="https://mcp.example.com/x"',
    ]
  ) {
    assert.equal(redactText(text), text);
  }
});

Deno.test("toolscore shows no planted credential from any field in any output", async () => {
  const dir = await tempDir("hostile2_secrets");
  try {
    for (const [i, { kind, secret, needle }] of PLANTED.entries()) {
      // A file name cannot hold a "/": the URL kind is planted in every other field.
      const safeName = secret.includes("/") ? `run${i}` : secret;
      const trace = {
        calls: [
          { tool: `tool_${secret}`, args: { [`arg ${secret}`]: secret }, result: `got ${secret}` },
        ],
        final_answer: `the answer is ${secret}`,
      };
      const runs = `${dir}/${i}`;
      await Deno.mkdir(runs);
      const file = `${runs}/${safeName}.json`;
      await Deno.writeTextFile(file, JSON.stringify(trace));
      await Deno.writeTextFile(`${dir}/gold${i}.json`, JSON.stringify([{ tool: "search" }]));
      const out = `${dir}/out${i}`;
      const runsOf = [
        ["eval", `${dir}/gold${i}.json`, runs, "--verbose"],
        ["eval", `${dir}/gold${i}.json`, runs, "--json"],
        [
          "eval",
          `${dir}/gold${i}.json`,
          runs,
          "--markdown",
          `${out}.md`,
          "--html",
          `${out}.html`,
          "--junit",
          `${out}.xml`,
        ],
        ["eval", `${dir}/gold${i}.json`, file, "--receipt-out", `${out}.receipt.json`],
        ["export", runs, "--gold", `${dir}/gold${i}.json`, "-o", `${out}.jsonl`],
        ["inspect", runs, "--full"],
        ["inspect", runs, "--json"],
      ];
      let shown = "";
      for (const args of runsOf) {
        const run = await runCollect(args);
        shown += run.out + run.err;
      }
      for (const ext of ["md", "html", "xml", "receipt.json", "jsonl", "manifest.json"]) {
        shown += await Deno.readTextFile(`${out}.${ext}`);
      }
      assert.ok(
        !shown.includes(needle),
        `${kind} in clear:\n${
          shown.slice(shown.indexOf(needle) - 200, shown.indexOf(needle) + 50)
        }`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compare --markdown shows a URL variant name from data as text, never a link", async () => {
  const md = await markdownItGitHub();
  const dir = await tempDir("hostile2_md_links");
  try {
    const text = await Deno.readTextFile(
      new URL("../testdata/runs/records.jsonl", import.meta.url),
    );
    await Deno.writeTextFile(
      `${dir}/runs.jsonl`,
      text.replaceAll('"variant":"mini"', '"variant":"https://evil.test/phish"')
        .replaceAll('"variant":"local"', '"variant":"www.evil.test"'),
    );
    const run = await runCollect(["compare", `${dir}/runs.jsonl`, "--markdown", `${dir}/c.md`]);
    assert.equal(run.code, 0, run.err);
    const report = await Deno.readTextFile(`${dir}/c.md`);
    assert.ok(report.includes("`https://evil.test/phish`"), report);
    if (md === undefined) return;
    assert.equal(allTokens(md, report).filter((token) => token.type === "link_open").length, 0);
    assert.doesNotMatch(md.render(report), /<a |href=/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore verify of standard input says a receipt needs its file, not no permission", async () => {
  for (const path of ["/dev/stdin", "-"]) {
    const run = await runCollect(["verify", path], "{}");
    assert.equal(run.code, 2, run.err);
    assert.match(
      run.err,
      /a receipt is checked from its file: .* \(not standard input or a pipe\)\n$/,
    );
    assert.doesNotMatch(run.err, /permission/);
  }
});

Deno.test("a YAML .nan is called not a number, never too large", async () => {
  const dir = await tempDir("hostile2_nan");
  try {
    await Deno.writeTextFile(`${dir}/gold.yaml`, "- tool: search\n  args: {q: .nan}\n");
    await Deno.writeTextFile(`${dir}/run.json`, JSON.stringify(GOOD));
    const run = await runCollect(["eval", `${dir}/gold.yaml`, `${dir}/run.json`]);
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /\[0\]\.args\.q: not a number \(YAML \.nan\) has no JSON value/);
    assert.doesNotMatch(run.err, /too large/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval --receipt-dir gives each run of a run file its own receipt, and verify passes them", async () => {
  const dir = await tempDir("hostile2_receipt_runs");
  try {
    const runs = `${dir}/tau.json`;
    await Deno.copyFile(
      new URL("../testdata/formats/real/tau-bench-gpt-4o-airline.first4.json", import.meta.url),
      runs,
    );
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(GOLD));
    const run = await runCollect(["eval", `${dir}/gold.json`, runs, "--receipt-dir", `${dir}/r`]);
    assert.equal(run.code, 0, run.err);
    const names = [...Deno.readDirSync(`${dir}/r`)].map((entry) => entry.name).sort();
    assert.deepEqual(names, [1, 2, 3, 4].map((i) => `tau.${i}.receipt.json`));
    const verified = await runCollect([
      "verify",
      "--root",
      dir,
      ...names.map((n) => `${dir}/r/${n}`),
    ]);
    assert.equal(verified.code, 0, verified.err + verified.out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore export names a FIFO in a folder input and exports the linked trace", async () => {
  const dir = await tempDir("hostile2_export_links");
  try {
    await Deno.mkdir(`${dir}/runs`);
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify(GOLD));
    await Deno.writeTextFile(`${dir}/bad.json`, JSON.stringify(BAD));
    await Deno.writeTextFile(`${dir}/runs/good.json`, JSON.stringify(GOOD));
    await Deno.symlink(`${dir}/bad.json`, `${dir}/runs/linked.json`);
    await mkfifo(`${dir}/runs/pipe.json`);
    const run = await runCollect([
      "export",
      `${dir}/runs`,
      "--gold",
      `${dir}/gold.json`,
      "-o",
      `${dir}/out.jsonl`,
    ]);
    assert.equal(run.code, 0, run.err);
    assert.match(
      run.err,
      /skipped 1 entry that is not a regular file: .*runs\/pipe\.json \(FIFO\)/,
    );
    const lines = (await Deno.readTextFile(`${dir}/out.jsonl`)).trim().split("\n");
    assert.equal(lines.length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("toolscore contract init refuses a credential in a tool or argument name, writing nothing", async () => {
  const dir = await tempDir("hostile2_init_secret_names");
  try {
    const key = `ghp_${R.slice(0, 30)}AbCd12`;
    for (
      const [i, call] of [{ tool: `t_${key}`, args: {} }, {
        tool: "t",
        args: { nested: { [key]: 1 } },
      }].entries()
    ) {
      await Deno.writeTextFile(`${dir}/run${i}.json`, JSON.stringify([call]));
      const run = await runCollect([
        "contract",
        "init",
        `${dir}/run${i}.json`,
        "-o",
        `${dir}/c${i}.json`,
      ]);
      assert.equal(run.code, 2, run.err);
      assert.match(run.err, /name holds a credential; contract init will not write it/);
      assert.ok(!run.err.includes(key) && !run.out.includes(key));
      await assert.rejects(() => Deno.stat(`${dir}/c${i}.json`));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
