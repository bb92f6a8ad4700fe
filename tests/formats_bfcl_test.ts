// The bfcl trace format (issue 43): BFCL result lines in their three forms,
// decoded as BFCL's own decoder does; what cannot be decoded is 0 calls with
// a decode_error note, never an exception past the reader.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import fc from "fast-check";
import { bfclLanguage, bfclTracesFromText, readBfcl } from "../lib/formats/bfcl.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { floatRepr, strRepr } from "../lib/formats/bfcl_python_literals.ts";
import { numberFromText, numberKind, parseJsonLossless } from "../lib/base/lossless_json.ts";
import { InputError } from "../lib/base/errors.ts";
import type { Trace } from "../lib/scoring/calls.ts";

const argsText = (trace: Trace, i = 0) => JSON.stringify(trace.calls[i]?.args);

Deno.test("readBfcl() decodes a Python call list", () => {
  const trace = readBfcl({
    id: "parallel_multiple_1",
    result:
      `[area_rectangle.calculate(length=7.0, breadth=3), area_circle.calculate(radius=5.5, unit='cm', opts={"round": True, "digits": None}, sides=[1, (2, 3)])]`,
  });
  assert.deepEqual(trace.calls.map((c) => c.tool), [
    "area_rectangle.calculate",
    "area_circle.calculate",
  ]);
  assert.equal(argsText(trace), '{"length":7.0,"breadth":3}');
  assert.equal(numberKind(trace.calls[0]!.args!.length), "float");
  assert.equal(numberKind(trace.calls[0]!.args!.breadth), "integer");
  assert.equal(
    argsText(trace, 1),
    '{"radius":5.5,"unit":"cm","opts":{"round":true,"digits":null},"sides":[1,[2,3]]}',
  );
  assert.equal(trace.format, "bfcl");
  assert.equal(trace.metadata?.bfcl_output_form, "prompting");
  assert.equal(trace.notes, undefined);
});

Deno.test("readBfcl() reads a Python call string the way BFCL's resolve_ast_by_type does", () => {
  const trace = readBfcl({
    id: "simple_python_9",
    result:
      "```\n[f(1, a=x, b=..., c=foo(1, 'x'), d=a[1], e=nested(k=2), f=-5, g=+5, h='a' \"b\", i=0x1F, j=1_000)]\n```",
  });
  assert.deepEqual(trace.calls[0]?.args, {
    a: "x", // a bare name is its text
    b: "...",
    c: "foo(1, 'x')", // a call without keywords: what ast.unparse writes
    d: "a[1]",
    e: { nested: { k: 2 } },
    f: -5,
    g: -5, // BFCL negates the operand whatever the unary operator
    h: "ab",
    i: 31,
    j: 1000,
  });
  // Repeated keywords: the last wins (ast.parse allows them, BFCL's dict keeps the last).
  assert.deepEqual(readBfcl({ id: "simple_python_1", result: "[f(a=1, a=2)]" }).calls[0]?.args, {
    a: 2,
  });
  // Subscripts are the text BFCL joins; a call without keywords is what ast.unparse writes.
  assert.deepEqual(
    readBfcl({ id: "simple_python_1", result: "[f(a=x[1:2], b=x[1, 2], c=g(*y, k[::2]))]" })
      .calls[0]?.args,
    { a: "x[1:2]", b: "x[(1, 2)]", c: "g(*y, k[::2])" },
  );
  // A quoted call is a string once BFCL has added the brackets: not a call.
  const quoted = readBfcl({ id: "simple_python_1", result: "'f(a=1)'" });
  assert.match(String(quoted.metadata?.decode_error), /not a call/);
});

