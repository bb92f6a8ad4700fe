/**
 * LangChain / LangSmith run trees, read by the `langchain` reader.
 *
 * Shapes: one run `{id, name, run_type, inputs, outputs, error, start_time,
 * end_time, child_runs: […]}` (nested to any depth, as LangChain's tracers
 * and `RunTree` serialize them), a list of such runs, `{"runs": […]}`, or a
 * flat list of runs linked by `parent_run_id` (as the LangSmith API lists
 * them; a JSONL file of runs too). A list's runs may carry a `run_type`
 * outside LangSmith's own (an exporter's `"agent"` root run) when one of them
 * is of LangSmith's types; such runs are never calls.
 *
 * A call is a run with `run_type: "tool"`: the tool is its `name`, the
 * arguments its `inputs` (a single-input tool's `{"input": TEXT}` is kept as
 * is, unless the text is a JSON object, which is parsed), the result its
 * `outputs.output` (else `outputs`).
 *
 * Decisions where LangSmith is silent:
 * - Runs are ordered by `start_time` (else `dotted_order`, else tree
 *   order). The duration is `end_time − start_time`.
 * - A run with a non-empty `error` failed with that text; a ToolMessage
 *   output with `status: "error"` failed with its content. A finished run
 *   (`end_time`) without either succeeded; an unfinished one has no
 *   outcome. A ToolMessage output's `tool_call_id` is the call id.
 * - Usage is summed over `llm` runs only (chains repeat their children's
 *   totals): `prompt_tokens`/`completion_tokens` on the run, else the
 *   output message's `usage_metadata`, else `outputs.llm_output.token_usage`.
 *   `model` is the first llm run's `ls_model_name` (metadata) or invocation
 *   `model`/`model_name`.
 * - A run's id is its `id`, else its `run_id` (as some exports name it).
 * - The final answer is the root run's `outputs.output` text, else the text
 *   of the other output keys LangChain chains return (`answer`, `result`,
 *   `response`, `text`, in that order), else its chat completion's first
 *   choice text, else the last AI message of its `outputs.messages` after
 *   the last call.
 * - A batch ingest payload `{post, patch}` (what the LangSmith client
 *   sends) is its runs, each patch merged into the posted run of its `id`.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall, type Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import {
  addUsage,
  attachTextResult,
  finishTrace,
  idOf,
  makeTrace,
  resultFromText,
  setArgs,
  usageFromJson,
} from "./_shared.ts";
import type { Usage } from "../scoring/calls.ts";
import { contentText, normalizeMessage, readMessages } from "./langchain_messages.ts";

const RUN_TYPES = new Set([
  "tool",
  "chain",
  "llm",
  "retriever",
  "embedding",
  "prompt",
  "parser",
]);
const MAX_DEPTH = 1_000;
// The output keys LangChain chains put their answer under, in order of preference.
const ANSWER_KEYS = ["output", "answer", "result", "response", "text"] as const;

/**
 * Whether a value is one LangChain / LangSmith run.
 *
 * @param value Any value.
 * @returns `true` for `{run_type, name, inputs|child_runs…}`.
 *
 * @example Usage
 * ```ts
 * import { isRun } from "./langsmith.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isRun({ id: "1", name: "search", run_type: "tool", inputs: {} }), true);
 * assert.equal(isRun({ name: "search" }), false);
 * ```
 */
export function isRun(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.run_type === "string" &&
    RUN_TYPES.has(value.run_type) && typeof value.name === "string" &&
    (value.inputs !== undefined || Array.isArray(value.child_runs) || value.outputs !== undefined);
}

/**
 * The runs of a document, or `undefined` when it holds none.
 *
 * @param value A parsed document.
 * @returns The top-level runs.
 */
export function runList(value: unknown): JsonObject[] | undefined {
  if (isRun(value)) return [value];
  const batch = batchRuns(value);
  if (batch !== undefined) return batch;
  const list = Array.isArray(value)
    ? value
    : isJsonObject(value) && Array.isArray(value.runs)
    ? value.runs
    : undefined;
  if (list === undefined || list.length === 0) return undefined;
  // A list may hold runs of a type LangSmith does not name (an exporter's
  // `"agent"` root): run-shaped items, when one of them is a LangSmith run.
  return list.every(isRunShaped) && list.some(isRun) ? list as JsonObject[] : undefined;
}

