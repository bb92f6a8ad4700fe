// `toolscore doctor --markdown FILE` and `--github-summary`, against the fixture server and the
// scripted bad server: the file is written, renders with markdown-it (tools/test-deps) with no raw
// HTML but <details>/<summary>, escapes what a server sends, stays within 65,536 bytes on a large
// --all config, appends the step summary, and never changes the exit code.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { ALLOWED_HTML, markdownIt, rawHtml } from "./_markdown.ts";
import { badServer } from "./_doctor.ts";
import { FIXTURE, tempDir } from "./_mcp.ts";
import { utf8Length } from "../lib/report/escape.ts";
import { MARKDOWN_LIMIT } from "../lib/report/markdown_budget.ts";
import { doctorAllMarkdown } from "../lib/doctor/markdown.ts";
import { DoctorCheck } from "../lib/doctor/check.ts";
import { doctorReport } from "../lib/doctor/report.ts";

const fixtureServer = [Deno.execPath(), "run", "--no-prompt", FIXTURE];

/** A config entry for the bad server with these flags. */
function entry(flags: string[], access: { readable?: string } = {}) {
  const [command, ...args] = badServer(flags, access).command;
  return { command, args };
}

Deno.test("doctor --markdown writes the checklist: summary, table, the failing tool-schemas check, fixes", async () => {
  const md = await markdownIt();
  const dir = await tempDir(".doctor_md_test_");
  try {
    const path = `${dir}/doctor.md`;
    const plain = await runCollect(["doctor", "--linger", "0.1", "--", ...fixtureServer]);
    const run = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--markdown",
      path,
      "--",
      ...fixtureServer,
    ]);
    assert.equal(plain.code, 1);
    assert.equal(run.code, 1, run.err);
    const timeless = (text: string) => text.replace(/\d+\.\d+ s\b/g, "T s");
    assert.equal(timeless(run.out), timeless(plain.out)); // the console report is unchanged
    const text = await Deno.readTextFile(path);
    assert.match(
      text,
      /^### toolscore doctor fixture: FAIL\n\n17 checks: 5 pass, 1 warn, 1 fail, 10 skip; worst: fail\n\n\| status \| check \| detail \|\n/,
    );
    assert.match(
      text,
      /^\| ✗ \*\*fail\*\* \| tool-schemas \| tools\\\[4\\\]\.inputSchema\.properties\.count\.minimum: must be number .*\(tool count\\_items\) \|$/m,
    );
    assert.match(
      text,
      /^- ✗ \*\*fail\*\* tool-schemas: fix these tool definitions at the paths named/m,
    );
    assert.match(text, /^- ! \*\*warn\*\* tool-lint: rename, describe and annotate/m);
    assert.doesNotMatch(text, /^- . \S+ (spec|keys|server-start):/m); // no fix for a pass or skip
    if (md !== undefined) {
      assert.deepEqual(rawHtml(md, text).filter((html) => !ALLOWED_HTML.test(html)), []);
      const html = md.render(text);
      assert.equal((html.match(/<tr>/g) ?? []).length, 1 + 17);
      assert.match(html, /<td>✗ <strong>fail<\/strong><\/td>\n<td>tool-schemas<\/td>/);
    }

    // Its own earlier report is replaced; any other file is not (exit 2, left as it was).
    assert.equal(
      (await runCollect(["doctor", "--linger", "0.1", "--markdown", path, "--", ...fixtureServer]))
        .code,
      1,
    );
    const other = `${dir}/notes.md`;
    await Deno.writeTextFile(other, "my notes\n");
    const refused = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--markdown",
      other,
      "--",
      ...fixtureServer,
    ]);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /notes\.md exists and is not a toolscore report/);
    assert.equal(await Deno.readTextFile(other), "my notes\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor --all --markdown escapes a hostile server name and tool name; failing first, passing in <details>", async () => {
  const md = await markdownIt();
  const dir = await tempDir(".doctor_md_test_");
  try {
    const hostile = "look|up`x`@someone<img src=x onerror=alert(1)>\x1b[2J#12";
    const catalog = `${dir}/catalog.json`;
    await Deno.writeTextFile(
      catalog,
      JSON.stringify([{
        name: hostile,
        description: "Find @someone's #42 <img src=x> | `rm` \x1b[31mred",
        inputSchema: { type: "object", properties: { id: { type: "string", description: "Id." } } },
      }]),
    );
    const config = `${dir}/mcp.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          clean: entry([]),
          [`evil | \`srv\` @octocat <img src=x> \x1b]0;pwned\x07 #7`]: entry(
            ["--catalog", catalog],
            { readable: catalog },
          ),
          broken: entry(["--bad-tools"]),
        },
      }),
    );
    const path = `${dir}/all.md`;
    const run = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--mcp-config",
      config,
      "--all",
      "--markdown",
      path,
    ]);
    assert.equal(run.code, 1, run.err);
    const text = await Deno.readTextFile(path);
    assert.match(
      text,
      /^### toolscore doctor --all: FAIL\n\n3 servers: 1 fail, 1 warn, 1 pass, 0 skip; worst: fail\n/,
    );
    // Failing, then warning, then the passing server collapsed.
    const broken = text.indexOf("#### broken: fail");
    const evil = text.indexOf(
      "#### evil \\| \\`srv\\` @\u200boctocat &lt;img src=x&gt; \\\\u001b\\]0;pwned\\\\u0007 \\#\u200b7: warn",
    );
    const details = text.indexOf(
      "<details>\n<summary>Passing servers (1)</summary>\n\n#### clean: pass",
    );
    assert.ok(broken > 0 && evil > broken && details > evil, text);
    // Words GitHub would read as a mention or a reference are code spans (issue 38): nothing
    // invisible is inserted into a tool name, and nothing links.
    assert.ok(
      text.includes("``look\\|up`x`@someone<img`` src=x `onerror=alert(1)>\\u001b[2J#12;`"),
      text,
    );
    assert.match(text, /^\| ✗ \*\*fail\*\* \| tool-schemas \| .*readOnlyHint/m);
    assert.ok(!text.includes("\x1b") && !text.includes("\x07"));
    // Outside code spans (whose text a renderer escapes) no HTML at all.
    assert.ok(!text.replace(/(`+)[^`]*?(?:`(?!`)[^`]*?)*\1/g, "").includes("<img"));
    if (md === undefined) return;
    assert.deepEqual(rawHtml(md, text).filter((html) => !ALLOWED_HTML.test(html)), []);
    const html = md.render(text);
    assert.doesNotMatch(html, /<img|<a |href=/);
    // GitHub links nothing inside code.
    const words = html.replace(/<code>[^<]*<\/code>/g, "").replace(/<[^>]+>/g, "");
    assert.ok(!/@[A-Za-z]/.test(words), "a live @mention");
    assert.ok(!/#\d/.test(words), "an issue reference");
    assert.ok(html.includes("<code>look|up`x`@someone&lt;img</code>"), html);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor --all --markdown on a 101-server config stays within 65,536 bytes, cut between sections", async () => {
  const md = await markdownIt();
  const dir = await tempDir(".doctor_md_test_");
  try {
    // The fixture first; 99 commands that do not exist (they fail fast); one clean server last.
    const servers: Record<string, unknown> = {
      fixture: { command: Deno.execPath(), args: ["run", "--no-prompt", FIXTURE] },
    };
    for (let i = 0; i < 99; i++) {
      servers[`missing_${i}`] = { command: `/nonexistent/toolscore-server-${i}`, args: ["--x"] };
    }
    servers.clean = entry([]);
    const config = `${dir}/mcp.json`;
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: servers }));
    const path = `${dir}/all.md`;
    const run = await runCollect([
      "doctor",
      "--linger",
      "0.1",
      "--mcp-config",
      config,
      "--all",
      "--markdown",
      path,
    ]);
    assert.equal(run.code, 1, run.err);
    const text = await Deno.readTextFile(path);
    const bytes = utf8Length(text);
    console.log(`101 servers: ${bytes} bytes of Markdown (limit ${MARKDOWN_LIMIT})`);
    assert.ok(bytes <= MARKDOWN_LIMIT, `${bytes} bytes`);
    assert.match(
      text,
      /^### toolscore doctor --all: FAIL\n\n101 servers: 100 fail, 0 warn, 1 pass/,
    );
    assert.match(text, /^\| ✗ \*\*fail\*\* \| tool-schemas \| /m);
    const note =
      /_Truncated to stay within 65,536 bytes: (\d+) server sections, 1 passing-server sections not shown\. /
        .exec(text);
    assert.ok(note, text.slice(-400));
    const sections = text.match(/^#### \S+: fail$/gm) ?? [];
    assert.equal(sections.length + Number(note[1]), 100);
    assert.ok(!text.includes("<details>"));
    // Every section shown is whole: its heading, count line, table header and every row.
    for (const section of text.split(/^#### /m).slice(1)) {
      const [, counts] = /checks: (\d+) pass, (\d+) warn, (\d+) fail, (\d+) skip/.exec(section) ??
        [];
      assert.ok(counts !== undefined, section);
      const total = section.match(/\d+ checks/)![0];
      const rows = section.split("\n").filter((line) => /^\| (✓|!|✗|-) /.test(line));
      assert.equal(`${rows.length} checks`, total);
    }
    if (md !== undefined) {
      assert.deepEqual(rawHtml(md, text).filter((html) => !ALLOWED_HTML.test(html)), []);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctorAllMarkdown() keeps within a small limit and counts what it left out", () => {
  const servers = Array.from({ length: 30 }, (_, i) => ({
    name: `s${i}`,
    report: doctorReport([
      new DoctorCheck("handshake", i % 2 === 0 ? "pass" : "fail", "x".repeat(200), {
        fix: i % 2 === 0 ? null : "fix it",
      }),
    ]),
  }));
  for (const limit of [2_000, 4_000, 8_000]) {
    const text = doctorAllMarkdown(servers, { limit });
    assert.ok(utf8Length(text) <= limit, `${utf8Length(text)} > ${limit}`);
    assert.match(text, /_Truncated to stay within [\d,]+ bytes: .*server sections not shown\./);
  }
  const whole = doctorAllMarkdown(servers);
  assert.doesNotMatch(whole, /Truncated/);
  assert.equal((whole.match(/^#### /gm) ?? []).length, 30);
});

Deno.test("doctor --github-summary appends the Markdown; unset, one stderr line and the same exit", async () => {
  const dir = await tempDir(".doctor_md_test_");
  const before = Deno.env.get("GITHUB_STEP_SUMMARY");
  try {
    const summary = `${dir}/summary.md`;
    await Deno.writeTextFile(summary, "# earlier step\n");
    Deno.env.set("GITHUB_STEP_SUMMARY", summary);
    const clean = ["doctor", "--linger", "0.1", "--github-summary", "--", ...badServer([]).command];
    const failing = [
      "doctor",
      "--linger",
      "0.1",
      "--github-summary",
      "--",
      ...badServer(["--bad-tools"]).command,
    ];
    assert.equal((await runCollect(clean)).code, 0);
    assert.equal((await runCollect(failing)).code, 1);
    const text = await Deno.readTextFile(summary);
    assert.match(
      text,
      /^# earlier step\n### toolscore doctor bad: PASS\n[\s\S]*\n### toolscore doctor bad: FAIL\n/,
    );
    assert.match(text, /^\| ✗ \*\*fail\*\* \| tool-schemas \| /m);

    // With --markdown too, the same text goes to both.
    const path = `${dir}/doctor.md`;
    await Deno.writeTextFile(summary, "");
    assert.equal(
      (await runCollect([...failing.slice(0, 4), "--markdown", path, ...failing.slice(4)])).code,
      1,
    );
    assert.equal(await Deno.readTextFile(summary), `${await Deno.readTextFile(path)}\n`);

    Deno.env.delete("GITHUB_STEP_SUMMARY");
    for (const [args, code] of [[clean, 0], [failing, 1]] as const) {
      const run = await runCollect([...args]);
      assert.equal(run.code, code);
      assert.equal(
        run.err,
        "toolscore: --github-summary: GITHUB_STEP_SUMMARY is not set (not on GitHub Actions); no step summary written\n",
      );
    }
  } finally {
    if (before === undefined) Deno.env.delete("GITHUB_STEP_SUMMARY");
    else Deno.env.set("GITHUB_STEP_SUMMARY", before);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("doctor's exit code is the same with and without the report flags, --fail-on-warn included", async () => {
  const dir = await tempDir(".doctor_md_test_");
  try {
    const path = `${dir}/doctor.md`;
    for (
      const [flags, failOnWarn, code, verdict] of [
        [[], false, 0, "PASS"],
        [["--banner"], false, 0, "PASS with warnings"],
        [["--banner"], true, 1, "FAIL"],
        [["--bad-tools"], false, 1, "FAIL"],
      ] as const
    ) {
      const args = ["doctor", "--linger", "0.1", ...(failOnWarn ? ["--fail-on-warn"] : [])];
      const server = ["--", ...badServer([...flags]).command];
      assert.equal((await runCollect([...args, ...server])).code, code, flags.join(" "));
      assert.equal((await runCollect([...args, "--markdown", path, ...server])).code, code);
      assert.match(
        await Deno.readTextFile(path),
        new RegExp(`^### toolscore doctor bad: ${verdict}\n`),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
