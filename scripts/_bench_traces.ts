/**
 * The benchmarks' workload, as users have it: provider transcripts of 20 tool
 * calls over 5 tools with half the argument values off, in four shapes — an
 * OpenAI chat transcript (arguments as JSON strings, results in `tool`
 * messages), an Anthropic message list (`tool_use` / `tool_result` blocks), an
 * OTLP JSON export (GenAI `execute_tool` spans) and toolscore's own trace.
 * Every shape holds the same calls, so the scores agree across shapes.
 *
 * @module
 */

/** The shapes the benchmarks generate. */
export const BENCH_FORMATS = ["openai", "anthropic", "otel", "toolscore"] as const;

/** One of {@linkcode BENCH_FORMATS}. */
export type BenchFormat = typeof BENCH_FORMATS[number];

const TOOLS = ["search_flights", "get_weather", "book_hotel", "send_email", "read_file"];
const CALLS = 20;
const PER_TURN = 4;

interface BenchCall {
  tool: string;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
}

function expectedArgs(i: number): Record<string, unknown> {
  return { query: `item ${i}`, limit: 10 + (i % 3), page: i, lang: "en" };
}

/**
 * The gold file every generated trace is scored against.
 *
 * @returns 20 expected calls.
 */
export function benchGold(): { tool: string; args: Record<string, unknown> }[] {
  return Array.from(
    { length: CALLS },
    (_, i) => ({ tool: TOOLS[i % TOOLS.length]!, args: expectedArgs(i) }),
  );
}

function benchCalls(t: number): BenchCall[] {
  return Array.from({ length: CALLS }, (_, i) => {
    const args = expectedArgs(i);
    // Half the values off: which half moves with the trace number.
    Object.keys(args).forEach((key, j) => {
      if ((t + i + j) % 2 === 1) args[key] = typeof args[key] === "number" ? -1 : `other ${t}`;
    });
    return { tool: TOOLS[i % TOOLS.length]!, args, result: { ok: true, items: [`result ${i}`] } };
  });
}

const ANSWER = "I searched, checked the weather, booked the hotel and sent the email.";

function openai(t: number): unknown {
  const messages: unknown[] = [
    { role: "system", content: "You are a travel assistant." },
    { role: "user", content: `Plan trip ${t}.` },
  ];
  const calls = benchCalls(t);
  for (let turn = 0; turn < calls.length; turn += PER_TURN) {
    const batch = calls.slice(turn, turn + PER_TURN);
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: batch.map((call, k) => ({
        id: `call_${t}_${turn + k}`,
        type: "function",
        function: { name: call.tool, arguments: JSON.stringify(call.args) },
      })),
    });
    batch.forEach((call, k) =>
      messages.push({
        role: "tool",
        tool_call_id: `call_${t}_${turn + k}`,
        content: JSON.stringify(call.result),
      })
    );
  }
  messages.push({ role: "assistant", content: ANSWER });
  return { model: "gpt-4o", messages };
}

function anthropic(t: number): unknown {
  const messages: unknown[] = [{ role: "user", content: `Plan trip ${t}.` }];
  const calls = benchCalls(t);
  for (let turn = 0; turn < calls.length; turn += PER_TURN) {
    const batch = calls.slice(turn, turn + PER_TURN);
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: "Working on it." },
        ...batch.map((call, k) => ({
          type: "tool_use",
          id: `toolu_${t}_${turn + k}`,
          name: call.tool,
          input: call.args,
        })),
      ],
    });
    messages.push({
      role: "user",
      content: batch.map((call, k) => ({
        type: "tool_result",
        tool_use_id: `toolu_${t}_${turn + k}`,
        content: JSON.stringify(call.result),
      })),
    });
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: ANSWER }] });
  return { model: "claude-sonnet-4-5", max_tokens: 1024, messages };
}

