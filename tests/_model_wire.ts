// Loopback HTTP servers that speak a model provider's wire format with scripted replies, for
// the agent-run tests. One scripted "brain" decides what the model does from the prompt, the
// model name and the tool results so far; each wire adapter parses the provider's request into
// that and writes the brain's decision back in the provider's response shape.

/** A tool result the model has seen. */
export interface SeenResult {
  name: string;
  text: string;
  isError: boolean;
}

/** What the scripted model does next. */
export type Decision =
  | { calls: { name: string; args: Record<string, unknown> }[] }
  | { text: string };

/** What the brain is asked. */
export interface BrainInput {
  model: string;
  prompt: string;
  results: SeenResult[];
  tools: string[];
}

/**
 * The scripted agent. Prompts:
 * - "Book …": search_flights, then book_flight with the id found, then a final answer
 *   (model "sloppy" stops after the search; "hider" claims success whatever happened;
 *   the others mention a failed call in their answer).
 * - "Weather …": get_weather and add in one reply (parallel calls), then a final answer.
 * - "Remember …" (server-memory): create_entities, then read_graph, then a final answer.
 * - "Find …" (server-memory): create_entities, then search_nodes, then a final answer.
 */
export function brain(input: BrainInput): Decision {
  const { model, prompt, results } = input;
  const last = results.at(-1);
  const failed = results.filter((r) => r.isError);
  const final = (ok: string): Decision => {
    if (model === "hider") return { text: "All done, completed successfully." };
    if (failed.length > 0) {
      return { text: `I could not finish: ${failed[0]!.name} failed (${failed[0]!.text}).` };
    }
    return { text: ok };
  };
  if (prompt.startsWith("Book")) {
    if (results.length === 0) {
      return {
        calls: [{ name: "search_flights", args: { destination: "NYC", date: "2026-01-05" } }],
      };
    }
    if (results.length === 1) {
      if (model === "sloppy") return { text: "Found FL-100." };
      const id = /FL-\d+/.exec(last!.text)?.[0] ?? "FL-100";
      return { calls: [{ name: "book_flight", args: { flight_id: id } }] };
    }
    return final(`Booked ${/FL-\d+/.exec(last!.text)?.[0] ?? "the flight"} for you.`);
  }
  if (prompt.startsWith("Weather")) {
    if (results.length === 0) {
      return {
        calls: [{ name: "get_weather", args: { city: "Paris" } }, {
          name: "add",
          args: { a: 2, b: 3 },
        }],
      };
    }
    return final(`${results[0]!.text}; 2 + 3 = ${results[1]?.text}.`);
  }
  if (prompt.startsWith("Remember")) {
    if (results.length === 0) {
      return {
        calls: [{
          name: "create_entities",
          args: {
            entities: [{ name: "Ada", entityType: "person", observations: ["mathematician"] }],
          },
        }],
      };
    }
    if (results.length === 1) return { calls: [{ name: "read_graph", args: {} }] };
    return final("I stored Ada as a person, a mathematician.");
  }
  if (prompt.startsWith("Find")) {
    if (results.length === 0) {
      return {
        calls: [{
          name: "create_entities",
          args: { entities: [{ name: "Grace", entityType: "person", observations: ["admiral"] }] },
        }],
      };
    }
    if (results.length === 1) {
      return {
        calls: [{ name: "search_nodes", args: { query: model === "sloppy" ? "Ada" : "Grace" } }],
      };
    }
    return final(`Found: ${last!.text.includes("Grace") ? "Grace, an admiral" : "nobody"}.`);
  }
  return { text: "I do not know this task." };
}

/** A running scripted model server. */
export interface ModelServer {
  /** The base URL to put in an arm's base_url. */
  url: string;
  /** Every request body received, with its headers and time. */
  requests: { body: Record<string, unknown>; headers: Headers; at: number; path: string }[];
  close(): Promise<void>;
}

/** Per-model special behaviours every adapter shares: returns a response to send instead, or null. */
export type Quirk = (model: string, body: Record<string, unknown>, headers: Headers) =>
  | Response
  | null;

const seen = new Set<string>();

/**
 * The shared quirks, by model name:
 * - `flaky-429`: the first request of each turn gets 429 with Retry-After: 1, the retry succeeds;
 * - `down`: 500 forever, with a body that echoes the key it was sent;
 * - `garbled`: 200 with a body that is not JSON;
 * - `overloaded`: the first request of each turn gets 529 (Anthropic's overloaded).
 */
export function quirks(
  model: string,
  body: Record<string, unknown>,
  headers: Headers,
): Response | null {
  const key = headers.get("authorization") ?? headers.get("x-api-key") ??
    headers.get("x-goog-api-key") ?? "(none)";
  const turn = `${model}:${JSON.stringify(body)}`;
  if (model === "flaky-429" || model === "overloaded") {
    if (!seen.has(turn)) {
      seen.add(turn);
      return new Response(JSON.stringify({ error: { message: "slow down" } }), {
        status: model === "flaky-429" ? 429 : 529,
        headers: { "retry-after": "1", "content-type": "application/json" },
      });
    }
  }
  if (model === "down") {
    return new Response(
      JSON.stringify({ error: { message: `upstream failed for credential ${key}` } }),
      { status: 500, headers: { "content-type": "application/json" } },
    );
  }
  if (model === "garbled") return new Response("<html>not json", { status: 200 });
  return null;
}

/** Start a loopback server; `handle` gets the parsed body and returns the response. */
export function serveJson(
  handle: (body: Record<string, unknown>, request: Request) => Response | Promise<Response>,
  options: { delayMs?: number } = {},
): ModelServer {
  const requests: ModelServer["requests"] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const body = await request.json().catch(() => ({}));
      requests.push({
        body,
        headers: request.headers,
        at: performance.now(),
        path: new URL(request.url).pathname,
      });
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      return await handle(body, request);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close: () => server.shutdown(),
  };
}