Deno.test("readBfcl() folds constant arithmetic as Python computes it", () => {
  const trace = readBfcl({
    id: "simple_python_2",
    result:
      "[f(a=1+2*3, b=7//-2, c=-7 % 3, d=2**-1, e=3.0*2, f=10/5, g='ab'*2, h=[1]+[2], i=2**64, j=-7.5 // 2, k=1 << 3 | 1, l=True + 1)]",
  });
  assert.equal(
    argsText(trace),
    '{"a":7,"b":-4,"c":2,"d":0.5,"e":6.0,"f":2.0,"g":"abab","h":[1,2],"i":18446744073709551616,"j":-4.0,"k":9,"l":2}',
  );
  for (
    const [expression, why] of [
      ["1/0", /ZeroDivisionError/],
      ["x+1", /non-constant operand/],
      ["10**5000", /4096 bits/],
      ["'a' < 'b'", /comparison/],
    ] as const
  ) {
    const failed = readBfcl({ id: "simple_python_2", result: `[f(a=${expression})]` });
    assert.equal(failed.calls.length, 0, expression);
    assert.match(String(failed.metadata?.decode_error), why);
  }
});

Deno.test("readBfcl() decodes the function-calling form with JSON-string arguments", () => {
  const trace = readBfcl({
    id: "live_parallel_1-0-1",
    result: [
      { get_current_weather: '{"location": "Boston, MA", "days": 5.0}' },
      { get_current_weather: '{"location": "San Francisco, CA", "id": 12345678901234567890}' },
    ],
    input_token_count: 731,
    output_token_count: 99,
  });
  assert.equal(trace.calls.length, 2);
  assert.equal(argsText(trace), '{"location":"Boston, MA","days":5.0}');
  assert.equal(argsText(trace, 1), '{"location":"San Francisco, CA","id":12345678901234567890}');
  assert.equal(trace.metadata?.bfcl_output_form, "function-calling");
  assert.deepEqual(trace.usage, { inputTokens: 731, outputTokens: 99 });
});

Deno.test("readBfcl() reads the decoded form, and tracesFromText() keeps its floats from the text", () => {
  const trace = readBfcl({ id: "simple_python_0", result: [{ area: { base: 10, unit: "cm" } }] });
  assert.deepEqual(trace.calls[0], { tool: "area", args: { base: 10, unit: "cm" } });
  assert.equal(trace.metadata?.bfcl_output_form, "decoded");
  const text = '{"id": "simple_python_0", "result": [{"area": {"base": 10.0, "height": 5}}]}\n' +
    '{"id": "simple_python_1", "result": "[area(base=2.0)]"}\n';
  const traces = tracesFromText(text, "BFCL_v3_simple_result.json");
  assert.equal(argsText(traces[0]!), '{"base":10.0,"height":5}');
  assert.equal(argsText(traces[1]!), '{"base":2.0}');
});

Deno.test("readBfcl() decodes a Java call as BFCL does: every value text", () => {
  const trace = readBfcl({
    id: "simple_java_7",
    result:
      `[Config.Loader.load(path="conf/app.yml", retries=3, strict=true, ratio=-1.5f, mode='r', items=new int[]{1, 2}, list=new ArrayList<String>(), owner=session, other=helper.make(1, "a"), none=null)]`,
  });
  assert.equal(trace.calls[0]?.tool, "Config.Loader.load");
  assert.deepEqual(trace.calls[0]?.args, {
    path: "conf/app.yml",
    retries: "3",
    strict: "true",
    ratio: "-1.5f",
    mode: "r",
    items: "new int[]{1,2}",
    list: "new ArrayList<String>()",
    owner: "session",
    other: 'helper.make(1, "a")',
    none: "null",
  });
  assert.equal(trace.metadata?.bfcl_language, "java");
  // A positional identifier is BFCL's None key; other positional arguments are dropped.
  assert.deepEqual(readBfcl({ id: "java_1", result: "[f(ctx, 5, a=1)]" }).calls[0]?.args, {
    null: "ctx",
    a: "1",
  });
  // tree-sitter-java reads '…' of any length as a character literal: BFCL decodes it.
  assert.deepEqual(
    readBfcl({ id: "simple_java_3", result: "[Db.ref(monitor='dbMonitor', c='x', s=\"it's\")]" })
      .calls[0]?.args,
    { monitor: "dbMonitor", c: "x", s: "it's" },
  );
  // Module-declaration words are names to tree-sitter outside a module declaration (fast-check
  // found `to()`): the calls decode, names and values as written.
  for (const word of ["to", "with", "requires", "exports", "opens", "uses", "provides"]) {
    const call = readBfcl({ id: "simple_java_2", result: `[a.${word}(${word}=to, s="with")]` })
      .calls[0];
    assert.deepEqual([call?.tool, call?.args], [`a.${word}`, { [word]: "to", s: "with" }], word);
  }
  const bad = readBfcl({ id: "simple_java_1", result: '[f(params={"a": "1"})]' });
  assert.equal(bad.calls.length, 0);
  assert.match(String(bad.metadata?.decode_error), /Error parsing java/);
  const none = readBfcl({ id: "simple_java_1", result: "[x = 1]" });
  assert.match(String(none.metadata?.decode_error), /not in function-call format/);
});

