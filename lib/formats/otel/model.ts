/**
 * What OpenTelemetry spans say about the model calls: token usage (counted
 * once per model call), the model name and the final answer. Private to
 * `lib/formats/`.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type Usage } from "../../scoring/calls.ts";
import { addUsage, jsonFromText } from "../_shared.ts";
import { unflatten } from "./conventions.ts";
import type { Span } from "./spans.ts";
import { braintrustOutputText, braintrustSpan } from "./braintrust.ts";

const INFERENCE = new Set(["chat", "text_completion", "generate_content"]);

// [input, output] usage attributes of each convention, first found wins.
const USAGE_KEYS: [string, string][] = [
  ["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"],
  ["gen_ai.usage.prompt_tokens", "gen_ai.usage.completion_tokens"],
  ["llm.token_count.prompt", "llm.token_count.completion"],
  ["ai.usage.inputTokens", "ai.usage.outputTokens"],
  ["ai.usage.promptTokens", "ai.usage.completionTokens"],
];

function number(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The usage one span reports, in any convention. */
export function spanUsage(span: Span): Usage | undefined {
  for (const [input, output] of USAGE_KEYS) {
    const usage = {
      inputTokens: number(span.attributes[input]),
      outputTokens: number(span.attributes[output]),
    };
    if (usage.inputTokens !== null || usage.outputTokens !== null) return usage;
  }
  return undefined;
}

function isModelSpan(span: Span): boolean {
  const a = span.attributes;
  return INFERENCE.has(a["gen_ai.operation.name"] as string) ||
    a["openinference.span.kind"] === "LLM" || a["llm.request.type"] === "chat" ||
    /^ai\.\w+\.do(Generate|Stream)$/.test(span.name);
}

/**
 * Token usage counted once per model call. A span's usage counts only when
 * no span below it reports usage: a parent that repeats (sums) its
 * children's usage — an agent span over its chat spans, `ai.generateText`
 * over `ai.generateText.doGenerate` — is not added again. Without parent
 * links, only model spans (`chat`…, OpenInference `LLM`, AI SDK
 * `doGenerate`) count, else `invoke_agent` spans, else every span; a file
 * whose parent ids name no span in it (spans dumped without their own ids)
 * has no links.
 *
 * @param spans The spans.
 * @returns The usage, or `undefined` when no span reports any.
 */
export function traceUsage(spans: readonly Span[]): Usage | undefined {
  const reporting = spans.filter((span) => spanUsage(span) !== undefined);
  if (reporting.length === 0) return undefined;
  const byId = new Map<string, Span>();
  for (const span of spans) if (span.spanId !== undefined) byId.set(span.spanId, span);
  // Linked only when some parent id names a span of the file (a dump without span ids is not).
  const linked = spans.some((span) => span.parentId !== undefined && byId.has(span.parentId));
  let counted: Span[];
  if (linked) {
    const covered = new Set<Span>();
    for (const span of reporting) {
      // Walk up from each reporting span, marking its ancestors (bounded by the span count).
      let parent = span.parentId === undefined ? undefined : byId.get(span.parentId);
      for (let hops = 0; parent !== undefined && hops < spans.length; hops++) {
        covered.add(parent);
        parent = parent.parentId === undefined ? undefined : byId.get(parent.parentId);
      }
    }
    counted = reporting.filter((span) => !covered.has(span));
  } else {
    const models = reporting.filter(isModelSpan);
    const agents = reporting.filter((s) =>
      s.attributes["gen_ai.operation.name"] === "invoke_agent"
    );
    counted = models.length > 0 ? models : agents.length > 0 ? agents : reporting;
  }
  let usage: Usage | undefined;
  for (const span of counted) usage = addUsage(usage, spanUsage(span));
  return usage;
}

