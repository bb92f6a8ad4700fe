import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  buildReceipt,
  DEFAULT_HONESTY,
  evaluate,
  fileDigest,
  InputError,
  jsonSha256,
  loadReceipt,
  type Receipt,
  RECEIPT_SCHEMA,
  ReceiptMismatchError,
  regrade,
  verifyReceipt,
  writeReceipt,
} from "../mod.ts";
import { evaluateExpected, loadExpected } from "../lib/evaluate/expected.ts";
import { receiptSha256 } from "../lib/receipts/build.ts";
import { receiptShapeProblems } from "../lib/receipts/io.ts";
import { readTrace } from "../lib/formats/detect.ts";

const CREATED = new Date("2026-11-29T12:00:00Z");

// Temp folders inside the repository (the tests may read only there); removed after each test.
const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".receipts_", suffix: ".tmp" };

/**
 * A test that gets a fresh temp folder, removed afterwards: inside the
 * repository, or (`outside`) outside the current directory, which verify
 * admits by default.
 */
function inTemp(name: string, fn: (dir: string) => Promise<void>, outside = false): void {
  Deno.test(name, async () => {
    const dir = await Deno.makeTempDir(outside ? { prefix: "toolscore_receipts_" } : TEMP);
    try {
      await fn(dir);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

/** Copy the demo gold file and two traces into a folder. */
async function workspace(dir: string): Promise<void> {
  for (const name of ["gold.json", "good.json", "wrong_argument.json"]) {
    await Deno.copyFile(`data/demo/${name}`, `${dir}/${name}`);
  }
}

/** Evaluate a trace of the workspace and write its receipt; returns the receipt path. */
async function receiptOf(dir: string, trace = "wrong_argument.json"): Promise<string> {
  const expected = await loadExpected(`${dir}/gold.json`);
  const result = evaluateExpected(expected, await readTrace(`${dir}/${trace}`));
  const receipt = await buildReceipt(result, {
    inputs: { gold: `${dir}/gold.json`, trace: `${dir}/${trace}` },
    minScore: 0.9,
    relativeTo: dir,
    createdAt: CREATED,
  });
  return await writeReceipt(`${dir}/run.receipt.json`, receipt);
}

async function flipByte(path: string, at = -10): Promise<void> {
  const bytes = await Deno.readFile(path);
  const i = at < 0 ? bytes.length + at : at;
  bytes[i] = bytes[i] === 0x31 ? 0x32 : 0x31;
  await Deno.writeFile(path, bytes);
}

inTemp(
  "buildReceipt() records inputs by hash relative to its folder, settings and the result",
  async (dir) => {
    await workspace(dir);
    const receipt = await loadReceipt(await receiptOf(dir));
    const traceBytes = await Deno.readFile(`${dir}/wrong_argument.json`);
    assert.deepEqual(receipt.inputs.trace, {
      path: "wrong_argument.json",
      sha256: createHash("sha256").update(traceBytes).digest("hex"),
      bytes: traceBytes.length,
    });
    assert.equal(receipt.inputs.gold?.path, "gold.json");
    assert.deepEqual(Object.keys(receipt.inputs), ["gold", "trace"]);
    assert.equal(receipt.settings.format, "auto");
    assert.equal(receipt.settings.strict, false);
    const weightSum = Object.values(receipt.settings.weights).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(weightSum - 1) < 1e-12);
    assert.equal(receipt.created_at, "2026-11-29T12:00:00Z");
    assert.equal(receipt.producer.name, "toolscore");
    assert.equal(receipt.final_answer_sha256, null);
    assert.ok(Math.abs(receipt.result.score - 0.825) < 0.01, String(receipt.result.score));
    assert.equal(receipt.result.grade, "B");
    assert.equal(receipt.result.passed, false);
    assert.equal(receipt.result.min_score, 0.9);
    assert.deepEqual(receipt.result.counts, { expected: 3, actual: 4 });
    assert.equal(typeof receipt.result.evidence.unknown, "number");
    assert.equal(typeof receipt.result.metrics.argument_f1, "number");
    assert.ok("honesty_metrics" in receipt.result.metrics);
    assert.deepEqual(Object.keys(receipt).at(-1), "receipt_sha256");
    assert.equal(receipt.receipt_sha256, receiptSha256(receipt));
    assert.deepEqual(receiptShapeProblems(receipt), []);
  },
);

Deno.test("buildReceipt() keeps an external final answer only as its hash", async () => {
  const expected = await loadExpected("data/demo/gold.json");
  const answer = "Booked FL-208 for two; confirmation sent to ana@example.com.";
  const result = evaluateExpected(expected, await readTrace("data/demo/good.json"), {
    finalAnswer: answer,
  });
  const receipt = await buildReceipt(result);
  assert.equal(receipt.final_answer_sha256, createHash("sha256").update(answer).digest("hex"));
  assert.ok(!JSON.stringify(receipt).includes("confirmation sent to ana"));
  const own = await buildReceipt(
    evaluateExpected(expected, await readTrace("data/demo/good.json")),
  );
  assert.equal(own.final_answer_sha256, null);
});

inTemp(
  "buildReceipt() leaves no detected credential in clear, and the receipt still verifies",
  async (dir) => {
    const aws = "AKIAIOSFODNN7EXAMPLE";
    const openai = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f";
    await Deno.writeTextFile(
      `${dir}/trace.json`,
      JSON.stringify({
        format: "toolscore",
        calls: [
          { tool: "s3_put", args: { key_id: aws, bucket: "b" }, result: { ok: true } },
          { tool: "chat", args: { auth: `Bearer ${openai}` }, result: { ok: true } },
        ],
        final_answer: "done",
      }),
    );
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify([{ tool: "s3_put" }]));
    await Deno.writeTextFile(`${dir}/forbidden.json`, JSON.stringify([{ tool: "chat" }]));
    const expected = await loadExpected(`${dir}/gold.json`);
    const result = evaluateExpected(expected, await readTrace(`${dir}/trace.json`), {
      forbidden: [{ tool: "chat" }],
    });
    const receipt = await buildReceipt(result, {
      inputs: {
        gold: `${dir}/gold.json`,
        trace: `${dir}/trace.json`,
        forbidden: `${dir}/forbidden.json`,
      },
      relativeTo: dir,
    });
    const text = JSON.stringify(receipt);
    assert.ok(!text.includes(aws), "AWS key in clear");
    assert.ok(!text.includes(openai), "OpenAI key in clear");
    assert.ok(text.includes("AKIA…LE"), "the preview is kept");
    await writeReceipt(`${dir}/trace.receipt.json`, receipt);
    assert.deepEqual(
      await verifyReceipt(await loadReceipt(`${dir}/trace.receipt.json`), { base: dir }),
      [],
    );
  },
);

inTemp(
  "writeReceipt() writes atomically and loadReceipt() reads the same receipt back",
  async (dir) => {
    await workspace(dir);
    const path = await receiptOf(dir);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["gold.json", "good.json", "run.receipt.json", "wrong_argument.json"]);
    const loaded = await loadReceipt(path);
    assert.equal(loaded.receipt_sha256, receiptSha256(loaded));
    assert.deepEqual(await verifyReceipt(loaded, { base: dir }), []);
    await assert.rejects(
      () => writeReceipt(`${dir}/no/such/folder/r.receipt.json`, loaded),
      InputError,
    );
    // A folder as the target: said plainly, and the folder is untouched.
    await Deno.mkdir(`${dir}/out`);
    await assert.rejects(
      () => writeReceipt(`${dir}/out`, loaded),
      /out: is a folder; give a file path for the receipt/,
    );
    assert.deepEqual([...Deno.readDirSync(`${dir}/out`)], []);
  },
);

inTemp("loadReceipt() rejects a file that is not a receipt, naming the problem", async (dir) => {
  await Deno.writeTextFile(`${dir}/trace.json`, '[{"tool": "a"}]');
  await assert.rejects(
    () => loadReceipt(`${dir}/trace.json`),
    /trace\.json: not a receipt \(\/: must be object/,
  );
  await Deno.writeTextFile(`${dir}/broken.receipt.json`, '{"receipt_version": 1,');
  await assert.rejects(() => loadReceipt(`${dir}/broken.receipt.json`), /broken\.receipt\.json:1:/);
  await assert.rejects(() => loadReceipt(`${dir}/missing.receipt.json`), /file not found/);
});

inTemp("verifyReceipt() names exactly the input whose bytes changed", async (dir) => {
  for (const role of ["trace", "gold"] as const) {
    await workspace(dir);
    const path = await receiptOf(dir);
    const file = role === "trace" ? "wrong_argument.json" : "gold.json";
    await flipByte(`${dir}/${file}`, 5);
    const problems = await verifyReceipt(await loadReceipt(path), { base: dir });
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.match(
      problems[0]!,
      new RegExp(`^${role} ${file}: changed since the receipt was written`),
    );
  }
});

inTemp("verifyReceipt() reports a missing input and a size change", async (dir) => {
  await workspace(dir);
  const path = await receiptOf(dir);
  await Deno.writeTextFile(`${dir}/gold.json`, "\n", { append: true });
  await Deno.remove(`${dir}/wrong_argument.json`);
  const problems = await verifyReceipt(await loadReceipt(path), { base: dir });
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.match(problems[0]!, /^gold gold\.json: changed .*now 497 bytes.*says 496 bytes/);
  assert.match(problems[1]!, /^trace wrong_argument\.json: missing/);
});

inTemp("verifyReceipt() catches a change to the receipt itself", async (dir) => {
  await workspace(dir);
  const path = await receiptOf(dir);
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, text.replace('"grade": "B"', '"grade": "A"'));
  const problems = await verifyReceipt(await loadReceipt(path), { base: dir });
  assert.equal(problems.length, 1, problems.join("\n"));
  assert.match(problems[0]!, /^receipt_sha256 does not match the receipt's content/);
});

inTemp(
  "verifyReceipt() reports ../ and absolute input paths without reading them",
  async (outer) => {
    const dir = `${outer}/inner`;
    await Deno.mkdir(dir);
    // A real file outside the folder, with its correct digest: reading it would pass.
    await Deno.writeTextFile(`${outer}/secret.txt`, "root:x:0:0\n");
    const digest = await fileDigest(`${outer}/secret.txt`);
    const receipt = await buildReceipt(
      evaluateExpected(
        await loadExpected("data/demo/gold.json"),
        await readTrace("data/demo/good.json"),
      ),
    );
    const forged = {
      ...receipt,
      inputs: {
        gold: { path: "../secret.txt", sha256: digest.sha256, bytes: digest.bytes },
        trace: { path: `${outer}/secret.txt`, sha256: digest.sha256, bytes: digest.bytes },
        forbidden: { path: "../../etc/passwd", sha256: "0".repeat(64), bytes: 0 },
      },
    } as Receipt;
    forged.receipt_sha256 = receiptSha256(forged);
    const problems = await verifyReceipt(forged, { base: dir });
    assert.deepEqual(problems, [
      "gold ../secret.txt: input escapes the receipt directory and the current directory; not read",
      `trace ${outer}/secret.txt: input escapes the receipt directory and the current directory (absolute path); not read`,
      "forbidden ../../etc/passwd: input escapes the receipt directory and the current directory; not read",
    ]);
    // Opting in reads them: the two real ones check out, /etc/passwd's bytes do not match.
    const opted = await verifyReceipt(forged, { base: dir, allowOutside: true });
    assert.equal(opted.length, 1, opted.join("\n"));
    assert.match(opted[0]!, /^forbidden \.\.\/\.\.\/etc\/passwd: (changed|missing|cannot be read)/);
  },
  true,
);

inTemp(
  "verifyReceipt() reports an input that leaves the folder through a symbolic link",
  async (outer) => {
    await Deno.mkdir(`${outer}/inner`);
    await Deno.writeTextFile(`${outer}/target.json`, "[]");
    // Deno.symlink needs unscoped read permission; the tests get read access to the repository only.
    const ln = await new Deno.Command("ln", {
      args: ["-s", `${outer}/target.json`, `${outer}/inner/link.json`],
    }).output();
    assert.equal(ln.code, 0, new TextDecoder().decode(ln.stderr));
    const digest = await fileDigest(`${outer}/target.json`);
    const receipt = await buildReceipt(
      evaluateExpected(
        await loadExpected("data/demo/gold.json"),
        await readTrace("data/demo/good.json"),
      ),
    );
    const forged = { ...receipt, inputs: { trace: { ...digest, path: "link.json" } } } as Receipt;
    forged.receipt_sha256 = receiptSha256(forged);
    assert.deepEqual(await verifyReceipt(forged, { base: `${outer}/inner` }), [
      "trace link.json: input escapes the receipt directory and the current directory (through a symbolic link); not read",
    ]);
  },
  true,
);

Deno.test("verifyReceipt() reports a damaged receipt instead of throwing", async () => {
  assert.deepEqual(await verifyReceipt([]), ["not a receipt: expected a JSON object"]);
  const problems = await verifyReceipt({ receipt_version: 2, inputs: { trace: { bytes: 1 } } });
  assert.ok(
    problems.some((p) => p.startsWith("not a valid receipt: /receipt_version")),
    problems.join("\n"),
  );
  assert.ok(problems.includes("input trace: no path; the receipt is damaged"));
  assert.ok(problems.includes("not a valid receipt: /producer: is missing"), problems.join("\n"));
  const extra = await verifyReceipt({ receipt_version: 1, score: 1 });
  assert.ok(
    extra.includes("not a valid receipt: /score: is not a receipt field"),
    extra.join("\n"),
  );
  // Each problem names its pointer and what would be right.
  const sound = await buildReceipt(evaluate([{ tool: "a" }], [{ tool: "a" }]));
  const damaged = {
    ...sound,
    created_at: "yesterday",
    result: { ...sound.result, grade: "Z" },
    inputs: { trace: { path: "t.json", sha256: "ABC", bytes: 1 } },
  };
  assert.deepEqual(receiptShapeProblems(damaged), [
    "/created_at: must be a UTC time like 2026-11-29T12:00:00Z",
    "/inputs/trace/sha256: must be 64 lowercase hex digits (a SHA-256)",
    '/result/grade: must be one of "A", "B", "C", "D", "F"',
  ]);
  // Another JSON file (a contract, say): one line that says what to give instead.
  assert.deepEqual(await verifyReceipt({ tools: ["search"], min_score: 0.9 }), [
    "not a receipt (it has no receipt_version); give a file written by toolscore eval --receipt",
  ]);
});

inTemp(
  "regrade() with new weights gives the score a fresh evaluation gives, and records its source",
  async (dir) => {
    await workspace(dir);
    const path = await receiptOf(dir);
    const old = await loadReceipt(path);
    const weights = { argument_f1: 2, required_call_recall: 1 };
    const done = await regrade(path, { weights });
    const fresh = evaluateExpected(
      await loadExpected(`${dir}/gold.json`),
      await readTrace(`${dir}/wrong_argument.json`),
      { weights },
    );
    assert.equal(done.result.score, fresh.score);
    assert.equal(done.receipt.result.score, fresh.score);
    assert.notEqual(done.result.score, old.result.score);
    assert.deepEqual(done.previous, old.result);
    assert.equal(done.scoreDelta, fresh.score - old.result.score);
    assert.deepEqual(done.problems, []);
    assert.deepEqual(done.receipt.regraded_from, {
      path: "run.receipt.json",
      receipt_sha256: old.receipt_sha256,
    });
    assert.deepEqual(done.receipt.settings.weights, fresh.weights);
    assert.deepEqual(done.receipt.inputs, old.inputs);
    assert.equal(done.receipt.result.min_score, 0.9);
    // The new receipt, written beside the old one, verifies.
    await writeReceipt(`${dir}/run.regraded.receipt.json`, done.receipt);
    assert.deepEqual(
      await verifyReceipt(await loadReceipt(`${dir}/run.regraded.receipt.json`), { base: dir }),
      [],
    );
  },
);

inTemp(
  "regrade() keeps a honesty configuration given as a value by hash, and says so",
  async (dir) => {
    await workspace(dir);
    const path = await receiptOf(dir);
    const honesty = { ...DEFAULT_HONESTY, successPatterns: [/\bdone\b/i] };
    const first = await regrade(path, { honesty });
    assert.equal(first.receipt.settings.honesty_sha256, jsonSha256(honesty));
    await writeReceipt(`${dir}/valued.receipt.json`, first.receipt);
    // Regraded again without it: the hash alone cannot bring it back, and the caller is told.
    const without = await regrade(`${dir}/valued.receipt.json`);
    assert.equal(without.warnings.length, 1, without.warnings.join("\n"));
    assert.match(without.warnings[0]!, /honesty configuration given as a value; .* only its hash/);
    assert.deepEqual((await regrade(`${dir}/valued.receipt.json`, { honesty })).warnings, []);
    const other = await regrade(`${dir}/valued.receipt.json`, { honesty: DEFAULT_HONESTY });
    assert.deepEqual(other.warnings, [
      "the honesty configuration given differs from the one the receipt hashed",
    ]);
  },
);

inTemp("regrade() without options reproduces the receipt's score", async (dir) => {
  await workspace(dir);
  const path = await receiptOf(dir);
  const done = await regrade(path);
  assert.equal(done.scoreDelta, 0);
  assert.equal(done.result.score, (await loadReceipt(path)).result.score);
});

inTemp(
  "regrade() refuses a receipt whose inputs changed; verify: false regrades and reports",
  async (dir) => {
    await workspace(dir);
    const path = await receiptOf(dir);
    await flipByte(`${dir}/wrong_argument.json`, 5);
    try {
      await regrade(path);
      assert.fail("expected ReceiptMismatchError");
    } catch (caught) {
      assert.ok(caught instanceof ReceiptMismatchError);
      assert.equal(caught.problems.length, 1);
      assert.match(caught.problems[0]!, /^trace wrong_argument\.json: changed/);
    }
    const done = await regrade(path, { verify: false });
    assert.equal(done.problems.length, 1);
    assert.match(done.problems[0]!, /^trace wrong_argument\.json: changed/);
  },
);

inTemp(
  "regrade() never reads an input that escapes the receipt's folder, even unverified",
  async (outer) => {
    await Deno.mkdir(`${outer}/inner`);
    for (const name of ["gold.json", "good.json"]) {
      await Deno.copyFile(`data/demo/${name}`, `${outer}/${name}`);
    }
    const result = evaluateExpected(
      await loadExpected(`${outer}/gold.json`),
      await readTrace(`${outer}/good.json`),
    );
    const receipt = await buildReceipt(result, {
      inputs: { gold: `${outer}/gold.json`, trace: `${outer}/good.json` },
      relativeTo: `${outer}/inner`,
    });
    assert.equal(receipt.inputs.trace?.path, "../good.json");
    await writeReceipt(`${outer}/inner/run.receipt.json`, receipt);
    await assert.rejects(() => regrade(`${outer}/inner/run.receipt.json`), ReceiptMismatchError);
    await assert.rejects(
      () => regrade(`${outer}/inner/run.receipt.json`, { verify: false }),
      /escapes the receipt directory/,
    );
    const trusted = await regrade(`${outer}/inner/run.receipt.json`, { allowOutside: true });
    assert.equal(trusted.result.score, result.score);
  },
  true,
);

inTemp(
  "regrade() lets a new contract bring its weights and bar; an explicit weight still wins",
  async (dir) => {
    await workspace(dir);
    const path = await receiptOf(dir);
    const gold = JSON.parse(await Deno.readTextFile(`${dir}/gold.json`));
    await Deno.writeTextFile(
      `${dir}/contract.json`,
      JSON.stringify({ required: gold, weights: { argument_f1: 3 }, min_score: 0.5 }),
    );
    const contract = await loadExpected(`${dir}/contract.json`);
    const trace = await readTrace(`${dir}/wrong_argument.json`);
    const done = await regrade(path, { gold: `${dir}/contract.json` });
    assert.equal(done.result.score, evaluateExpected(contract, trace).score);
    assert.equal(done.receipt.result.min_score, 0.5);
    assert.equal(done.receipt.result.passed, true);
    assert.equal(done.receipt.inputs.gold?.path, "contract.json");
    const explicit = await regrade(path, {
      gold: `${dir}/contract.json`,
      weights: { sequence_accuracy: 5 },
    });
    assert.equal(
      explicit.result.score,
      evaluateExpected(contract, trace, { weights: { sequence_accuracy: 5 } }).score,
    );
  },
);

inTemp(
  "regrade() of a receipt damaged into invalid JSON names the line and column",
  async (dir) => {
    await workspace(dir);
    const path = await receiptOf(dir);
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, text.replace('"grade": "B",', '"grade": "B"'));
    await assert.rejects(
      () => regrade(path),
      (error: Error) => {
        assert.ok(error instanceof InputError, String(error));
        assert.match(error.message, /run\.receipt\.json:\d+:\d+: invalid JSON/);
        assert.doesNotMatch(error.message, /not a receipt/);
        return true;
      },
    );
  },
);

inTemp("regrade() of a bare trace needs a gold file and has no previous score", async (dir) => {
  await workspace(dir);
  await assert.rejects(
    () => regrade(`${dir}/good.json`),
    /good\.json: regrading a bare trace needs a gold file or contract .*\(--gold G\)/,
  );
  const done = await regrade(`${dir}/good.json`, { gold: `${dir}/gold.json` });
  assert.equal(done.result.score, 1);
  assert.equal(done.previous, null);
  assert.equal(done.scoreDelta, null);
  assert.equal(done.receipt.regraded_from, undefined);
  assert.equal(done.receipt.inputs.trace?.path, "good.json");
});

inTemp("regrade() of a receipt for one trace of a JSONL file scores that trace", async (dir) => {
  await Deno.copyFile("testdata/eval/gold_search.json", `${dir}/gold.json`);
  await Deno.copyFile("testdata/eval/two.jsonl", `${dir}/runs.jsonl`);
  const expected = await loadExpected(`${dir}/gold.json`);
  const { tracesFromText } = await import("../lib/formats/detect.ts");
  const traces = tracesFromText(await Deno.readTextFile(`${dir}/runs.jsonl`), `${dir}/runs.jsonl`);
  const second = evaluateExpected(expected, traces[1]);
  const first = evaluateExpected(expected, traces[0]);
  assert.notEqual(first.score, second.score);
  const receipt = await buildReceipt(second, {
    inputs: { gold: `${dir}/gold.json`, trace: { path: `${dir}/runs.jsonl`, index: 2 } },
    relativeTo: dir,
  });
  assert.equal(receipt.inputs.trace?.index, 2);
  await writeReceipt(`${dir}/runs.2.receipt.json`, receipt);
  const done = await regrade(`${dir}/runs.2.receipt.json`);
  assert.equal(done.result.score, second.score);
  assert.equal(done.receipt.inputs.trace?.index, 2);
  await assert.rejects(
    () => regrade(`${dir}/runs.jsonl`, { gold: `${dir}/gold.json` }),
    /holds 2 traces/,
  );
});

inTemp("fileDigest() streams files larger than one chunk and reports bad paths", async (dir) => {
  const bytes = new Uint8Array(3 * (1 << 20) + 5);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
  await Deno.writeFile(`${dir}/big.bin`, bytes);
  assert.deepEqual(await fileDigest(`${dir}/big.bin`), {
    path: `${dir}/big.bin`,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes: bytes.length,
  });
  await Deno.writeFile(`${dir}/empty`, new Uint8Array());
  assert.equal(
    (await fileDigest(`${dir}/empty`)).sha256,
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  await assert.rejects(() => fileDigest(`${dir}/missing`), /file not found/);
  await assert.rejects(() => fileDigest(dir), /not a regular file/);
});

Deno.test("the shipped receipt schema file is RECEIPT_SCHEMA", async () => {
  const file = JSON.parse(await Deno.readTextFile("schemas/receipt.schema.json"));
  assert.deepEqual(file, RECEIPT_SCHEMA);
  assert.equal(jsonSha256(file), jsonSha256(RECEIPT_SCHEMA));
});

Deno.test("buildReceipt() is deterministic for the same evaluation and time", async () => {
  const expected = await loadExpected("data/demo/gold.json");
  const trace = await readTrace("data/demo/wrong_argument.json");
  const a = await buildReceipt(evaluateExpected(expected, trace), { createdAt: CREATED });
  const b = await buildReceipt(evaluateExpected(expected, trace), { createdAt: CREATED });
  assert.equal(a.receipt_sha256, b.receipt_sha256);
  await assert.rejects(
    () => buildReceipt(evaluateExpected(expected, trace), { minScore: 2 }),
    InputError,
  );
});

inTemp(
  "verifyReceipt() with a root admits ../ inputs inside it and still refuses the rest",
  async (outer) => {
    await Deno.mkdir(`${outer}/runs`);
    await Deno.copyFile("data/demo/gold.json", `${outer}/gold.json`);
    await Deno.copyFile("data/demo/good.json", `${outer}/runs/good.json`);
    const result = evaluateExpected(
      await loadExpected(`${outer}/gold.json`),
      await readTrace(`${outer}/runs/good.json`),
    );
    const receipt = await buildReceipt(result, {
      inputs: { gold: `${outer}/gold.json`, trace: `${outer}/runs/good.json` },
      relativeTo: `${outer}/runs`,
    });
    assert.equal(receipt.inputs.gold?.path, "../gold.json");
    const base = `${outer}/runs`;
    assert.deepEqual(await verifyReceipt(receipt, { base }), [
      "gold ../gold.json: input escapes the receipt directory and the current directory; not read",
    ]);
    assert.deepEqual(await verifyReceipt(receipt, { base, root: outer }), []);
    const forged = {
      ...receipt,
      inputs: {
        ...receipt.inputs,
        forbidden: { path: "../../x.json", sha256: "0".repeat(64), bytes: 0 },
      },
    } as Receipt;
    forged.receipt_sha256 = receiptSha256(forged);
    assert.deepEqual(await verifyReceipt(forged, { base, root: outer }), [
      `forbidden ../../x.json: input escapes ${outer}; not read`,
    ]);
    await writeReceipt(`${base}/good.receipt.json`, receipt);
    await assert.rejects(() => regrade(`${base}/good.receipt.json`), ReceiptMismatchError);
    assert.equal((await regrade(`${base}/good.receipt.json`, { root: outer })).scoreDelta, 0);
  },
  true,
);