Deno.test("readBfcl() decodes a JavaScript call as BFCL does: source text, one pair of quotes cut", () => {
  const trace = readBfcl({
    id: "simple_javascript_2",
    result:
      `[extractLastTransactionId(filepath='/var/log/db.log', status=['completed', 'failed'], limit=5, strict=true, cb=(x) => x + 1, opts={a: 1})]`,
  });
  assert.deepEqual(trace.calls[0]?.args, {
    filepath: "/var/log/db.log",
    status: "['completed', 'failed']",
    limit: "5",
    strict: "true",
    cb: "(x) => x + 1",
    opts: "{a: 1}",
  });
  assert.equal(trace.metadata?.bfcl_language, "javascript");
  // A bare identifier or `true` is BFCL's None key; `undefined`, `false` and literals are dropped.
  assert.deepEqual(
    readBfcl({ id: "javascript_1", result: "[f(undefined, false, 5, ctx, a=1)]" }).calls[0]?.args,
    { null: "ctx", a: "1" },
  );
  // Two calls are a sequence expression, not a call, for BFCL's JavaScript parser.
  const two = readBfcl({ id: "javascript_3", result: "[f(a=1), g(b=2)]" });
  assert.equal(two.calls.length, 0);
  assert.match(String(two.metadata?.decode_error), /not in function-call format/);
});

Deno.test("readBfcl() picks the language from the id, and options.language overrides it", () => {
  assert.equal(bfclLanguage("simple_javascript_0"), "javascript");
  assert.equal(bfclLanguage("javascript_0"), "javascript");
  assert.equal(bfclLanguage("simple_java_0#3"), "java");
  assert.equal(bfclLanguage("live_irrelevance_1-0-1"), "python");
  const entry = { id: "simple_python_0", result: "[f(a=1)]" };
  assert.deepEqual(readBfcl(entry).calls[0]?.args, { a: 1 });
  assert.deepEqual(readBfcl(entry, { language: "javascript" }).calls[0]?.args, { a: "1" });
});

Deno.test("readBfcl() names each trace by its id: run task and trial, metadata.bfcl_id", () => {
  const repeat = readBfcl({ id: "simple_python_3#2", result: "[f(a=1)]" });
  assert.deepEqual(repeat.run, { task: "simple_python_3", trial: 2 });
  assert.equal(repeat.metadata?.bfcl_id, "simple_python_3#2");
  assert.deepEqual(readBfcl({ id: "live_simple_0-0-0", result: [] }).run, {
    task: "live_simple_0-0-0",
  });
});

Deno.test("readBfcl() marks an output it cannot decode with a decode_error note and 0 calls", () => {
  for (
    const result of [
      "No function matches the user's request.",
      "[math.factorial(number=5)]<end_of_turn>",
      "[f(a=math.pi)]",
      "[f(a=lambda: 1)]",
      "[f(a={1, 2})]",
      "[f(a=1, 2)]",
      [{ f: "{not json" }],
      [{ f: '"text"' }],
      [{ f: {}, g: {} }],
      ["[f(a=1)]", "[g(b=2)]"].map((turn) => [turn]),
    ]
  ) {
    const trace = readBfcl({ id: "simple_python_5", result });
    assert.equal(trace.calls.length, 0, JSON.stringify(result));
    assert.match(trace.notes?.[0] ?? "", /^decode_error: /, JSON.stringify(result));
    assert.equal(typeof trace.metadata?.decode_error, "string");
  }
  const text = readBfcl({ id: "irrelevance_0", result: "I cannot help." });
  assert.equal(text.finalAnswer, "I cannot help.");
});

