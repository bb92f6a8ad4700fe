/**
 * Reading speed of the format detector on large traces generated in memory:
 * a 50 MB OpenAI chat transcript (parallel tool calls, results by id) and a
 * 50 MB OTLP JSON export (execute_tool and chat spans). Target: each reads in
 * under 2 seconds. Prints MB/s, then runs `deno bench` cases.
 *
 *     deno bench --no-prompt bench/formats_bench.ts
 *
 * @module
 */

import { tracesFromText } from "../lib/formats/detect.ts";

const TARGET_BYTES = 50 * 1024 * 1024;

function openaiTranscript(bytes: number): string {
  const messages: unknown[] = [{ role: "system", content: "You are a travel agent." }];
  let size = 0;
  for (let turn = 0; size < bytes; turn++) {
    const turnMessages = [
      { role: "user", content: `Compare the weather in city ${turn} and city ${turn + 1}.` },
      {
        role: "assistant",
        content: null,
        tool_calls: [0, 1].map((k) => ({
          id: `call_${turn}_${k}`,
          type: "function",
          function: {
            name: "get_weather",
            arguments: JSON.stringify({ city: `city ${turn + k}`, unit: "celsius", days: 3 }),
          },
        })),
      },
      // Answered in reverse order: pairing is by tool_call_id.
      ...[1, 0].map((k) => ({
        role: "tool",
        tool_call_id: `call_${turn}_${k}`,
        content: JSON.stringify({
          city: `city ${turn + k}`,
          temp_c: (turn * 7 + k) % 35,
          sky: "clear",
        }),
      })),
      { role: "assistant", content: `City ${turn} is warmer than city ${turn + 1} today.` },
    ];
    size += JSON.stringify(turnMessages).length;
    messages.push(...turnMessages);
  }
  return JSON.stringify({ model: "gpt-4o", messages });
}

function otlpExport(bytes: number): string {
  const start = 1733000000000000000n;
  const attr = (key: string, value: unknown) => ({
    key,
    value: typeof value === "number" ? { intValue: String(value) } : { stringValue: String(value) },
  });
  const spans: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const at = start + BigInt(i) * 1_000_000n;
    const tool = {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: i.toString(16).padStart(16, "0"),
      parentSpanId: "ffffffffffffffff",
      name: "execute_tool get_weather",
      kind: 1,
      startTimeUnixNano: String(at),
      endTimeUnixNano: String(at + 750_000n),
      attributes: [
        attr("gen_ai.operation.name", i % 4 === 0 ? "chat" : "execute_tool"),
        attr("gen_ai.tool.name", "get_weather"),
        attr("gen_ai.tool.call.id", `call_${i}`),
        attr("gen_ai.tool.call.arguments", JSON.stringify({ city: `city ${i}`, unit: "celsius" })),
        attr("gen_ai.tool.call.result", JSON.stringify({ temp_c: i % 35, sky: "clear" })),
        attr("gen_ai.usage.input_tokens", 120),
        attr("gen_ai.usage.output_tokens", 30),
      ],
      status: i % 50 === 0 ? { code: 2, message: "upstream timeout" } : {},
    };
    size += JSON.stringify(tool).length;
    spans.push(tool);
  }
  // Export out of start order: the reader sorts by start time.
  spans.reverse();
  return JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [attr("service.name", "bench")] },
      scopeSpans: [{ scope: { name: "bench" }, spans }],
    }],
  });
}

const CASES: [string, string, string][] = [
  ["openai transcript", "openai.json", openaiTranscript(TARGET_BYTES)],
  ["OTLP export", "otel.json", otlpExport(TARGET_BYTES)],
];

for (const [name, file, text] of CASES) {
  const megabytes = new TextEncoder().encode(text).length / (1024 * 1024);
  const began = performance.now();
  const [trace] = tracesFromText(text, file);
  const seconds = (performance.now() - began) / 1000;
  console.log(
    `${name}: ${megabytes.toFixed(1)} MB, ${trace?.calls.length} calls read in ` +
      `${seconds.toFixed(2)} s (${(megabytes / seconds).toFixed(1)} MB/s; target < 2 s)`,
  );
}

for (const [name, file, text] of CASES) {
  Deno.bench({
    name: `tracesFromText() reads a 50 MB ${name}`,
    n: 3,
    warmup: 1,
    fn() {
      tracesFromText(text, file);
    },
  });
}
