import { deepEqual, equal, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  ANY,
  Approx,
  Contains,
  Eq,
  InputError,
  isMatcher,
  IsType,
  matcherFromJson,
  OneOf,
  Regex,
} from "../mod.ts";
import { valuesMatch } from "../lib/scoring/matchers.ts";

// JSON values without "$" keys, so matcherFromJson leaves them as they are.
const plainJson = fc.jsonValue().filter((v) => !JSON.stringify(v).includes('"$'));
const anyJson = fc.jsonValue();

Deno.test("valuesMatch() compares strings after trimming only when lenient", () => {
  equal(valuesMatch("NYC", " NYC\n"), true);
  equal(valuesMatch("NYC", " NYC\n", { strict: true }), false);
  equal(valuesMatch({ a: [" x "] }, { a: ["x"] }), true);
  equal(valuesMatch({ a: [" x "] }, { a: ["x"] }, { strict: true }), false);
});

Deno.test("valuesMatch() treats 1 and 1.0 as equal in both modes", () => {
  equal(valuesMatch(1, 1.0), true);
  equal(valuesMatch(1, 1.0, { strict: true }), true);
  equal(valuesMatch(JSON.parse("1.0"), 1, { strict: true }), true);
});

Deno.test("valuesMatch() never equates different JSON types", () => {
  equal(valuesMatch(1, "1"), false);
  equal(valuesMatch(true, 1), false);
  equal(valuesMatch(null, undefined), false);
  equal(valuesMatch([], {}), false);
  equal(valuesMatch({}, []), false);
  equal(valuesMatch(0, false), false);
});

Deno.test("valuesMatch() requires the same key sets and array lengths", () => {
  equal(valuesMatch({ a: 1 }, { a: 1, b: 2 }), false);
  equal(valuesMatch({ a: 1, b: 2 }, { a: 1 }), false);
  equal(valuesMatch([1, 2], [1, 2, 3]), false);
  equal(valuesMatch({ a: 1 }, { b: 1 }, { strict: true }), false);
});

Deno.test("valuesMatch() lets matchers decide at any depth, in both modes", () => {
  const expected = matcherFromJson({
    booking: { id: { $regex: "^FL-\\d+$" }, seats: { $type: "integer" } },
    tags: [{ $any: true }, "x"],
  });
  const actual = { booking: { id: "FL-42", seats: 2 }, tags: [{ k: 1 }, "x"] };
  equal(valuesMatch(expected, actual), true);
  equal(valuesMatch(expected, actual, { strict: true }), true);
  equal(valuesMatch(expected, { ...actual, tags: ["x"] }), false);
});

Deno.test("ANY matches a present value but not an absent key", () => {
  equal(valuesMatch({ a: ANY }, { a: null }), true);
  equal(valuesMatch({ a: ANY }, {}), false);
  equal(ANY.matches(undefined, false), false);
});

Deno.test("Regex searches anywhere and matches lists joined by spaces", () => {
  const flight = new Regex("FL-\\d+");
  equal(flight.matches("booked FL-12 today", false), true);
  equal(new Regex("^FL-\\d+$").matches("booked FL-12", false), false);
  equal(new Regex("^a b 3$").matches(["a", "b", 3], false), true);
  equal(flight.matches(12, false), false);
  equal(flight.matches(null, false), false);
  equal(new Regex("^nyc$", { flags: "i" }).matches("NYC", false), true);
});

Deno.test("Regex reads Python named groups and refuses backreferences", () => {
  const date = new Regex("^(?P<y>\\d{4})-(?<m>\\d{2})$");
  equal(date.matches("2026-05", false), true);
  equal(date.matches("2026-5", false), false);
  // Escaped and in-class text is left alone.
  equal(new Regex("\\(\\?P<x>").matches("(?P<x>", false), true);
  equal(new Regex("[(?=]").matches("=", false), true);
  equal(date.toJSON().$regex, "^(?P<y>\\d{4})-(?<m>\\d{2})$");
  for (const pattern of ["^(?P<y>\\d{4})-(?P=y)$", "(a)\\1", "(?<y>a)\\k<y>"]) {
    throws(() => new Regex(pattern), /uses a backreference/);
  }
  for (const pattern of ["a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b"]) {
    throws(() => new Regex(pattern), /uses look(ahead|behind)/);
  }
});

