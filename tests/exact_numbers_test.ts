// Integers a double cannot hold keep their digits end to end (issue 42, item 7): readers, gold
// files and contracts (JSON, JSONC), comparison (lenient and strict), matchers, canonical JSON,
// every report, receipts with verify and regrade, exports and `contract init`.
import assert from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import { runCollect } from "./_cli.ts";
import { canonicalJson, jsonSha256 } from "../lib/base/canonical.ts";
import { parseDocument } from "../lib/base/load.ts";
import { numberText, parseJsonLossless } from "../lib/base/lossless_json.ts";
import { parseJsonLine } from "../lib/base/jsonl_lines.ts";
import { parseArgumentText, resultFromText } from "../lib/formats/_shared.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { matcherFromJson, valuesMatch } from "../lib/scoring/matchers.ts";
import { withHeavy } from "../lib/base/_lazy.ts";
import { probesFromJson } from "../lib/doctor/probe_file.ts";

const BIG = "12345678901234567890";
const NEXT = "12345678901234567891";

/** An OpenAI chat trace whose one call passes `id` as written in its `arguments` string. */
function openaiTrace(id: string): string {
  return JSON.stringify({
    messages: [
      { role: "user", content: "look the user up" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "c1",
          type: "function",
          function: { name: "get_user", arguments: `{"id": ${id}}` },
        }],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "assistant", content: "done" },
    ],
  });
}

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "exact_numbers_" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
  return dir;
}

const GOLD = `[{"tool": "get_user", "args": {"id": ${BIG}}}]`;

