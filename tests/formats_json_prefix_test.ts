// completePrefix(): the whole part of a JSON text cut at any point.
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseJsonLossless } from "../lib/base/lossless_json.ts";
import { completePrefix, memberWhole } from "../lib/formats/json_prefix.ts";

Deno.test("completePrefix() keeps whole members and drops a scalar cut in the middle", () => {
  assert.deepEqual(completePrefix('{"id":12'), { value: {}, cut: true, openPath: [] });
  assert.deepEqual(completePrefix('{"a":[1,2,{"b":"x'), {
    value: { a: [1, 2, {}] },
    cut: true,
    openPath: ["a", 2],
  });
  assert.deepEqual(completePrefix('{"a":tru')?.value, {});
  assert.deepEqual(completePrefix('{"a":"x\\"y"}'), {
    value: { a: 'x"y' },
    cut: false,
    openPath: [],
  });
  assert.equal(completePrefix("hello"), undefined);
  assert.equal(completePrefix('{"a" "b"'), undefined);
  assert.equal(completePrefix('{"a":1]'), undefined);
});

// The complete part of a cut text agrees with the value: every member off
// the open path is equal, the innermost open container holds whole members only.
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
function agrees(part: unknown, whole: unknown, open: (string | number)[]): boolean {
  const [head, ...rest] = open;
  if (Array.isArray(part) && Array.isArray(whole)) {
    if (head === undefined) {
      return part.length <= whole.length && part.every((v, i) => same(v, whole[i]));
    }
    return part.length === Number(head) + 1 &&
      part.every((v, i) => i === head ? agrees(v, whole[i], rest) : same(v, whole[i]));
  }
  if (part === null || typeof part !== "object" || whole === null || typeof whole !== "object") {
    return false;
  }
  const entries = whole as Record<string, unknown>;
  return Object.entries(part).every(([k, v]) =>
    k in entries && (k === head ? agrees(v, entries[k], rest) : same(v, entries[k]))
  );
}

Deno.test("completePrefix() of any cut agrees with the whole value; the uncut text reads whole", () => {
  const json = fc.jsonValue({ maxDepth: 4 }).filter((v) => typeof v === "object" && v !== null);
  fc.assert(
    fc.property(json, fc.double({ min: 0, max: 1, noNaN: true }), (value, at) => {
      const text = JSON.stringify(value);
      const whole = completePrefix(text);
      // Integers a double cannot hold read as their digits (issue 42), as the whole text does.
      const read = parseJsonLossless(text);
      assert.deepEqual(whole, { value: read, cut: false, openPath: [] });
      const cut = completePrefix(text.slice(0, Math.max(1, Math.floor(text.length * at))));
      assert.ok(cut !== undefined, text);
      assert.ok(agrees(cut.value, read, cut.openPath), `${text} → ${JSON.stringify(cut)}`);
    }),
    { numRuns: 500 },
  );
});

Deno.test("memberWhole() says a member is whole only off the open path", () => {
  const cut = completePrefix('{"method":"tools/call","params":{"name":"w","arguments":{"p":"a"');
  assert.ok(cut !== undefined);
  assert.equal(memberWhole(cut, ["method"]), true);
  assert.equal(memberWhole(cut, ["params", "name"]), true);
  assert.equal(memberWhole(cut, ["params", "arguments"]), false);
  assert.equal(memberWhole(cut, ["id"]), false);
});
