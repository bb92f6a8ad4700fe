import assert from "node:assert/strict";
import { loadReceipt } from "../mod.ts";
import { receiptSha256 } from "../lib/receipts/build.ts";
import { runCollect, runDeno } from "./_cli.ts";

// Temp folders inside the repository (the tests may read only there); removed after each test.
const TEMP = {
  dir: new URL("..", import.meta.url).pathname,
  prefix: ".cli_receipts_",
  suffix: ".tmp",
};

/**
 * A test that gets a fresh temp folder holding copies of the demo gold file
 * and traces: inside the repository (the current directory), or (`outside`)
 * outside it, where a plain verify does not reach.
 */
function inTemp(name: string, fn: (dir: string) => Promise<void>, outside = false): void {
  Deno.test(name, async () => {
    const dir = await Deno.makeTempDir(outside ? { prefix: "toolscore_cli_receipts_" } : TEMP);
    try {
      for (const file of ["gold.json", "good.json", "wrong_argument.json", "missing_call.json"]) {
        await Deno.copyFile(`data/demo/${file}`, `${dir}/${file}`);
      }
      await fn(dir);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

const run = (args: string[], stdin = "") => runCollect(args, stdin);

/** Change one byte of a file: the first digit after its middle, to another digit. */
async function changeOneByte(path: string): Promise<void> {
  const bytes = await Deno.readFile(path);
  let i = Math.floor(bytes.length / 2);
  while (!(bytes[i]! >= 0x30 && bytes[i]! <= 0x39)) i++;
  bytes[i] = bytes[i] === 0x39 ? 0x38 : bytes[i]! + 1;
  await Deno.writeFile(path, bytes);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

inTemp("eval --receipt-out writes a receipt that verify passes", async (dir) => {
  const receipt = `${dir}/run.receipt.json`;
  const evaluated = await run([
    "eval",
    `${dir}/gold.json`,
    `${dir}/wrong_argument.json`,
    "--receipt-out",
    receipt,
  ]);
  assert.equal(evaluated.code, 0, evaluated.err);
  assert.match(evaluated.err, /receipt: .*run\.receipt\.json/);
  const loaded = await loadReceipt(receipt);
  assert.equal(loaded.inputs.trace?.path, "wrong_argument.json");
  assert.equal(loaded.inputs.gold?.path, "gold.json");
  const verified = await run(["verify", receipt]);
  assert.equal(verified.code, 0, verified.out + verified.err);
  assert.equal(verified.out, `ok ${receipt}\n`);
});

for (const what of ["trace", "gold", "receipt"] as const) {
  inTemp(
    `verify names a changed ${what} and exits 1; regrade refuses, --no-verify proceeds`,
    async (dir) => {
      const receipt = `${dir}/run.receipt.json`;
      await run([
        "eval",
        `${dir}/gold.json`,
        `${dir}/wrong_argument.json`,
        "--receipt-out",
        receipt,
      ]);
      const file =
        { trace: "wrong_argument.json", gold: "gold.json", receipt: "run.receipt.json" }[what];
      await changeOneByte(`${dir}/${file}`);

      const verified = await run(["verify", receipt]);
      assert.equal(verified.code, 1);
      const lines = verified.out.trim().split("\n");
      assert.equal(lines.length, 1, verified.out);
      const expected = what === "receipt"
        ? /: receipt_sha256 does not match the receipt's content: the receipt itself was changed/
        : new RegExp(
          `: ${what} ${file.replace(".", "\\.")}: changed since the receipt was written`,
        );
      assert.match(lines[0]!, expected);

      const refused = await run(["regrade", receipt, "--weight", "argument_f1=2"]);
      assert.equal(refused.code, 1, refused.err);
      assert.match(refused.err, /the receipt does not match its inputs; not regraded/);
      assert.ok(
        !(await exists(`${dir}/run.regraded.receipt.json`)),
        "a refused regrade writes nothing",
      );

      const forced = await run(["regrade", receipt, "--no-verify"]);
      assert.equal(forced.code, 0, forced.err);
      assert.match(forced.out, /not verified: /);
      assert.ok(await exists(`${dir}/run.regraded.receipt.json`));
    },
  );
}

inTemp("regrade --forbidden records the rules and shows the evidence that changed", async (dir) => {
  const receipt = `${dir}/run.receipt.json`;
  await run(["eval", `${dir}/gold.json`, `${dir}/good.json`, "--receipt-out", receipt]);
  await Deno.writeTextFile(`${dir}/forbidden.json`, '[{"tool": "search_flights"}]');
  const done = await run(["regrade", receipt, "--forbidden", `${dir}/forbidden.json`]);
  assert.equal(done.code, 0, done.err);
  // Same score, but a check now fails: the line says so.
  assert.match(done.out, /1\.00 A → 1\.00 A {2}\(\+0\.00\)/);
  assert.match(
    done.out,
    /^ {2}evidence: 6 pass, 1 fail, 0 unknown \(was 6 pass, 0 fail, 0 unknown\)$/m,
  );
  const written = await loadReceipt(`${dir}/run.regraded.receipt.json`);
  assert.equal(written.inputs.forbidden?.path, "forbidden.json");
  assert.equal((await run(["verify", `${dir}/run.regraded.receipt.json`])).code, 0);
  // Unchanged evidence is not repeated.
  const again = await run(["regrade", receipt]);
  assert.doesNotMatch(again.out, /evidence:/);
});

inTemp("regrade keeps a strict run strict; --no-strict turns it off", async (dir) => {
  const receipt = `${dir}/run.receipt.json`;
  const trace = `${dir}/wrong_argument.json`;
  await run(["eval", `${dir}/gold.json`, trace, "--strict", "--receipt-out", receipt]);
  const scoreOf = async (args: string[]) =>
    JSON.parse((await run(["eval", `${dir}/gold.json`, trace, ...args, "--json"])).out).score;
  const cases: [string[], boolean, string[]][] = [[[], true, ["--strict"]], [
    ["--no-strict"],
    false,
    [],
  ]];
  for (const [flags, strict, evalFlags] of cases) {
    const done = await run(["regrade", receipt, ...flags, "--json"]);
    assert.equal(done.code, 0, done.err);
    const written = await loadReceipt(`${dir}/run.regraded.receipt.json`);
    assert.equal(written.settings.strict, strict, flags.join(" "));
    assert.equal(JSON.parse(done.out).regrades[0].score, await scoreOf(evalFlags));
  }
  const both = await run(["regrade", receipt, "--strict", "--no-strict"]);
  assert.equal(both.code, 2);
  assert.match(both.err, /give --strict or --no-strict, not both/);
});

inTemp(
  "regrade --weight gives the score a fresh eval --weight gives, and records its source",
  async (dir) => {
    const receipt = `${dir}/run.receipt.json`;
    await run(["eval", `${dir}/gold.json`, `${dir}/wrong_argument.json`, "--receipt-out", receipt]);
    const old = await loadReceipt(receipt);
    const regraded = await run(["regrade", receipt, "--weight", "argument_f1=2", "--json"]);
    assert.equal(regraded.code, 0, regraded.err);
    const doc = JSON.parse(regraded.out).regrades[0];
    const fresh = await run([
      "eval",
      `${dir}/gold.json`,
      `${dir}/wrong_argument.json`,
      "--weight",
      "argument_f1=2",
      "--json",
    ]);
    const freshScore = JSON.parse(fresh.out).score;
    assert.equal(doc.score, freshScore);
    assert.equal(doc.previous_score, old.result.score);
    assert.equal(doc.score_delta, freshScore - old.result.score);
    const written = await loadReceipt(`${dir}/run.regraded.receipt.json`);
    assert.equal(written.result.score, freshScore);
    assert.deepEqual(written.regraded_from, {
      path: "run.receipt.json",
      receipt_sha256: old.receipt_sha256,
    });
    assert.equal((await run(["verify", `${dir}/run.regraded.receipt.json`])).code, 0);

    const text = await run(["regrade", receipt, "--weight", "argument_f1=2"]);
    assert.match(
      text.out,
      /run\.receipt\.json {2}0\.8\d B → 0\.7\d C {2}\(-0\.\d\d\) {2}→ .*run\.regraded\.receipt\.json/,
    );
  },
);

inTemp(
  "regrade of a bare trace needs --gold and writes TRACE.regraded.receipt.json",
  async (dir) => {
    const missing = await run(["regrade", `${dir}/good.json`]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /needs a gold file or contract/);
    const done = await run([
      "regrade",
      `${dir}/good.json`,
      "--gold",
      `${dir}/gold.json`,
      "--receipt-dir",
      `${dir}/out`,
    ]);
    assert.equal(done.code, 0, done.err);
    assert.match(
      done.out,
      /good\.json {2}1\.00 A \(new\) {2}→ .*out\/good\.regraded\.receipt\.json/,
    );
    const receipt = await loadReceipt(`${dir}/out/good.regraded.receipt.json`);
    assert.equal(receipt.inputs.trace?.path, "../good.json");
    assert.equal(receipt.regraded_from, undefined);
    // The receipt's folder is out/ and its trace one level up, under the current directory:
    // a plain verify from the project root admits it (issue 20).
    assert.equal((await run(["verify", `${dir}/out/good.regraded.receipt.json`])).code, 0);
    assert.equal(
      (await run(["verify", "--allow-outside", `${dir}/out/good.regraded.receipt.json`])).code,
      0,
    );
  },
);

inTemp("eval --receipt writes TRACE.receipt.json beside each trace", async (dir) => {
  const done = await run([
    "eval",
    `${dir}/gold.json`,
    `${dir}/good.json`,
    `${dir}/missing_call.json`,
    "--receipt",
  ]);
  assert.equal(done.code, 0, done.err);
  for (const name of ["good", "missing_call"]) {
    const receipt = await loadReceipt(`${dir}/${name}.receipt.json`);
    assert.equal(receipt.inputs.trace?.path, `${name}.json`);
    assert.equal(receipt.receipt_sha256, receiptSha256(receipt));
  }
  // A directory argument skips receipts: scoring the folder again sees only the traces (and,
  // since issue 32, not the gold file either).
  const again = await run(["eval", `${dir}/gold.json`, dir, "--json"]);
  assert.equal(JSON.parse(again.out).summary.count, 3);
});

inTemp(
  "eval --receipt-dir writes one receipt per trace of a JSONL file, recording which",
  async (dir) => {
    await Deno.copyFile("testdata/eval/gold_search.json", `${dir}/gold_search.json`);
    await Deno.copyFile("testdata/eval/two.jsonl", `${dir}/runs.jsonl`);
    const done = await run([
      "eval",
      `${dir}/gold_search.json`,
      `${dir}/runs.jsonl`,
      "--receipt-dir",
      `${dir}/receipts`,
      "--json",
    ]);
    assert.equal(done.code, 0, done.err);
    const scores = JSON.parse(done.out).results.map((r: { score: number }) => r.score);
    for (const n of [1, 2]) {
      const path = `${dir}/receipts/runs.${n}.receipt.json`;
      const receipt = await loadReceipt(path);
      assert.equal(receipt.inputs.trace?.index, n);
      assert.equal(receipt.inputs.trace?.path, "../runs.jsonl");
      assert.equal(receipt.result.score, scores[n - 1]);
      const regraded = await run(["regrade", path, "--allow-outside", "--json"]);
      assert.equal(regraded.code, 0, regraded.err);
      assert.equal(JSON.parse(regraded.out).regrades[0].score, scores[n - 1]);
    }
  },
);

inTemp(
  "eval refuses receipts for standard input and bad receipt flag combinations",
  async (dir) => {
    const trace = await Deno.readTextFile(`${dir}/good.json`);
    const stdin = await run(["eval", `${dir}/gold.json`, "-", "--receipt-dir", `${dir}/r`], trace);
    assert.equal(stdin.code, 2);
    assert.match(stdin.err, /standard input cannot have a receipt/);
    assert.ok(!(await exists(`${dir}/r`)));

    const both = await run([
      "eval",
      `${dir}/gold.json`,
      `${dir}/good.json`,
      "--receipt",
      "--receipt-dir",
      `${dir}/r`,
    ]);
    assert.equal(both.code, 2);
    assert.match(both.err, /give one of --receipt, --receipt-out and --receipt-dir/);

    const several = await run([
      "eval",
      `${dir}/gold.json`,
      `${dir}/good.json`,
      `${dir}/missing_call.json`,
      "--receipt-out",
      `${dir}/one.receipt.json`,
    ]);
    assert.equal(several.code, 2);
    assert.match(several.err, /--receipt-out takes one trace/);

    const before = await Deno.readTextFile(`${dir}/good.json`);
    const onto = await run([
      "eval",
      `${dir}/gold.json`,
      `${dir}/good.json`,
      "--receipt-out",
      `${dir}/good.json`,
    ]);
    assert.equal(onto.code, 2);
    assert.match(onto.err, /would overwrite an input file/);
    assert.equal(await Deno.readTextFile(`${dir}/good.json`), before);
  },
);

inTemp("verify reports ../../etc/passwd and absolute inputs without reading them", async (dir) => {
  const receipt = `${dir}/run.receipt.json`;
  await run(["eval", `${dir}/gold.json`, `${dir}/good.json`, "--receipt-out", receipt]);
  const doc = JSON.parse(await Deno.readTextFile(receipt));
  doc.inputs.gold.path = "../../etc/passwd";
  doc.inputs.trace.path = "/etc/passwd";
  delete doc.receipt_sha256;
  doc.receipt_sha256 = receiptSha256(doc);
  await Deno.writeTextFile(receipt, JSON.stringify(doc, null, 2));
  const verified = await run(["verify", receipt, "--json"]);
  assert.equal(verified.code, 1);
  assert.deepEqual(JSON.parse(verified.out).receipts[0].problems, [
    "gold ../../etc/passwd: input escapes the receipt directory and the current directory; not read",
    "trace /etc/passwd: input escapes the receipt directory and the current directory (absolute path); not read",
  ]);
  const regraded = await run(["regrade", receipt, "--no-verify"]);
  assert.equal(regraded.code, 2);
  assert.match(regraded.err, /escapes the receipt directory/);
});

inTemp(
  "verify exits 2 on a receipt that is not JSON and on a missing one, on stderr",
  async (dir) => {
    await Deno.writeTextFile(`${dir}/bad.receipt.json`, '{"receipt_version": 1,,}');
    const damaged = await run(["verify", `${dir}/bad.receipt.json`]);
    assert.equal(damaged.code, 2);
    assert.equal(damaged.out, "");
    assert.match(damaged.err, /^toolscore: .*bad\.receipt\.json:1:\d+: invalid JSON/);
    const missing = await run(["verify", `${dir}/nope.receipt.json`]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /file not found/);
    assert.equal((await run(["verify"])).code, 2);
  },
);

inTemp(
  "eval --receipt without write permission exits 2 naming --allow-write, writing nothing",
  async (dir) => {
    const root = new URL("..", import.meta.url).pathname;
    const output = await runDeno([
      "run",
      "--no-prompt",
      `--allow-read=${root}`,
      `${root}cli.ts`,
      "eval",
      `${dir}/gold.json`,
      `${dir}/good.json`,
      "--receipt-dir",
      `${dir}/receipts`,
    ]);
    assert.equal(output.code, 2);
    assert.match(output.err, /--allow-write/);
    assert.ok(!(await exists(`${dir}/receipts`)));
  },
);

inTemp(
  "eval --receipt-dir receipts verifies from the project root with a plain verify",
  async (dir) => {
    const done = await run([
      "eval",
      `${dir}/gold.json`,
      `${dir}/good.json`,
      "--receipt-dir",
      `${dir}/receipts`,
    ]);
    assert.equal(done.code, 0, done.err);
    assert.doesNotMatch(done.err, /note: it names inputs outside its folder/);
    const receipt = await loadReceipt(`${dir}/receipts/good.receipt.json`);
    assert.equal(receipt.inputs.trace?.path, "../good.json");
    const plain = await run(["verify", `${dir}/receipts/good.receipt.json`]);
    assert.equal(plain.code, 0, plain.out + plain.err);
    assert.equal((await run(["regrade", `${dir}/receipts/good.receipt.json`])).code, 0);
  },
);

inTemp(
  "eval --receipt with the gold file one level up, outside the current directory, notes it; verify --root admits it",
  async (dir) => {
    await Deno.mkdir(`${dir}/runs`);
    await Deno.rename(`${dir}/good.json`, `${dir}/runs/good.json`);
    const done = await run(["eval", `${dir}/gold.json`, `${dir}/runs/good.json`, "--receipt"]);
    assert.equal(done.code, 0, done.err);
    assert.match(
      done.err,
      /note: it names inputs outside its folder \(\.\.\/gold\.json\); verify it with: toolscore verify --root /,
    );
    const receipt = `${dir}/runs/good.receipt.json`;
    const plain = await run(["verify", receipt]);
    assert.equal(plain.code, 1);
    assert.match(plain.err, /hint: .*--root DIR/);
    assert.equal((await run(["verify", "--root", dir, receipt])).code, 0);
    // Refused without --root; --no-verify would not help, so the hint names --root.
    const refused = await run(["regrade", receipt]);
    assert.equal(refused.code, 1, refused.err);
    assert.match(refused.err, /not regraded \(--root DIR admits a folder that holds its inputs;/);
    assert.equal((await run(["regrade", "--root", dir, receipt])).code, 0);
  },
  true,
);
