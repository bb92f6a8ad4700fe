import assert from "node:assert/strict";
import { contractFromMapping } from "../lib/contract/mod.ts";

Deno.test("contractFromMapping() reads matching and source and writes them back", () => {
  const plain = contractFromMapping({ required: [{ tool: "a" }] });
  assert.equal(plain.matching, "optimal");
  assert.equal(plain.source, undefined);
  assert.equal("matching" in plain.toJSON() || "source" in plain.toJSON(), false);
  const source = { benchmark: "bfcl", id: "simple_python_0", category: "simple_python" };
  const imported = contractFromMapping({ required: [{ tool: "a" }], matching: "optimal", source });
  assert.deepEqual(imported.toJSON().source, source);
  assert.deepEqual(contractFromMapping(imported.toJSON()).source, source);
});

Deno.test("contractFromMapping() refuses an unknown matching mode and a non-object source", () => {
  assert.throws(
    () => contractFromMapping({ required: [], matching: "greedy" }),
    { message: 'matching: must be one of "optimal", "non-consuming", "bfcl-greedy", got "greedy"' },
  );
  assert.throws(
    () => contractFromMapping({ required: [], source: ["x"] }),
    /source: must be an object/,
  );
});
