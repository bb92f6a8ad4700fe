import assert from "node:assert/strict";
import fc from "fast-check";
import { InputError } from "../lib/base/errors.ts";
import {
  decodeUtf8,
  lineColumn,
  parseDocument,
  readDocument,
  readUtf8FileSync,
} from "../lib/base/load.ts";
import { checkDuplicateKeys } from "../lib/base/json_limits.ts";
import { parseJsonLossless } from "../lib/base/lossless_json.ts";

Deno.test("parseDocument() names file:line:col for malformed JSON, JSONC and YAML", () => {
  assert.throws(
    () => parseDocument('{\n  "a": 1,\n  "b": \n}', "gold.json"),
    /^InputError: gold\.json:4:1: invalid JSON/,
  );
  assert.throws(
    () => parseDocument('{\n  // comment\n  "a": [1, 2,,]\n}', "contract.jsonc"),
    (error: unknown) =>
      error instanceof InputError && /contract\.jsonc:3:14: invalid JSONC/.test(error.message),
  );
  assert.throws(
    () => parseDocument("required:\n  - tool: a\n   bad: [", "contract.yaml"),
    /contract\.yaml:3:\d+: invalid YAML/,
  );
  assert.throws(
    () => parseDocument("a: 1\na: 2\n", "dup.yaml"),
    /dup\.yaml:2:\d+: invalid YAML \(duplicated mapping key\)/,
  );
});

Deno.test("parseDocument() reads JSONC comments and trailing commas, and sniffs unknown extensions", () => {
  assert.deepEqual(parseDocument('{"a": [1, 2,], /* x */ "b": 1,}', "c.jsonc"), {
    a: [1, 2],
    b: 1,
  });
  assert.deepEqual(parseDocument('{"a": 1}', "trace.txt"), { a: 1 });
  assert.deepEqual(parseDocument("a: [1, 2]", "notes.txt"), { a: [1, 2] });
  assert.deepEqual(parseDocument('{"a": 1, // c\n}', "trace.txt"), { a: 1 });
  // YAML 1.2 core schema: dates and yes/no stay strings.
  assert.deepEqual(parseDocument("d: 2026-01-01\nok: yes", "x.yml"), {
    d: "2026-01-01",
    ok: "yes",
  });
  assert.deepEqual(parseDocument('\ufeff{"bom": true}', "bom.json"), { bom: true });
});

Deno.test("readDocument() reports a missing file in one line", async () => {
  await assert.rejects(
    readDocument("does/not/exist.json"),
    /does\/not\/exist\.json: file not found; check the path/,
  );
});

Deno.test("lineColumn() agrees with counting lines (property)", () => {
  fc.assert(
    fc.property(fc.string(), fc.nat(), (text, n) => {
      const offset = text.length === 0 ? 0 : n % (text.length + 1);
      const before = text.slice(0, offset).split("\n");
      assert.deepEqual(lineColumn(text, offset), [before.length, before.at(-1)!.length + 1]);
    }),
  );
});

Deno.test("parseDocument() reads back any JSON value it is given as text (property)", () => {
  // Integers a double cannot hold keep their digits (issue 42): the text comes back as written.
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = JSON.stringify(value);
      assert.deepEqual(parseDocument(text, "x.json"), parseJsonLossless(text));
      assert.deepEqual(parseDocument(text, "x.jsonc"), parseJsonLossless(text));
      assert.equal(JSON.stringify(parseDocument(text, "x.jsonc")), text);
    }),
  );
});

Deno.test("checkDuplicateKeys() walks tokens in a loop: 100,000 levels deep, no stack overflow", async () => {
  // jsonc-parser's visitor recursed: a document at the 1,000-level limit, checked from a caller
  // already deep in its stack (a property test's shrinker), overflowed with a RangeError.
  const { createScanner } = await import("jsonc-parser");
  const text = "[".repeat(100_000) + '{"k": 1, "k": 2}' + "]".repeat(100_000);
  assert.throws(
    () => checkDuplicateKeys(text, "deep.json", createScanner),
    (error: unknown) =>
      error instanceof InputError &&
      /^deep\.json:1:100010: \[0\]\[0\].*100000 levels\): key "k" is given twice/.test(
        error.message,
      ),
  );
});

