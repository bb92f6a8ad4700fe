/**
 * Reading speed of the format detector on large traces generated in memory:
 * a 50 MB OpenAI chat transcript (parallel tool calls, results by id), a
 * 50 MB OTLP JSON export (execute_tool and chat spans), and a 50 MB stream of
 * chat.completion.chunk deltas as JSONL and as raw SSE text (merged into one
 * trace). Target: each reads in under 2 seconds. Prints MB/s and the ratio to
 * a bare `JSON.parse` of the same bytes measured in the same run, then runs
 * `deno bench` cases, and one that reads every file of the real corpus
 * (`testdata/formats/real/`, the shapes detection must tell apart).
 *
 *     deno bench --no-prompt bench/formats_bench.ts
 *
 * @module
 */

import "../lib/base/_heavy.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { isZipBytes, tracesFromEvalZip } from "../lib/formats/inspect_zip.ts";

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

// A streamed completion as saved from the API: chat.completion.chunk lines, each tool call's
// name in its first fragment and its arguments in three more, interleaved with text deltas.
function chatChunkStream(bytes: number, sse: boolean): string {
  const lines: string[] = [];
  let size = 0;
  const chunk = (delta: unknown) =>
    JSON.stringify({
      id: "chatcmpl-bench",
      object: "chat.completion.chunk",
      created: 1733000000,
      model: "gpt-4o",
      choices: [{ index: 0, delta, finish_reason: null }],
    });
  for (let i = 0; size < bytes; i++) {
    const args = JSON.stringify({ city: `city ${i}`, unit: "celsius", days: 3 });
    const third = Math.ceil(args.length / 3);
    const batch = [
      chunk({ content: `Checking city ${i}. ` }),
      chunk({
        tool_calls: [{
          index: i,
          id: `call_${i}`,
          type: "function",
          function: { name: "get_weather", arguments: "" },
        }],
      }),
      ...[0, 1, 2].map((k) =>
        chunk({
          tool_calls: [{
            index: i,
            function: { arguments: args.slice(k * third, (k + 1) * third) },
          }],
        })
      ),
    ];
    for (const line of batch) {
      const text = sse ? `data: ${line}\n\n` : `${line}\n`;
      size += text.length;
      lines.push(text);
    }
  }
  if (sse) lines.push("data: [DONE]\n\n");
  return lines.join("");
}

// What a bare JSON.parse of the same bytes costs: the whole document, or each line / event payload.
function bareParse(text: string, file: string): void {
  if (file.endsWith(".json")) {
    JSON.parse(text);
    return;
  }
  for (const line of text.split("\n")) {
    if (line === "" || line === "data: [DONE]") continue;
    JSON.parse(line.startsWith("data: ") ? line.slice(6) : line);
  }
}

const CASES: [string, string, string][] = [
  ["openai transcript", "openai.json", openaiTranscript(TARGET_BYTES)],
  ["OTLP export", "otel.json", otlpExport(TARGET_BYTES)],
  ["chat.completion.chunk stream (JSONL)", "stream.jsonl", chatChunkStream(TARGET_BYTES, false)],
  ["chat.completion.chunk stream (raw SSE)", "stream.sse", chatChunkStream(TARGET_BYTES, true)],
];

// Measured side by side in one run: the reader, then a bare JSON.parse of the same bytes.
for (const [name, file, text] of CASES) {
  const megabytes = new TextEncoder().encode(text).length / (1024 * 1024);
  const began = performance.now();
  const [trace] = tracesFromText(text, file);
  const seconds = (performance.now() - began) / 1000;
  const parseBegan = performance.now();
  bareParse(text, file);
  const parseSeconds = (performance.now() - parseBegan) / 1000;
  console.log(
    `${name}: ${megabytes.toFixed(1)} MB, ${trace?.calls.length} calls read in ` +
      `${seconds.toFixed(2)} s (${(megabytes / seconds).toFixed(1)} MB/s; target < 2 s); ` +
      `bare JSON.parse ${parseSeconds.toFixed(2)} s, ratio ${(seconds / parseSeconds).toFixed(2)}x`,
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

// Issue 34: the real corpus, every shape the detector tells apart, read once per iteration.
const REAL = "testdata/formats/real";
const corpus = [...Deno.readDirSync(REAL)]
  .map((entry) => entry.name)
  .filter((name) => !name.endsWith(".expected.json") && name !== "SOURCES.md")
  .sort()
  .map((name) => [`${REAL}/${name}`, Deno.readFileSync(`${REAL}/${name}`)] as const)
  .map(([file, bytes]) =>
    [file, isZipBytes(bytes) ? bytes : new TextDecoder().decode(bytes)] as const
  );

Deno.bench({
  name: `tracesFromText() reads the ${corpus.length} files of the real corpus`,
  n: 20,
  warmup: 2,
  fn() {
    // A run file's runs that cannot be read (issue 34) are reported, the others read.
    // An Inspect .eval is a zip (issue 35): read from its bytes, as the loader does.
    for (const [file, input] of corpus) {
      if (typeof input === "string") tracesFromText(input, file, { onRunError: () => {} });
      else tracesFromEvalZip(input, file);
    }
  },
});
