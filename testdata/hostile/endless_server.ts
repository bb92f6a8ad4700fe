// A hostile MCP server for the input-limit tests and benchmark (issue 42). Modes:
//   stdio-line   stdio: answers `initialize` with a line that never ends (64 KiB chunks, ARG ms
//                apart: 0 as fast as it can)
//   stdio-big    stdio: answers `initialize` with one valid line of SIZE MiB
//   http-sse     loopback Streamable HTTP: answers with an SSE `data:` line that never ends (as
//                stdio-line)
//   http-json    loopback Streamable HTTP on PORT: answers with one JSON body of SIZE MiB
//   http-tools   loopback Streamable HTTP on PORT: a valid server listing COUNT tools
// Writes "listening PORT" on stdout for the HTTP modes.
const [mode = "stdio-line", arg = "0"] = Deno.args;
const DELAY_MS = mode === "stdio-line" || mode === "http-sse" ? Number(arg) : 0;
const CHUNK = new TextEncoder().encode("x".repeat(64 * 1024));

function endless(prefix: string): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    async pull(controller) {
      if (DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode(prefix));
      }
      controller.enqueue(CHUNK);
    },
  });
}

function bigAnswer(id: unknown, mib: number): string {
  const pad = "x".repeat(mib * 1024 * 1024);
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    result: {
      protocolVersion: "2025-06-18",
      capabilities: { tools: {} },
      serverInfo: { name: "big", version: "1.0.0" },
      instructions: pad,
    },
  });
}

function answer(message: { id?: unknown; method?: string }, count: number): unknown {
  if (message.method === "initialize") {
    return {
      jsonrpc: "2.0",
      id: message.id,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "many", version: "1.0.0" },
      },
    };
  }
  if (message.method === "tools/list") {
    const tools = Array.from({ length: count }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool number ${i}.`,
      inputSchema: { type: "object", properties: {} },
    }));
    return { jsonrpc: "2.0", id: message.id, result: { tools } };
  }
  return { jsonrpc: "2.0", id: message.id, result: {} };
}

if (mode.startsWith("stdio")) {
  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  let buffer = "";
  for await (const text of lines) {
    buffer += text;
    const end = buffer.indexOf("\n");
    if (end === -1) continue;
    const message = JSON.parse(buffer.slice(0, end));
    if (message.method !== "initialize") continue;
    if (mode === "stdio-big") {
      await Deno.stdout.write(new TextEncoder().encode(bigAnswer(message.id, Number(arg)) + "\n"));
      continue;
    }
    await Deno.stdout.write(new TextEncoder().encode(`{"jsonrpc":"2.0","id":${message.id},"result":"`));
    while (true) {
      if (DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      await Deno.stdout.write(CHUNK);
    }
  }
} else {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening ${port}`) }, async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const message = await request.json();
    if (!("id" in message)) return new Response(null, { status: 202 });
    if (mode === "http-sse" && message.method === "initialize") {
      return new Response(endless(`event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":"`), {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (mode === "http-json" && message.method === "initialize") {
      return new Response(bigAnswer(message.id, Number(arg)), { headers: { "content-type": "application/json" } });
    }
    return Response.json(answer(message, Number(arg)));
  });
  await server.finished;
}
