// Scripted loopback model servers for the answers that used to end a matrix or drop part of the
// conversation (issue 30): custom calls, nameless calls, missing and null arguments, text beside
// calls, refusals, replies cut by the output-token limit. A script is a list of abstract
// replies, one per turn; each provider's adapter renders a reply in its own wire format.
import { type ModelServer, serveJson } from "./_model_wire.ts";

/** One call the scripted model sends. Names are MCP names (mapped to the provider's). */
export type OddCall =
  | { kind: "good"; name: string; args: Record<string, unknown> }
  | { kind: "nameless" }
  | { kind: "custom"; name: string; input: string }
  | { kind: "unknown-type" }
  | { kind: "missing-args"; name: string }
  | { kind: "null-args"; name: string }
  | { kind: "bad-args"; name: string }
  /** Chat Completions' legacy `function_call` (one per message, after the tool calls). */
  | { kind: "legacy"; name: string; args: Record<string, unknown> };

/** One scripted reply. */
export interface OddReply {
  text?: string;
  refusal?: string;
  calls: OddCall[];
  /** `length`: the reply was cut by the output-token limit. */
  stop: "end" | "length";
}

/** The provider wire formats. */
export type Wire = "openai" | "anthropic" | "gemini";

/** The script of a run: chosen from the model (arm) and the prompt (task). */
export type Script = (model: string, prompt: string) => OddReply[];

// The provider's name for an MCP tool, as the request listed it.
function wireName(name: string, tools: string[]): string {
  if (tools.includes(name)) return name;
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_");
  return tools.find((tool) => tool === safe) ?? name;
}

const FINAL: OddReply = { text: "Done.", calls: [], stop: "end" };