// A run of any `run_type` (the schema's `run_type` is a plain string).
function isRunShaped(value: unknown): boolean {
  return isJsonObject(value) && typeof value.run_type === "string" && value.run_type !== "" &&
    typeof value.name === "string" &&
    (value.inputs !== undefined || Array.isArray(value.child_runs) || value.outputs !== undefined);
}

/**
 * The runs of a LangSmith batch ingest payload `{post: [runs], patch:
 * [updates]}` (what the SDK's client sends): each patch is merged into the
 * posted run of the same `id` (else the same `dotted_order`, else the posted
 * run at its position).
 */
function batchRuns(value: unknown): JsonObject[] | undefined {
  if (!isJsonObject(value) || !Array.isArray(value.post) || value.post.length === 0) {
    return undefined;
  }
  if (!value.post.every(isRun)) return undefined;
  const runs = (value.post as JsonObject[]).map((run) => ({ ...run }));
  const patches = Array.isArray(value.patch) ? value.patch.filter(isJsonObject) : [];
  patches.forEach((patch, i) => {
    const id = idOf(patch.id);
    const run = (id === undefined ? undefined : runs.find((r) => idOf(r.id) === id)) ??
      (typeof patch.dotted_order === "string"
        ? runs.find((r) => r.dotted_order === patch.dotted_order)
        : undefined) ??
      runs[i];
    if (run !== undefined) Object.assign(run, patch, { id: run.id });
  });
  return runs;
}

interface Flat {
  run: JsonObject;
  order: number;
  depth: number;
}

/** Every run of the trees, depth first, bounded in depth. */
function flatten(roots: JsonObject[], source: string): Flat[] {
  const out: Flat[] = [];
  const seen = new Set<unknown>();
  const visit = (run: JsonObject, depth: number) => {
    if (depth > MAX_DEPTH) throw new InputError("runs nest deeper than 1000 levels", source);
    if (seen.has(run)) return;
    seen.add(run);
    out.push({ run, order: out.length, depth });
    if (Array.isArray(run.child_runs)) {
      for (const child of run.child_runs) if (isRun(child)) visit(child, depth + 1);
    }
  };
  for (const root of roots) visit(root, 0);
  return out;
}

/** A run's id: `id`, else `run_id`. */
function runId(run: JsonObject): string | undefined {
  return idOf(run.id) ?? idOf(run.run_id);
}

