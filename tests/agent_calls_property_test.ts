// Issue 30, a property over generated model answers: whatever a model sends (good calls,
// nameless calls, custom calls, unknown call types, missing, null and bad arguments, text
// beside calls, refusals, replies cut by the output-token limit), in the OpenAI Chat
// Completions, Anthropic Messages and Gemini wire formats, `agent run` writes a row per run
// and a trace that `inspect` and `eval` read back, holding every call and every turn.
import assert from "node:assert/strict";
import fc from "fast-check";
import { runCollect } from "./_cli.ts";
import { tempDir } from "./_mcp.ts";
import { CONTRACTS, httpFixture, readRows, writeSpec } from "./_agent.ts";
import {
  expectedCalls,
  type OddCall,
  type OddReply,
  scriptedModel,
  turnsRead,
  type Wire,
} from "./_odd_models.ts";

const MAX_TURNS = 6;
const WIRES: Wire[] = ["openai", "anthropic", "gemini"];

const text = fc.string({ minLength: 1, maxLength: 24 });
const call: fc.Arbitrary<OddCall> = fc.oneof(
  fc.record({
    kind: fc.constant("good" as const),
    name: fc.constant("get_weather"),
    args: fc.record({ city: text }, { noNullPrototype: true }),
  }),
  fc.record({ kind: fc.constant("nameless" as const) }),
  fc.record({ kind: fc.constant("custom" as const), name: fc.constant("add"), input: text }),
  fc.record({ kind: fc.constant("unknown-type" as const) }),
  fc.record({ kind: fc.constant("missing-args" as const), name: fc.constant("weather.now") }),
  fc.record({ kind: fc.constant("null-args" as const), name: fc.constant("weather.now") }),
  fc.record({ kind: fc.constant("bad-args" as const), name: fc.constant("get_weather") }),
);
const stop = fc.constantFrom("end" as const, "length" as const);
const withCalls: fc.Arbitrary<OddReply> = fc.record({
  text: fc.option(text, { nil: undefined }),
  calls: fc.array(call, { minLength: 1, maxLength: 3 }),
  stop,
}, { requiredKeys: ["calls", "stop"], noNullPrototype: true });
const last: fc.Arbitrary<OddReply> = fc.record({
  text: fc.option(text, { nil: undefined }),
  refusal: fc.option(text, { nil: undefined }),
  calls: fc.constant([]),
  stop,
}, { requiredKeys: ["calls", "stop"], noNullPrototype: true });
const script = fc.tuple(fc.array(withCalls, { maxLength: 3 }), last).map(([turns, end]) => [
  ...turns,
  end,
]);

type Json = Record<string, unknown>;

// What the trace's turn says for a reply: OpenAI keeps a refusal apart; the others' wire
// formats carry it as text.
function turnText(wire: Wire, reply: OddReply): string | undefined {
  return wire === "openai" ? reply.text : reply.text ?? reply.refusal;
}

Deno.test("agent run over generated model answers in three wire formats: a row per run, and inspect and eval read every trace back with every call and turn", async () => {
  const mcp = await httpFixture();
  let scripts: OddReply[][] = [];
  const servers = Object.fromEntries(WIRES.map((wire) => [
    wire,
    scriptedModel(wire, (_model, prompt) => scripts[Number(prompt.replace(/^case /, ""))] ?? []),
  ])) as Record<Wire, ReturnType<typeof scriptedModel>>;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(script, { minLength: 1, maxLength: 6 }), async (generated) => {
        scripts = generated;
        const dir = await tempDir("agent_calls_property");
        try {
          const spec = await writeSpec(dir, {
            server: { url: mcp.url },
            arms: WIRES.map((wire) => ({
              id: wire,
              provider: wire,
              model: `${wire}-scripted`,
              base_url: servers[wire].url,
            })),
            tasks: generated.map((_, i) => ({
              id: `case-${i}`,
              prompt: `case ${i}`,
              contract: `${CONTRACTS}contract_weather.json`,
            })),
            max_turns: MAX_TURNS,
          });
          const out = `${dir}/runs.jsonl`;
          const run = await runCollect(["agent", "run", spec, "-o", out, "--concurrency", "4"]);
          assert.equal(run.code, 0, run.err);
          const rows = await readRows(out);
          assert.equal(rows.length, WIRES.length * generated.length);
          for (const row of rows) {
            const wire = row.arm_id as Wire;
            const replies = generated[Number(String(row.task_id).slice("case-".length))]!;
            assert.equal(row.status, "ok", String(row.error));
            const read = turnsRead(replies, MAX_TURNS);
            const lastRead = replies[read - 1]!;
            assert.equal(row.stop, lastRead.stop === "length" ? "max_tokens" : "final_answer");
            assert.equal(row.turns, read);

            const path = `${dir}/runs/${wire}/${row.task_id}-0.json`;
            const shown = await runCollect(["inspect", path, "--json"]);
            assert.equal(shown.code, 0, shown.err);
            const trace = (JSON.parse(shown.out).traces as Json[])[0]!;
            const calls = trace.calls as Json[];
            const want = expectedCalls(wire, replies, MAX_TURNS);
            assert.deepEqual(
              calls.map((c) => [c.tool, c.malformed ?? null]),
              want.map((c) => [c.tool, c.malformed ?? null]),
              `${wire} ${JSON.stringify(replies)}`,
            );
            calls.forEach((got, i) => {
              const expected = want[i]!;
              if (expected.malformed !== undefined) {
                assert.equal(got.is_error, true);
                assert.ok(typeof got.error === "string" && got.error !== "");
              } else {
                assert.deepEqual(got.args, expected.args);
              }
              if (expected.note) assert.match(String((got.metadata as Json).note), /read as \{\}/);
            });
            const turns = (trace.metadata as Json).model_turns as Json[];
            assert.equal(turns.length, read);
            turns.forEach((turn, i) => {
              assert.equal(typeof turn.stop_reason, "string");
              assert.equal(turn.text, turnText(wire, replies[i]!));
              assert.equal(turn.calls, replies[i]!.calls.length);
            });
            assert.equal(
              trace.final_answer_truncated,
              lastRead.stop === "length" ? true : undefined,
            );

            const evaluated = await runCollect(["eval", `${CONTRACTS}contract_weather.json`, path]);
            assert.ok(evaluated.code === 0 || evaluated.code === 1, evaluated.err);
          }
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      }),
      { numRuns: 20 },
    );
  } finally {
    for (const server of Object.values(servers)) await server.close();
    await mcp.close();
  }
});
