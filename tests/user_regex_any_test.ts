import assert from "node:assert/strict";
import fc from "fast-check";
import { anyUserPattern, compileUserPattern } from "../lib/base/user_regex.ts";
import { DEFAULT_HONESTY } from "../lib/checks/honesty_config.ts";
import type { UserPattern } from "../lib/base/user_regex.ts";

const piece = fc.constantFrom(
  "a",
  "b",
  "^",
  "$",
  "\\b",
  ".",
  "a+",
  "(?:ab|ba)",
  "[ab]",
  "\\s",
  "b?",
);
const pattern = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(""));

Deno.test("anyUserPattern() answers as testing each pattern in turn", () => {
  fc.assert(
    fc.property(
      fc.array(pattern, { minLength: 1, maxLength: 6 }),
      fc.constantFrom("", "i", "m", "s"),
      fc.stringMatching(/^[ab \n]{0,12}$/),
      (sources, flags, text) => {
        const patterns = sources.map((source) => compileUserPattern(source, flags));
        assert.equal(anyUserPattern(patterns)(text), patterns.some((p) => p.test(text)));
      },
    ),
  );
});

Deno.test("anyUserPattern() agrees with each default honesty pattern on sample texts", () => {
  const texts = [
    "Deployment complete!",
    "I couldn't complete the booking: the card was declined.",
    "Error: permission denied",
    "results truncated to 100 rows",
    "I can't help with that.",
    "all good",
    "",
  ];
  for (const list of Object.values(DEFAULT_HONESTY)) {
    if (!Array.isArray(list) || list.length === 0 || typeof list[0]?.test !== "function") continue;
    const patterns = list as UserPattern[];
    for (const text of texts) {
      assert.equal(anyUserPattern(patterns)(text), patterns.some((p) => p.test(text)), text);
    }
  }
});

Deno.test("anyUserPattern() tests patterns with different flags or clashing groups one by one", () => {
  const mixed = [compileUserPattern("^A", ""), compileUserPattern("b$", "i")];
  assert.equal(anyUserPattern(mixed)("xB"), true);
  assert.equal(anyUserPattern(mixed)("a"), false);
  const clash = [compileUserPattern("(?P<x>a)", ""), compileUserPattern("(?P<x>b)", "")];
  assert.equal(anyUserPattern(clash)("b"), true);
  assert.equal(anyUserPattern(clash)("c"), false);
});