function time(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string") return undefined;
  // LangSmith writes naive UTC times ("2024-05-01T10:00:00.123456").
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

function toolCall(run: JsonObject): ToolCall {
  const call: ToolCall = { tool: run.name as string };
  const inputs = run.inputs;
  if (
    isJsonObject(inputs) && Object.keys(inputs).length === 1 && typeof inputs.input === "string"
  ) {
    const text = inputs.input;
    if (text.trimStart().startsWith("{")) setArgs(call, text);
    else call.args = { input: text };
  } else setArgs(call, inputs);
  const outputs = isJsonObject(run.outputs) ? run.outputs : undefined;
  const output = outputs !== undefined && "output" in outputs ? outputs.output : run.outputs;
  const message = normalizeMessage(output);
  if (message !== undefined && message.kind === "tool") {
    const text = contentText(message.content) ?? "";
    call.result = resultFromText(text);
    const id = idOf(message.tool_call_id);
    if (id !== undefined) call.id = id;
    if (message.status === "error") {
      call.isError = true;
      call.error = text === "" ? "tool error" : text;
    }
  } else if (typeof output === "string") attachTextResult(call, output);
  else if (output !== undefined && output !== null) call.result = output;
  if (typeof run.error === "string" && run.error.trim() !== "") {
    call.isError = true;
    call.error = run.error;
  } else if (call.isError === undefined && run.end_time !== undefined && run.end_time !== null) {
    call.isError = false;
  }
  const start = time(run.start_time);
  const end = time(run.end_time);
  if (start !== undefined && end !== undefined && end >= start) {
    call.durationS = (end - start) / 1000;
  }
  const id = runId(run);
  if (id !== undefined) call.metadata = { run_id: id };
  return call;
}

function llmUsage(run: JsonObject): Usage | undefined {
  const direct = usageFromJson({
    prompt_tokens: run.prompt_tokens,
    completion_tokens: run.completion_tokens,
  });
  if (direct !== undefined) return direct;
  const outputs = isJsonObject(run.outputs) ? run.outputs : {};
  const generations = Array.isArray(outputs.generations) ? outputs.generations.flat() : [];
  for (const generation of generations) {
    const message = isJsonObject(generation) ? normalizeMessage(generation.message) : undefined;
    const usage = usageFromJson(message?.usage_metadata);
    if (usage !== undefined) return usage;
  }
  const own = usageFromJson(outputs.usage_metadata);
  if (own !== undefined) return own;
  const llmOutput = isJsonObject(outputs.llm_output) ? outputs.llm_output : {};
  return usageFromJson(llmOutput.token_usage ?? llmOutput.usage);
}

function llmModel(run: JsonObject): string | undefined {
  const extra = isJsonObject(run.extra) ? run.extra : {};
  const metadata = isJsonObject(extra.metadata) ? extra.metadata : {};
  const params = isJsonObject(extra.invocation_params) ? extra.invocation_params : {};
  const name = metadata.ls_model_name ?? params.model ?? params.model_name;
  return typeof name === "string" && name !== "" ? name : undefined;
}

function rootAnswer(root: JsonObject | undefined, source: string): string | undefined {
  const outputs = root !== undefined && isJsonObject(root.outputs) ? root.outputs : {};
  for (const key of ANSWER_KEYS) {
    const text = outputs[key];
    if (typeof text === "string" && text.trim() !== "") return text;
  }
  const choice = Array.isArray(outputs.choices) && isJsonObject(outputs.choices[0])
    ? outputs.choices[0].message
    : undefined;
  if (
    isJsonObject(choice) && !Array.isArray(choice.tool_calls) && typeof choice.content === "string"
  ) {
    return choice.content.trim() === "" ? undefined : choice.content;
  }
  if (!Array.isArray(outputs.messages)) return undefined;
  const messages = outputs.messages.map(normalizeMessage).filter((m) => m !== undefined);
  return readMessages(messages as JsonObject[], source).finalAnswer;
}

/**
 * Read run trees as one `langchain` trace.
 *
 * @param roots The top-level runs (a flat list linked by `parent_run_id` is fine).
 * @param source The file name, for errors.
 * @param envelope The document, for a top-level `final_answer`.
 * @returns The trace.
 *
 * @example Usage
 * ```ts
 * import { readRuns } from "./langsmith.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = readRuns([{
 *   id: "r1", name: "agent", run_type: "chain", inputs: {}, outputs: { output: "done" },
 *   child_runs: [{
 *     id: "r2", name: "search", run_type: "tool", inputs: { query: "x" },
 *     outputs: { output: "found" }, error: null,
 *     start_time: "2024-01-01T00:00:00", end_time: "2024-01-01T00:00:01",
 *   }],
 * }], "run.json", undefined);
 * assert.equal(trace.calls[0]?.durationS, 1);
 * assert.equal(trace.finalAnswer, "done");
 * ```
 */
export function readRuns(roots: JsonObject[], source: string, envelope: unknown): Trace {
  const flat = flatten(roots, source);
  const ids = new Set(flat.map((f) => runId(f.run)).filter((id) => id !== undefined));
  const root = flat.find((f) => f.depth === 0 && !ids.has(idOf(f.run.parent_run_id) ?? ""))?.run;
  const when = (f: Flat) => time(f.run.start_time);
  const ordered = [...flat].sort((a, b) => {
    const [x, y] = [when(a), when(b)];
    if (x !== undefined && y !== undefined && x !== y) return x - y;
    const [p, q] = [a.run.dotted_order, b.run.dotted_order];
    if (typeof p === "string" && typeof q === "string" && p !== q) return p < q ? -1 : 1;
    return a.order - b.order;
  });
  const calls: ToolCall[] = [];
  let usage: Usage | undefined;
  let model: string | undefined;
  for (const { run } of ordered) {
    if (run.run_type === "tool") calls.push(toolCall(run));
    else if (run.run_type === "llm") {
      usage = addUsage(usage, llmUsage(run));
      model ??= llmModel(run);
    }
  }
  const trace = makeTrace("langchain", calls, {
    finalAnswer: rootAnswer(root, source),
    model,
    usage,
  });
  return finishTrace(trace, Array.isArray(envelope) || isRun(envelope) ? undefined : envelope);
}