Deno.test("eval tells 12345678901234567890 from …891 on the console, lenient and strict", async () => {
  const dir = await folder({ "gold.json": GOLD, "trace.json": openaiTrace(NEXT) });
  try {
    for (const mode of [[], ["--strict"]]) {
      const { code, out, err } = await runCollect([
        "eval",
        join(dir, "gold.json"),
        join(dir, "trace.json"),
        ...mode,
      ]);
      assert.equal(code, 0, err);
      assert.match(out, /score 0\.70 C/, `${mode}: ${out}`);
      assert.match(out, new RegExp(`argument id expected ${BIG}, got ${NEXT}`));
    }
    await Deno.writeTextFile(join(dir, "same.json"), openaiTrace(BIG));
    const equal = await runCollect(["eval", join(dir, "gold.json"), join(dir, "same.json")]);
    assert.match(equal.out, /score 1\.00 A/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval --json keeps both ids digit for digit and scores the argument 0", async () => {
  const dir = await folder({ "gold.json": GOLD, "trace.json": openaiTrace(NEXT) });
  try {
    for (const mode of [[], ["--strict"]]) {
      const { out } = await runCollect([
        "eval",
        join(dir, "gold.json"),
        join(dir, "trace.json"),
        "--json",
        ...mode,
      ]);
      const doc = parseJsonLossless(out) as {
        metrics: { argument_f1: number };
        calls: { expected: { args: { id: unknown } }[]; actual: { args: { id: unknown } }[] };
      };
      assert.equal(doc.metrics.argument_f1, 0);
      assert.equal(numberText(doc.calls.expected[0]!.args.id), BIG);
      assert.equal(numberText(doc.calls.actual[0]!.args.id), NEXT);
      assert.match(out, new RegExp(`"id": ${BIG}\\b`));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval's Markdown, HTML and JUnit reports show the ids as written", async () => {
  const dir = await folder({ "gold.json": GOLD, "trace.json": openaiTrace(NEXT) });
  try {
    const { code, err } = await runCollect([
      "eval",
      join(dir, "gold.json"),
      join(dir, "trace.json"),
      "--markdown",
      join(dir, "r.md"),
      "--html",
      join(dir, "r.html"),
      "--junit",
      join(dir, "r.xml"),
    ]);
    assert.equal(code, 0, err);
    for (const name of ["r.md", "r.html", "r.xml"]) {
      const text = await Deno.readTextFile(join(dir, name));
      assert.ok(text.includes(BIG) && text.includes(NEXT), name);
      assert.ok(!text.includes("12345678901234567000"), name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a receipt of the mismatch verifies, and regrade scores it the same from its inputs", async () => {
  const dir = await folder({ "gold.json": GOLD, "trace.json": openaiTrace(NEXT) });
  try {
    const receipt = join(dir, "trace.receipt.json");
    const made = await runCollect([
      "eval",
      join(dir, "gold.json"),
      join(dir, "trace.json"),
      "--receipt-out",
      receipt,
    ]);
    assert.equal(made.code, 0, made.err);
    const doc = JSON.parse(await Deno.readTextFile(receipt));
    assert.equal(doc.result.score, 0.7);
    assert.equal(doc.result.metrics.argument_f1, 0);
    const verified = await runCollect(["verify", receipt]);
    assert.equal(verified.code, 0, verified.err + verified.out);
    const regraded = await runCollect(["regrade", receipt, "--strict"]);
    assert.equal(regraded.code, 0, regraded.err);
    assert.match(regraded.out, /0\.70 C → 0\.70 C/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("export records the mismatch as a failed run", async () => {
  const dir = await folder({ "gold.json": GOLD, "trace.json": openaiTrace(NEXT) });
  try {
    const out = join(dir, "e.jsonl");
    const { code, err } = await runCollect([
      "export",
      join(dir, "trace.json"),
      "--gold",
      join(dir, "gold.json"),
      "-o",
      out,
    ]);
    assert.equal(code, 0, err);
    const record = JSON.parse((await Deno.readTextFile(out)).trim());
    assert.equal(record.outcome, "fail");
    assert.equal(record.score, 0.7);
    const checked = await runCollect(["validate-export", out]);
    assert.equal(checked.code, 0, checked.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("contract init writes the id's digits, and the contract tells it from its neighbour", async () => {
  const dir = await folder({ "good.json": openaiTrace(NEXT), "other.json": openaiTrace(BIG) });
  try {
    const contract = join(dir, "contract.json");
    const init = await runCollect(["contract", "init", join(dir, "good.json"), "-o", contract]);
    assert.equal(init.code, 0, init.err);
    assert.match(await Deno.readTextFile(contract), new RegExp(`"id": ${NEXT}\\b`));
    const self = await runCollect(["eval", contract, join(dir, "good.json"), "--strict"]);
    assert.match(self.out, /score 1\.00 A/, self.out + self.err);
    const other = await runCollect(["eval", contract, join(dir, "other.json")]);
    assert.match(other.out, new RegExp(`argument id expected ${NEXT}, got ${BIG}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a JSONC gold file keeps its ids too", async () => {
  const dir = await folder({
    "gold.jsonc": `// ids\n[{"tool": "get_user", "args": {"id": ${BIG},},},]\n`,
    "trace.json": openaiTrace(NEXT),
  });
  try {
    const { out } = await runCollect(["eval", join(dir, "gold.jsonc"), join(dir, "trace.json")]);
    assert.match(out, new RegExp(`argument id expected ${BIG}, got ${NEXT}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gold 9007199254740993 against the string keeps its digits and is no match (no coercion)", async () => {
  const dir = await folder({
    "gold.json": `[{"tool": "get_user", "args": {"id": 9007199254740993}}]`,
    "trace.json": openaiTrace(`"9007199254740993"`),
  });
  try {
    for (const mode of [[], ["--strict"]]) {
      const { out } = await runCollect([
        "eval",
        join(dir, "gold.json"),
        join(dir, "trace.json"),
        ...mode,
      ]);
      // Was "expected 9007199254740992": the gold had been rounded.
      assert.match(out, /argument id expected 9007199254740993, got "9007199254740993"/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("valuesMatch() compares kept literals exactly, with each other and with numbers", () => {
  const [a, b, c] = parseJsonLossless(`[${BIG}, ${NEXT}, ${BIG}]`) as unknown[];
  for (const strict of [false, true]) {
    assert.equal(valuesMatch(a, b, { strict }), false);
    assert.equal(valuesMatch(a, c, { strict }), true);
    assert.equal(valuesMatch({ id: a }, { id: b }, { strict }), false);
    assert.equal(valuesMatch(a, Number(BIG), { strict }), false); // 12345678901234567000
    assert.equal(valuesMatch(Number(BIG), a, { strict }), false);
    assert.equal(valuesMatch(a, BIG, { strict }), false); // no number/string coercion
    assert.equal(valuesMatch(a, { rawJSON: BIG }, { strict }), false); // an object is no number
  }
  const two53 = parseJsonLossless("9007199254740992");
  assert.equal(valuesMatch(2 ** 53, two53), true);
  assert.equal(valuesMatch(two53, 2 ** 53), true);
});

Deno.test("$type, $approx, $one_of and $eq on kept literals", () => {
  const big = parseJsonLossless(BIG);
  const gold = (json: string) => matcherFromJson(parseJsonLossless(json));
  assert.equal(valuesMatch(gold('{"$type": "integer"}'), big), true);
  assert.equal(valuesMatch(gold('{"$type": "number"}'), big), true);
  assert.equal(valuesMatch(gold('{"$type": "string"}'), big), false);
  assert.equal(valuesMatch(gold('{"$type": "object"}'), big), false);
  assert.equal(valuesMatch(gold(`{"$approx": ${BIG}}`), parseJsonLossless(NEXT)), true);
  assert.equal(valuesMatch(gold(`{"$approx": 1}`), big), false);
  assert.equal(valuesMatch(gold(`{"$one_of": [1, ${NEXT}]}`), big), false);
  assert.equal(valuesMatch(gold(`{"$one_of": [1, ${BIG}]}`), big), true);
  assert.equal(valuesMatch(gold(`{"$eq": ${BIG}}`), parseJsonLossless(NEXT)), false);
  assert.equal(String(gold(`{"$eq": ${BIG}}`)), `{"$eq":${BIG}}`);
});

Deno.test("canonical JSON writes a kept literal by its exact value; RFC 8785 elsewhere", () => {
  const a = parseJsonLossless(`{"b": [${BIG}], "a": 1e21}`);
  const b = parseJsonLossless(`{"a": 1e21, "b": [${NEXT}]}`);
  assert.equal(canonicalJson(a), `{"a":1e+21,"b":[${BIG}]}`);
  assert.notEqual(jsonSha256(a), jsonSha256(b));
  // A kept literal a double holds exactly hashes like that number.
  const two53 = parseJsonLossless("[9007199254740992, 5.0]", { keep: "float-text" });
  assert.equal(canonicalJson(two53), "[9007199254740992,5]");
  assert.equal(jsonSha256(two53), jsonSha256([2 ** 53, 5]));
  assert.equal(canonicalJson({ n: 1, s: "é" }), '{"n":1,"s":"é"}');
});

Deno.test("every JSON reader keeps the digits: documents, JSONL lines, argument and result text", async () => {
  for (const file of ["x.json", "x.jsonc", "x"]) {
    const doc = await withHeavy(() => parseDocument(`{"id": ${BIG}}`, file));
    assert.equal(JSON.stringify(doc), `{"id":${BIG}}`, file);
  }
  assert.equal(JSON.stringify(parseJsonLine(`{"id": ${BIG}}`, "x.jsonl:1")), `{"id":${BIG}}`);
  assert.equal(JSON.stringify(parseArgumentText(`{"id": ${BIG}}`).args), `{"id":${BIG}}`);
  assert.equal(JSON.stringify(resultFromText(`[${BIG}]`)), `[${BIG}]`);
  const anthropic = JSON.stringify({
    messages: [
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "get_user", input: { id: 0 } }],
      },
    ],
  }).replace('"id":0', `"id":${BIG}`);
  const [trace] = tracesFromText(anthropic, "a.json");
  assert.equal(JSON.stringify(trace!.calls[0]!.args), `{"id":${BIG}}`);
  const jsonl = `${openaiTrace(BIG)}\n${openaiTrace(NEXT)}\n`;
  const lines = tracesFromText(jsonl, "chats.jsonl");
  assert.deepEqual(lines.map((t) => JSON.stringify(t.calls[0]!.args)), [
    `{"id":${BIG}}`,
    `{"id":${NEXT}}`,
  ]);
});

Deno.test("a YAML gold file keeps its ids, and contract init -o x.yaml writes the digits", async () => {
  const dir = await folder({
    "gold.yaml": `- tool: get_user\n  args:\n    id: ${BIG}\n`,
    "trace.json": openaiTrace(NEXT),
  });
  try {
    const { out } = await runCollect(["eval", join(dir, "gold.yaml"), join(dir, "trace.json")]);
    assert.match(out, new RegExp(`argument id expected ${BIG}, got ${NEXT}`));
    const contract = join(dir, "contract.yaml");
    const init = await runCollect(["contract", "init", join(dir, "trace.json"), "-o", contract]);
    assert.equal(init.code, 0, init.err);
    assert.match(await Deno.readTextFile(contract), new RegExp(`\\n +id: ${NEXT}\\n`));
    const self = await runCollect(["eval", contract, join(dir, "trace.json"), "--strict"]);
    assert.match(self.out, /score 1\.00 A/, self.out + self.err);
    await Deno.writeTextFile(join(dir, "other.json"), openaiTrace(BIG));
    const wrong = await runCollect(["eval", contract, join(dir, "other.json")]);
    assert.match(wrong.out, new RegExp(`argument id expected ${NEXT}, got ${BIG}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseJsonLossless() writes back every integer literal as written, wherever it stands (property)", () => {
  // The quick pre-check (16 digits where a number can start) must never skip a literal.
  const integer = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String);
  const space = fc.constantFrom("", " ", "\n", "\t", "\r\n  ");
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 3 }), integer, space, integer, (value, a, gap, b) => {
      const written = (g: string) =>
        `{"v":${JSON.stringify(value)},"a":${g}${a},"l":[${b},${g}${a}]}`;
      assert.equal(JSON.stringify(parseJsonLossless(written(gap))), written(""));
      assert.equal(JSON.stringify(parseJsonLossless(a)), a);
    }),
    { numRuns: 300 },
  );
});

Deno.test("the worker pool and inspect keep the digits too", async () => {
  const dir = await folder({ "a.json": openaiTrace(NEXT), "b.json": openaiTrace(NEXT) });
  const gold = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(gold, GOLD);
  try {
    const pool = await runCollect(["eval", gold, dir, "--jobs", "2"]);
    assert.equal(
      pool.out.match(new RegExp(`argument id expected ${BIG}, got ${NEXT}`, "g"))?.length,
      2,
      pool.out + pool.err,
    );
    const shown = await runCollect(["inspect", join(dir, "a.json")]);
    assert.match(shown.out, new RegExp(`get_user \\{"id":${NEXT}\\}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(gold);
  }
});

Deno.test("a 64-bit JSON-RPC id pairs its result, and OTLP nanoseconds written as numbers keep their duration", () => {
  const mcp = [
    `{"jsonrpc": "2.0", "id": ${BIG}, "method": "tools/call", "params": {"name": "get_user", "arguments": {"id": 1}}}`,
    `{"jsonrpc": "2.0", "id": ${NEXT}, "method": "tools/call", "params": {"name": "get_user", "arguments": {"id": 2}}}`,
    `{"jsonrpc": "2.0", "id": ${NEXT}, "result": {"content": [{"type": "text", "text": "two"}]}}`,
    `{"jsonrpc": "2.0", "id": ${BIG}, "result": {"content": [{"type": "text", "text": "one"}], "isError": true}}`,
  ].join("\n");
  const [session] = tracesFromText(mcp, "session.jsonl");
  assert.deepEqual(
    session!.calls.map((c) => [c.id, c.isError === true]),
    [[BIG, true], [NEXT, false]],
  );
  const span = (start: string, end: string) =>
    `{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "${"a".repeat(32)}", ` +
    `"spanId": "${"b".repeat(16)}", "name": "execute_tool get_user", "kind": 1, ` +
    `"startTimeUnixNano": ${start}, "endTimeUnixNano": ${end}, "attributes": [` +
    `{"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}}, ` +
    `{"key": "gen_ai.tool.name", "value": {"stringValue": "get_user"}}]}]}]}]}`;
  const [otel] = tracesFromText(span("1700000000000000001", "1700000000250000001"), "o.json");
  assert.equal(otel!.calls[0]!.durationS, 0.25);
});

Deno.test("two calls that differ in the 20th digit of an id are not identical calls", async () => {
  const dir = await folder({
    "gold.json": GOLD,
    "two.json": JSON.stringify({
      toolscore_trace: 1,
      calls: [{ tool: "get_user", args: { id: 0 } }, { tool: "get_user", args: { id: 1 } }],
    }).replace('"id":0', `"id":${BIG}`).replace('"id":1', `"id":${NEXT}`),
  });
  try {
    const { out } = await runCollect([
      "eval",
      join(dir, "gold.json"),
      join(dir, "two.json"),
      "--json",
    ]);
    const doc = JSON.parse(out);
    assert.equal(doc.metrics.identical_rate, 0); // was 0.5: both ids hashed as 12345678901234567000
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a doctor probe's 64-bit expect_structured compares with the double the MCP SDK reads", () => {
  const [probe] = probesFromJson(
    parseJsonLossless(
      `[{"tool": "get_user", "args": {"id": ${BIG}}, "expect_structured": {"id": ${BIG}}}]`,
    ),
    "p.json",
  );
  assert.equal(valuesMatch(probe!.expectStructured, { id: Number(BIG) }), true);
  assert.equal(JSON.stringify(probe!.args), `{"id":${BIG}}`); // sent with its digits
});
