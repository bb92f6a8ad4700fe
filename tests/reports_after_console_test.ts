// Issue 42: the reports asked for are written even when the console summary fails (before, a
// failing summary of 200,000 files left none of the requested reports).
import assert from "node:assert/strict";
import type { CliIO } from "../lib/cli/command.ts";
import { runCli } from "../lib/cli/run.ts";

Deno.test("eval writes its Markdown and JUnit reports when printing the console summary fails", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore_reports_" });
  try {
    await Deno.writeTextFile(`${dir}/gold.json`, JSON.stringify({ calls: [{ tool: "a" }] }));
    const lines = [0, 1, 2].map((i) =>
      JSON.stringify({ calls: [{ tool: i === 1 ? "b" : "a", args: {} }] })
    );
    await Deno.writeTextFile(`${dir}/traces.jsonl`, lines.join("\n") + "\n");
    let err = "";
    const io: CliIO = {
      stdout: (text) => {
        if (/\d+ traces: \d+ passed/.test(text)) throw new Error("stdout is closed");
      },
      stderr: (text) => void (err += text),
      color: false,
      progress: false,
      stdin: () => Promise.resolve(""),
    };
    const code = await runCli([
      "eval",
      `${dir}/gold.json`,
      `${dir}/traces.jsonl`,
      "--markdown",
      `${dir}/report.md`,
      "--junit",
      `${dir}/report.xml`,
    ], io);
    assert.notEqual(code, 0);
    assert.match(err, /stdout is closed/);
    assert.match(await Deno.readTextFile(`${dir}/report.md`), /\S/);
    assert.match(await Deno.readTextFile(`${dir}/report.xml`), /<testsuite/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
