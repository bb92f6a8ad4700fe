import assert from "node:assert/strict";
import fc from "fast-check";
import { checkJsonLimits, MAX_NESTING_DEPTH, quickWithinLimits } from "../lib/base/json_limits.ts";

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

// Levels of arrays and objects: 0 for a primitive.
function levels(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(levels));
}

function passes(value: unknown): boolean {
  try {
    checkJsonLimits(value, "x.json");
    return true;
  } catch {
    return false;
  }
}

const leaf = fc.oneof(
  fc.double(),
  fc.constantFrom(Infinity, -Infinity, NaN),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
);
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("node")),
    fc.dictionary(fc.string(), tie("node")),
  ),
})).node;

Deno.test("checkJsonLimits() refuses a non-finite number at any depth and accepts the rest (property)", () => {
  fc.assert(fc.property(tree, fc.nat(60), (inner, depth) => {
    const doc = nest(depth, inner);
    assert.equal(passes(doc), !holdsNonFinite(doc));
  }));
});

Deno.test("quickWithinLimits() is true only where checkJsonLimits() passes (property)", () => {
  fc.assert(fc.property(tree, fc.nat(60), (inner, depth) => {
    const doc = nest(depth, inner);
    if (quickWithinLimits(doc)) assert.ok(passes(doc));
    // Exactly: finite and at most 32 levels of arrays and objects.
    assert.equal(quickWithinLimits(doc), !holdsNonFinite(doc) && levels(doc) <= 32);
  }));
  assert.equal(quickWithinLimits(nest(20, [1, "x"])), true);
  assert.equal(quickWithinLimits(nest(20, [1, Infinity])), false);
  assert.equal(quickWithinLimits(nest(32, 1)), true);
  assert.equal(quickWithinLimits(nest(33, 1)), false); // past its depth: the full check decides
  assert.equal(quickWithinLimits(Infinity), false);
  assert.equal(quickWithinLimits("1e400"), true);
});

Deno.test("checkJsonLimits() names the path of a number too large and refuses deep nesting", () => {
  assert.throws(() => checkJsonLimits(nest(3, [1, Infinity]), "x.json"), /\[1\]: number too large/);
  assert.throws(
    () => checkJsonLimits(nest(MAX_NESTING_DEPTH + 1, 1), "x.json"),
    /nested deeper than 1000/,
  );
  checkJsonLimits(nest(MAX_NESTING_DEPTH - 1, 1), "x.json");
});