function otel(t: number): unknown {
  const start = 1733000000000000000n + BigInt(t) * 1_000_000_000n;
  const attr = (key: string, value: string | number) => ({
    key,
    value: typeof value === "number" ? { intValue: String(value) } : { stringValue: value },
  });
  const spans = benchCalls(t).map((call, i) => {
    const at = start + BigInt(i) * 10_000_000n;
    return {
      traceId: t.toString(16).padStart(32, "0"),
      spanId: (i + 1).toString(16).padStart(16, "0"),
      parentSpanId: "ffffffffffffffff",
      name: `execute_tool ${call.tool}`,
      kind: 1,
      startTimeUnixNano: String(at),
      endTimeUnixNano: String(at + 7_500_000n),
      attributes: [
        attr("gen_ai.operation.name", "execute_tool"),
        attr("gen_ai.tool.name", call.tool),
        attr("gen_ai.tool.call.id", `call_${t}_${i}`),
        attr("gen_ai.tool.call.arguments", JSON.stringify(call.args)),
        attr("gen_ai.tool.call.result", JSON.stringify(call.result)),
      ],
      status: {},
    };
  });
  return {
    resourceSpans: [{
      resource: { attributes: [attr("service.name", "bench")] },
      scopeSpans: [{ scope: { name: "bench" }, spans }],
    }],
  };
}

function toolscore(t: number): unknown {
  return {
    format: "toolscore",
    calls: benchCalls(t).map((call) => ({ ...call, duration_s: 0.0075 })),
    final_answer: ANSWER,
  };
}

const MAKERS: Record<BenchFormat, (t: number) => unknown> = { openai, anthropic, otel, toolscore };

/**
 * Trace number `t` in one shape.
 *
 * @param format The shape.
 * @param t The trace number (which half of the arguments is off).
 * @returns The parsed document.
 */
export function benchTrace(format: BenchFormat, t: number): unknown {
  return MAKERS[format](t);
}

/**
 * A bare walk over a parsed document's calls — the in-process floor: it
 * touches each call's name and arguments the way any reader must.
 *
 * @param format The shape.
 * @param doc The parsed document.
 * @returns A checksum, so the walk cannot be optimized away.
 */
export function walkCalls(format: BenchFormat, doc: unknown): number {
  let sum = 0;
  if (format === "openai") {
    for (const m of (doc as OpenAIDoc).messages) {
      for (const c of m.tool_calls ?? []) {
        sum += c.function.name.length + c.function.arguments.length;
      }
    }
  } else if (format === "anthropic") {
    for (const m of (doc as AnthropicDoc).messages) {
      if (!Array.isArray(m.content)) continue;
      for (const b of m.content) {
        if (b.type === "tool_use") sum += b.name!.length + Object.keys(b.input!).length;
      }
    }
  } else if (format === "otel") {
    for (const rs of (doc as OtlpDoc).resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) sum += span.attributes.length + span.name.length;
      }
    }
  } else {
    for (const c of (doc as ToolscoreDoc).calls) sum += c.tool.length + Object.keys(c.args).length;
  }
  return sum;
}

/**
 * Parse every string in a document that holds JSON (starts with `{` or `[`):
 * an OpenAI call's `arguments`, a tool message's content, an OTLP attribute's
 * `stringValue`. What any reader of these transcripts must parse before it
 * scores anything: with a bare `JSON.parse` of the file, the floor of reading
 * them (in-process, and end to end in `_bench_floor.ts --inner`).
 *
 * @param value The parsed document.
 * @returns How many strings parsed.
 */
export function parseJsonStrings(value: unknown): number {
  let parsed = 0;
  const stack: object[] = [];
  // Strings are looked at where they are found; only objects and arrays wait on the stack.
  const visit = (item: unknown) => {
    if (typeof item === "string") {
      const first = item.charCodeAt(0);
      if (first !== 123 && first !== 91) return;
      try {
        const inner: unknown = JSON.parse(item);
        parsed++;
        if (typeof inner === "object" && inner !== null) stack.push(inner);
      } catch {
        // not JSON after all
      }
    } else if (typeof item === "object" && item !== null) stack.push(item);
  };
  visit(value);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (Array.isArray(item)) { for (let i = 0; i < item.length; i++) visit(item[i]); }
    else for (const key in item) visit((item as Record<string, unknown>)[key]);
  }
  return parsed;
}

type OpenAIDoc = {
  messages: { tool_calls?: { function: { name: string; arguments: string } }[] }[];
};
type AnthropicDoc = {
  messages: { content: string | { type: string; name?: string; input?: object }[] }[];
};
type OtlpDoc = {
  resourceSpans: { scopeSpans: { spans: { name: string; attributes: unknown[] }[] }[] }[];
};
type ToolscoreDoc = { calls: { tool: string; args: object }[] };
