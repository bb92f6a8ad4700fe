/**
 * Issue 34: the registry of shapes (`lib/formats/registry.ts`).
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  FORMATS,
  LINE_SHAPES,
  READERS,
  SHAPES,
  TRACE_FILE_EXTENSIONS,
} from "../lib/formats/registry.ts";

Deno.test("SHAPES has one document reader per format, in the detection order", () => {
  assert.deepEqual(READERS.map((r) => r.name), [
    "toolscore",
    "bfcl",
    "swe-agent",
    "mini-swe-agent",
    "gemini-cli",
    "openhands",
    "inspect",
    "fast-agent",
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "adk",
    "vcr",
    "mcp",
    "claude-code",
    "vercel-ai",
    "openai-agents",
    "langchain",
    "langfuse",
    "otel",
    "custom",
  ]);
  // Run files (τ-bench, τ²-bench) are found before any row; every other format has its reader.
  const runFiles = ["auto", "tau-bench", "tau2-bench"];
  assert.deepEqual(
    FORMATS.filter((f) => !runFiles.includes(f)).sort(),
    READERS.map((r) => r.name).sort(),
  );
});

Deno.test("SHAPES: line sniffers come first, each row names its extensions", () => {
  const firstDocument = SHAPES.findIndex((row) => row.document !== undefined);
  assert.ok(SHAPES.slice(0, firstDocument).every((row) => row.lines !== undefined));
  assert.deepEqual(LINE_SHAPES, SHAPES.slice(0, firstDocument));
  for (const row of SHAPES) {
    assert.ok(row.extensions.length > 0, row.shape);
    for (const ext of row.extensions) assert.match(ext, /^\.[a-z0-9]+$/, row.shape);
    assert.ok((row.document === undefined) !== (row.lines === undefined), row.shape);
  }
  assert.equal(new Set(SHAPES.map((row) => row.shape)).size, SHAPES.length, "shape names unique");
  assert.deepEqual(
    TRACE_FILE_EXTENSIONS,
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
});

Deno.test("a line sniffer takes a whole stream or nothing", () => {
  const rpc = [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a", arguments: {} } },
    { jsonrpc: "2.0", id: 1, result: { content: [] } },
  ];
  const mcp = LINE_SHAPES[0]!;
  assert.equal(mcp.lines?.(rpc)?.format, "mcp");
  assert.equal(mcp.lines?.([...rpc, { tool: "x" }]), undefined);
});
