/**
 * BFCL's rules as contract features: string standardization, the Java and
 * JavaScript type converters (property tests), the `$normalize: "bfcl"`
 * matcher read from JSON, and int-versus-float surviving a contract written
 * and read back with a plain `JSON.parse`.
 *
 * @module
 */

import { deepEqual, equal, throws } from "node:assert/strict";
import fc from "fast-check";
import { standardizeBfclString } from "../lib/scoring/bfcl_values.ts";
import { pyType } from "../lib/scoring/bfcl_values.ts";
import { javaTypeConverter } from "../lib/scoring/bfcl_java.ts";
import { jsTypeConverter } from "../lib/scoring/bfcl_js.ts";
import { checkBfclValue } from "../lib/scoring/bfcl_checker.ts";
import { matcherFromJson } from "../lib/scoring/matcher_json.ts";
import { BfclParam } from "../lib/scoring/bfcl_param.ts";
import { contractsFromBfcl } from "../lib/benchmarks/bfcl_import.ts";
import { contractFromMapping } from "../lib/contract/parse.ts";
import { evaluateContract } from "../lib/evaluate/evaluate_contract.ts";
import { parseJsonLossless } from "../lib/base/lossless_json.ts";
import { bfclVerdictOf } from "../lib/evaluate/bfcl_contract.ts";
import type { Trace } from "../lib/scoring/calls.ts";

const DELETED = [" ", ",", ".", "/", "-", "_", "*", "^"];

Deno.test("standardizeBfclString() is idempotent", () => {
  fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => {
    const once = standardizeBfclString(text);
    equal(standardizeBfclString(once), once);
  }));
});

Deno.test("standardizeBfclString() deletes exactly the ASCII space and ,./-_*^", () => {
  const kept = fc.constantFrom(
    "a",
    "z",
    "0",
    "9",
    "\t",
    "\n",
    "\u00a0",
    "\u2003",
    ":",
    "(",
    '"',
    "é",
  );
  const deleted = fc.constantFrom(...DELETED);
  fc.assert(fc.property(fc.array(fc.oneof(kept, deleted)), (chars) => {
    equal(
      standardizeBfclString(chars.join("")),
      chars.filter((c) => !DELETED.includes(c)).join(""),
    );
  }));
});

Deno.test("standardizeBfclString() ignores ASCII case and turns ' into \"", () => {
  const ascii = fc.string({ unit: fc.constantFrom(..."abcXYZ019 ,'-") });
  fc.assert(fc.property(ascii, (text) => {
    equal(standardizeBfclString(text.toUpperCase()), standardizeBfclString(text.toLowerCase()));
    equal(standardizeBfclString(text).includes("'"), false);
  }));
});

Deno.test("javaTypeConverter() reads integers, longs, floats and doubles by their suffix", () => {
  fc.assert(fc.property(fc.integer(), (n) => {
    equal(javaTypeConverter(String(n), "integer"), n);
    equal(javaTypeConverter(`${n}L`, "long"), n);
    equal(javaTypeConverter(String(n), "long"), String(n)); // no L: kept as text
    const float = javaTypeConverter(`${n}f`, "float");
    equal(pyType(float), "float");
    equal(Number(JSON.stringify(float)), n);
  }));
  fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
    const text = String(x);
    if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return;
    const value = javaTypeConverter(text, "double");
    equal(pyType(value), "float");
    equal(Number(JSON.stringify(value)), Object.is(x, -0) ? 0 : x);
  }));
});

Deno.test("javaTypeConverter() keeps the text when it is not of the type", () => {
  fc.assert(fc.property(fc.string(), (text) => {
    if (!/^-?\d+\n?$/.test(text)) equal(javaTypeConverter(text, "integer"), text);
    if (text !== "true" && text !== "false") equal(javaTypeConverter(text, "boolean"), text);
    equal(javaTypeConverter(text, "String"), text);
    equal(javaTypeConverter(text, "char"), text); // BFCL's char pattern never matches
  }));
  throws(() => javaTypeConverter("x", "Set"), /not implemented/);
});

Deno.test("javaTypeConverter() reads arrays, array lists and hash maps", () => {
  fc.assert(fc.property(fc.array(fc.integer()), (ns) => {
    deepEqual(javaTypeConverter(`new int[]{${ns.join(", ")}}`, "Array", "integer"), ns);
    if (ns.length > 0) {
      deepEqual(
        javaTypeConverter(
          `new ArrayList<Integer>(Arrays.asList(${ns.join(", ")}))`,
          "ArrayList",
          "integer",
        ),
        ns,
      );
    }
  }));
  deepEqual(
    javaTypeConverter(
      'new HashMap<String, Object>() {{ put("a", 1); put("b", "x"); put("c", true); }}',
      "HashMap",
    ),
    { a: 1, b: "x", c: true },
  );
  deepEqual(javaTypeConverter("new ArrayList<>()", "ArrayList", "String"), []);
  equal(javaTypeConverter("Arrays.asList(1)", "ArrayList", "integer"), "Arrays.asList(1)");
});