Deno.test("Regex matches in linear time: (a+)+$ does not backtrack", () => {
  // RegExp takes ~36 s at 28 characters and doubles per character; RE2 is linear.
  const nested = new Regex("(a+)+$");
  equal(nested.matches("a".repeat(100_000), false), true);
  equal(nested.matches("a".repeat(100_000) + "!", false), false);
  equal(new Regex("^(a+)+$").matches("a".repeat(100_000) + "!", false), false);
  // The RE2 dialect: \s is ASCII only.
  equal(new Regex("\\s").matches("\u00a0", false), false);
  equal(new Regex("\\u00e9").matches("caf\u00e9", false), true);
});

Deno.test("Regex gives the same answer on repeated calls", () => {
  const pattern = new Regex("a", { flags: "i" });
  for (let i = 0; i < 3; i++) equal(pattern.matches("A", false), true);
});

Deno.test("matcherFromJson() rejects a bad regex or flags at load, naming the path", () => {
  throws(
    () => matcherFromJson({ date: { $regex: "(" } }, "required[0].args"),
    (error: Error) =>
      error instanceof InputError &&
      error.message.startsWith('required[0].args.date: invalid $regex "("'),
  );
  throws(
    () => matcherFromJson({ $regex: "a", $flags: "g" }, "x"),
    /^InputError: x: invalid \$flags "g"/,
  );
  for (const flags of ["u", "v", "y"]) {
    throws(
      () => matcherFromJson({ q: { $regex: "a", $flags: flags } }, "required[0].args"),
      new RegExp(`^InputError: required\\[0\\]\\.args\\.q: invalid \\$flags "${flags}"`),
    );
  }
  throws(() => matcherFromJson({ $regex: 3 }, "x"), /x: \$regex must be a string/);
});

Deno.test("Approx uses max(rel·|n|, abs) and never matches booleans", () => {
  equal(new Approx(100, { rel: 0.01 }).matches(100.9, false), true);
  equal(new Approx(100, { rel: 0.01 }).matches(101.1, false), false);
  equal(new Approx(0).matches(1e-12, false), false);
  equal(new Approx(0, { abs: 1e-9 }).matches(1e-12, false), true);
  equal(new Approx(1).matches(true, false), false);
  equal(new Approx(1).matches("1", false), false);
  deepEqual(new Approx(2).toJSON(), { $approx: 2, $rel: 1e-6, $abs: 0 });
});

Deno.test("Contains finds substrings, list items and object keys", () => {
  equal(new Contains("@").matches("a@b", false), true);
  equal(new Contains("@").matches("ab", false), false);
  equal(new Contains("b").matches(["a", " b "], false), true);
  equal(new Contains("b").matches(["a", " b "], true), false);
  equal(new Contains({ id: 1 }).matches([{ id: 1 }], true), true);
  equal(new Contains("k").matches({ k: 0 }, false), true);
  equal(new Contains(1).matches({ 1: 0 }, false), false);
  equal(new Contains("x").matches(5, false), false);
  const nested = matcherFromJson({ $contains: { $regex: "^b" } });
  equal(valuesMatch(nested, ["a", "bc"]), true);
});

Deno.test("OneOf accepts operators among its items", () => {
  const city = matcherFromJson({ $one_of: ["NYC", { $regex: "^New York" }] });
  equal(valuesMatch(city, "New York City"), true);
  equal(valuesMatch(city, " NYC "), true);
  equal(valuesMatch(city, " NYC ", { strict: true }), false);
  equal(valuesMatch(city, "LA"), false);
  throws(() => matcherFromJson({ $one_of: [] }, "a"), /a: \$one_of must be a non-empty list/);
  throws(
    () => matcherFromJson({ $one_of: ["x", { $bogus: 1 }] }, "args.city"),
    /args\.city\.\$one_of\[1\]: unknown operator \$bogus/,
  );
});

