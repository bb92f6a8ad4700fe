import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { SideEffectPair, ToolCall } from "../mod.ts";
import { validateSideEffects } from "../lib/checks/side_effects.ts";
import { runDeno } from "./_cli.ts";

// Temporary folders inside the repository (ignored as *.tmp), so `--allow-read=.` covers them.
const TEMP = { dir: new URL("..", import.meta.url).pathname, prefix: ".", suffix: ".tmp" };

const gold = (sideEffects: Record<string, unknown>, tool = "t"): ToolCall => ({
  tool,
  sideEffects,
});

function one(sideEffects: Record<string, unknown>, actual?: ToolCall, baseDir?: string) {
  const metrics = validateSideEffects([{ expected: gold(sideEffects), actual }], { baseDir });
  const check = metrics?.checks[0];
  if (check === undefined) throw new Error("no check");
  return check;
}

Deno.test("validateSideEffects() is undefined when nothing is declared", () => {
  equal(validateSideEffects([]), undefined);
  equal(validateSideEffects([{ expected: { tool: "a" }, actual: { tool: "a" } }]), undefined);
  equal(validateSideEffects([{ expected: gold({}) }]), undefined);
});

Deno.test("validateSideEffects() counts, rates and keeps gold order", () => {
  const pairs: SideEffectPair[] = [
    { expected: { tool: "skip" }, actual: { tool: "skip" } },
    {
      expected: gold({ http_ok: true, sql_rows: 2 }, "api"),
      actual: { tool: "api", result: { status: 200, rows: [1, 2] } },
    },
    { expected: gold({ http_ok: 201 }, "notify") },
  ];
  const metrics = validateSideEffects(pairs);
  deepEqual(metrics, {
    total: 3,
    passed: 2,
    success_rate: 2 / 3,
    checks: [
      { index: 1, tool: "api", check: "http_ok", expected: true, passed: true, detail: "HTTP 200" },
      { index: 1, tool: "api", check: "sql_rows", expected: 2, passed: true, detail: "2 rows" },
      {
        index: 2,
        tool: "notify",
        check: "http_ok",
        expected: 201,
        passed: false,
        detail: "call not found",
      },
    ],
  });
});

Deno.test("validateSideEffects() http_ok reads every place a status can be", () => {
  const cases: [unknown, Partial<ToolCall>, boolean][] = [
    [true, { result: { status: 204 } }, true],
    [true, { result: { status_code: 302 } }, false],
    [true, { result: 200 }, true],
    [true, { result: '{"status": 201, "id": 7}' }, true],
    [true, { result: { status: "200" } }, true],
    [true, { result: "created", metadata: { http_status: 201 } }, true],
    [204, { result: "204" }, true],
    [404, { result: { status: 404 } }, true],
    [200, { result: { status: 201 } }, false],
  ];
  for (const [expected, actual, passed] of cases) {
    const check = one({ http_ok: expected }, { tool: "t", ...actual });
    equal(
      check.passed,
      passed,
      `${JSON.stringify(expected)} vs ${JSON.stringify(actual)}: ${check.detail}`,
    );
  }
  match(
    one({ http_ok: true }, { tool: "t", result: { status: 500 } }).detail,
    /HTTP 500, expected a 2xx status/,
  );
  match(one({ http_ok: true }, { tool: "t" }).detail, /no HTTP status captured/);
  match(
    one({ http_ok: "yes" }, { tool: "t", result: 200 }).detail,
    /expected true or a status code, got "yes"/,
  );
});

