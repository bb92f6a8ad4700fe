// Issue 31: the console of agent run — without a terminal, plain progress lines on stderr while
// the runs go (each further 10 %, and at most 10 s apart otherwise); at the end a table per arm.
import assert from "node:assert/strict";
import type { CliIO } from "../lib/cli/command.ts";
import { runCli } from "../lib/cli/run.ts";
import { agentConsole } from "../lib/cli/agent_console.ts";
import { tempDir } from "./_mcp.ts";
import { openaiServer } from "./_model_wire.ts";
import { fixtureServer, keyOf, readRows, waitNoProcesses, writeSpec } from "./_agent.ts";
import { runCollect } from "./_cli.ts";

Deno.test("agent run without a terminal: progress reaches stderr before the run ends; the table names every arm with its pass rate", async () => {
  const dir = await tempDir("agent_console");
  const model = openaiServer();
  const marker = `agent-console-${crypto.randomUUID()}`;
  try {
    const spec = await writeSpec(dir, {
      server: fixtureServer(marker),
      arms: [
        { id: "good", provider: "openai", model: "gpt-good", base_url: model.url },
        { id: "sloppy", provider: "openai", model: "sloppy", base_url: model.url },
        // Never reached: its error rows give the error lines.
        { id: "broken", provider: "openai", model: "gpt-good", base_url: `${model.url}/nope` },
      ],
      repeats: 2,
    });
    const out = `${dir}/runs.jsonl`;
    let stdout = "";
    // Each progress line, with how many rows the output held when it was written.
    const lines: { text: string; rows: number }[] = [];
    const io: CliIO = {
      stdout: (text) => void (stdout += text),
      stderr: (text) => {
        for (const line of text.split("\n").filter((l) => l.startsWith("agent run: "))) {
          let rows = 0;
          try {
            rows = Deno.readTextFileSync(out).split("\n").filter(Boolean).length;
          } catch {
            // not there yet
          }
          lines.push({ text: line, rows });
        }
      },
      color: false,
      progress: false,
      stdin: () => Promise.resolve(""),
    };
    const code = await runCli(["agent", "run", spec, "-o", out, "--concurrency", "2"], io);
    assert.equal(code, 4);
    assert.deepEqual(await waitNoProcesses(marker), []);
    assert.ok(lines.length >= 2, JSON.stringify(lines));
    assert.ok(lines[0]!.rows < 12, JSON.stringify(lines));
    assert.match(
      lines[0]!.text,
      /^agent run: \d+\/12 runs, \d+ passed, \d+ error\(s\), \$[\d.]+ spent, ETA /,
    );
    assert.match(lines.at(-1)!.text, /^agent run: 12\/12 runs, /);
    // No line without news: at most one a further 10 % (ten) plus the heartbeat (a fast run has none).
    assert.ok(lines.length <= 10, JSON.stringify(lines));
    const table = stdout.split("\n");
    const row = (arm: string) => table.find((line) => line.startsWith(`${arm} `)) ?? "";
    assert.match(row("good"), /^good +4 +4 +100% +0 +0 +\d\.\d +\$0\.00 \+ 4 unknown$/);
    assert.match(row("sloppy"), /^sloppy +4 +\d +\d+% +0 +0 /);
    assert.match(row("broken"), /^broken +4 +0 +– +4 +0 +0\.0 /);
    assert.match(stdout, /errors \(1 distinct message\):\n {2}4× .*answered HTTP 404/);

    // Latency runs from the server being ready; its start is beside it (issue 31).
    const rows = await readRows(out);
    for (const row of rows) {
      assert.ok(typeof row.server_start_s === "number" && row.server_start_s > 0, keyOf(row));
      assert.ok(typeof row.duration_s === "number" && row.duration_s >= 0);
    }
    // export makes its folder and carries the v2 fields the rows hold.
    const exported = `${dir}/new/folder/export.jsonl`;
    const exportRun = await runCollect(["export", out, "-o", exported]);
    assert.equal(exportRun.code, 0, exportRun.err);
    const records = await readRows(exported);
    assert.equal(records.length, 12);
    const broken = records.find((r) => r.variant === "broken")!;
    assert.equal(broken.error_kind, "provider");
    assert.equal(broken.stop, "error");
    const good = records.find((r) => r.variant === "good")!;
    assert.equal(good.model, "gpt-good");
    assert.ok(typeof good.turns === "number" && good.turns > 0);
    assert.equal(good.stop, "final_answer");
    assert.deepEqual(good.failed_checks, []);
    assert.equal(good.error_kind, null);
    assert.ok(typeof good.server_start_s === "number");
  } finally {
    await model.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agentConsole() without a terminal writes a line at each further 10 % and after 10 s without one", () => {
  let clock = 0;
  let err = "";
  const io: CliIO = {
    stdout: () => {},
    stderr: (text) => void (err += text),
    color: false,
    progress: false,
    stdin: () => Promise.resolve(""),
  };
  const screen = agentConsole(io, { arms: ["a"], now: () => clock, heartbeat: false });
  screen.onEvent({ type: "planned", total: 100, skipped: 0, todo: 100 });
  const finish = (at: number) => {
    clock = at;
    screen.onEvent({
      type: "finished",
      run: { arm: { id: "a" } } as never,
      row: { status: "ok", passed: false, turns: 1 },
      costUsd: 0.01,
    });
  };
  finish(1000); // 1 %: nothing
  assert.equal(err, "");
  finish(11_500); // 2 %, but 10 s passed
  assert.equal(err.split("\n").filter(Boolean).length, 1);
  for (let i = 3; i <= 9; i++) finish(12_000 + i); // still under 10 %, under 10 s
  assert.equal(err.split("\n").filter(Boolean).length, 1);
  finish(12_100); // 10 %
  const lines = err.trim().split("\n");
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^agent run: 10\/100 runs, 0 passed, 0 error\(s\), \$0\.10 spent, ETA /);
  screen.close();
  assert.match(screen.table(), /^a +10 +0 +0% +0 +0 +1\.0 +\$0\.10$/m);
});
