// Issue 33, item 3: the HTML reports a reviewer trusts at a glance. A failed call is drawn red
// with its error and a call without an outcome grey; every failing verdict says why; failures
// come first, the worst first; the decide page's rules and its comparison cannot disagree.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";

const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("eval --html: failed calls red with their error, unknown ones grey, failures first with a reason", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-html33-" });
  try {
    const traces = `${dir}/traces`;
    await Deno.mkdir(traces);
    for (const name of ["good.json", "missing_call.json", "wrong_argument.json"]) {
      await Deno.copyFile(`${ROOT}data/demo/${name}`, `${traces}/${name}`);
    }
    // Sorted by name, "a_..." would come first; it passes, so it must come last.
    await Deno.copyFile(`${ROOT}data/demo/good.json`, `${traces}/a_first_by_name.json`);
    await Deno.writeTextFile(
      `${traces}/no_outcomes.json`,
      JSON.stringify([{ tool: "search_flights", args: { origin: "SFO" } }]),
    );
    const path = `${dir}/eval.html`;
    const run = await runCollect([
      "eval",
      `${ROOT}data/demo/gold.json`,
      traces,
      "--min-score",
      "0.9",
      "--html",
      path,
    ]);
    assert.equal(run.code, 1, run.err);
    const html = await Deno.readTextFile(path);
    // The failed booking: a red card that says so, with the tool's error.
    const failed = [...html.matchAll(/<div class="call[^"]*call-failed"[^>]*>.*?<\/ul><\/div>/g)]
      .map((m) => m[0]);
    assert.ok(
      failed.some((box) => /book_flight/.test(box) && /✗ failed: payment declined/.test(box)),
    );
    assert.match(
      html,
      /\.call\.call-failed \{ border: 2px solid var\(--fail\); background: var\(--miss-bg\); \}/,
    );
    // A call the trace gives no outcome for: grey, and says it is unknown.
    assert.match(html, /<div class="call[^"]*call-unknown">.*?\? outcome unknown/);
    assert.match(html, /\.call\.call-unknown \{[^}]*color: var\(--muted\)/);
    // The table: failing rows first, lowest score first, then the passing ones in run order.
    const body = html.slice(html.indexOf("<tbody>"), html.indexOf("</tbody>"));
    const rows = [...body.matchAll(/<tr class="is-(pass|fail)">(.*?)<\/tr>/g)].map((m) => ({
      pass: m[1] === "pass",
      score: Number(/data-v="([\d.]+)"/.exec(m[2]!)![1]),
      verdict: /<td data-v="[01]">(.*?)<\/td>$/.exec(m[2]!)![1]!,
      name: /<th scope="row">(?:<a [^>]*>)?([^<]*)/.exec(m[2]!)![1]!,
    }));
    assert.equal(rows.length, 5);
    const firstPass = rows.findIndex((row) => row.pass);
    assert.ok(rows.slice(firstPass).every((row) => row.pass), JSON.stringify(rows));
    const failScores = rows.slice(0, firstPass).map((row) => row.score);
    assert.deepEqual(failScores, [...failScores].sort((a, b) => a - b));
    assert.ok(firstPass === 3, JSON.stringify(rows));
    // Each failing verdict: the gate and the first reason.
    const reasons = Object.fromEntries(
      rows.filter((row) => !row.pass).map((row) => [row.name.replace(/.*\//, ""), row.verdict]),
    );
    assert.match(
      reasons["missing_call.json"]!,
      /FAIL<\/span> <span class="reason">failed required-calls: 1 of 3 required calls missing: send_confirmation/,
    );
    assert.match(
      reasons["wrong_argument.json"]!,
      /FAIL<\/span> <span class="reason">below bar 0\.90 \(score 0\.825\): search_flights \(expected call 1\): argument date expected &quot;2026-12-24&quot;, got &quot;2026-12-25&quot;/,
    );
    // The sections follow the same order, and the filter and sort controls are still there.
    const sections = [...html.matchAll(/<details class="trace is-(pass|fail)"/g)].map((m) => m[1]);
    assert.deepEqual(sections, ["fail", "fail", "fail", "pass", "pass"]);
    assert.match(html, /<input type="checkbox" id="only-failing">/);
    assert.match(html, /<table class="sortable" id="summary-table">/);
    assert.match(html, /<summary><h3>[^<]*missing_call\.json<\/h3>.*FAIL: failed required-calls: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// One row of testdata/runs/agent_runs.jsonl, changed per run.
async function runRows(): Promise<string> {
  const text = await Deno.readTextFile(`${ROOT}testdata/runs/agent_runs.jsonl`);
  const template = JSON.parse(text.split("\n")[0]!);
  const lines: string[] = [];
  // 30 tasks, once each: mini passes 20, large passes those 20 and 6 more. A paired test calls
  // it (6 discordant tasks, all for large: p = 0.031); Fisher's pooled test does not (p ≈ 0.12).
  for (let task = 0; task < 30; task++) {
    for (const [arm, passed] of [["mini", task < 20], ["large", task < 26]] as const) {
      lines.push(JSON.stringify({
        ...template,
        run_id: `${arm}-t${task}`,
        arm_id: arm,
        model: arm,
        task_id: `t${task}`,
        repeat: 0,
        passed,
        outcome: passed ? "pass" : "fail",
        score: passed ? 0.95 : 0.5,
      }));
    }
  }
  return `${lines.join("\n")}\n`;
}

Deno.test("decide --html: the comparison decides with the rule's test; a bound has no baseline", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-html33-" });
  try {
    await Deno.writeTextFile(`${dir}/runs.jsonl`, await runRows());
    await Deno.writeTextFile(
      `${dir}/protocol.yaml`,
      [
        "protocol_version: 1",
        "baseline: mini",
        "candidate: large",
        "min_runs: 20",
        "rules:",
        "  - { id: passes-more, metric: pass_rate, expect: candidate_better }",
        "  - { id: cost-cap, metric: cost, max: 0.05 }",
        "",
      ].join("\n"),
    );
    const path = `${dir}/decide.html`;
    const run = await runCollect([
      "decide",
      `${dir}/protocol.yaml`,
      `${dir}/runs.jsonl`,
      "--html",
      path,
    ]);
    assert.equal(run.code, 1, run.err + run.out);
    const html = await Deno.readTextFile(path);
    assert.match(html, /passes-more<\/th>.*not shown better/);
    // The comparison below the rules must not call the pair the rule did not.
    assert.doesNotMatch(html, /large beats mini/);
    // The cost bound reads the candidate only: no "unknown" baseline beside a known cost.
    const costRow = /<tr>.*?cost-cap<\/th>.*?<\/tr>/.exec(html)?.[0] ?? "";
    assert.match(
      costRow,
      /<td class="num"><span title="this rule bounds the candidate only">—<\/span><\/td>/,
    );
    assert.doesNotMatch(costRow, /unknown/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
