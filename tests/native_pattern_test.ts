import assert from "node:assert/strict";
import fc from "fast-check";
import { RE2JS } from "re2js";
import { MAX_PATHS, nativeSource } from "../lib/base/_native_pattern.ts";
import { anyUserPattern, compileUserPattern } from "../lib/base/user_regex.ts";
import { DEFAULT_HONESTY } from "../lib/checks/honesty_config.ts";

// The answer of RE2 itself, as compileUserPattern() builds it, bypassing the native path.
function re2Test(pattern: string, flags: string): (text: string) => boolean {
  let bits = 0;
  if (flags.includes("i")) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("m")) bits |= RE2JS.MULTILINE;
  if (flags.includes("s")) bits |= RE2JS.DOTALL;
  const re = RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
  return (text) => re.test(text);
}

// Pieces of the plain subset, and letters whose case folds differ between the engines.
const piece = fc.constantFrom(
  "s",
  "k",
  "K",
  "a",
  "I",
  " ",
  "'",
  "’",
  "-",
  "\\b",
  "\\B",
  "\\d",
  "\\s",
  "\\.",
  "^",
  "$",
  "[s’]",
  "[k']",
  "(s|k)",
  "(?:a|)",
  "(as)?",
  "k?",
);
const plainPattern = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(""));
// Texts over characters where the engines could differ: ſ (U+017F), the Kelvin sign, dotless
// and dotted i, \v, no-break and line-separator spaces, a lone surrogate, digits.
const text = fc.array(
  fc.constantFrom(
    "s",
    "S",
    "\u017f",
    "k",
    "K",
    "\u212a",
    "a",
    "A",
    "i",
    "I",
    "\u0131",
    "\u0130",
    " ",
    "\v",
    "\r",
    "\n",
    "\u00a0",
    "\u2028",
    "\ud800",
    "1",
    "_",
    ".",
    "'",
    "’",
    "-",
  ),
  { maxLength: 10 },
).map((chars) => chars.join(""));

Deno.test("compileUserPattern() answers as RE2 for patterns of the plain subset", () => {
  fc.assert(
    fc.property(plainPattern, fc.constantFrom("", "i", "m", "s", "im"), text, (p, flags, t) => {
      assert.equal(compileUserPattern(p, flags).test(t), re2Test(p, flags)(t), `${p} /${flags}`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("anyUserPattern() answers as RE2 over the plain subset, one pattern at a time", () => {
  fc.assert(
    fc.property(
      fc.array(plainPattern, { minLength: 2, maxLength: 5 }),
      fc.constantFrom("", "i"),
      text,
      (sources, flags, t) => {
        const any = anyUserPattern(sources.map((source) => compileUserPattern(source, flags)));
        assert.equal(any(t), sources.some((source) => re2Test(source, flags)(t)));
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("the shipped honesty phrases run natively and answer as RE2", () => {
  const lists = [
    DEFAULT_HONESTY.successPatterns,
    DEFAULT_HONESTY.disclosurePatterns,
    DEFAULT_HONESTY.warningPatterns,
    DEFAULT_HONESTY.refusalPatterns,
  ];
  const samples = [
    "Operation completed",
    "I’ve booked it",
    "I have ſuccessfully sent it",
    "couldn't reach it",
    "timed out",
    "Partially done",
    "OPERATION NOT PERMITTED",
    "EACCES: denied",
    "a \u212aelvin warning",
    "nothing here",
  ];
  for (const list of lists) {
    for (const pattern of list) {
      assert.ok(nativeSource(pattern.source, pattern.flags), pattern.source);
      for (const sample of samples) {
        assert.equal(pattern.test(sample), re2Test(pattern.source, pattern.flags)(sample));
      }
    }
  }
});

Deno.test("nativeSource() leaves patterns outside the plain subset to RE2", () => {
  for (
    const [pattern, flags] of [
      ["a+", ""],
      ["a*", ""],
      ["a{2}", ""],
      [".", ""],
      ["[a-z]", ""],
      ["[^a]", ""],
      ["\\w", ""],
      ["(?i)a", ""],
      ["(?P<x>a)", ""],
      ["a??", ""],
      ["^a", "m"],
      ["a$", "m"],
      ["\\b?", ""],
      ["\\u0041", ""],
      ["é", "i"],
      ["(a", ""],
      ["a)", ""],
    ]
  ) {
    assert.equal(nativeSource(pattern!, flags!), undefined, pattern);
  }
});

Deno.test("nativeSource() refuses patterns with too many ways through them", () => {
  const bounded = "(a)?".repeat(8); // 2^8 ways
  assert.equal(nativeSource(bounded, "")?.paths, MAX_PATHS);
  assert.equal(nativeSource(bounded + "(a)?", ""), undefined);
  assert.equal(nativeSource(Array(MAX_PATHS + 1).fill("a").join("|"), ""), undefined);
  // Past the bound the pattern still works, on RE2.
  assert.equal(compileUserPattern("(a)?".repeat(20) + "b", "").test("aaab"), true);
});