Deno.test("IsType checks JSON types; integer means finite without a fraction", () => {
  const integer = new IsType("integer");
  equal(integer.matches(3, false), true);
  equal(integer.matches(3.0, false), true);
  equal(integer.matches(3.5, false), false);
  equal(integer.matches(true, false), false);
  equal(new IsType("number").matches(false, false), false);
  equal(new IsType("object").matches([], false), false);
  equal(new IsType("array").matches([], false), true);
  equal(new IsType("null", "string").matches(null, false), true);
  deepEqual(matcherFromJson({ $type: ["null", "string"] }), new IsType("null", "string"));
  throws(
    () => matcherFromJson({ $type: "int" }, "args.n"),
    /args\.n: unknown \$type "int" \(did you mean integer\?\)/,
  );
  throws(() => matcherFromJson({ $type: [] }, "n"), /n: \$type needs at least one type name/);
});

Deno.test("Eq compares a literal whose keys start with $ without reading operators", () => {
  const literal = matcherFromJson({ $eq: { $regex: "x" } });
  ok(literal instanceof Eq);
  equal(valuesMatch(literal, { $regex: "x" }), true);
  equal(valuesMatch(literal, "x"), false);
  deepEqual((literal as Eq).toJSON(), { $eq: { $regex: "x" } });
});

Deno.test("matcherFromJson() suggests the operator for a typo, naming the path", () => {
  throws(
    () =>
      matcherFromJson(
        { date: { $regexp: "^2026" } },
        "required[1].alternatives[0][0].args",
      ),
    {
      message:
        "required[1].alternatives[0][0].args.date: unknown operator $regexp (did you mean $regex?)",
    },
  );
  throws(
    () => matcherFromJson({ $in: [1] }, "a"),
    /a: unknown operator \$in \(did you mean \$one_of\?\)/,
  );
  throws(
    () => matcherFromJson({ $zzzzzzzz: 1 }, "a"),
    /a: unknown operator \$zzzzzzzz; the operators are/,
  );
});

Deno.test("matcherFromJson() rejects two operators in one object", () => {
  throws(
    () => matcherFromJson({ q: { $regex: "a", $contains: "b" } }, "args"),
    {
      message:
        "args.q: two operators in one object ($regex and $contains); use one, or combine them with $one_of",
    },
  );
});

Deno.test("matcherFromJson() rejects stray keys, modifiers without their operator and bad operands", () => {
  throws(() => matcherFromJson({ $any: true, name: 1 }, "a"), /a: key "name" beside an operator/);
  throws(() => matcherFromJson({ $flags: "i" }, "a"), /a: \$flags goes with \$regex/);
  throws(() => matcherFromJson({ $approx: 1, $flags: "i" }, "a"), /a: \$flags goes with \$regex/);
  throws(() => matcherFromJson({ $any: false }, "a"), /a: \$any must be true/);
  throws(() => matcherFromJson({ $approx: "1" }, "a"), /a: \$approx must be a finite number/);
  throws(
    () => matcherFromJson({ $approx: 1, $rel: -1 }, "a"),
    /a: \$rel must be a finite number ≥ 0/,
  );
});

Deno.test("matcherFromJson() errors are InputErrors carrying the path in where", () => {
  try {
    matcherFromJson([{ $bad: 1 }], "required");
    ok(false, "expected a throw");
  } catch (error) {
    ok(error instanceof InputError);
    equal(error.where, "required[0]");
  }
});

