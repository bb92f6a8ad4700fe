/**
 * `toolscore import bfcl`: real BFCL lines (testdata/bfcl/data/) to a folder
 * of contracts and its index, the errors on bad input (exit 2, `file:line`,
 * nothing written), and `eval` of an imported contract: BFCL's `error_type`
 * beside toolscore's verdict, and `--explain-divergence` on parallel_178.
 *
 * @module
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import { runCollect } from "./_cli.ts";

const DATA = new URL("../testdata/bfcl/data/", import.meta.url).pathname;
const PARALLEL = `${DATA}BFCL_v4_parallel.json`;
const PARALLEL_ANSWERS = `${DATA}possible_answer/BFCL_v4_parallel.json`;

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("import bfcl writes one contract per entry and an index", async () => {
  await withDir(async (dir) => {
    const out = `${dir}/contracts`;
    const commit = "6ea57973c7a6097fd7c5915698c54c17c5b1b6c8";
    const run = await runCollect([
      "import",
      "bfcl",
      PARALLEL,
      PARALLEL_ANSWERS,
      "-o",
      out,
      "--gorilla-commit",
      commit,
    ]);
    equal(run.code, 0, run.err);
    match(run.err, /wrote \d+ contracts \(parallel\) and index\.json/);
    const index = JSON.parse(await Deno.readTextFile(`${out}/index.json`));
    equal(index.benchmark, "bfcl");
    equal(index.gorilla_commit, commit);
    const lines = (await Deno.readTextFile(PARALLEL)).split("\n").filter(Boolean);
    equal(index.contracts.length, lines.length);
    deepEqual(index.contracts[0], {
      id: "parallel_0",
      category: "parallel",
      file: "parallel_0.json",
    });
    const contract = JSON.parse(await Deno.readTextFile(`${out}/parallel_178.json`));
    deepEqual(contract.source, {
      benchmark: "bfcl",
      id: "parallel_178",
      category: "parallel",
      gorilla_commit: commit,
    });
    equal(contract.pass, "exact");
    equal(contract.matching, "bfcl-greedy");
    equal(contract.required.length, 4);
    // Every imported contract is a valid contract file.
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse(
      await Deno.readTextFile(new URL("../schemas/contract.schema.json", import.meta.url)),
    );
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    for (const { file } of index.contracts as { file: string }[]) {
      const doc: unknown = JSON.parse(await Deno.readTextFile(`${out}/${file}`));
      ok(validate(doc), `${file}: ${JSON.stringify(validate.errors)}`);
    }
    // A second import into the same folder is refused without --force.
    const same = [
      "import",
      "bfcl",
      PARALLEL,
      PARALLEL_ANSWERS,
      "-o",
      out,
      "--gorilla-commit",
      commit,
    ];
    const again = await runCollect(same);
    equal(again.code, 2);
    match(again.err, /parallel_0\.json: already exists; choose another -o folder or pass --force/);
    equal(
      (await runCollect([...same, "--force"])).code,
      0,
    );
    // --force replaced the entries: the index lists each id once.
    const replaced = JSON.parse(await Deno.readTextFile(`${out}/index.json`));
    equal(replaced.contracts.length, lines.length);
    // Another model setting is refused in the same folder: one folder never mixes them.
    const other = await runCollect([
      "import",
      "bfcl",
      `${DATA}BFCL_v4_simple_java.json`,
      `${DATA}possible_answer/BFCL_v4_simple_java.json`,
      "-o",
      out,
    ]);
    equal(other.code, 2);
    match(other.err, /index\.json: was written with gorilla_commit "6ea5/);
  });
});

Deno.test("import bfcl adds categories to one folder that eval scores in one run", async () => {
  await withDir(async (dir) => {
    const out = `${dir}/bfcl`;
    for (const category of ["simple_java", "simple_javascript"]) {
      const run = await runCollect([
        "import",
        "bfcl",
        `${DATA}BFCL_v4_${category}.json`,
        `${DATA}possible_answer/BFCL_v4_${category}.json`,
        "-o",
        out,
      ]);
      equal(run.code, 0, run.err);
    }
    const index = JSON.parse(await Deno.readTextFile(`${out}/index.json`));
    const categories = new Set(index.contracts.map((e: { category: string }) => e.category));
    deepEqual([...categories], ["simple_java", "simple_javascript"]);
    // Real result lines of both categories (a model's leaderboard submission), one eval.
    const real = new URL("../testdata/formats/real/", import.meta.url).pathname;
    const run = await runCollect([
      "eval",
      out,
      `${real}bfcl-gemma-v4-simple-java.lines-1-4.json`,
      `${real}bfcl-gemma-v4-simple-javascript.lines-1-3.json`,
      "--json",
      "--bfcl-score",
      `${dir}/score`,
    ]);
    equal(run.code === 0 || run.code === 1, true, run.err);
    const summary = JSON.parse(run.out).summary;
    equal(summary.categories.bfcl.simple_java.total_count, 4);
    equal(summary.categories.bfcl.simple_javascript.total_count, 3);
    for (const category of ["simple_java", "simple_javascript"]) {
      const file = `${dir}/score/non_live/BFCL_v4_${category}_score.json`;
      const header = JSON.parse((await Deno.readTextFile(file)).split("\n")[0]!);
      deepEqual(header, summary.categories.bfcl[category]);
    }
  });
});

Deno.test("import bfcl --underscore-to-dot writes dotted names with _ and records it", async () => {
  await withDir(async (dir) => {
    const run = await runCollect([
      "import",
      "bfcl",
      PARALLEL,
      PARALLEL_ANSWERS,
      "-o",
      dir,
      "--underscore-to-dot",
    ]);
    equal(run.code, 0, run.err);
    const contract = JSON.parse(await Deno.readTextFile(`${dir}/parallel_0.json`));
    equal(contract.required[0].tool, "spotify_play");
    equal(contract.source.underscore_to_dot, true);
  });
});

Deno.test("import bfcl refuses bad input with file:line, exit 2 and nothing written", async () => {
  await withDir(async (dir) => {
    const bad = `${dir}/BFCL_v4_simple_python.json`;
    await Deno.writeTextFile(bad, '{"id": "simple_python_0", "function": []}\n{"id": 3}\n');
    const out = `${dir}/out`;
    const notEntry = await runCollect(["import", "bfcl", bad, "-o", out]);
    equal(notEntry.code, 2);
    equal(notEntry.err, `toolscore: ${bad}:2: expected an entry object with a string "id"\n`);
    await Deno.writeTextFile(bad, '{"id": "simple_python_0", "function": []}\n');
    const noAnswers = await runCollect(["import", "bfcl", bad, "-o", out]);
    equal(noAnswers.code, 2);
    match(
      noAnswers.err,
      /:1: simple_python needs its possible_answer file; give ANSWERS\.json after QUESTIONS\.json/,
    );
    await Deno.writeTextFile(bad, '{"id": "multi_turn_base_0", "function": []}\n');
    const multiTurn = await runCollect(["import", "bfcl", bad, "-o", out]);
    equal(multiTurn.code, 2);
    match(multiTurn.err, /:1: category multi_turn_base is out of scope/);
    const noOutput = await runCollect(["import", "bfcl", bad]);
    equal(noOutput.code, 2);
    match(noOutput.err, /needs -o DIR/);
    const unknown = await runCollect(["import", "bfcl-v9", bad]);
    equal(unknown.code, 2);
    match(unknown.err, /import needs a benchmark \(bfcl, tau2\), got "bfcl-v9"/);
    let written = 0;
    try {
      for await (const _ of Deno.readDir(out)) written++;
    } catch (error) {
      ok(error instanceof Deno.errors.NotFound);
    }
    equal(written, 0);
  });
});

Deno.test("eval of an imported contract names BFCL's error_type and explains a greedy divergence", async () => {
  await withDir(async (dir) => {
    equal((await runCollect(["import", "bfcl", PARALLEL, PARALLEL_ANSWERS, "-o", dir])).code, 0);
    // parallel_178's four right calls, in an order BFCL's greedy pairing fails.
    const call = (company: string, date: string) => ({
      tool: "get_stock_price",
      args: { company_name: company, date, exchange: "NASDAQ" },
    });
    const trace = `${dir}/trace.json`;
    await Deno.writeTextFile(
      trace,
      JSON.stringify([
        call("Apple", "2022-01-01"),
        call("Microsoft", "2022-01-01"),
        call("Microsoft", "2022-02-01"),
        call("Apple", "2022-02-01"),
      ]),
    );
    const text = await runCollect([
      "eval",
      `${dir}/parallel_178.json`,
      trace,
      "--explain-divergence",
    ]);
    equal(text.code, 1);
    match(
      text.out,
      /FAIL: failed exact \(BFCL parallel_function_checker_no_order:cannot_find_match: /,
    );
    match(text.out, /divergence: BFCL's greedy pairing fails this trace, but a one-to-one pairing/);
    const quiet = await runCollect(["eval", `${dir}/parallel_178.json`, trace, "--quiet"]);
    match(
      quiet.out,
      /trace\.json {2}1\.000 {2}fail\s+BFCL parallel_function_checker_no_order:cannot_find_match: /,
    );
    const plain = await runCollect(["eval", `${dir}/parallel_178.json`, trace]);
    equal(plain.out.includes("divergence:"), false);
    const json = await runCollect(["eval", `${dir}/parallel_178.json`, trace, "--json"]);
    const result = JSON.parse(json.out) as {
      error_type: string | null;
      passed: boolean;
      metrics: { bfcl: { optimal_valid: boolean } };
    };
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse(
      await Deno.readTextFile(new URL("../schemas/result.schema.json", import.meta.url)),
    );
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
    const doc: unknown = JSON.parse(json.out);
    ok(validate(doc), JSON.stringify(validate.errors));
    equal(result.error_type, "parallel_function_checker_no_order:cannot_find_match");
    equal(result.metrics.bfcl.optimal_valid, true);
    equal(result.passed, false);
    // The same calls in file order pass.
    await Deno.writeTextFile(
      trace,
      JSON.stringify([
        call("Microsoft", "2022-01-01"),
        call("Microsoft", "2022-02-01"),
        call("Apple", "2022-01-01"),
        call("Apple", "2022-02-01"),
      ]),
    );
    const ordered = JSON.parse(
      (await runCollect(["eval", `${dir}/parallel_178.json`, trace, "--json"])).out,
    );
    equal(ordered.passed, true);
    equal(ordered.error_type, null);
  });
});