Deno.test("jsTypeConverter() reads numbers, quoted strings, arrays and objects", () => {
  fc.assert(fc.property(fc.integer(), fc.string(), (n, text) => {
    equal(jsTypeConverter(String(n), "integer"), n);
    equal(jsTypeConverter(`${n}n`, "Bigint"), n);
    equal(jsTypeConverter(`"${text}"`, "String"), text);
    equal(jsTypeConverter(`'${text}'`, "String"), text);
    if (!/^-?\d+(\.\d+)?\n?$/.test(text)) equal(jsTypeConverter(text, "float"), text);
  }));
  const word = fc.string({ unit: fc.constantFrom(..."abcxyz019"), minLength: 1 });
  fc.assert(fc.property(fc.array(word, { minLength: 1 }), (words) => {
    deepEqual(
      jsTypeConverter(`[${words.map((w) => `"${w}"`).join(", ")}]`, "array", "String"),
      words,
    );
  }));
  deepEqual(jsTypeConverter("{'key1': 123, 'key2': 'value', 'key3': false}", "dict"), {
    key1: 123,
    key2: "value",
    key3: false,
  });
  deepEqual(jsTypeConverter(" [ [ 1, 2 ], [ 3,   4], [5, 6]]", "array", "array"), [[1, 2], [3, 4], [
    5,
    6,
  ]]);
  throws(() => jsTypeConverter("1", "number"), /Unsupported type/);
});

Deno.test("checkBfclValue() follows BFCL's int, float and variable rules", () => {
  const five = parseJsonLossless("5.0", { keep: "float-text" });
  equal(checkBfclValue("n", 5, [5.5, 5], { type: "float" }, "python").valid, true);
  equal(
    checkBfclValue("n", five, [5], { type: "integer" }, "python").errorType,
    "type_error:simple",
  );
  // Inside arrays no int becomes a float; the element type is the answer's first element's.
  const floats = parseJsonLossless("[[1.0, 2.0]]", { keep: "float-text" }) as unknown[];
  equal(
    checkBfclValue("l", [1, 2], floats, { type: "array", items: "float" }, "python").errorType,
    "type_error:nested",
  );
  // "dontcare" for an integer: a variable, compared exactly, without standardization.
  equal(checkBfclValue("n", "dontcare", ["dontcare"], { type: "integer" }, "python").valid, true);
  equal(
    checkBfclValue("n", "DontCare", ["dontcare"], { type: "integer" }, "python").errorType,
    "value_error:others",
  );
  // null is a type error unless listed.
  equal(
    checkBfclValue("s", null, ["a"], { type: "string" }, "python").errorType,
    "type_error:simple",
  );
  equal(checkBfclValue("s", null, ["", null], { type: "string" }, "python").valid, true);
  // Dict values are not type-checked: 1 equals true there.
  equal(checkBfclValue("d", { a: 1 }, [{ a: [true] }], { type: "dict" }, "python").valid, true);
  // Java values are source text.
  equal(
    checkBfclValue("b", true, [true], { type: "boolean" }, "java").errorType,
    "type_error:java",
  );
  equal(checkBfclValue("b", "true", [true], { type: "boolean" }, "java").valid, true);
});

Deno.test('matcherFromJson() reads $one_of with $normalize: "bfcl" and refuses bad modifiers', () => {
  const param = matcherFromJson({
    $one_of: ["units", ""],
    $normalize: "bfcl",
    $doc: { type: "string" },
  });
  equal(param instanceof BfclParam, true);
  equal((param as BfclParam).omittable, true);
  throws(() => matcherFromJson({ $one_of: ["a"], $normalize: "nfc" }, "args.x"), {
    message:
      'args.x: $normalize must be "bfcl" (BFCL\'s parameter rules; the other modifiers of $one_of go with it), got "nfc"',
  });
  throws(
    () => matcherFromJson({ $one_of: ["a"], $doc: { type: "string" } }, "args.x"),
    /args\.x: \$normalize must be "bfcl"/,
  );
  throws(
    () => matcherFromJson({ $one_of: [], $normalize: "bfcl", $doc: { type: 1 } }, "args.x"),
    /args\.x\.\$doc: must be/,
  );
  throws(
    () => matcherFromJson({ $one_of: [], $normalize: "bfcl", $floats: ["x"] }, "args.x"),
    /args\.x\.\$floats/,
  );
  throws(
    () => matcherFromJson({ $regex: "a", $doc: { type: "string" } }, "args.x"),
    /\$doc goes with \$one_of/,
  );
});

