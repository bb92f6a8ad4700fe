// The HTML reports in a real browser: Debian's headless Chromium driven by playwright-core
// (tests/_browser.mjs under Node). Each page is opened from disk and must log no console
// error, request nothing but its own file:// URL, show the key numbers, filter, sort, be
// reachable by keyboard and keep a text contrast of at least 4.5:1 in light and dark mode.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { browserAvailable, openInBrowser } from "./_browser.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const TOKEN = "ghp_" + "aB3dE6gH9jK2".repeat(3);

/** A folder of traces: the demo's three, one with a credential, one with hostile names. */
async function fixture(dir: string): Promise<string> {
  const traces = `${dir}/traces`;
  await Deno.mkdir(traces);
  for (const name of ["good.json", "missing_call.json", "wrong_argument.json"]) {
    await Deno.copyFile(`${ROOT}data/demo/${name}`, `${traces}/${name}`);
  }
  await Deno.writeTextFile(
    `${traces}/credential.json`,
    JSON.stringify([
      { tool: "search_flights", args: { origin: "SFO", destination: "JFK", date: "2026-12-24" } },
      { tool: "book_flight", args: { flight_id: "FL-1", passengers: 2, token: TOKEN } },
    ]),
  );
  // A file name and a tool name that would load an image, run a script or break out of the
  // markup if they were not escaped.
  await Deno.writeTextFile(
    `${traces}/<img src=x onerror=alert(1)>.json`,
    JSON.stringify([{
      tool: "</script><script>alert(1)</script>",
      args: { q: "<b>@here #1</b>" },
    }]),
  );
  return traces;
}

Deno.test("eval, compare and decide --html open from disk in Chromium with no errors or requests", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-html-" });
  try {
    const traces = await fixture(dir);
    const evalRun = await runCollect([
      "eval",
      `${ROOT}data/demo/gold.json`,
      traces,
      "--min-score",
      "0.9",
      "--html",
      `${dir}/eval.html`,
    ]);
    assert.equal(evalRun.code, 1, evalRun.err); // the gate fails: four traces are under the bar
    const contractRun = await runCollect([
      "eval",
      `${ROOT}testdata/contract/flights.yaml`,
      `${ROOT}testdata/contract/good_run.json`,
      "--html",
      `${dir}/contract.html`,
    ]);
    assert.equal(contractRun.code, 0, contractRun.err);
    const runs = [`${ROOT}testdata/runs/agent_runs.jsonl`, `${ROOT}testdata/runs/records.jsonl`];
    const compareRun = await runCollect(["compare", ...runs, "--html", `${dir}/compare.html`]);
    assert.equal(compareRun.code, 0, compareRun.err);
    const decideRun = await runCollect([
      "decide",
      `${ROOT}testdata/runs/protocol.yaml`,
      ...runs,
      "--html",
      `${dir}/decide.html`,
    ]);
    assert.equal(decideRun.code, 0, decideRun.err);

    const evalHtml = await Deno.readTextFile(`${dir}/eval.html`);
    await t.step(
      "the files hold no credential, no external reference and no unescaped markup",
      () => {
        for (const name of ["eval", "contract", "compare", "decide"]) {
          const html = Deno.readTextFileSync(`${dir}/${name}.html`);
          assert.doesNotMatch(
            html,
            /https?:\/\/|<[^>]*\s(?:src|href)=["']?[a-z]|<link|@import|url\(/i,
            name,
          );
        }
        assert.ok(!evalHtml.includes(TOKEN));
        assert.match(evalHtml, /token: "ghp_…K2"/);
        assert.ok(!evalHtml.includes("<img src=x"));
        assert.ok(!evalHtml.includes("</script><script>alert"));
      },
    );

    if (!browserAvailable()) return;
    const results = await openInBrowser([
      {
        file: `${dir}/eval.html`,
        filter: true,
        sort: true,
        contrast: true,
        screenshot: "eval.png",
        fullPage: true,
      },
      { file: `${dir}/eval.html`, keyboard: true },
      { file: `${dir}/contract.html`, contrast: true, screenshot: "contract.png" },
      { file: `${dir}/compare.html`, contrast: true, screenshot: "compare.png", fullPage: true },
      { file: `${dir}/decide.html`, contrast: true, screenshot: "decide.png" },
      { file: `${dir}/compare.html`, screenshot: "compare-dark.png", colorScheme: "dark" },
    ], dir);
    for (const result of results) {
      assert.deepEqual(result.consoleErrors, [], result.file);
      assert.deepEqual(result.otherRequests, [], result.file);
      for (const scheme of ["light", "dark"] as const) {
        const worst = result.contrast?.[scheme];
        if (worst) {
          assert.ok(worst.ratio >= 4.5, `${result.file} ${scheme}: ${JSON.stringify(worst)}`);
        }
      }
    }
    const [evalPage, keyboard, contractPage, comparePage, decidePage] = results;
    assert.equal(results.length, 6);

    await t.step("eval: key numbers, the failing filter, sorting, keyboard", () => {
      assert.match(evalPage!.text, /5 traces: 1 passed, 4 failed/);
      assert.match(evalPage!.text, /0\.825/); // wrong_argument.json's score
      assert.match(evalPage!.text, /argument date expected "2026-12-24", got "2026-12-25"/);
      assert.match(evalPage!.text, /<img src=x onerror=alert\(1\)>\.json/); // shown as text
      assert.equal(evalPage!.rowsBefore, 5);
      assert.equal(evalPage!.rowsAfter, 4);
      assert.equal(evalPage!.filterStatus, "showing the 4 failing traces");
      assert.equal(evalPage!.passSectionsVisible, 0);
      assert.deepEqual(evalPage!.sortedScores, [...evalPage!.sortedScores!].sort((a, b) => a - b));
      assert.equal(keyboard!.filterReachedByTab, true);
      assert.equal(keyboard!.filterToggledByKey, true);
    });
    await t.step("eval with a contract: the chosen alternative is shown", () => {
      assert.match(contractPage!.text, /alternative notify: option 2 \(send_sms\)/);
      assert.match(contractPage!.text, /1 trace: 1 passed, 0 failed/);
    });
    await t.step("compare and decide: intervals, pass^k, the front, verdicts, the decision", () => {
      assert.match(comparePage!.text, /44\/60 = 0\.73/);
      assert.match(comparePage!.text, /\[0\.61, 0\.83\]/);
      assert.match(comparePage!.text, /on the Pareto front/);
      assert.match(comparePage!.text, /large beats mini: 57\/60/);
      assert.match(decidePage!.text, /toolscore decide: adopt/);
      assert.match(decidePage!.text, /passes-more/);
    });
    for (const result of results) {
      if (result.screenshot) {
        const size = (await Deno.stat(result.screenshot)).size;
        assert.ok(size > 10_000, `${result.screenshot}: ${size} bytes`);
        console.log(`screenshot ${result.screenshot} (${size} bytes)`);
      }
    }
  } finally {
    if (Deno.env.get("TOOLSCORE_KEEP_OUTPUT") === undefined) {
      await Deno.remove(dir, { recursive: true });
    } else console.log(`kept ${dir}`);
  }
});
