// Issue 33, item 1: GitHub renders `$…$` as math and links bare URLs. The Markdown of a mixed
// report, read by markdown-it 15 with a dollar-math plugin (markdown-it-texmath) and linkify,
// holds no math token and no link made from trace data; the text still reads as the data.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCollect } from "./_cli.ts";
import { allTokens, markdownItGitHub } from "./_markdown.ts";
import { escapeMarkdown } from "../lib/report/escape.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// Each a piece of data that GitHub would read as math, a link or a picture.
const HOSTILE = [
  "$x$",
  "costs $5 and $10",
  "$`\\sqrt{2}`$",
  "$$E = mc^2$$",
  "https://evil.test/phish?a=1&b=_2_",
  "www.evil.test/x",
  "mailto:ana@example.com",
  "ana@example.com",
  ":smile: :+1:",
  "foo_https://x.test/y)",
];

Deno.test("escapeMarkdown() leaves no math, link or emoji for GitHub's renderer", async () => {
  const md = await markdownItGitHub();
  if (md === undefined) return;
  for (const text of HOSTILE) {
    const escaped = escapeMarkdown(text);
    for (const source of [`x ${escaped}`, `| a |\n| - |\n| ${escaped} |\n`, `- ${escaped}`]) {
      const tokens = allTokens(md, source);
      const types = tokens.map((token) => token.type);
      assert.ok(!types.some((type) => type.startsWith("math")), `${text}: ${types.join(" ")}`);
      assert.ok(!types.includes("link_open"), `${text}: ${types.join(" ")}`);
    }
    // What shows is the text itself (URLs in code spans, references broken invisibly).
    const rendered: string = md.renderInline(`x ${escaped}`).replace(/<\/?code>/g, "")
      .replace(/&amp;/g, "&").replace(/\u200b/g, "");
    assert.equal(rendered, `x ${text}`);
  }
  assert.equal(escapeMarkdown("- a"), "\\- a");
  assert.equal(escapeMarkdown("2. a"), "2\\. a");
});

Deno.test("eval --markdown of a mixed report: no math token, no link from data", async () => {
  const md = await markdownItGitHub();
  const dir = await Deno.makeTempDir({ prefix: "toolscore-mdmath-" });
  try {
    const traces = `${dir}/traces`;
    await Deno.mkdir(traces);
    for (const name of ["good.json", "missing_call.json", "wrong_argument.json"]) {
      await Deno.copyFile(`${ROOT}data/demo/${name}`, `${traces}/${name}`);
    }
    // The gold's `{"$regex":"^FL-\\d+$"}` fails here, and every argument carries hostile text.
    await Deno.writeTextFile(
      `${traces}/mixed $x$ www.evil.test.json`,
      JSON.stringify([
        { tool: "search_flights", args: { origin: "$SFO$", destination: HOSTILE[4], date: "$$" } },
        { tool: "book_flight", args: { flight_id: "FL-$x$", passengers: HOSTILE[2] } },
        { tool: "send_confirmation", args: { email: HOSTILE[5] } },
        { tool: ":smile:", args: { note: HOSTILE.join(" ") } },
      ]),
    );
    const path = `${dir}/report.md`;
    const run = await runCollect([
      "eval",
      `${ROOT}data/demo/gold.json`,
      traces,
      "--min-score",
      "0.9",
      "--markdown",
      path,
      "--verbose",
    ]);
    assert.equal(run.code, 1, run.err);
    const text = await Deno.readTextFile(path);
    const dollarLines = text.split("\n").filter((line) => line.includes("&#36;"));
    console.log(`${dollarLines.length} report lines hold a $ from the data`);
    assert.ok(dollarLines.length >= 5, text);
    assert.ok(text.includes("`https://evil.test/phish?a=1&b=_2_`"), text);
    assert.ok(!/(?<!`)\$/.test(text.replace(/`[^`\n]*`/g, "")), "a raw $ outside code");
    if (md === undefined) return;
    const tokens = allTokens(md, text);
    const math = tokens.filter((token) => token.type.startsWith("math"));
    assert.deepEqual(math.map((token) => token.content), []);
    const links = tokens.filter((token) => token.type === "link_open");
    assert.deepEqual(links.length, 0);
    assert.doesNotMatch(md.render(text), /<a |href=/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compare and decide --markdown: costs hold no math for GitHub", async () => {
  const md = await markdownItGitHub();
  const dir = await Deno.makeTempDir({ prefix: "toolscore-mdmath-" });
  try {
    const runs = [`${ROOT}testdata/runs/agent_runs.jsonl`, `${ROOT}testdata/runs/records.jsonl`];
    const compare = await runCollect(["compare", ...runs, "--markdown", `${dir}/c.md`]);
    assert.equal(compare.code, 0, compare.err);
    const decide = await runCollect([
      "decide",
      `${ROOT}testdata/runs/protocol.yaml`,
      ...runs,
      "--markdown",
      `${dir}/d.md`,
    ]);
    assert.equal(decide.code, 0, decide.err);
    for (const name of ["c.md", "d.md"]) {
      const text = await Deno.readTextFile(`${dir}/${name}`);
      assert.match(text, /&#36;0\.0\d/, name); // the costs are there, as entities
      assert.ok(!/\$/.test(text.replace(/`[^`\n]*`/g, "")), `${name}: a raw $`);
      if (md === undefined) continue;
      const math = allTokens(md, text).filter((token) => token.type.startsWith("math"));
      assert.deepEqual(math.map((token) => token.content), [], name);
    }
    // A bound on the candidate reads no baseline: "—", not "unknown".
    assert.match(await Deno.readTextFile(`${dir}/d.md`), /^\| pass \| cost-cap \| cost \| — \|/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