Deno.test("validateSideEffects() sql_rows reads counts and compares ranges", () => {
  const cases: [unknown, unknown, boolean][] = [
    [true, 3, true],
    [true, 0, false],
    [false, { rowcount: 0 }, true],
    [2, [{ id: 1 }, { id: 2 }], true],
    [true, { rows_affected: 5 }, true],
    [true, { row_count: 1 }, true],
    [true, { count: 0 }, false],
    [true, { rows: [] }, false],
    [{ min: 1, max: 10 }, { rows_affected: 10 }, true],
    [{ min: 1, max: 10 }, { rows_affected: 11 }, false],
    [{ min: 2 }, '{"rowcount": 3}', true],
    [{ max: 0 }, 0, true],
    // Results captured as text: a bare integer, a JSON list, padded with whitespace.
    [3, " 3\n", true],
    [2, '[{"id": 1}, {"id": 2}]', true],
    [true, "-1", false],
    [true, "3 rows", false],
  ];
  for (const [expected, result, passed] of cases) {
    const check = one({ sql_rows: expected }, { tool: "t", result });
    equal(
      check.passed,
      passed,
      `${JSON.stringify(expected)} vs ${JSON.stringify(result)}: ${check.detail}`,
    );
  }
  match(
    one({ sql_rows: 1 }, { tool: "t", result: { rows_affected: 3 } }).detail,
    /3 rows, expected 1/,
  );
  match(one({ sql_rows: true }, { tool: "t" }).detail, /no result captured/);
  match(one({ sql_rows: true }, { tool: "t", result: "OK" }).detail, /no row count in the result/);
  match(
    one({ sql_rows: { least: 1 } }, { tool: "t", result: 1 }).detail,
    /expected true, false, a row count or \{min, max\}/,
  );
});

Deno.test("validateSideEffects() file_exists checks the real file system", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    await Deno.mkdir(`${dir}/out`);
    await Deno.writeTextFile(`${dir}/out/report.md`, "# report\n");
    const wrote = (args: Record<string, unknown>): ToolCall => ({
      tool: "write_file",
      args,
      result: "ok",
    });
    // The path from the actual call's args, relative to the base folder.
    const fromArgs = one({ file_exists: true }, wrote({ file_path: "out/report.md" }), dir);
    ok(fromArgs.passed, fromArgs.detail);
    equal(fromArgs.detail, `a file exists at ${dir}/out/report.md`);
    // The expected string wins over the args; an absolute path ignores the base folder.
    ok(
      one({ file_exists: `${dir}/out/report.md` }, wrote({ path: "elsewhere.md" }), "/nowhere")
        .passed,
    );
    const missing = one({ file_exists: "out/summary.csv" }, wrote({}), dir);
    equal(missing.passed, false);
    equal(missing.detail, `no file at ${dir}/out/summary.csv`);
    // false expects no file.
    ok(one({ file_exists: false }, wrote({ path: "out/gone.md" }), dir).passed);
    equal(one({ file_exists: false }, wrote({ path: "out/report.md" }), dir).passed, false);
    // No path anywhere.
    match(
      one({ file_exists: true }, wrote({ content: "x" }), dir).detail,
      /none of the args path, file/,
    );
    match(
      one({ file_exists: 3 }, wrote({ path: "x" }), dir).detail,
      /expected a path, true or false/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validateSideEffects() fails unknown checks and unpaired calls", () => {
  const unknown = one({ email_sent: true }, { tool: "t", result: "ok" });
  equal(unknown.passed, false);
  match(unknown.detail, /no validator for email_sent \(known: http_ok, file_exists, sql_rows\)/);
  // "constructor" and other inherited names are not validators either.
  equal(one({ constructor: true }, { tool: "t", result: "ok" }).passed, false);
  equal(one({ file_exists: true }).detail, "call not found");
});

Deno.test("validateSideEffects() file_exists without read permission fails with the flag to add", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const script = `${dir}/check.ts`;
    const lib = new URL("../lib/checks/side_effects.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { validateSideEffects } from ${JSON.stringify(lib)};\n` +
        `const m = validateSideEffects([{ expected: { tool: "w", sideEffects: { file_exists: "/etc/hostname" } }, ` +
        `actual: { tool: "w", result: "ok" } }]);\n` +
        `console.log(JSON.stringify(m));\n`,
    );
    const repo = new URL("..", import.meta.url).pathname;
    const output = await runDeno([
      "run",
      "--no-prompt",
      "--no-check",
      `--config=${repo}deno.json`,
      script,
    ]);
    equal(output.code, 0, output.err);
    const metrics = JSON.parse(output.out);
    equal(metrics.passed, 0);
    match(
      metrics.checks[0].detail,
      /could not check \/etc\/hostname: no permission to read it; run deno with --allow-read=\/etc\/hostname/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