Deno.test("keysAreUnique() agrees with jsonc-parser's duplicate-key check on any JSON", async () => {
  const { keysAreUnique, checkDuplicateKeys } = await import("../lib/base/json_limits.ts");
  const { createScanner } = await import("jsonc-parser");
  // Objects built from key lists that may repeat, with keys that look like JSON (`"a":`, `\"`).
  // Escaped quotes and backslashes sit in keys of two or more characters: with the one-character
  // keys `"\""` and `"\\"`, a long run of this property (thousands of documents in one process)
  // saw JSON.parse itself read a later key `"\""` as `"\\"` (`{"\"": [1], "\"": 2}` gave
  // `{"\"": [1], "\\": 2}`; deno 2.9.6, with and without the optimizing compilers), which no key
  // count can agree with; a fresh process, and Python, parse the same text right.
  const key = fc.constantFrom("a", "b", "a:", 'a"', "b\\", ' ":', "__proto__", "é");
  const tree = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.oneof(fc.integer(), key, fc.constant(null)),
      fc.array(tie("node"), { maxLength: 4 }),
      fc.array(fc.tuple(key, tie("node")), { maxLength: 4 }).map((entries) =>
        `{${entries.map(([k, v]) => `${JSON.stringify(k)} : ${text(v)}`).join(", ")}}`
      ),
    ),
  })).node;
  const text = (node: unknown): string =>
    typeof node === "string" && node.startsWith("{") ? node : JSON.stringify(node);
  const seen = { unique: 0, repeated: 0 };
  fc.assert(
    fc.property(tree, (node) => {
      const json = text(node);
      const value = JSON.parse(json);
      let duplicate = false;
      try {
        checkDuplicateKeys(json, "x.json", createScanner);
      } catch {
        duplicate = true;
      }
      assert.equal(keysAreUnique(json, value), !duplicate, json);
      seen[duplicate ? "repeated" : "unique"]++;
    }),
    { numRuns: 300 },
  );
  // Both kinds were generated, so the property was put to the test.
  assert.ok(seen.unique > 0 && seen.repeated > 0, JSON.stringify(seen));
});

Deno.test("readDocument() names a key given twice in plain JSON", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/gold.json`, '[{"tool": "a", "args": {"x": 1, "x": 2}}]');
    await assert.rejects(
      () => readDocument(`${dir}/gold.json`),
      /gold\.json:1:\d+: \[0\]\.args: key "x" is given twice in one object; keep one/,
    );
    await Deno.writeTextFile(`${dir}/ok.json`, '[{"tool": "a:", "args": {"x": "\\":"}}]');
    assert.deepEqual(await readDocument(`${dir}/ok.json`), [{ tool: "a:", args: { x: '":' } }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readUtf8FileSync() reads what decodeUtf8() decodes, or fails as it does (property)", () => {
  const file = Deno.makeTempFileSync();
  const outcome = (read: () => string) => {
    try {
      return { text: read() };
    } catch (error) {
      return { error: error instanceof InputError ? error.message : String(error) };
    }
  };
  // Valid text (with byte-order marks and U+FFFD of its own) and arbitrary bytes.
  const text = fc.string({ unit: fc.constantFrom("a", "\n", "é", "\ufeff", "\ufffd", "😀") });
  const bytes = fc.oneof(
    text.map((t) => new TextEncoder().encode(t)),
    fc.uint8Array({ maxLength: 12 }),
  );
  try {
    fc.assert(
      fc.property(bytes, (data) => {
        Deno.writeFileSync(file, data);
        assert.deepEqual(
          outcome(() => readUtf8FileSync(file)),
          outcome(() => decodeUtf8(data, file)),
        );
      }),
      { numRuns: 400 },
    );
    assert.throws(() => readUtf8FileSync(`${file}.missing`), /file not found; check the path/);
  } finally {
    Deno.removeSync(file);
  }
});