Deno.test("matcher reprs are their operator objects and read back to the same matcher", () => {
  const matchers = [
    ANY,
    new Regex("^FL-\\d+$"),
    new Regex("a", { flags: "im" }),
    new Approx(2.5, { rel: 0.1, abs: 0.01 }),
    new Contains(new Regex("x")),
    new OneOf("a", 1, new IsType("null")),
    new IsType("integer"),
    new IsType("integer", "null"),
    new Eq({ $ref: "x" }),
  ];
  for (const matcher of matchers) {
    const text = String(matcher);
    equal(text, JSON.stringify(matcher.toJSON()));
    const back = matcherFromJson(JSON.parse(text));
    ok(isMatcher(back));
    equal(String(back), text);
  }
  equal(String(new Regex("^FL-\\d+$")), '{"$regex":"^FL-\\\\d+$"}');
  equal(JSON.stringify({ a: new OneOf(ANY) }), '{"a":{"$one_of":[{"$any":true}]}}');
});

Deno.test("isMatcher() is false for parsed JSON", () => {
  fc.assert(fc.property(anyJson, (value) => !isMatcher(value)));
});

Deno.test("valuesMatch() property: every JSON value matches itself in both modes", () => {
  fc.assert(fc.property(anyJson, (value) => {
    return valuesMatch(value, value) &&
      valuesMatch(value, structuredClone(value), { strict: true });
  }));
});

Deno.test("valuesMatch() property: strict match implies lenient match", () => {
  fc.assert(fc.property(anyJson, anyJson, (a, b) => {
    return !valuesMatch(a, b, { strict: true }) || valuesMatch(a, b);
  }));
});

Deno.test("valuesMatch() property: plain comparison is symmetric", () => {
  fc.assert(fc.property(anyJson, anyJson, fc.boolean(), (a, b, strict) => {
    return valuesMatch(a, b, { strict }) === valuesMatch(b, a, { strict });
  }));
});

Deno.test("valuesMatch() property: lenient ignores surrounding whitespace, strict does not", () => {
  const pad = fc.constantFrom(" ", "\t", "\n", "  ");
  fc.assert(fc.property(fc.string(), pad, (text, space) => {
    const padded = `${space}${text}${space}`;
    return valuesMatch({ k: [text] }, { k: [padded] }) &&
      !valuesMatch({ k: [text] }, { k: [padded] }, { strict: true });
  }));
});

Deno.test("matcherFromJson() property: values without $ keys are copied unchanged", () => {
  fc.assert(fc.property(plainJson, (value) => {
    const read = matcherFromJson(value);
    return JSON.stringify(read) === JSON.stringify(value) &&
      valuesMatch(read, value, { strict: true });
  }));
});

Deno.test("matcherFromJson() property: $eq matches its own literal in strict mode", () => {
  fc.assert(fc.property(anyJson, (value) => {
    return valuesMatch(matcherFromJson({ $eq: value }), structuredClone(value), { strict: true });
  }));
});

Deno.test("Regex property: an escaped literal is found inside any text around it", () => {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  fc.assert(fc.property(fc.string(), fc.string(), fc.string(), (before, text, after) => {
    return new Regex(escape(text)).matches(before + text + after, true) &&
      new Regex(`^${escape(text)}$`).matches(text, true);
  }));
});

Deno.test("Approx property: matches within tolerance and not beyond", () => {
  const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });
  const tolerance = fc.double({ min: 0, max: 10, noNaN: true });
  fc.assert(fc.property(finite, tolerance, (n, abs) => {
    const approx = new Approx(n, { rel: 0, abs });
    return approx.matches(n, false) && !approx.matches(n + abs * 2 + 1, false);
  }));
});

Deno.test("valuesMatch() compares strings after trimming, for any whitespace (property)", () => {
  const space = fc.constantFrom(
    " ",
    "\t",
    "\n",
    "\u00a0",
    "\u2003",
    "\u3000",
    "\ufeff",
    "\u2028",
    "",
  );
  const padded = fc.tuple(space, fc.string({ maxLength: 6 }), space).map(([a, s, b]) => a + s + b);
  fc.assert(
    fc.property(padded, padded, (a, b) => {
      equal(valuesMatch(a, b), a.trim() === b.trim());
      equal(valuesMatch(a, b, { strict: true }), a === b);
    }),
    { numRuns: 2000 },
  );
});
