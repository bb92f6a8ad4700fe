import assert from "node:assert/strict";
import fc from "fast-check";
import {
  exactNumbersEqual,
  isNumberText,
  numberFromText,
  numberKind,
  numberText,
  parseJsonLossless,
} from "../lib/base/lossless_json.ts";

Deno.test("parseJsonLossless() keeps integers past 2^53 digit for digit", () => {
  const value = parseJsonLossless(
    '{"a": 12345678901234567890, "b": 12345678901234567891}',
  ) as Record<
    string,
    unknown
  >;
  assert.equal(numberText(value.a), "12345678901234567890");
  assert.equal(exactNumbersEqual(value.a, value.b), false);
  assert.equal(JSON.stringify(value), '{"a":12345678901234567890,"b":12345678901234567891}');
  assert.equal(parseJsonLossless("9007199254740991"), 9007199254740991);
  assert.equal(numberText(parseJsonLossless("9007199254740993")), "9007199254740993");
});

Deno.test("parseJsonLossless() keeps whole-valued float literals only when asked", () => {
  assert.deepEqual(parseJsonLossless("[5.0, 1e3]"), [5, 1000]);
  const kept = parseJsonLossless("[5.0, 1e3, 5, 5.5, -0.0]", { keep: "float-text" }) as unknown[];
  assert.deepEqual(kept.map(numberKind), ["float", "float", "integer", "float", "float"]);
  assert.equal(kept[2], 5);
  assert.equal(kept[3], 5.5);
  assert.equal(JSON.stringify(kept), "[5.0,1e3,5,5.5,-0.0]");
});

Deno.test("parseJsonLossless() throws where JSON.parse throws", () => {
  for (const bad of ["", "[1,", '{"a":}', "12345678901234567890x", "[5.0,]"]) {
    assert.throws(() => parseJsonLossless(bad, { keep: "float-text" }), SyntaxError);
  }
});

Deno.test("exactNumbersEqual() compares exact decimal values", () => {
  const f = (text: string) => numberFromText(text);
  assert.equal(exactNumbersEqual(f("5.0"), 5), true);
  assert.equal(exactNumbersEqual(f("1e2"), f("100")), true);
  assert.equal(exactNumbersEqual(f("1.50"), 1.5), true);
  assert.equal(exactNumbersEqual(f("-0.0"), 0), true);
  assert.equal(exactNumbersEqual(f("18446744073709551616"), f("1.8446744073709551616e19")), true);
  assert.equal(exactNumbersEqual(f("18446744073709551616"), 18446744073709551616), false);
  assert.equal(exactNumbersEqual("5", 5), false);
  assert.equal(exactNumbersEqual(NaN, NaN), false);
  assert.equal(isNumberText({ rawJSON: "1" }), false);
});

Deno.test("parseJsonLossless() agrees with JSON.parse and round-trips big integers (property)", () => {
  fc.assert(
    fc.property(fc.json(), (text) => {
      const plain = JSON.parse(text);
      const lossless = parseJsonLossless(text);
      // Written back and read plainly, it is what JSON.parse read.
      assert.deepEqual(JSON.parse(JSON.stringify(lossless)), plain);
      // Where no literal was kept, the values are the same.
      if (!/\d{16}/.test(text)) assert.deepEqual(lossless, plain);
    }),
  );
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
      fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
      (a, b) => {
        const [x, y] = parseJsonLossless(`[${a}, ${b}]`) as unknown[];
        assert.equal(JSON.stringify([x, y]), `[${a},${b}]`);
        assert.equal(exactNumbersEqual(x, y), a === b);
      },
    ),
  );
});