Deno.test("readBfcl() reads [], [{}] and an empty call list as 0 calls with a note", () => {
  for (const result of [[], [{}], "[]", ""]) {
    const trace = readBfcl({ id: "live_irrelevance_0-0-0", result });
    assert.equal(trace.calls.length, 0);
    assert.match(trace.notes?.[0] ?? "", /^no tool calls: /, JSON.stringify(result));
    assert.equal(trace.metadata?.decode_error, undefined);
  }
});

Deno.test("readBfcl() keeps a call whose value JSON cannot hold, with unreadable arguments", () => {
  const trace = readBfcl({ id: "irrelevance_3", result: "[f(a=b'x', c=1)]" });
  assert.equal(trace.calls.length, 1); // BFCL counts the call: no irrelevance pass
  assert.equal(trace.calls[0]?.tool, "f");
  assert.match(trace.calls[0]?.argsError ?? "", /unsupported value: the bytes literal/);
  assert.equal(trace.calls[0]?.rawArgs, "f(a=b'x', c=1)");
});

Deno.test("readBfcl() bounds what the input controls: text length, nesting", () => {
  const long = `[f(a='${"x".repeat(1_000_000)}')]`;
  let start = performance.now();
  assert.equal(
    (readBfcl({ id: "simple_python_0", result: long }).calls[0]?.args?.a as string).length,
    1_000_000,
  );
  assert.ok(performance.now() - start < 10_000, "a 1 MB call string decodes in bounded time");
  const tooLong = readBfcl({ id: "simple_python_0", result: "x".repeat(1024 * 1024 + 1) });
  assert.match(String(tooLong.metadata?.decode_error), /longer than 1 MiB/);
  for (const id of ["simple_python_0", "simple_java_0", "simple_javascript_0"]) {
    start = performance.now();
    const deep = readBfcl({ id, result: `[f(a=${"[".repeat(400_000)}${"]".repeat(400_000)})]` });
    assert.match(String(deep.metadata?.decode_error), /nested deeper than 200 levels/);
    assert.ok(performance.now() - start < 2_000, `${id}: refused before parsing`);
  }
  const json = readBfcl({
    id: "simple_python_0",
    result: [{ f: `{"a": ${"[".repeat(2000)}${"]".repeat(2000)}}` }],
  });
  assert.match(String(json.metadata?.decode_error), /^decode_error|nest|deep/i);
});

Deno.test("bfclTracesFromText() leaves other files alone, and names a bad line when forced", () => {
  assert.equal(bfclTracesFromText('{"id": 1, "result": {}}\n', "x.jsonl", false), undefined);
  assert.equal(bfclTracesFromText('[{"tool": "a"}]', "x.json", false), undefined);
  assert.throws(
    () => bfclTracesFromText('{"id": "a", "result": "[f()]"}\n{"x": 1}\n', "r.json", true),
    (error: unknown) =>
      error instanceof InputError && /r\.json:2: not a BFCL result line/.test(error.message),
  );
  const traces = tracesFromText(
    '{"id": "a", "result": "[f()]"}\n{"id": "b", "result": []}\n',
    "r.jsonl",
    {
      format: "bfcl",
    },
  );
  assert.deepEqual(traces.map((t) => t.run?.task), ["a", "b"]);
});

