import assert from "node:assert/strict";
import fc from "fast-check";
import { checkJsonLimits } from "../lib/base/json_limits.ts";

// Whether a value holds a number a float cannot be in JSON (the reference, by recursion).
function holdsNonFinite(value: unknown): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(holdsNonFinite);
}

// A value nested `depth` levels deep (alternating arrays and objects) around `inner`.
function nest(depth: number, inner: unknown): unknown {
  let value = inner;
  for (let d = 0; d < depth; d++) value = d % 2 === 0 ? [value] : { k: value };
  return value;
}

Deno.test("checkJsonLimits() refuses a non-finite number at any depth and accepts the rest", () => {
  const leaf = fc.oneof(
    fc.double(),
    fc.constantFrom(Infinity, -Infinity),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.array(tie("node")),
      fc.dictionary(fc.string(), tie("node")),
    ),
  })).node;
  fc.assert(fc.property(value, fc.nat(20), (inner, depth) => {
    const doc = nest(depth, inner);
    let threw = false;
    try {
      checkJsonLimits(doc, "x.json");
    } catch {
      threw = true;
    }
    return threw === holdsNonFinite(doc);
  }));
});

Deno.test("checkJsonLimits() names the path of Infinity past the quick pass's depth", () => {
  assert.throws(
    () => checkJsonLimits(nest(12, [1, Infinity]), "x.json"),
    /\[1\]: number too large/,
  );
  assert.throws(() => checkJsonLimits(nest(1001, 1), "x.json"), /nested deeper than 1000/);
  checkJsonLimits(nest(999, 1), "x.json");
});
