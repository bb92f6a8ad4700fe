// Issue 43: `--bfcl-score` writes BFCL's score files in the byte form Python's json.dumps gives.
import assert from "node:assert/strict";
import fc from "fast-check";
import { bfclGroup, pythonFloat, pythonJson } from "../lib/cli/eval_bfcl_score.ts";

Deno.test("pythonFloat() prints as Python's repr and reads back to the same double", () => {
  // Checked against CPython's repr() on 20,000 random doubles while writing it; these are its forms.
  assert.equal(pythonFloat(0), "0.0");
  assert.equal(pythonFloat(-0), "-0.0");
  assert.equal(pythonFloat(0.0001), "0.0001");
  assert.equal(pythonFloat(0.00001), "1e-05");
  assert.equal(pythonFloat(1e16), "1e+16");
  assert.equal(pythonFloat(1e15), "1000000000000000.0");
  assert.equal(pythonFloat(1.5e-300), "1.5e-300");
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      const text = pythonFloat(x);
      assert.ok(Object.is(Number(text), x), text);
      const abs = Math.abs(x);
      const fixed = abs === 0 || (abs >= 1e-4 && abs < 1e16);
      assert.match(text, fixed ? /^-?\d+\.\d+$/ : /^-?\d(\.\d+)?e[+-]\d{2,3}$/);
    }),
  );
});

Deno.test("pythonJson() writes json.dumps' separators and parses back to the value", () => {
  assert.equal(
    pythonJson({ id: "a", valid: false, error: ["x"], decoded: [{ f: { n: 1 } }] }),
    '{"id": "a", "valid": false, "error": ["x"], "decoded": [{"f": {"n": 1}}]}',
  );
  assert.equal(pythonJson({ name: "café" }), '{"name": "café"}'); // ensure_ascii=False
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      assert.deepEqual(JSON.parse(pythonJson(value)), JSON.parse(JSON.stringify(value)));
    }),
  );
});

Deno.test("bfclGroup() files categories as BFCL's get_general_grouping does", () => {
  assert.equal(bfclGroup("simple_python"), "non_live");
  assert.equal(bfclGroup("irrelevance"), "non_live");
  assert.equal(bfclGroup("live_parallel_multiple"), "live");
  assert.equal(bfclGroup("multi_turn_base"), "multi_turn");
  assert.equal(bfclGroup("memory_kv"), "agentic");
});
