import assert from "node:assert/strict";
import fc from "fast-check";
import { openaiReader } from "../lib/formats/openai.ts";

// A transcript of assistant turns and tool messages whose ids come from a small pool, so ids
// repeat within and across turns and tool messages answer earlier turns.
const step = fc.oneof(
  fc.record({
    kind: fc.constant("turn" as const),
    ids: fc.array(fc.constantFrom("a", "b", "c", "d"), { minLength: 1, maxLength: 20 }),
  }),
  fc.record({ kind: fc.constant("tool" as const), id: fc.constantFrom("a", "b", "c", "d", "x") }),
);

function transcript(steps: Step[]): unknown[] {
  let n = 0;
  return steps.map((s, i) =>
    s.kind === "turn"
      ? {
        role: "assistant",
        tool_calls: s.ids.map((id) => ({
          id,
          type: "function",
          function: { name: `tool${n++}`, arguments: "{}" },
        })),
      }
      : { role: "tool", tool_call_id: s.id, content: `result ${i}` }
  );
}
type Step = { kind: "turn"; ids: string[] } | { kind: "tool"; id: string };

// What the reader promises: a tool message answers the latest call so far with its id, unless
// that call already has a result.
function expected(steps: Step[]): (string | undefined)[] {
  const calls: { id: string; result?: string }[] = [];
  steps.forEach((s, i) => {
    if (s.kind === "turn") {
      for (const id of s.ids) calls.push({ id });
      return;
    }
    const call = calls.findLast((c) => c.id === s.id);
    if (call !== undefined && call.result === undefined) call.result = `result ${i}`;
  });
  return calls.map((c) => c.result);
}

Deno.test("openaiReader pairs each tool message with the latest call of its id (property)", () => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
      const doc = [{ role: "user", content: "go" }, ...transcript(steps)];
      if (!steps.some((s) => s.kind === "turn")) return;
      const trace = openaiReader.read(doc, "t.json");
      assert.deepEqual(trace.calls.map((c) => c.result), expected(steps));
    }),
    { numRuns: 1000 },
  );
});
