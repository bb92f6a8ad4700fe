// The Markdown reports, rendered with markdown-it (CommonMark + GFM tables, from
// tools/test-deps): no raw HTML but <details>/<summary>, trace text shown as itself and unable
// to mention anyone or link an issue, within 65,536 bytes on a 10,000-trace run.
import assert from "node:assert/strict";
import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { runCollect } from "./_cli.ts";
import { ALLOWED_HTML, markdownIt, rawHtml } from "./_markdown.ts";
import { escapeMarkdown, showControls, utf8Length } from "../lib/report/escape.ts";
import { MARKDOWN_LIMIT } from "../lib/report/markdown_budget.ts";

const TOKEN = "ghp_" + "aB3dE6gH9jK2".repeat(3);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const decode = (html: string) =>
  html.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

/**
 * What escapeMarkdown promises to show: the text, controls escaped (references, e-mail
 * addresses and emoji are broken by zero-width spaces, removed here and checked apart; URLs
 * show as code, whose tags are removed here).
 */
const shown = (text: string) => showControls(text).replace(/\u200b/g, "");
const seen = (html: string) => decode(html.replace(/<\/?code>/g, "")).replace(/\u200b/g, "");
const LIVE = /(?<![\u200b@])@[A-Za-z0-9]|#\d|[A-Za-z0-9]@|:[A-Za-z0-9_+-]+:/;

Deno.test("escapeMarkdown() renders as the text itself, in a line and in a table cell", async () => {
  const md = await markdownIt();
  if (md === undefined) return;
  const special = fc.constantFrom(
    ..."|`*_[]()<>&#@!\\~-+=.:'\"\n\t\x1b\u202e\u0085$ GH-1 @a #2 ".split(""),
    "https://a.test/b_c",
    "www.x.test",
    "a@b.test",
    ":smile:",
    "$x$",
  );
  const texts = fc.array(fc.oneof(special, fc.string({ unit: "grapheme", maxLength: 4 })), {
    maxLength: 30,
  }).map((parts) => parts.join(""));
  fc.assert(
    fc.property(texts, (text) => {
      const escaped = escapeMarkdown(text);
      for (const c of ["\n", "\r", "\x1b", "\u202e"]) assert.ok(!escaped.includes(c));
      // A line starting with the text would read some prefixes as block syntax; reports
      // always put trace text after their own words.
      const line = md.renderInline(`x ${escaped}`);
      assert.equal(seen(line), `x ${shown(text)}`);
      assert.doesNotMatch(decode(line.replace(/<code>[^<]*<\/code>/g, " ")), LIVE);
      const table = md.render(`| a |\n| - |\n| ${escaped} |\n`);
      const cell = /<td>([\s\S]*?)<\/td>/.exec(table)?.[1] ?? "";
      assert.equal(seen(cell), shown(text).trim());
      assert.deepEqual(rawHtml(md, `x ${escaped}`), []);
    }),
    { numRuns: 400 },
  );
});

async function traceFolder(dir: string): Promise<string> {
  const traces = `${dir}/traces`;
  await Deno.mkdir(traces);
  for (const name of ["good.json", "missing_call.json", "wrong_argument.json"]) {
    await Deno.copyFile(`${ROOT}data/demo/${name}`, `${traces}/${name}`);
  }
  await Deno.writeTextFile(
    `${traces}/credential.json`,
    JSON.stringify([{ tool: "search_flights", args: { origin: "SFO", token: TOKEN } }]),
  );
  // A trace whose names try to ping, link, inject HTML, break the table and rewrite the line.
  await Deno.writeTextFile(
    `${traces}/@octocat #123 | x.json`,
    JSON.stringify([{
      tool: "<script>alert(1)</script>|`rm -rf`\x1b[2J\u202egnp.exe",
      args: { q: "@here see #42 and GH-7 **bold** [link](javascript:alert(1))" },
    }]),
  );
  return traces;
}

