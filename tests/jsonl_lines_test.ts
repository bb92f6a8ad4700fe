import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { fileLineBlocks, type Line, parseJsonLine, textLines } from "../lib/base/jsonl_lines.ts";

const TEMP = {
  dir: new URL("..", import.meta.url).pathname,
  prefix: ".jsonl_lines_",
  suffix: ".tmp",
};

async function fileLines(path: string, hash?: { update(data: Uint8Array): void }) {
  const lines: Line[] = [];
  for await (const block of fileLineBlocks(path, hash)) {
    assert.ok(block.length > 0, "no empty blocks");
    lines.push(...block);
  }
  return lines;
}

Deno.test("textLines() numbers lines from 1, drops \\r\\n and a byte order mark, keeps blanks", () => {
  assert.deepEqual([...textLines('\ufeff{"a":1}\r\n\n{"b":2}\n')], [
    { text: '{"a":1}', line: 1 },
    { text: "", line: 2 },
    { text: '{"b":2}', line: 3 },
  ]);
  assert.deepEqual([...textLines("")], []);
  assert.deepEqual([...textLines("\n")], [{ text: "", line: 1 }]);
});

Deno.test("textLines() marks a last line without a line break", () => {
  assert.deepEqual([...textLines("a\nb")], [
    { text: "a", line: 1 },
    { text: "b", line: 2, unterminated: true },
  ]);
});

Deno.test("fileLineBlocks() gives the lines textLines() gives, and hashes every byte", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    // Lines longer than one read, multi-byte characters across read boundaries, CRLF.
    const long = "é€😀".repeat(100_000);
    const text = `\ufeff${long}\r\n\n{"x":"${long}"}\nlast`;
    const path = `${dir}/lines.jsonl`;
    await Deno.writeTextFile(path, text);
    const hash = createHash("sha256");
    assert.deepEqual(await fileLines(path, hash), [...textLines(text)]);
    assert.equal(
      hash.digest("hex"),
      createHash("sha256").update(await Deno.readFile(path)).digest("hex"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileLineBlocks() agrees with textLines() on any text (property)", async () => {
  const dir = await Deno.makeTempDir(TEMP);
  try {
    const path = `${dir}/any.jsonl`;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string(), fc.constantFrom("\n", "\r\n", "\r", "é")), {
          maxLength: 30,
        }),
        async (parts) => {
          const text = parts.join("");
          await Deno.writeTextFile(path, text);
          assert.deepEqual(await fileLines(path), [...textLines(text)]);
        },
      ),
      { numRuns: 50 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileLineBlocks() names a missing file", async () => {
  await assert.rejects(
    () => fileLines("no/such/file.jsonl"),
    /^InputError: no\/such\/file\.jsonl: file not found; check the path$/,
  );
});

Deno.test("parseJsonLine() parses a line, or names file:line and what a line must be", () => {
  assert.deepEqual(parseJsonLine('{"a": [1]}', "runs.jsonl:1"), { a: [1] });
  assert.throws(
    () => parseJsonLine("{oops", "runs.jsonl:2"),
    /^InputError: runs\.jsonl:2: not valid JSON \(.+\); each line must be one JSON object$/,
  );
});