Deno.test("readBfcl() agrees with BFCL's own decoder on every Python vector (CPython, scripts/bfcl_decode_vectors.py)", () => {
  const lines = Deno.readTextFileSync("testdata/bfcl_decoder/python_vectors.jsonl").trim().split(
    "\n",
  );
  assert.ok(lines.length >= 3000);
  const tally = { decoded: 0, error: 0, unsupported: 0 };
  for (const line of lines) {
    const vector = parseJsonLossless(line, { keep: "float-text" }) as {
      id: string;
      result: string;
      decoded?: Record<string, unknown>[];
      error?: true;
      unsupported?: true;
    };
    const trace = readBfcl({ id: vector.id, result: vector.result });
    const where = `${vector.id}: ${vector.result}`;
    if (vector.error) {
      tally.error++;
      assert.equal(trace.calls.length, 0, where);
      assert.equal(typeof trace.metadata?.decode_error, "string", where);
    } else if (vector.unsupported) {
      tally.unsupported++;
      assert.ok(trace.calls.some((call) => call.argsError !== undefined), where);
    } else {
      tally.decoded++;
      const calls = trace.calls.map((call) => ({ [call.tool]: call.args }));
      assert.equal(JSON.stringify(calls), JSON.stringify(vector.decoded), where);
    }
  }
  assert.ok(
    tally.decoded > 500 && tally.error > 500 && tally.unsupported > 10,
    JSON.stringify(tally),
  );
});

// --- Properties ---

const KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  "match",
  "case",
  "type",
  "_",
  "new",
  "int",
  "true",
  "false",
  "null",
  "var",
  "let",
  "const",
  "function",
  "this",
  "void",
  "typeof",
  "delete",
  "instanceof",
  "do",
  "switch",
  "default",
  "super",
  "enum",
  "export",
  "extends",
  "static",
  "throw",
  "catch",
  "debugger",
  "of",
]);
const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/).filter((s) => !KEYWORDS.has(s));
const callName = fc.array(ident, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("."));

type PyGen = { text: string; json: unknown };

const pyScalar: fc.Arbitrary<PyGen> = fc.oneof(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => ({
    text: n.toString(),
    json: Number.isSafeInteger(Number(n)) ? Number(n) : numberFromText(n.toString()),
  })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => ({
    text: floatRepr(x),
    json: Number.isInteger(x) ? numberFromText(floatRepr(x)) : x,
  })),
  fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => ({ text: strRepr(s), json: s })),
  fc.boolean().map((b) => ({ text: b ? "True" : "False", json: b })),
  fc.constant({ text: "None", json: null }),
);
const pyValue: fc.Arbitrary<PyGen> = fc.letrec<{ value: PyGen }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    pyScalar,
    fc.array(tie("value"), { maxLength: 3 }).map((items) => ({
      text: `[${items.map((i) => i.text).join(", ")}]`,
      json: items.map((i) => i.json),
    })),
    fc.uniqueArray(fc.tuple(fc.string({ maxLength: 6 }), tie("value")), {
      maxLength: 3,
      selector: ([k]) => k,
    }).map((entries) => ({
      text: `{${entries.map(([k, v]) => `${strRepr(k)}: ${v.text}`).join(", ")}}`,
      json: Object.fromEntries(entries.map(([k, v]) => [k, v.json])),
    })),
  ),
})).value;

const callsOf = <V>(value: fc.Arbitrary<V>) =>
  fc.array(
    fc.record({
      name: callName,
      args: fc.uniqueArray(fc.tuple(ident, value), { maxLength: 4, selector: ([k]) => k }),
    }),
    { minLength: 1, maxLength: 4 },
  );

Deno.test("readBfcl() decodes generated Python call lists back to the same calls", () => {
  fc.assert(
    fc.property(callsOf(pyValue), (calls) => {
      const text = `[${
        calls.map((c) => `${c.name}(${c.args.map(([k, v]) => `${k}=${v.text}`).join(", ")})`).join(
          ", ",
        )
      }]`;
      const trace = readBfcl({ id: "parallel_multiple_0", result: text });
      assert.equal(trace.metadata?.decode_error, undefined, text);
      assert.deepEqual(trace.calls.map((c) => c.tool), calls.map((c) => c.name));
      calls.forEach((call, i) => {
        const expected = Object.fromEntries(call.args.map(([k, v]) => [k, v.json]));
        assert.equal(JSON.stringify(trace.calls[i]!.args), JSON.stringify(expected), text);
      });
    }),
    { numRuns: 200 },
  );
});

