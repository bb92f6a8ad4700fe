// Issue 32, the first day: `eval` on a real folder. The gold file left out of its folder (1),
// outputs made ready before scoring (2), stray files skipped with a note and unreadable ones
// counted (3), a quiet and summary-first console (4), and the smaller items (5): the gate line,
// --github-summary's rules, compile --out, compare --traces reading what eval reads.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { badServer } from "./_doctor.ts";
import { openaiServer } from "./_model_wire.ts";
import { fixtureServer, writeSpec } from "./_agent.ts";

const root = new URL("..", import.meta.url).pathname;
const cli = `${root}cli.ts`;
const DEMO = `${root}data/demo`;
const GOLD = `[{"tool": "search", "args": {"q": "x"}}]\n`;
const PASS = `[{"tool": "search", "args": {"q": "x"}}]\n`;
const FAIL = `[{"tool": "delete", "args": {"q": "y"}}]\n`;

/** A scratch folder holding the demo's gold file and traces. */
async function demoCopy(prefix: string): Promise<string> {
  const dir = await tempDir(prefix);
  for (const name of ["gold.json", "good.json", "missing_call.json", "wrong_argument.json"]) {
    await Deno.copyFile(`${DEMO}/${name}`, `${dir}/${name}`);
  }
  return dir;
}

/** `n` generated traces, `failing` of them failing, named t0000.json…; the gold beside them. */
async function generated(prefix: string, n: number, failing: number): Promise<string> {
  const dir = await tempDir(prefix);
  await Deno.writeTextFile(`${dir}/gold.json`, GOLD);
  const every = Math.floor(n / failing);
  let failed = 0;
  for (let i = 0; i < n; i++) {
    const fails = i % every === 0 && failed < failing;
    if (fails) failed++;
    await Deno.writeTextFile(`${dir}/t${String(i).padStart(4, "0")}.json`, fails ? FAIL : PASS);
  }
  return dir;
}

/** Run the CLI as its own process with exactly these permissions and this environment. */
async function runWith(
  permissions: string[],
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...permissions, cli, ...args],
    clearEnv: true,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

// --- 1. the gold file -----------------------------------------------------------------------------

