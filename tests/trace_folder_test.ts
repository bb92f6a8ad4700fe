// The one folder walk (issue 32): which files of a folder are read, which are left out, and the
// rule that tells a stray file (skipped with a note) from a broken trace (an error).
import assert from "node:assert/strict";
import fc from "fast-check";
import { isStrayText, traceFilesIn, walkTracePaths } from "../lib/formats/trace_folder.ts";
import { TRACE_EXTENSIONS } from "../lib/formats/trace_extensions.ts";
import { tempDir } from "./_mcp.ts";

const root = new URL("..", import.meta.url).pathname;

Deno.test("traceFilesIn() reads the extensions the readers claim and sniffs .txt and .log", async () => {
  const dir = await tempDir("trace_folder_walk");
  try {
    const files: Record<string, string> = {
      "a.json": "[]",
      "b.jsonl": "[]\n",
      "c.sse": "event: ping\ndata: {}\n\n",
      "d.txt": 'data: {"type":"ping"}\n\n',
      "e.log": await Deno.readTextFile(`${root}testdata/formats/real/claudedesktop-mcp.log`),
      "f.LOG": "[1, 2]",
      "README.txt": "notes about the runs",
      "server.log": "2025-01-01 started\n2025-01-01 stopped\n",
      "a.receipt.json": "{}",
      "config.yaml": "a: 1",
      "deno.lock": "{}",
    };
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    await Deno.mkdir(`${dir}/nested.json`);
    // config.yaml is listed: the registry claims YAML (cassettes, custom lists); the walk then
    // skips it as stray when it is not a trace. README.txt and server.log do not start like one.
    assert.deepEqual(traceFilesIn(dir), [
      "a.json",
      "b.jsonl",
      "c.sse",
      "config.yaml",
      "d.txt",
      "e.log",
      "f.LOG",
    ]);
    assert.deepEqual(
      TRACE_EXTENSIONS.map((e) => e.extension),
      [
        ".eval",
        ".json",
        ".jsonl",
        ".log",
        ".ndjson",
        ".responses",
        ".sse",
        ".traj",
        ".txt",
        ".vcr",
        ".yaml",
        ".yml",
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("walkTracePaths() leaves the run's files out of a folder, never out of a file named on its own", async () => {
  const dir = await tempDir("trace_folder_exclude");
  try {
    for (const name of ["gold.json", "run-1.json", "run-2.json"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "[]");
    }
    // The same file by another spelling is still the gold file.
    const walk = walkTracePaths([`${dir}/`, `${dir}/gold.json`, "-"], {
      exclude: [`${dir}/./gold.json`, undefined],
    });
    assert.deepEqual(walk.files, [
      `${dir}/run-1.json`,
      `${dir}/run-2.json`,
      `${dir}/gold.json`,
      "-",
    ]);
    assert.deepEqual(walk.excluded, [`${dir}/gold.json`]);
    assert.deepEqual([...walk.walked], [`${dir}/run-1.json`, `${dir}/run-2.json`]);
    const only = await tempDir("trace_folder_only_gold");
    try {
      await Deno.writeTextFile(`${only}/gold.json`, "[]");
      assert.throws(
        () => walkTracePaths([only], { exclude: [`${only}/gold.json`] }),
        /no trace files in this directory besides the gold file/,
      );
    } finally {
      await Deno.remove(only, { recursive: true });
    }
    assert.throws(() => walkTracePaths([`${dir}/missing`]), /missing/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("isStrayText() calls configuration files stray and never a trace cut at any point", () => {
  for (
    const text of [
      '{"name": "app", "version": "1.0.0", "scripts": {"test": "deno test"}}',
      '{"compilerOptions": {"strict": true, "target": "es2022"}}',
      '{"lockfileVersion": 3, "packages": {"node_modules/toolscore": {"version": "1.0.0"}}}',
      "",
      "{ not json",
    ]
  ) assert.equal(isStrayText(text), true, text);
  // A trace of any reader's shape, cut anywhere after its first call began, is never stray: its
  // file is an error, not a silent skip.
  const shapes = [
    (tool: string, args: unknown) => [{ tool, args }],
    (tool: string, args: unknown) => ({ calls: [{ tool, args }] }),
    (tool: string, args: unknown) => ({
      messages: [{
        role: "assistant",
        tool_calls: [{ id: "1", function: { name: tool, arguments: JSON.stringify(args) } }],
      }],
    }),
    (tool: string, args: unknown) => ({
      content: [{ type: "tool_use", id: "1", name: tool, input: args }],
    }),
    (tool: string, args: unknown) => ({
      candidates: [{ content: { parts: [{ functionCall: { name: tool, args } }] } }],
    }),
    (tool: string, args: unknown) => ({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: tool, arguments: args },
    }),
  ];
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: shapes.length - 1 }),
      fc.string(),
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (shape, tool, args, cut) => {
        const text = JSON.stringify(shapes[shape]!(tool, args));
        const start = text.search(/tool|calls|function|functionCall|tools\/call/);
        const end = start + Math.ceil((text.length - start) * cut) + 12;
        return !isStrayText(text.slice(0, Math.min(text.length, end)));
      },
    ),
  );
});