/** The model named by the first model span (else any span naming one). */
export function traceModel(spans: readonly Span[]): string | undefined {
  const name = (span: Span) => {
    const a = span.attributes;
    const value = a["gen_ai.response.model"] ?? a["gen_ai.request.model"] ?? a["llm.model_name"] ??
      a["ai.response.model"] ?? a["ai.model.id"];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  for (const span of spans) if (isModelSpan(span) && name(span) !== undefined) return name(span);
  for (const span of spans) {
    if (span.attributes["gen_ai.operation.name"] === "invoke_agent" && name(span) !== undefined) {
      return name(span);
    }
  }
  for (const span of spans) if (name(span) !== undefined) return name(span);
  return undefined;
}

function parse(value: unknown): unknown {
  return typeof value === "string" ? jsonFromText(value) : value; // past the limits: not read
}

/**
 * The answer text of a span's output, or `undefined` when the output calls
 * tools or holds no text: GenAI `gen_ai.output.messages`, OpenLLMetry
 * `gen_ai.completion.0.content`, OpenInference `llm.output_messages` (or an
 * AGENT/CHAIN span's plain-text `output.value`), AI SDK `ai.response.text`.
 */
export function outputText(span: Span): string | undefined {
  const a = span.attributes;
  const messages = parse(a["gen_ai.output.messages"]);
  if (Array.isArray(messages)) {
    const texts: string[] = [];
    for (const message of messages) {
      if (!isJsonObject(message) || !Array.isArray(message.parts)) continue;
      for (const part of message.parts) {
        if (!isJsonObject(part)) continue;
        if (part.type === "tool_call") return undefined;
        if (part.type === "text" && typeof part.content === "string") texts.push(part.content);
      }
    }
    const text = texts.join("");
    return text.trim() === "" ? undefined : text;
  }
  const completion = parse(a["gen_ai.completion"]); // deprecated JSON: {text} or messages
  if (isJsonObject(completion) && typeof completion.text === "string") {
    return completion.text.trim() === "" ? undefined : completion.text;
  }
  if (
    a["gen_ai.completion.0.tool_calls.0.name"] !== undefined ||
    a["gen_ai.completion.0.tool_calls"] !== undefined
  ) return undefined;
  const legacy = a["gen_ai.completion.0.content"];
  if (typeof legacy === "string" && legacy.trim() !== "") return legacy;
  const output = unflatten(a, "llm.output_messages");
  if (Array.isArray(output)) {
    const texts: string[] = [];
    for (const entry of output) {
      const message = isJsonObject(entry) && isJsonObject(entry.message) ? entry.message : {};
      if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) return undefined;
      if (typeof message.content === "string") texts.push(message.content);
      else if (Array.isArray(message.contents)) {
        for (const item of message.contents) {
          const content = isJsonObject(item) && isJsonObject(item.message_content)
            ? item.message_content
            : {};
          if (content.type === "text" && typeof content.text === "string") texts.push(content.text);
        }
      }
    }
    const text = texts.join("");
    return text.trim() === "" ? undefined : text;
  }
  const toolCalls = parse(a["ai.response.toolCalls"]);
  if (Array.isArray(toolCalls) && toolCalls.length > 0) return undefined;
  const text = a["ai.response.text"];
  if (typeof text === "string" && text.trim() !== "") return text;
  const braintrust = braintrustSpan(a);
  if (braintrust !== undefined) return braintrustOutputText(braintrust);
  return agentOutput(a);
}

/**
 * An OpenInference AGENT or CHAIN span's `output.value` when it is plain
 * text (the application's answer); JSON output (messages, state) is not.
 */
function agentOutput(a: JsonObject): string | undefined {
  const kind = a["openinference.span.kind"];
  const value = a["output.value"];
  if ((kind !== "AGENT" && kind !== "CHAIN") || typeof value !== "string") return undefined;
  if (value.trim() === "" || a["output.mime_type"] === "application/json") return undefined;
  const parsed = parse(value); // `null` (nothing returned) and JSON values are not text
  if (typeof parsed === "string") return parsed.trim() === "" ? undefined : parsed;
  return parsed === undefined || typeof parsed === "number" ? value : undefined;
}