Deno.test("eval --markdown: summary, table, evidence, issues; trace text is inert", async () => {
  const md = await markdownIt();
  const dir = await Deno.makeTempDir({ prefix: "toolscore-md-" });
  try {
    const traces = await traceFolder(dir);
    const path = `${dir}/report.md`;
    const run = await runCollect([
      "eval",
      `${ROOT}data/demo/gold.json`,
      traces,
      "--min-score",
      "0.9",
      "--markdown",
      path,
    ]);
    assert.equal(run.code, 1, run.err);
    const text = await Deno.readTextFile(path);
    assert.match(text, /^### toolscore eval: FAIL\n\n5 traces: 1 passed, 4 failed; mean score /);
    assert.ok(!text.includes(TOKEN));
    assert.match(text, /unexpected argument token = "ghp\\_…K2"/);
    assert.match(text, /^Evidence: \d+ pass, \d+ fail, \d+ unknown/m);
    assert.match(
      text,
      /^- search\\_flights \(expected call 1\): argument date expected "2026-12-24", got "2026-12-25"$/m,
    );
    assert.match(text, /^- error claimed-success: call \\#\u200b2 book\\_flight failed/m);
    assert.match(
      text,
      /<details>\n<summary>Passing traces \(1\)<\/summary>\n\n- .*good\.json: 1\.00 A/,
    );
    assert.ok(text.includes("@\u200boctocat \\#\u200b123 \\| x"));
    assert.ok(text.includes("\\\\u001b\\[2J\\\\u202egnp")); // renders as \u001b[2J\u202egnp
    assert.ok(!text.includes("\x1b") && !text.includes("\u202e"));
    assert.ok(!text.includes("<script>"));
    if (md === undefined) return;
    assert.deepEqual(
      rawHtml(md, text).filter((html) => !ALLOWED_HTML.test(html)),
      [],
    );
    const html = md.render(text);
    assert.equal((html.match(/<tr>/g) ?? []).length, 1 + 5); // header + one row per trace
    assert.doesNotMatch(html, /<script|<a |href=/);
    assert.ok(!/@[A-Za-z]/.test(html.replace(/<[^>]+>/g, ""))); // no live @mention
    assert.ok(!/#\d/.test(html.replace(/<[^>]+>/g, ""))); // no issue reference
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval --markdown over 10,000 traces stays within 65,536 bytes, cut between rows", async () => {
  const md = await markdownIt();
  const dir = await Deno.makeTempDir({ prefix: "toolscore-md-" });
  try {
    // One JSONL file of 10,000 traces: every third one misses its second call.
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const calls = [{ tool: "search", args: { q: `query ${i}` } }];
      if (i % 3 !== 0) calls.push({ tool: "book", args: { q: `item ${i}` } });
      lines.push(JSON.stringify(calls));
    }
    await Deno.writeTextFile(`${dir}/runs.jsonl`, `${lines.join("\n")}\n`);
    await Deno.writeTextFile(
      `${dir}/gold.json`,
      JSON.stringify([{ tool: "search" }, { tool: "book" }]),
    );
    const path = `${dir}/report.md`;
    const run = await runCollect([
      "eval",
      `${dir}/gold.json`,
      `${dir}/runs.jsonl`,
      "--min-score",
      "0.95",
      "--markdown",
      path,
      "--json",
    ]);
    assert.equal(run.code, 1, run.err);
    const text = await Deno.readTextFile(path);
    const bytes = utf8Length(text);
    console.log(`10,000 traces: ${bytes} bytes of Markdown (limit ${MARKDOWN_LIMIT})`);
    assert.ok(bytes <= MARKDOWN_LIMIT, `${bytes} bytes`);
    assert.equal(new TextEncoder().encode(text).length, bytes);
    assert.match(text, /^### toolscore eval: FAIL\n\n10000 traces: 6666 passed, 3334 failed;/);
    const note =
      /_Truncated to stay within 65,536 bytes: ([\d,]+) table rows, ([\d,]+) failing-trace sections, ([\d,]+) passing traces not shown\. /
        .exec(text);
    assert.ok(note, text.slice(-400));
    const rowsLeft = Number(note[1]!.replace(/,/g, ""));
    const rowLines = text.split("\n").filter((line) =>
      /^\| \d+\.json|^\| .*runs\.jsonl/.test(line)
    );
    assert.equal(rowLines.length + rowsLeft, 10_000);
    // Every table line is a whole row, and the table ends before a blank line.
    const table = text.slice(text.indexOf("| trace |"));
    const end = table.indexOf("\n\n");
    for (const line of table.slice(0, end).split("\n")) assert.match(line, /^\|.*\|$/);
    if (md === undefined) return;
    const html = md.render(text);
    assert.equal((html.match(/<tr>/g) ?? []).length, 1 + rowLines.length);
    assert.deepEqual(rawHtml(md, text).filter((h) => !ALLOWED_HTML.test(h)), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--github-summary appends to $GITHUB_STEP_SUMMARY, or says in one line that it is unset", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-md-" });
  const before = Deno.env.get("GITHUB_STEP_SUMMARY");
  try {
    const summary = `${dir}/summary.md`;
    await Deno.writeTextFile(summary, "earlier step\n");
    Deno.env.set("GITHUB_STEP_SUMMARY", summary);
    const args = [
      "eval",
      `${ROOT}data/demo/gold.json`,
      `${ROOT}data/demo/good.json`,
      "--min-score",
      "0.9",
    ];
    const first = await runCollect([...args, "--github-summary"]);
    assert.equal(first.code, 0, first.err);
    const runs = `${ROOT}testdata/runs/agent_runs.jsonl`;
    const second = await runCollect(["compare", runs, "--github-summary"]);
    assert.equal(second.code, 0, second.err);
    const text = await Deno.readTextFile(summary);
    assert.match(text, /^earlier step\n### toolscore eval: PASS\n/);
    assert.match(text, /\n### toolscore compare: 3 variants, 120 runs\n/);

    Deno.env.delete("GITHUB_STEP_SUMMARY");
    const plain = await runCollect(args);
    const unset = await runCollect([...args, "--github-summary"]);
    assert.equal(unset.code, plain.code);
    assert.equal(unset.out, plain.out);
    assert.equal(
      unset.err,
      "toolscore: --github-summary: GITHUB_STEP_SUMMARY is not set (not on GitHub Actions); no step summary written\n",
    );
    const failing = await runCollect([
      "eval",
      `${ROOT}data/demo/gold.json`,
      `${ROOT}data/demo/wrong_argument.json`,
      "--min-score",
      "0.9",
      "--github-summary",
    ]);
    assert.equal(failing.code, 1); // the gate's exit code, summary or not
  } finally {
    if (before === undefined) Deno.env.delete("GITHUB_STEP_SUMMARY");
    else Deno.env.set("GITHUB_STEP_SUMMARY", before);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compare and decide --markdown: the table, the verdicts, the rules", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-md-" });
  try {
    const runs = [`${ROOT}testdata/runs/agent_runs.jsonl`, `${ROOT}testdata/runs/records.jsonl`];
    const compare = await runCollect(["compare", ...runs, "--markdown", `${dir}/c.md`]);
    assert.equal(compare.code, 0, compare.err);
    const c = await Deno.readTextFile(`${dir}/c.md`);
    assert.match(
      c,
      /^\| mini \| 60 \| 4 \| 44\/60 = 0\.73 \| \[0\.61, 0\.83\] \| \[0\.66, 0\.81\] \| 0\.73 \| &#36;0\.0031 \| 8\.09 s \| 0 \|$/m,
    );
    assert.match(c, /^- \*\*called\*\*: large beats mini: 57\/60/m);
    const decide = await runCollect([
      "decide",
      `${ROOT}testdata/runs/protocol.yaml`,
      ...runs,
      "--markdown",
      `${dir}/d.md`,
    ]);
    assert.equal(decide.code, 0, decide.err);
    const d = await Deno.readTextFile(`${dir}/d.md`);
    assert.match(d, /^### toolscore decide: adopt\n/);
    assert.match(d, /^Protocol sha256 [0-9a-f]{64}$/m);
    assert.match(d, /^\| pass \| passes-more \| pass\\_rate \|/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
