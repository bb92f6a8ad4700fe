// Issue 38: the drift of a schema, as properties — nothing for the same schema, only compatible
// changes for a documentation edit anywhere, and an end on any input (recursive references too).
import assert from "node:assert/strict";
import fc from "fast-check";
import { compareSchemas, type DriftClass, type SchemaSide } from "../lib/doctor/schema_drift.ts";
import { isIgnored, parseIgnoreRule } from "../lib/doctor/ignore.ts";
import { pointerKey } from "../lib/doctor/lint_text.ts";

type Schema = Record<string, unknown>;

const key = fc.constantFrom("a", "b", "id", "q", "a/b", "x~y", "description", "title");
const { schema } = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ type: fc.constantFrom("string", "number", "integer", "boolean", "null") }),
    fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(fc.string(), { maxLength: 3 }) }),
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(key, tie("schema"), { maxKeys: 3 }),
        required: fc.uniqueArray(key, { maxLength: 2 }),
      },
      { requiredKeys: ["type", "properties"] },
    ),
    fc.record({ type: fc.constant("array"), items: tie("schema") }),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ $ref: fc.constant("#/$defs/d") }),
  ),
}));
/** A root schema with the `$defs` its references point at. */
const root = fc.record({ body: schema, def: schema }).map(({ body, def }) => ({
  ...body,
  $defs: { d: def },
}));

const SUBSCHEMA_MAPS = new Set(["properties", "$defs"]);

/** The schema with every description, title and example edited, at every depth. */
function editDocs(value: unknown, salt: string, inMap = false): unknown {
  if (Array.isArray(value)) return value.map((item) => editDocs(item, salt));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = editDocs(v, salt, !inMap && SUBSCHEMA_MAPS.has(k));
  }
  if (!inMap) {
    out.description = `Described ${salt}.`;
    out.title = `Title ${salt}`;
    out.examples = [salt];
  }
  return out;
}

function changes(a: unknown, b: unknown, side: SchemaSide): DriftClass[] {
  const found: DriftClass[] = [];
  compareSchemas(a, b, "/tools/t/inputSchema", side, (cls) => found.push(cls));
  return found;
}

const sides = fc.constantFrom<SchemaSide>("input", "output");

Deno.test("compareSchemas() finds nothing between a schema and itself", () => {
  fc.assert(fc.property(root, sides, (s, side) => {
    assert.deepEqual(changes(s, structuredClone(s), side), []);
  }));
});

Deno.test("compareSchemas() calls a documentation edit anywhere compatible, never breaking", () => {
  fc.assert(fc.property(root, fc.string({ maxLength: 8 }), sides, (s, salt, side) => {
    const found = changes(s, editDocs(s, salt), side);
    assert.ok(found.length > 0, "the edit is reported");
    assert.ok(found.every((cls) => cls === "compatible"), JSON.stringify(found));
  }));
});

Deno.test("compareSchemas() ends on any JSON, and on a schema that refers to itself twice", () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 5 }),
      fc.jsonValue({ maxDepth: 5 }),
      sides,
      (a, b, side) => {
        changes(a, b, side);
      },
    ),
  );
  // A tree whose every node has two self-references: without a bound, 2^depth comparisons.
  const tree = (type: string) => ({
    type: "object",
    properties: { left: { $ref: "#" }, right: { $ref: "#" }, value: { type } },
  });
  const started = performance.now();
  const found = changes(tree("string"), tree("number"), "input");
  assert.ok(performance.now() - started < 2_000, "bounded");
  // One change, one finding: at the root's own value, not again down each self-reference.
  assert.deepEqual(found, ["breaking"]);
  // Deeper than the bound: not compared, and said so (a warning), never passed over in silence.
  let deep: Record<string, unknown> = { type: "string" };
  let deeper: Record<string, unknown> = { type: "number" };
  for (let i = 0; i < 40; i++) {
    deep = { type: "object", properties: { n: deep } };
    deeper = { type: "object", properties: { n: deeper } };
  }
  assert.deepEqual(changes(deep, deeper, "input"), ["safety"]);
});

Deno.test("compareSchemas() reports a definition used twice once, where it is first used", () => {
  const twice = (type: string) => ({
    type: "object",
    properties: { from: { $ref: "#/$defs/place" }, to: { $ref: "#/$defs/place" } },
    $defs: { place: { type } },
  });
  const found: string[] = [];
  compareSchemas(
    twice("string"),
    twice("number"),
    "/tools/t/inputSchema",
    "input",
    (cls, at) => found.push(`${cls} ${at}`),
  );
  assert.deepEqual(found, ["breaking /tools/t/inputSchema/properties/from/type"]);
});

Deno.test("isIgnored() matches a rule's code or family at or under its pointer only", () => {
  const segment = fc.string({ minLength: 1, maxLength: 6 }).map(pointerKey);
  fc.assert(fc.property(
    fc.array(segment, { minLength: 1, maxLength: 4 }),
    fc.array(segment, { maxLength: 3 }),
    (head, tail) => {
      const path = `/${head.join("/")}`;
      const finding = {
        code: "lint.hidden-unicode",
        severity: "warn" as const,
        path: `${path}${tail.map((s) => `/${s}`).join("")}`,
        message: "",
      };
      assert.ok(isIgnored(finding, [parseIgnoreRule(`lint@${path}`, "--ignore")]));
      assert.ok(isIgnored(finding, [parseIgnoreRule("lint.hidden-unicode", "--ignore")]));
      assert.ok(!isIgnored(finding, [parseIgnoreRule(`lint@${path}x`, "--ignore")]));
      assert.ok(!isIgnored(finding, [parseIgnoreRule(`drift@${path}`, "--ignore")]));
      assert.ok(!isIgnored(finding, [parseIgnoreRule("lint.hidden", "--ignore")]));
    },
  ));
});
