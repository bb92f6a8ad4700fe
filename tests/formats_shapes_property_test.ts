// Properties of the issue-14 parsers: MCP log text reads like the messages it
// carries, chunked tool-call arguments join back, flattened OTel attributes
// unflatten to what they were.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import fc from "fast-check";
import { traceFromValue, tracesFromText } from "../lib/formats/detect.ts";
import { unflatten } from "../lib/formats/otel/conventions.ts";

const name = fc.stringMatching(/^[a-z][a-z_]{0,11}$/);
const args = fc.dictionary(name, fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
  maxKeys: 4,
  noNullPrototype: true,
});

Deno.test("MCP client log text reads as the JSON-RPC messages it carries, whatever other log lines lie between them", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ tool: name, args, text: fc.string() }, { noNullPrototype: true }), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.array(fc.string().map((s) => s.replace(/[\r\n]/g, " ").replace(/Message from/g, "")), {
        maxLength: 6,
      }),
      (calls, noise) => {
        const messages = calls.flatMap((c, i) => [
          {
            jsonrpc: "2.0",
            id: i + 1,
            method: "tools/call",
            params: { name: c.tool, arguments: c.args },
          },
          { jsonrpc: "2.0", id: i + 1, result: { content: [{ type: "text", text: c.text }] } },
        ]);
        const lines: string[] = [];
        messages.forEach((m, i) => {
          // The log's own lines between messages (same prefix, no message).
          if (noise[i] !== undefined) {
            lines.push(`2025-01-01T00:00:00.000Z [srv] [info] ${noise[i]}`);
          }
          const side = "method" in m ? "client" : "server";
          lines.push(
            `2025-01-01T00:00:0${i % 10}.000Z [srv] [info] Message from ${side}: ${
              JSON.stringify(m)
            } { metadata: undefined }`,
          );
        });
        const [fromLog] = tracesFromText(lines.join("\n"), "mcp.log");
        const direct = traceFromValue(messages);
        assert.deepEqual(
          fromLog?.calls.map((c) => [c.tool, c.args, c.result]),
          direct.calls.map((c) => [c.tool, c.args, c.result]),
        );
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("LangGraph tool_call_chunks split anywhere join back to the arguments", () => {
  fc.assert(
    fc.property(args, fc.array(fc.nat(), { maxLength: 5 }), (value, cuts) => {
      const text = JSON.stringify(value);
      const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
      const pieces: string[] = [];
      let from = 0;
      for (const point of [...points, text.length]) {
        pieces.push(text.slice(from, point));
        from = point;
      }
      const trace = traceFromValue(pieces.map((piece, i) => [
        "messages",
        [{
          type: "AIMessageChunk",
          id: "run-1",
          content: "",
          tool_call_chunks: [{
            name: i === 0 ? "tool" : null,
            args: piece,
            id: i === 0 ? "c1" : null,
            index: 0,
          }],
        }, {}],
      ]));
      assert.deepEqual(trace.calls.map((c) => [c.tool, c.args, c.id]), [["tool", value, "c1"]]);
    }),
    { numRuns: 150 },
  );
});

Deno.test("unflatten() turns indexed attribute keys back into the nested lists they came from", () => {
  const message = fc.record({ role: name, content: fc.string() }, { noNullPrototype: true });
  fc.assert(
    fc.property(fc.array(message, { minLength: 1, maxLength: 12 }), (messages) => {
      const attributes: Record<string, unknown> = { "other.key": 1 };
      messages.forEach((m, i) => {
        attributes[`llm.input_messages.${i}.message.role`] = m.role;
        attributes[`llm.input_messages.${i}.message.content`] = m.content;
      });
      assert.deepEqual(
        unflatten(attributes, "llm.input_messages"),
        messages.map((m) => ({ message: m })),
      );
    }),
    { numRuns: 150 },
  );
});