function openaiBody(reply: OddReply, turn: number, tools: string[]): Record<string, unknown> {
  const legacy = reply.calls.find((call) => call.kind === "legacy");
  const toolCalls = reply.calls.filter((call) => call.kind !== "legacy").map((call, i) => {
    const id = `call_${turn}_${i}`;
    switch (call.kind) {
      case "good":
        return {
          id,
          type: "function",
          function: { name: wireName(call.name, tools), arguments: JSON.stringify(call.args) },
        };
      case "nameless":
        return { id, type: "function", function: { name: "", arguments: "{}" } };
      case "custom":
        return {
          id,
          type: "custom",
          custom: { name: wireName(call.name, tools), input: call.input },
        };
      case "unknown-type":
        return { id, type: "mystery", mystery: { name: "x" } };
      case "missing-args":
        return { id, type: "function", function: { name: wireName(call.name, tools) } };
      case "null-args":
        return {
          id,
          type: "function",
          function: { name: wireName(call.name, tools), arguments: null },
        };
      case "bad-args":
        return {
          id,
          type: "function",
          function: { name: wireName(call.name, tools), arguments: "{oops" },
        };
    }
  });
  const message: Record<string, unknown> = { role: "assistant", content: reply.text ?? null };
  if (reply.refusal !== undefined) message.refusal = reply.refusal;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (legacy?.kind === "legacy") {
    message.function_call = {
      name: wireName(legacy.name, tools),
      arguments: JSON.stringify(legacy.args),
    };
  }
  return {
    id: `chatcmpl-${turn}`,
    object: "chat.completion",
    model: "scripted",
    choices: [{
      index: 0,
      message,
      finish_reason: reply.stop === "length"
        ? "length"
        : toolCalls.length > 0
        ? "tool_calls"
        : legacy !== undefined
        ? "function_call"
        : "stop",
    }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function anthropicBody(reply: OddReply, turn: number, tools: string[]): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  const text = reply.text ?? reply.refusal;
  if (text !== undefined) content.push({ type: "text", text });
  reply.calls.forEach((call, i) => {
    const id = `toolu_${turn}_${i}`;
    switch (call.kind) {
      case "good":
        content.push({ type: "tool_use", id, name: wireName(call.name, tools), input: call.args });
        break;
      case "nameless":
      case "unknown-type": // Messages has one call type: a block with no name stands for both
        content.push({ type: "tool_use", id, name: "", input: {} });
        break;
      case "custom":
        content.push({
          type: "tool_use",
          id,
          name: wireName(call.name, tools),
          input: { input: call.input },
        });
        break;
      case "missing-args":
        content.push({ type: "tool_use", id, name: wireName(call.name, tools) });
        break;
      case "null-args":
        content.push({ type: "tool_use", id, name: wireName(call.name, tools), input: null });
        break;
      case "bad-args":
        content.push({ type: "tool_use", id, name: wireName(call.name, tools), input: "oops" });
        break;
    }
  });
  return {
    id: `msg_${turn}`,
    type: "message",
    role: "assistant",
    model: "scripted",
    content,
    stop_reason: reply.stop === "length"
      ? "max_tokens"
      : reply.calls.length > 0
      ? "tool_use"
      : reply.refusal !== undefined
      ? "refusal"
      : "end_turn",
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function geminiBody(reply: OddReply, turn: number, tools: string[]): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [];
  const text = reply.text ?? reply.refusal;
  if (text !== undefined) parts.push({ text });
  reply.calls.forEach((call, i) => {
    const id = `fc_${turn}_${i}`;
    switch (call.kind) {
      case "good":
        parts.push({ functionCall: { id, name: wireName(call.name, tools), args: call.args } });
        break;
      case "nameless":
      case "unknown-type":
        parts.push({ functionCall: { id, name: "", args: {} } });
        break;
      case "custom":
        parts.push({
          functionCall: { id, name: wireName(call.name, tools), args: { input: call.input } },
        });
        break;
      case "missing-args":
        parts.push({ functionCall: { id, name: wireName(call.name, tools) } });
        break;
      case "null-args":
        parts.push({ functionCall: { id, name: wireName(call.name, tools), args: null } });
        break;
      case "bad-args":
        parts.push({ functionCall: { id, name: wireName(call.name, tools), args: "oops" } });
        break;
    }
  });
  return {
    candidates: [{
      content: { role: "model", parts },
      finishReason: reply.stop === "length" ? "MAX_TOKENS" : "STOP",
      index: 0,
    }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "scripted",
  };
}

/** What a request carried: model, prompt, the turn it asks for, the tools' provider names. */
interface Asked {
  model: string;
  prompt: string;
  turn: number;
  tools: string[];
}

function asked(wire: Wire, body: Record<string, unknown>, path: string): Asked | undefined {
  if (wire === "openai") {
    if (path !== "/v1/chat/completions") return undefined;
    const messages = body.messages as Record<string, unknown>[];
    return {
      model: String(body.model),
      prompt: String(messages.find((m) => m.role === "user")?.content ?? ""),
      turn: messages.filter((m) => m.role === "assistant").length,
      tools: ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name),
    };
  }
  if (wire === "anthropic") {
    if (path !== "/v1/messages") return undefined;
    const messages = body.messages as { role: string; content: unknown }[];
    return {
      model: String(body.model),
      prompt: String(messages[0]?.content ?? ""),
      turn: messages.filter((m) => m.role === "assistant").length,
      tools: ((body.tools ?? []) as { name: string }[]).map((t) => t.name),
    };
  }
  const match = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(path);
  if (!match) return undefined;
  const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
  return {
    model: decodeURIComponent(match[1]!),
    prompt: String(contents[0]?.parts[0]?.text ?? ""),
    turn: contents.filter((c) => c.role === "model").length,
    tools: ((body.tools as { functionDeclarations: { name: string }[] }[] | undefined)?.[0]
      ?.functionDeclarations ?? []).map((t) => t.name),
  };
}

/** A loopback server speaking `wire` that answers each turn from the script. */
export function scriptedModel(wire: Wire, script: Script): ModelServer {
  const server = serveJson((body, request) => {
    const ask = asked(wire, body, new URL(request.url).pathname);
    if (ask === undefined) return new Response("not found", { status: 404 });
    const reply = script(ask.model, ask.prompt)[ask.turn] ?? FINAL;
    const render = wire === "openai"
      ? openaiBody
      : wire === "anthropic"
      ? anthropicBody
      : geminiBody;
    return Response.json(render(reply, ask.turn, ask.tools));
  });
  return wire === "openai" ? { ...server, url: `${server.url}/v1` } : server;
}

/**
 * What the trace of a script must hold, call by call: the MCP tool ("" for a nameless call),
 * the malformed reason if any, and the arguments of a call that was made.
 */
export function expectedCalls(
  wire: Wire,
  replies: OddReply[],
  maxTurns: number,
): { tool: string; malformed?: string; args?: Record<string, unknown>; note?: boolean }[] {
  const out: {
    tool: string;
    malformed?: string;
    args?: Record<string, unknown>;
    note?: boolean;
  }[] = [];
  for (const reply of replies.slice(0, maxTurns)) {
    if (reply.calls.length === 0) break;
    for (const call of reply.calls) {
      switch (call.kind) {
        case "good":
          out.push({ tool: call.name, args: call.args });
          break;
        case "nameless":
          out.push({ tool: "", malformed: "no-name" });
          break;
        case "unknown-type":
          out.push(
            wire === "openai"
              ? { tool: "x", malformed: "unknown-type" }
              : { tool: "", malformed: "no-name" },
          );
          break;
        case "custom":
          out.push({ tool: call.name, args: { input: call.input } });
          break;
        case "missing-args":
        case "null-args":
          out.push({ tool: call.name, args: {}, note: true });
          break;
        case "bad-args":
          out.push({ tool: call.name, malformed: "bad-arguments" });
          break;
      }
    }
  }
  return out;
}

/** How many replies a run of the script reads. */
export function turnsRead(replies: OddReply[], maxTurns: number): number {
  const last = replies.findIndex((reply) => reply.calls.length === 0);
  return Math.min(maxTurns, last === -1 ? replies.length + 1 : last + 1);
}