Deno.test("eval leaves the gold file and every configuration file of the run out of a trace folder", async () => {
  const dir = await demoCopy("first_day_gold");
  try {
    await Deno.writeTextFile(`${dir}/rules.json`, `[{"tool": "delete_everything"}]\n`);
    const { code, out, err } = await runCollect([
      "eval",
      `${dir}/gold.json`,
      `${dir}/`,
      "--forbidden",
      `${dir}/rules.json`,
    ]);
    assert.equal(code, 0, err);
    assert.match(out, /^3 traces: 1 passed, 2 failed, mean score 0\.910$/m);
    assert.doesNotMatch(out, /gold\.json|rules\.json/);
    assert.match(err, /left .*gold\.json, .*rules\.json out of the traces/);
    // Named on its own, a file is a trace: the user asked for it.
    const named = await runCollect(["eval", `${dir}/gold.json`, `${dir}/gold.json`]);
    assert.equal(named.code, 0, named.err);
    assert.match(named.out, /gold\.json +score /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- 2. outputs ready before scoring --------------------------------------------------------------

Deno.test("eval's report examples work as written: missing report folders are created", async () => {
  const dir = await tempDir("first_day_reports");
  try {
    const out = `${dir}/out`;
    const { code, err } = await runCollect([
      "eval",
      `${DEMO}/gold.json`,
      `${DEMO}/good.json`,
      "--junit",
      `${out}/junit.xml`,
      "--markdown",
      `${out}/report.md`,
      "--html",
      `${out}/deeper/report.html`,
      "--receipt-dir",
      `${out}/receipts`,
    ]);
    assert.equal(code, 0, err);
    for (
      const file of ["junit.xml", "report.md", "deeper/report.html", "receipts/good.receipt.json"]
    ) {
      assert.ok((await Deno.stat(`${out}/${file}`)).isFile, file);
    }
    assert.deepEqual([...Deno.readDirSync(out)].filter((e) => e.name.startsWith(".")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval checks every output before scoring: a report it cannot write is exit 2 with nothing scored", async () => {
  const dir = await generated("first_day_unwritable", 60, 5);
  try {
    await Deno.writeTextFile(`${dir}/not_a_folder`, "x");
    for (
      const flags of [
        ["--markdown", `${dir}/not_a_folder/report.md`],
        ["--junit", dir],
        ["--receipt-dir", `${dir}/not_a_folder/receipts`],
        ["--receipt-out", `${dir}/not_a_folder/one.receipt.json`],
      ]
    ) {
      const { code, out, err } = await runCollect(["eval", `${dir}/gold.json`, dir, ...flags]);
      assert.equal(code, 2, `${flags}: ${err}`);
      assert.equal(out, "", `${flags} scored before failing`);
      assert.match(err, new RegExp(`${flags[0]}: `));
      assert.doesNotMatch(err, /\n\s+at /);
    }
    // Without write access to the report's folder: exit 2 up front, naming the permission.
    const denied = await runWith(
      ["--allow-read", `--allow-write=${dir}/allowed`],
      ["eval", `${dir}/gold.json`, dir, "--markdown", `${dir}/elsewhere/report.md`],
    );
    assert.equal(denied.code, 2, denied.err);
    assert.equal(denied.out, "");
    assert.match(denied.err, /--markdown: no permission to create this folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("export -o, contract init -o and doctor --update-baseline create their folders first", async () => {
  const dir = await demoCopy("first_day_writers");
  try {
    const exported = await runCollect([
      "export",
      `${dir}/`,
      "--gold",
      `${dir}/gold.json`,
      "-o",
      `${dir}/out/a/runs.jsonl`,
    ]);
    assert.equal(exported.code, 0, exported.err);
    // A folder input is the folder walk's traces: the gold file left out.
    assert.match(exported.out, /exported 3 records/);
    const contract = await runCollect([
      "contract",
      "init",
      `${dir}/good.json`,
      "-o",
      `${dir}/out/b/contract.yaml`,
    ]);
    assert.equal(contract.code, 0, contract.err);
    assert.ok((await Deno.stat(`${dir}/out/b/contract.yaml`)).isFile);
    await Deno.writeTextFile(`${dir}/file`, "x");
    const baseline = await runCollect([
      "doctor",
      "--update-baseline",
      `${dir}/file/baseline.json`,
      "--",
      ...badServer([]).command,
    ]);
    assert.equal(baseline.code, 2, baseline.err);
    assert.match(baseline.err, /--update-baseline: /);
    assert.doesNotMatch(baseline.out, /tools-list/); // refused before the server started
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run checks -o and --out-dir before any model call", async () => {
  const dir = await tempDir("first_day_agent");
  const model = openaiServer();
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer("first-day-agent"),
      arms: [{ id: "mini", provider: "openai", model: "gpt-4.1-mini", base_url: model.url }],
    });
    await Deno.writeTextFile(`${dir}/file`, "x");
    const run = await runCollect([
      "agent",
      "run",
      spec,
      "-o",
      `${dir}/runs.jsonl`,
      "--out-dir",
      `${dir}/file/traces`,
    ]);
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /--out-dir: /);
    assert.equal(model.requests.length, 0);
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

// --- 3. stray files, unreadable files -------------------------------------------------------------

Deno.test("eval skips a folder's stray files with one note and reads its MCP client logs", async () => {
  const dir = await demoCopy("first_day_strays");
  try {
    await Deno.writeTextFile(`${dir}/package.json`, `{"name": "app", "scripts": {"t": "x"}}\n`);
    await Deno.writeTextFile(`${dir}/tsconfig.json`, `{"compilerOptions": {"strict": true}}\n`);
    await Deno.writeTextFile(
      `${dir}/package-lock.json`,
      `{"lockfileVersion": 3, "packages": {"node_modules/a": {"version": "1.0.0"}}}\n`,
    );
    await Deno.writeTextFile(`${dir}/config.yaml`, "a: 1\n");
    // The (five, at issue 32) Claude Desktop MCP logs of testdata/formats/real, each read fine on its own.
    const logs = [...Deno.readDirSync(`${root}testdata/formats/real`)]
      .map((entry) => entry.name)
      .filter((name) => name.startsWith("claudedesktop-") && name.endsWith(".log"));
    assert.ok(logs.length >= 5, logs.join(", "));
    for (const name of logs) {
      await Deno.copyFile(`${root}testdata/formats/real/${name}`, `${dir}/${name}`);
    }
    const { code, out, err } = await runCollect(["eval", `${dir}/gold.json`, dir]);
    assert.equal(code, 0, err);
    assert.match(out, new RegExp(`^${3 + logs.length} traces: `, "m"));
    for (const name of logs) assert.match(out, new RegExp(`${name.replaceAll(".", "\\.")} +\\d`));
    const notes = err.split("\n").filter((line) => line.includes("not traces"));
    assert.equal(notes.length, 1, err);
    assert.match(
      notes[0]!,
      /skipped 4 files .*config\.yaml, .*package-lock\.json, .*package\.json, .*tsconfig\.json/,
    );
    // inspect reads the same folder the same way.
    const inspected = await runCollect(["inspect", dir, "--json"]);
    assert.equal(inspected.code, 0, inspected.err);
    assert.match(inspected.err, /skipped 4 files that are not traces/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval counts a folder's unreadable trace as unknown and exits 2, with both counts", async () => {
  const dir = await demoCopy("first_day_unreadable");
  try {
    await Deno.writeTextFile(`${dir}/broken.json`, `{"calls": [{"tool": "search", "args": `);
    const { code, out, err } = await runCollect([
      "eval",
      `${dir}/gold.json`,
      dir,
      "--min-score",
      "0.9",
    ]);
    assert.equal(code, 2, err);
    assert.match(
      out,
      /^4 traces: 1 passed, 2 failed, 1 unknown, mean score 0\.910 \(of 3 scored\)$/m,
    );
    assert.match(out, /^exit 2: 1 file could not be read and 2 traces failed /m);
    assert.match(out, /broken\.json +- +unknown/);
    assert.match(err, /broken\.json: .*invalid JSON/);
    // The reports say so too: unknown is not left out.
    const reports = await runCollect([
      "eval",
      `${dir}/gold.json`,
      dir,
      "--markdown",
      `${dir}/out/report.md`,
      "--junit",
      `${dir}/out/junit.xml`,
      "--html",
      `${dir}/out/report.html`,
    ]);
    assert.equal(reports.code, 2, reports.err);
    const markdown = await Deno.readTextFile(`${dir}/out/report.md`);
    assert.match(markdown, /^### toolscore eval: FAIL/);
    assert.match(
      markdown,
      /Could not be read \(1; outcome unknown, exit 2\):\n\n- .*broken\.json: /,
    );
    const junit = await Deno.readTextFile(`${dir}/out/junit.xml`);
    assert.match(junit, /<testsuites name="toolscore" tests="4" failures="2" errors="1" time="/);
    assert.match(junit, /broken\.json" classname="[^"]*gold\.json">\n +<error type="unreadable" /);
    assert.match(await Deno.readTextFile(`${dir}/out/report.html`), /Could not be read \(1;/);
    // A file named on its own still stops the run at once.
    const named = await runCollect(["eval", `${dir}/gold.json`, `${dir}/broken.json`]);
    assert.equal(named.code, 2);
    assert.equal(named.out, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- 4. a console that scales ---------------------------------------------------------------------

Deno.test("eval -q prints one line per failing or unknown trace and at most 5 summary lines", async () => {
  const dir = await generated("first_day_quiet", 20, 4);
  try {
    await Deno.writeTextFile(`${dir}/broken.json`, `[{"tool": "search", "args": `);
    const { code, out } = await runCollect(["eval", `${dir}/gold.json`, dir, "-q"]);
    assert.equal(code, 2);
    const lines = out.trimEnd().split("\n");
    const failing = lines.filter((line) => / fail {5}/.test(line));
    assert.equal(failing.length, 4);
    assert.match(failing[0]!, /^.*t0000\.json {2}0\.\d{3} {2}fail {5}\S/);
    assert.equal(lines.filter((line) => / unknown /.test(line)).length, 1);
    assert.ok(lines.length <= 4 + 1 + 5, out);
    assert.match(out, /21 traces: 16 passed, 4 failed, 1 unknown/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval past 50 traces prints the summary first, then the failures; passing lines only with -v", async () => {
  const dir = await generated("first_day_many", 60, 3);
  try {
    const plain = await runCollect(["eval", `${dir}/gold.json`, dir]);
    const lines = plain.out.trimEnd().split("\n");
    assert.match(lines[0]!, /^60 traces: 57 passed, 3 failed, 0 unknown, mean score /);
    assert.equal(
      lines[1],
      "no gate set: exit 0; pass --fail-under or a contract's min_score to gate",
    );
    assert.equal(lines.length, 2 + 1 + 3, plain.out);
    assert.doesNotMatch(plain.out, /Evidence:/);
    const verbose = await runCollect(["eval", `${dir}/gold.json`, dir, "-v"]);
    assert.equal(verbose.out.trimEnd().split("\n").length, 2 + 1 + 60);
    // Up to 50 traces, each keeps its block and the table follows.
    const few = await generated("first_day_few", 50, 2);
    try {
      const blocks = await runCollect(["eval", `${few}/gold.json`, few]);
      assert.equal(blocks.out.match(/Evidence:/g)?.length, 50);
      assert.match(blocks.out, /^trace +score +grade/m);
    } finally {
      await Deno.remove(few, { recursive: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("on 5,000 traces with 8% failing, eval --quiet prints the failures and at most 5 more lines", async () => {
  const dir = await generated("first_day_5000", 5000, 400);
  try {
    const quiet = await runCollect([
      "eval",
      `${dir}/gold.json`,
      dir,
      "--quiet",
      "--fail-under",
      "0.9",
    ]);
    assert.equal(quiet.code, 1);
    const lines = quiet.out.trimEnd().split("\n");
    assert.equal(lines.filter((line) => / fail {5}/.test(line)).length, 400);
    assert.ok(lines.length <= 400 + 5, `${lines.length} lines`);
    assert.match(lines.at(-2)!, /^5000 traces: 4600 passed, 400 failed, 0 unknown/);
    assert.match(lines.at(-1)!, /^exit 1: 400 traces under the --min-score\/--fail-under bar/);
    // By default the summary comes first.
    const plain = await runCollect(["eval", `${dir}/gold.json`, dir, "--fail-under", "0.9"]);
    assert.match(plain.out, /^5000 traces: 4600 passed, 400 failed, 0 unknown, mean score /);
    assert.ok(plain.out.split("\n").length <= 400 + 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compare -q and doctor -q print only verdicts and what needs a look", async () => {
  const dir = await demoCopy("first_day_compare_quiet");
  try {
    const compared = await runCollect([
      "compare",
      "--traces",
      `a=${dir}`,
      "--traces",
      `b=${dir}`,
      "--gold",
      `${dir}/gold.json`,
      "-q",
    ]);
    assert.equal(compared.code, 0, compared.err);
    assert.equal(compared.out.trimEnd().split("\n").length, 1, compared.out);
    Deno.env.delete("TOOLSCORE_FIRST_DAY_UNSET_KEY");
    const doctor = await runCollect([
      "doctor",
      "--key",
      "TOOLSCORE_FIRST_DAY_UNSET_KEY",
      "-q",
      "--",
      ...badServer([]).command,
    ]);
    assert.equal(doctor.code, 1, doctor.err);
    assert.match(doctor.out, /^✗ keys /);
    assert.doesNotMatch(doctor.out, /✓/);
    assert.match(doctor.out, /\n\d+ pass, 0 warn, 1 fail, \d+ skip\n$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- 5. the smaller items -------------------------------------------------------------------------

Deno.test("eval with no bar says that no gate set the exit code", async () => {
  const { code, out } = await runCollect([
    "eval",
    `${DEMO}/gold.json`,
    `${DEMO}/good.json`,
    `${DEMO}/missing_call.json`,
    `${DEMO}/wrong_argument.json`,
  ]);
  assert.equal(code, 0);
  assert.match(
    out,
    /2 failed, mean score 0\.910\nno gate set: exit 0; pass --fail-under or a contract's min_score to gate\n$/,
  );
});

Deno.test("--github-summary: unset is a note; a missing env or write permission is exit 2 before scoring", async () => {
  const dir = await tempDir("first_day_github");
  try {
    const args = ["eval", `${DEMO}/gold.json`, `${DEMO}/good.json`, "--github-summary"];
    const unset = await runWith(["--allow-read", "--allow-env=GITHUB_STEP_SUMMARY"], args);
    assert.equal(unset.code, 0, unset.err);
    assert.match(unset.err, /GITHUB_STEP_SUMMARY is not set/);
    const summary = `${dir}/summary.md`;
    const noEnv = await runWith(["--allow-read"], args, { GITHUB_STEP_SUMMARY: summary });
    assert.equal(noEnv.code, 2, noEnv.err);
    assert.equal(noEnv.out, "");
    assert.match(noEnv.err, /--allow-env=GITHUB_STEP_SUMMARY/);
    const noWrite = await runWith(["--allow-read", "--allow-env=GITHUB_STEP_SUMMARY"], args, {
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal(noWrite.code, 2, noWrite.err);
    assert.equal(noWrite.out, "");
    assert.match(noWrite.err, /--github-summary: no permission to append to the step summary/);
    const written = await runWith(
      ["--allow-read", "--allow-env=GITHUB_STEP_SUMMARY", `--allow-write=${dir}`],
      args,
      { GITHUB_STEP_SUMMARY: summary },
    );
    assert.equal(written.code, 0, written.err);
    assert.match(await Deno.readTextFile(summary), /^### toolscore /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task compile --out outside dist/ gives one clear line, no stack trace", async () => {
  const dir = await tempDir("first_day_compile");
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        `--allow-write=${root}dist`,
        "--allow-run",
        `${root}scripts/compile.ts`,
        "--out",
        `${dir}/bin`,
        "--target",
        "x86_64-unknown-linux-gnu",
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 2, err);
    assert.match(
      err,
      /^compile: no write permission for .*bin \(deno task compile may write only dist\/\); run deno run .*--allow-write=/,
    );
    assert.equal(err.trim().split("\n").length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compare --traces reads the files eval reads, and leaves the gold file out", async () => {
  const dir = await demoCopy("first_day_compare");
  try {
    await Deno.writeTextFile(`${dir}/more.jsonl`, `${PASS.trim()}\n${FAIL.trim()}\n`);
    await Deno.copyFile(
      `${root}testdata/formats/real/anthropic-fallback-tool-call.sse`,
      `${dir}/stream.sse`,
    );
    await Deno.writeTextFile(`${dir}/package.json`, `{"name": "app"}\n`);
    const evaluated = await runCollect(["eval", `${dir}/gold.json`, dir, "--json"]);
    const count = JSON.parse(evaluated.out).summary.count;
    const compared = await runCollect([
      "compare",
      "--traces",
      `a=${dir}`,
      "--gold",
      `${dir}/gold.json`,
      "--json",
    ]);
    assert.equal(compared.code, 0, compared.err);
    const n = JSON.parse(compared.out).variants[0].n;
    assert.equal(count, 6);
    assert.equal(n, count);
    assert.match(compared.err, /skipped 1 file that is not a trace .*package\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
