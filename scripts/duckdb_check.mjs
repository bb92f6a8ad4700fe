// Loads a toolscore export into DuckDB and checks a GROUP BY variant query
// against `toolscore compare --json` on the same input: runs, passes, pass
// rate and mean cost per variant must agree. Runs under Node with
// @duckdb/node-api (its native binary ships inside the npm package), pinned in
// scripts/duckdb/package-lock.json:
//
//   (cd scripts/duckdb && npm ci)
//   node scripts/duckdb_check.mjs [RUNS.jsonl…]
//
// `deno` must be on PATH. Without arguments it uses the repository's
// agent-run test data. Exit 0 when every number matches, 1 otherwise.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(new URL("./duckdb/package.json", import.meta.url));
let duckdbPath;
try {
  duckdbPath = require.resolve("@duckdb/node-api");
} catch {
  console.error(
    "duckdb_check: @duckdb/node-api is not installed; run (cd scripts/duckdb && npm ci)",
  );
  process.exit(2);
}
const { DuckDBInstance } = await import(pathToFileURL(duckdbPath).href);

const inputs = process.argv.length > 2
  ? process.argv.slice(2)
  : ["testdata/runs/agent_runs.jsonl", "testdata/export/agent_runs.jsonl"];

function toolscore(args) {
  const result = spawnSync(
    "deno",
    ["run", "--no-prompt", "--allow-read", "--allow-write", "cli.ts", ...args],
    { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
  );
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`toolscore ${args[0]} exited ${result.status}: ${result.stderr}`);
  }
  return result.stdout;
}

const dir = mkdtempSync(join(tmpdir(), "toolscore-duckdb-check-"));
let failed = false;
try {
  const out = join(dir, "export.jsonl");
  process.stdout.write(toolscore(["export", ...inputs, "-o", out]));
  const check = toolscore(["validate-export", out]);
  process.stdout.write(check);

  const compared = JSON.parse(toolscore(["compare", ...inputs, "--json"]));
  const expected = new Map(compared.variants.map((v) => [v.variant, v]));

  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const loaded = await connection.runAndReadAll(
    `CREATE TABLE runs AS SELECT * FROM read_json('${
      out.replaceAll("'", "''")
    }', format = 'newline_delimited')`,
  );
  void loaded;
  const columns = (await connection.runAndReadAll("DESCRIBE runs")).getRowObjectsJS();
  const typeOf = Object.fromEntries(columns.map((c) => [c.column_name, c.column_type]));
  console.log(
    `duckdb: loaded ${out} as table runs (${columns.length} columns; ` +
      `cost_usd ${typeOf.cost_usd}, usage ${typeOf.usage})`,
  );
  const reader = await connection.runAndReadAll(`
    SELECT variant,
           count(*)::INTEGER AS runs,
           count_if(outcome = 'pass')::INTEGER AS passes,
           count_if(outcome = 'pass') / count(*) AS pass_rate,
           avg(cost_usd) AS mean_cost,
           count(cost_usd)::INTEGER AS cost_known,
           sum(usage.input_tokens)::BIGINT AS input_tokens
    FROM runs
    GROUP BY variant
    ORDER BY variant`);
  const rows = reader.getRowObjectsJS();
  connection.closeSync?.();

  const close = (a, b) => (a === null || b === null) ? a === b : Math.abs(a - b) <= 1e-12;
  console.log(
    "variant  runs  passes  pass_rate  mean_cost   | compare: n  passes  pass_rate  cost",
  );
  for (const row of rows) {
    const want = expected.get(row.variant);
    const same = want !== undefined && row.runs === want.n && row.passes === want.counts.pass &&
      close(row.pass_rate, want.pass_rate) && close(row.mean_cost, want.cost) &&
      row.cost_known === want.cost_known;
    failed ||= !same;
    const fmt = (x) => x === null ? "null" : Number(x).toFixed(6);
    console.log(
      `${String(row.variant).padEnd(8)} ${String(row.runs).padStart(4)}  ${
        String(row.passes).padStart(6)
      }  ${fmt(row.pass_rate).padStart(9)}  ${fmt(row.mean_cost).padStart(9)}   | ${
        want === undefined
          ? "missing"
          : `${want.n}  ${want.counts.pass}  ${fmt(want.pass_rate)}  ${fmt(want.cost)}`
      }  ${same ? "match" : "MISMATCH"}`,
    );
  }
  if (rows.length !== expected.size) {
    failed = true;
    console.log(`variants: duckdb ${rows.length}, compare ${expected.size}: MISMATCH`);
  }
  console.log(
    failed ? "duckdb_check: FAILED" : "duckdb_check: every number matches toolscore compare",
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