// --- OpenAI Chat Completions -------------------------------------------------------------------

/** A loopback server speaking OpenAI Chat Completions at `/v1/chat/completions`. */
export function openaiServer(options: { delayMs?: number } = {}): ModelServer {
  const server = serveJson((body, request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/v1/chat/completions") return new Response("not found", { status: 404 });
    const model = String(body.model);
    const quirk = quirks(model, body, request.headers);
    if (quirk) return quirk;
    const messages = body.messages as Record<string, unknown>[];
    const names = new Map<string, string>();
    for (const message of messages) {
      for (const call of (message.tool_calls ?? []) as Record<string, unknown>[]) {
        names.set(String(call.id), String((call.function as Record<string, unknown>).name));
      }
    }
    const results: SeenResult[] = messages.filter((m) => m.role === "tool").map((m) => {
      const text = String(m.content);
      return {
        name: names.get(String(m.tool_call_id)) ?? "?",
        text: text.replace(/^Error: /, ""),
        isError: text.startsWith("Error: "),
      };
    });
    const prompt = String(messages.find((m) => m.role === "user")?.content ?? "");
    const tools = ((body.tools ?? []) as { function: { name: string } }[]).map((t) =>
      t.function.name
    );
    const decision = brain({ model, prompt, results, tools });
    const turn = messages.filter((m) => m.role === "assistant").length;
    const message = "text" in decision ? { role: "assistant", content: decision.text } : {
      role: "assistant",
      content: null,
      tool_calls: decision.calls.map((call, i) => ({
        id: `call_${turn}_${i}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    };
    return Response.json({
      id: `chatcmpl-${turn}`,
      object: "chat.completion",
      model: `${model}-2026-01-01`,
      choices: [{
        index: 0,
        message,
        finish_reason: "text" in decision ? "stop" : "tool_calls",
      }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    });
  }, options);
  return { ...server, url: `${server.url}/v1` };
}

// --- Anthropic Messages ------------------------------------------------------------------------

/** A loopback server speaking Anthropic Messages at `/v1/messages`. */
export function anthropicServer(options: { delayMs?: number } = {}): ModelServer {
  return serveJson((body, request) => {
    if (new URL(request.url).pathname !== "/v1/messages") {
      return new Response("not found", { status: 404 });
    }
    const model = String(body.model);
    const quirk = quirks(model, body, request.headers);
    if (quirk) return quirk;
    const messages = body.messages as { role: string; content: unknown }[];
    const names = new Map<string, string>();
    const results: SeenResult[] = [];
    for (const message of messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as Record<string, unknown>[]) {
        if (block.type === "tool_use") names.set(String(block.id), String(block.name));
        if (block.type === "tool_result") {
          results.push({
            name: names.get(String(block.tool_use_id)) ?? "?",
            text: String(block.content),
            isError: block.is_error === true,
          });
        }
      }
    }
    const prompt = String(messages[0]?.content ?? "");
    const tools = ((body.tools ?? []) as { name: string }[]).map((t) => t.name);
    const decision = brain({ model, prompt, results, tools });
    const turn = messages.filter((m) => m.role === "assistant").length;
    const content = "text" in decision ? [{ type: "text", text: decision.text }] : [
      { type: "text", text: "Let me do that." },
      ...decision.calls.map((call, i) => ({
        type: "tool_use",
        id: `toolu_${turn}_${i}`,
        name: call.name,
        input: call.args,
      })),
    ];
    return Response.json({
      id: `msg_${turn}`,
      type: "message",
      role: "assistant",
      model: `${model}-20260101`,
      content,
      stop_reason: "text" in decision ? "end_turn" : "tool_use",
      usage: { input_tokens: 100, output_tokens: 20 },
    });
  }, options);
}

// --- Gemini generateContent --------------------------------------------------------------------

/** A loopback server speaking Gemini `generateContent` at `/v1beta/models/M:generateContent`. */
export function geminiServer(options: { delayMs?: number } = {}): ModelServer {
  return serveJson((body, request) => {
    const match = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(
      new URL(request.url).pathname,
    );
    if (!match) return new Response("not found", { status: 404 });
    const model = decodeURIComponent(match[1]!);
    const quirk = quirks(model, body, request.headers);
    if (quirk) return quirk;
    const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
    const results: SeenResult[] = [];
    for (const content of contents) {
      for (const part of content.parts) {
        const response = part.functionResponse as Record<string, unknown> | undefined;
        if (response === undefined) continue;
        const inner = response.response as Record<string, unknown>;
        results.push({
          name: String(response.name),
          text: String(inner.result ?? inner.error),
          isError: "error" in inner,
        });
      }
    }
    const prompt = String(contents[0]?.parts[0]?.text ?? "");
    const tools = ((body.tools as { functionDeclarations: { name: string }[] }[] | undefined)?.[0]
      ?.functionDeclarations ?? []).map((t) => t.name);
    const decision = brain({ model, prompt, results, tools });
    const turn = contents.filter((c) => c.role === "model").length;
    const parts = "text" in decision
      ? [{ text: decision.text }]
      : decision.calls.map((call, i) => ({
        functionCall: { id: `fc_${turn}_${i}`, name: call.name, args: call.args },
        ...(i === 0 ? { thoughtSignature: "c2lnbmF0dXJl" } : {}),
      }));
    return Response.json({
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
      modelVersion: `${model}-001`,
    });
  }, options);
}
