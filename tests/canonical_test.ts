import assert from "node:assert/strict";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { canonicalJson, jsonSha256, Regex } from "../mod.ts";
import { canonicalJsonBytes, canonicalValue, sha256Hex } from "../lib/base/canonical.ts";

function double(bits: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${bits}`));
  return view.getFloat64(0);
}

// RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text.
const APPENDIX_B: [string, string][] = [
  ["0000000000000000", "0"],
  ["8000000000000000", "0"],
  ["0000000000000001", "5e-324"],
  ["8000000000000001", "-5e-324"],
  ["7fefffffffffffff", "1.7976931348623157e+308"],
  ["ffefffffffffffff", "-1.7976931348623157e+308"],
  ["4340000000000000", "9007199254740992"],
  ["c340000000000000", "-9007199254740992"],
  ["4430000000000000", "295147905179352830000"],
  ["44b52d02c7e14af5", "9.999999999999997e+22"],
  ["44b52d02c7e14af6", "1e+23"],
  ["44b52d02c7e14af7", "1.0000000000000001e+23"],
  ["444b1ae4d6e2ef4e", "999999999999999700000"],
  ["444b1ae4d6e2ef4f", "999999999999999900000"],
  ["444b1ae4d6e2ef50", "1e+21"],
  ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
  ["3eb0c6f7a0b5ed8d", "0.000001"],
  ["41b3de4355555553", "333333333.3333332"],
  ["41b3de4355555554", "333333333.33333325"],
  ["41b3de4355555555", "333333333.3333333"],
  ["41b3de4355555556", "333333333.3333334"],
  ["41b3de4355555557", "333333333.33333343"],
  ["becbf647612f3696", "-0.0000033333333333333333"],
  ["43143ff3c1cb0959", "1424953923781206.2"],
];

Deno.test("canonicalJson() writes every RFC 8785 Appendix B number as the RFC does", () => {
  for (const [bits, expected] of APPENDIX_B) {
    assert.equal(canonicalJson(double(bits)), expected, `0x${bits}`);
    assert.equal(canonicalJson({ n: double(bits) }), `{"n":${expected}}`, `0x${bits} in an object`);
  }
});

Deno.test("canonicalJson() writes 1e21, 1e-7, -0 and 0.1 + 0.2 in ECMAScript form", () => {
  assert.equal(canonicalJson([1e21, 1e-7, -0, 0.1 + 0.2]), "[1e+21,1e-7,0,0.30000000000000004]");
  assert.equal(canonicalJson(1e20), "100000000000000000000");
  assert.equal(canonicalJson(1e-6), "0.000001");
  assert.equal(canonicalJson(4.5), "4.5");
  assert.equal(canonicalJson(2e-3), "0.002");
});

// The JSON Canonicalization Scheme's reference test data (input text → canonical text).
const RFC_FILES: [string, string, string][] = [
  [
    "arrays",
    '[\n  56,\n  {\n    "d": true,\n    "10": null,\n    "1": [ ]\n  }\n]',
    '[56,{"1":[],"10":null,"d":true}]',
  ],
  [
    "french",
    '{\n  "peach": "This sorting order",\n  "péché": "is wrong according to French",\n' +
    '  "pêche": "but canonicalization MUST",\n  "sin":   "ingnore locale"\n}\n',
    '{"peach":"This sorting order","péché":"is wrong according to French",' +
    '"pêche":"but canonicalization MUST","sin":"ingnore locale"}',
  ],
  [
    "structures",
    '{\n  "1": {"f": {"f": "hi","F": 5} ,"\\n": 56.0},\n  "10": { },\n  "": "empty",\n' +
    '  "a": { },\n  "111": [ { } ],\n  "A": { }\n}',
    '{"":"empty","1":{"\\n":56,"f":{"F":5,"f":"hi"}},"10":{},"111":[{}],"A":{},"a":{}}',
  ],
  [
    "unicode",
    '{\n  "Unnormalized Unicode":"\\u1e0d\\u0307"\n}\n',
    '{"Unnormalized Unicode":"\u1e0d\u0307"}',
  ],
  [
    "values",
    '{\n  "numbers": [1E30, 4.50, 333333333.33333329, 2e-3, 0.000000000000000000000000001],\n' +
    '  "escaping": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n' +
    '  "literals": [null, true, false]\n}',
    '{"escaping":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/","literals":[null,true,false],' +
    '"numbers":[1e+30,4.5,333333333.3333333,0.002,1e-27]}',
  ],
  [
    "weird",
    '{\n  "\\u20ac": "Euro Sign",\n  "1": "One",\n  "\\u0080": "Control\\u007f",\n' +
    '  "\\ud83d\\ude02": "Smiley",\n  "\\u00f6": "Latin Small Letter O With Diaeresis",\n' +
    '  "\\ufb33": "Hebrew Letter Dalet With Dagesh",\n  "</script>": "Browser Challenge"\n}\n',
    '{"1":"One","</script>":"Browser Challenge","\u0080":"Control\u007f",' +
    '"ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign","\u{1f602}":"Smiley",' +
    '"\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  ],
];

Deno.test("canonicalJson() matches the RFC 8785 reference files", () => {
  for (const [name, input, expected] of RFC_FILES) {
    assert.equal(canonicalJson(JSON.parse(input)), expected, name);
  }
});

Deno.test("canonicalJson() orders keys by UTF-16 code units (RFC 8785 §3.2.3)", () => {
  const value = {
    "\u20ac": "Euro Sign",
    "\r": "Carriage Return",
    "\ufb33": "Hebrew Letter Dalet With Dagesh",
    "1": "One",
    "\u{1f600}": "Emoji: Grinning Face",
    "\u0080": "Control",
    "\u00f6": "Latin Small Letter O With Diaeresis",
  };
  // Read the key order from the text: JSON.parse would put "1" first again.
  const keys = [...canonicalJson(value).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) =>
    JSON.parse(`"${m[1]}"`)
  );
  assert.deepEqual(keys, ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\u{1f600}", "\ufb33"]);
});

Deno.test("canonicalJsonBytes() is the UTF-8 of the RFC 8785 §3.2.2 sample", () => {
  const value = JSON.parse(
    '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
      '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
      '"literals": [null, true, false]}',
  );
  const hex = [...canonicalJsonBytes(value)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
  // The RFC publishes these bytes; the first and last rows are checked here.
  assert.ok(hex.startsWith("7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72"), hex);
  assert.ok(hex.endsWith("5c 5c 5c 5c 5c 22 2f 22 7d"), hex);
  assert.equal(
    new TextDecoder().decode(canonicalJsonBytes(value)),
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
      '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
  );
});

Deno.test("canonicalJson() writes non-JSON leaves as stable repr strings and never throws", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  assert.equal(canonicalJson(cyclic), '{"a":1,"self":"[Circular]"}');
  assert.equal(canonicalJson([NaN, Infinity, -Infinity]), '["NaN","Infinity","-Infinity"]');
  assert.equal(canonicalJson([undefined, 10n]), '["undefined","10"]');
  assert.equal(canonicalJson({ skip: undefined, keep: null }), '{"keep":null}');
  assert.equal(canonicalJson("\ud800x"), '"\ufffdx"');
  assert.equal(canonicalJson({ "\udc00": 1 }), '{"\ufffd":1}');
  assert.equal(
    canonicalJson(new Map<string, unknown>([["b", 1], ["a", new Set([2])]])),
    '{"a":[2],"b":1}',
  );
  assert.equal(canonicalJson(new Number(3)), "3");
  assert.equal(canonicalJson({ pattern: /^done\b/i }), '{"pattern":"/^done\\\\b/i"}');
  assert.equal(canonicalJson({ m: new Regex("^a") }), canonicalJson({ m: { $regex: "^a" } }));
  assert.equal(canonicalJson(JSON.parse('{"__proto__": 1}')), '{"__proto__":1}');
});

Deno.test("canonicalValue() keeps a __proto__ key as an ordinary key", () => {
  const plain = canonicalValue(JSON.parse('{"__proto__": {"x": 1}}')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(plain), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(plain), null);
});

Deno.test("jsonSha256() is the SHA-256 of the canonical bytes", () => {
  const value = { b: [1, 2], a: "é" };
  const expected = createHash("sha256").update('{"a":"é","b":[1,2]}').digest("hex");
  assert.equal(jsonSha256(value), expected);
  assert.equal(sha256Hex(canonicalJsonBytes(value)), expected);
  assert.match(jsonSha256(null), /^[0-9a-f]{64}$/);
});

/** A copy with every -0 made 0 (JSON has one zero). */
function withoutNegativeZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: withoutNegativeZero(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** The same object with its keys in reverse order, at every depth. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) {
      Object.defineProperty(out, key, {
        value: reversedKeys((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

Deno.test("canonicalJson() reads back as the same JSON value (property)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      assert.deepEqual(
        withoutNegativeZero(JSON.parse(canonicalJson(value))),
        withoutNegativeZero(value),
      );
    }),
    { numRuns: 500 },
  );
});

Deno.test("jsonSha256() does not change with key order (property)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      assert.equal(jsonSha256(reversedKeys(value)), jsonSha256(value));
      assert.equal(canonicalJson(reversedKeys(value)), canonicalJson(value));
    }),
    { numRuns: 500 },
  );
});

Deno.test("canonicalJson() is idempotent over its own output (property)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const once = canonicalJson(value);
      assert.equal(canonicalJson(JSON.parse(once)), once);
    }),
    { numRuns: 300 },
  );
});