// Java and JavaScript values: what the model writes, and the text BFCL's decoder yields.
const plain = fc.stringMatching(/^[a-zA-Z0-9 ,.:/_-]{0,12}$/);
const javaValue = fc.oneof(
  plain.map((s) => ({ text: `"${s}"`, value: s })),
  fc.integer({ min: -1000, max: 1000 }).map((n) => ({ text: `${n}`, value: `${n}` })),
  fc.boolean().map((b) => ({ text: `${b}`, value: `${b}` })),
  ident.map((s) => ({ text: `v_${s}`, value: `v_${s}` })),
  fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 }).map((items) => ({
    text: `new int[]{${items.join(", ")}}`,
    value: `new int[]{${items.join(",")}}`,
  })),
);
const jsValue = fc.oneof(
  plain.map((s) => ({ text: `"${s}"`, value: s })),
  plain.map((s) => ({ text: `'${s}'`, value: s })),
  fc.integer({ min: -1000, max: 1000 }).map((n) => ({ text: `${n}`, value: `${n}` })),
  fc.boolean().map((b) => ({ text: `${b}`, value: `${b}` })),
  fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 }).map((items) => ({
    text: `[${items.join(", ")}]`,
    value: `[${items.join(", ")}]`,
  })),
);

for (const [language, value] of [["java", javaValue], ["javascript", jsValue]] as const) {
  Deno.test(`readBfcl() decodes generated ${language} calls back to the same call`, () => {
    fc.assert(
      fc.property(callsOf(value).map((calls) => calls[0]!), (call) => {
        const name = language === "java" ? call.name : call.name.replaceAll(".", "_");
        const text = `[${name}(${call.args.map(([k, v]) => `p_${k}=${v.text}`).join(", ")})]`;
        const trace = readBfcl({ id: `simple_${language}_0`, result: text });
        assert.equal(trace.metadata?.decode_error, undefined, text);
        assert.equal(trace.calls.length, 1, text);
        assert.equal(trace.calls[0]!.tool, name);
        const expected = Object.fromEntries(call.args.map(([k, v]) => [`p_${k}`, v.value]));
        assert.deepEqual(trace.calls[0]!.args, expected, text);
      }),
      { numRuns: 200 },
    );
  });
}

const fragments = fc.array(
  fc.oneof(
    fc.constantFrom(
      "[",
      "]",
      "(",
      ")",
      "{",
      "}",
      ",",
      "=",
      "'",
      '"',
      "\\",
      "-",
      "+",
      "*",
      "**",
      "f",
      "a.b",
      "x",
      "1",
      "5.0",
      "1e999",
      "0x",
      "True",
      "None",
      "new",
      "lambda",
      "#",
      "\n",
      " ",
      "...",
      "b'",
      "f'",
      ":",
      ";",
      "`",
      "<",
      ">",
    ),
    fc.string({ maxLength: 4 }),
  ),
  { maxLength: 30 },
).map((parts) => parts.join(""));

Deno.test("readBfcl() never throws on malformed call strings: a decode_error trace or calls", () => {
  fc.assert(
    fc.property(
      fragments,
      fc.constantFrom("simple_python_0", "simple_java_0", "simple_javascript_0"),
      (result, id) => {
        const trace = readBfcl({ id, result });
        if (trace.calls.length === 0) assert.ok((trace.notes?.length ?? 0) > 0);
        for (const call of trace.calls) assert.ok(call.tool !== "");
      },
    ),
    { numRuns: 1000 },
  );
  fc.assert(
    fc.property(fc.array(fc.anything(), { maxLength: 3 }), (result) => {
      const trace = readBfcl({ id: "simple_python_0", result });
      if (trace.calls.length === 0) assert.ok((trace.notes?.length ?? 0) > 0);
    }),
    { numRuns: 300 },
  );
});
