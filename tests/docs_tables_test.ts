// Issue 33, item 4: docs that cannot drift from the code. The formats and the exit codes each
// have one table in code (lib/formats/format_table.ts from the registry's SHAPES,
// lib/cli/exit_codes.ts); every command's --help, inspect --help and the README's tables are
// checked against them here.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { COMMANDS } from "../lib/cli/commands.ts";
import { EXIT_CODES } from "../lib/cli/exit_codes.ts";
import { FORMAT_DOCS } from "../lib/formats/format_table.ts";
import { FORMATS, SHAPES } from "../lib/formats/registry.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const README = Deno.readTextFileSync(`${ROOT}README.md`);

async function help(args: string[]): Promise<string> {
  const run = await runCollect([...args, "--help"]);
  assert.equal(run.code, 0, run.err);
  return run.out;
}

// The help of every command, and of the subcommands users type.
async function everyHelp(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of Object.keys(COMMANDS)) out.set(name, await help([name]));
  out.set("contract init", await help(["contract", "init"]));
  out.set("agent run", await help(["agent", "run"]));
  return out;
}

// A help's "Exit codes:" paragraph, and the codes it names.
function exitCodes(text: string): number[] {
  const start = text.indexOf("Exit codes");
  if (start === -1) return [];
  const end = text.indexOf("\n\n", start);
  const paragraph = text.slice(start, end === -1 ? undefined : end);
  return [...paragraph.matchAll(/(?<![\w.=-])(\d{1,3})(?=[ /;,)])/g)].map((m) => Number(m[1]));
}

Deno.test("FORMAT_DOCS covers every --format name and every registry row's format", () => {
  const names = FORMAT_DOCS.map((row) => row.name);
  assert.deepEqual(names, FORMATS.filter((name) => name !== "auto"));
  for (const row of SHAPES) {
    if (row.format !== undefined) {
      assert.ok(
        names.includes(row.format),
        `registry row ${row.shape}: add ${row.format} to FORMAT_DOCS`,
      );
    }
  }
  for (const row of FORMAT_DOCS) {
    assert.ok(row.shapes.length > 0 && row.extensions.length > 0, row.name);
    for (const ext of row.extensions) assert.match(ext, /^\.[a-z0-9]+$/);
  }
});

Deno.test("every command's --format help lists every format; inspect --help shows each shape", async () => {
  const helps = await everyHelp();
  let withFormat = 0;
  for (const [name, text] of helps) {
    const option = /^ {2}--format F {2,}([\s\S]*?)(?=\n {2}-|\n\n)/m.exec(text);
    if (option === null) continue;
    withFormat++;
    const listed = option[1]!.replace(/\s+/g, " ");
    for (const format of FORMATS) {
      assert.match(listed, new RegExp(`\\b${format}\\b`), `${name} --help leaves out ${format}`);
    }
  }
  assert.ok(withFormat >= 4, `${withFormat} commands with --format`); // eval, inspect, contract init, regrade
  const inspect = helps.get("inspect")!;
  for (const row of FORMAT_DOCS) {
    assert.ok(
      inspect.includes(`  ${row.name.padEnd(16)}  ${row.shapes}\n`),
      `inspect --help: no line for ${row.name}`,
    );
  }
});

Deno.test("the README's shapes table lists FORMAT_DOCS in order", () => {
  const start = README.indexOf("### Trace shapes read\n");
  const table = README.slice(start, README.indexOf("\n\n", README.indexOf("| ---", start)));
  const names = [...table.matchAll(/^\| `([a-z0-9][a-z0-9-]*)` +\|/gm)].map((m) => m[1]);
  assert.deepEqual(names, FORMAT_DOCS.map((row) => row.name));
});

Deno.test("exit codes: the top-level help, each command's help and the README agree with EXIT_CODES", async () => {
  const known = EXIT_CODES.map((row) => row.code);
  const top = await runCollect(["--help"]);
  assert.deepEqual([...new Set(exitCodes(top.out))].sort((a, b) => a - b), known);
  const helps = await everyHelp();
  for (const [name, text] of helps) {
    const codes = exitCodes(text);
    assert.ok(codes.length > 0, `${name} --help has no exit codes`);
    for (const code of codes) {
      assert.ok(known.includes(code), `${name} --help names exit ${code}, not in EXIT_CODES`);
    }
  }
  for (const row of EXIT_CODES) {
    for (const command of row.commands ?? []) {
      const text = helps.get(command)!;
      assert.ok(exitCodes(text).includes(row.code), `${command} --help leaves out ${row.code}`);
    }
  }
  const readme = [...README.matchAll(/^\| +(\d+) \| /gm)].map((m) => Number(m[1]));
  assert.deepEqual(readme, known, "README's exit-code table");
});