Deno.test("an imported contract keeps BFCL's int-versus-float rules through a plain JSON.parse", () => {
  const questions = JSON.stringify({
    id: "simple_python_0",
    function: [{
      name: "mean",
      parameters: {
        type: "dict",
        properties: { xs: { type: "array", items: { type: "float" } } },
        required: ["xs"],
      },
    }],
  });
  const answers = '{"id": "simple_python_0", "ground_truth": [{"mean": {"xs": [[1.0, 2.0]]}}]}';
  const [entry] = contractsFromBfcl(questions, answers);
  const written = JSON.stringify(entry!.contract);
  const contract = contractFromMapping(JSON.parse(written));
  const ints = evaluateContract(contract, [{ tool: "mean", args: { xs: [1, 2] } }]);
  equal((ints.metrics.bfcl as { error_type: string }).error_type, "type_error:nested");
  const floats = parseJsonLossless('{"xs": [1.0, 2.0]}', { keep: "float-text" }) as Record<
    string,
    unknown
  >;
  equal(evaluateContract(contract, [{ tool: "mean", args: floats }]).passed(1), true);
  // And the contract writes back as it was read.
  equal(JSON.stringify(contract.toJSON().required), JSON.stringify(entry!.contract.required));
});

Deno.test("the Java and JavaScript converters finish on hostile collection text, and refuse longer text", () => {
  const n = 8000;
  const hostile: [string, string, string | undefined][] = [
    ["new HashMap<>() {" + " ".repeat(n) + "x", "HashMap", undefined],
    ["new ArrayList<>() {{" + " ".repeat(n) + "x", "ArrayList", "integer"],
    ["[[" + "],[".repeat(n / 3), "array", undefined],
    ["[" + "[], ".repeat(n / 4), "array", undefined],
    ["{" + "a,".repeat(n / 2) + "}", "dict", undefined],
  ];
  for (const [text, type, nested] of hostile) {
    const started = performance.now();
    const convert = type === "array" || type === "dict" ? jsTypeConverter : javaTypeConverter;
    convert(text, type, nested);
    const ms = performance.now() - started;
    equal(ms < 2000, true, `${type} on ${text.slice(0, 20)}…: ${ms.toFixed(0)} ms`);
  }
  throws(() => javaTypeConverter("new int[]{" + "1, ".repeat(3000) + "}", "Array", "integer"), {
    name: "BfclCrashError",
    message: /longer than 8192 characters/,
  });
  // A checker error is a failed verdict that says why, never a crash of the evaluation.
  const contract = contractFromMapping({
    matching: "bfcl-greedy",
    pass: "exact",
    required: [{
      tool: "f",
      args: {
        xs: {
          $one_of: [[1]],
          $normalize: "bfcl",
          $doc: { type: "array", items: "integer" },
          $language: "javascript",
        },
      },
    }],
  });
  const result = evaluateContract(contract, [{
    tool: "f",
    args: { xs: "[" + "1, ".repeat(3000) + "1]" },
  }]);
  equal(
    (result.metrics.bfcl as { error_type: string }).error_type,
    "toolscore:bfcl_checker_raises",
  );
  equal(result.passed(1), false);
});

Deno.test("an output that did not decode is BFCL's ast_decoder:decoder_failed in AST categories, no call in irrelevance", () => {
  // What the bfcl reader makes of an undecodable output: no call, metadata.decode_error.
  const trace: Trace = {
    calls: [],
    format: "custom", // "bfcl" once the bfcl reader lands
    metadata: { decode_error: "invalid syntax at 1:5" },
  };
  const ast = contractFromMapping({
    matching: "bfcl-greedy",
    pass: "exact",
    source: { benchmark: "bfcl", id: "simple_python_0", category: "simple_python" },
    required: [{ tool: "f", args: {} }],
  });
  deepEqual(bfclVerdictOf(ast, [], trace), {
    valid: false,
    error_type: "ast_decoder:decoder_failed",
    error: "the output did not decode: invalid syntax at 1:5",
    pairs: [],
  });
  const irrelevance = contractFromMapping({
    matching: "bfcl-greedy",
    pass: "exact",
    source: { benchmark: "bfcl", id: "irrelevance_0", category: "irrelevance" },
    required: [],
  });
  equal(bfclVerdictOf(irrelevance, [], trace).valid, true);
  // Without it, no call in an AST category is BFCL's wrong count.
  equal(
    (evaluateContract(ast, { calls: [] }).metrics.bfcl as { error_type: string }).error_type,
    "simple_function_checker:wrong_count",
  );
});
