/**
 * One run: start the MCP server (a stdio server fresh for this run), list
 * its tools, hand them to the model under provider-safe names, and loop —
 * model reply → `tools/call` for each call, in the provider's order →
 * results back — until the model answers without a tool call, `max_turns`
 * replies were read, or `timeout_s` passed. The calls are recorded with
 * their arguments, results, errors and durations, under their MCP names.
 *
 * Tool calls of one reply run one after another, in the order the provider
 * gave them (not at the same time), so that a run's trace does not depend on
 * timing; their results go back together, in that order. A tool error (an
 * `isError` result, a JSON-RPC error, arguments that are not JSON) goes back
 * to the model as an error; a server that crashes or times out, a provider
 * that fails for good, and the run's own timeout end the run with an
 * infrastructure error (the calls so far are kept, and the call in flight,
 * see `turns.ts`).
 *
 * Issue 30: a call the model sent that cannot be made (no name, arguments
 * that are not an object, an unknown type) is a failed call whose error goes
 * back to the model, and the run goes on; every turn's stop reason, text and
 * refusal are kept; a run whose last reply stopped on the output-token limit
 * ends with `stop: "max_tokens"` and its final answer marked truncated.
 *
 * Issue 31: `durationS` (the row's latency) runs from the moment the server
 * is ready (its tools listed) and excludes the server's start, which is
 * `serverStartS` beside it; an error says what failed (`errorKind`:
 * `provider` for a provider request that failed for good or whose circuit
 * breaker opened, `timeout` for the run's `timeout_s`, `server` for the rest).
 *
 * @module
 */

import type { JsonObject, ToolCall } from "../scoring/calls.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { McpSession } from "../mcp/client.ts";
import { isRemoteSpec } from "../mcp/server_spec.ts";
import { providerToolNames } from "../mcp/tool_names.ts";
import type { Redactor } from "./keys.ts";
import { ProviderError } from "./http.ts";
import type { ModelCall, Provider, ReplyUsage, ToolDefinition, ToolReply } from "./provider.ts";
import type { AgentArm, AgentSpec, AgentTask } from "../spec/agent_spec.ts";
import {
  CallInFlight,
  callNotes,
  finalAnswerOf,
  inFlightCall,
  malformedCall,
  stoppedOnLength,
  type TurnRecord,
  turnRecord,
} from "./turns.ts";
import { BudgetStop, type RunMeter } from "./budget.ts";

/** What a fault did to one tool result (see `faults.ts`). */
export interface AppliedFault {
  /** The fault's kind. */
  kind: string;
  /** The message the model saw, if any. */
  message?: string;
}

/** Changes a real tool result before the model sees it; `null` leaves it alone. */
export type FaultHook = (
  tool: string,
  occurrence: number,
  seen: { text: string; isError: boolean; result: unknown },
) => { text: string; isError: boolean; result: unknown; fault: AppliedFault } | null;

/** Everything one run needs. */
export interface RunInput {
  /** The spec. */
  spec: AgentSpec;
  /** The arm. */
  arm: AgentArm;
  /** The task. */
  task: AgentTask;
  /** The model provider, set up for the arm. */
  provider: Provider;
  /** Reads variables for the server's env (`${NAME}`), run variables first. */
  lookup: (name: string) => string | undefined;
  /** Stops the run (Ctrl-C). */
  signal: AbortSignal;
  /** Hides key values in messages. */
  redactor: Redactor;
  /** Injected faults, if any. */
  faults?: FaultHook;
  /**
   * The run's budget meter: it reserved each call before it was sent (the
   * provider's `beforeSend`) and is told how each ended.
   */
  meter?: Pick<RunMeter, "settle" | "fail">;
}

/** What one run produced. */
export interface RunOutput {
  /** The calls, in order, under their MCP names. */
  calls: ToolCall[];
  /** The final answer; absent when the run ended without one. */
  finalAnswer?: string;
  /** Summed token usage; a count is `null` when some reply did not report it. */
  usage: ReplyUsage;
  /** The model as the provider named it (the arm's model when it never said). */
  model: string;
  /** Model replies read. */
  turns: number;
  /**
   * `final_answer`, `max_tokens` (the last reply was cut short), `max_turns`, `error`, or a
   * budget stop (`budget`, `run_budget`).
   */
  stop: "final_answer" | "max_tokens" | "max_turns" | "error" | "budget" | "run_budget";
  /** Each model turn: its stop reason, text and refusal (issue 30). */
  modelTurns?: TurnRecord[];
  /** The final answer was cut short by the output-token limit (`stop: "max_tokens"`). */
  finalAnswerTruncated?: boolean;
  /** The infrastructure failure, when `stop` is `error`. */
  error?: string;
  /** Why the budget stopped the run, when `stop` is `budget` or `run_budget`. */
  budgetNote?: string;
  /** MCP name → provider name, for the tools that were renamed. */
  renamed: Record<string, string>;
  /** Whether the server was started for this run alone (`false` for a `url` server). */
  serverFresh: boolean;
  /** Wall-clock seconds from the server being ready (its tools listed) to the end. */
  durationS: number;
  /** Seconds the server took to start and list its tools; `null` when it never got there. */
  serverStartS: number | null;
  /** What failed, when `stop` is `error`. */
  errorKind?: "provider" | "timeout" | "server";
}

class RunStopped extends Error {
  constructor(readonly why: "timeout" | "stopped") {
    super(why);
    this.name = "RunStopped";
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal, timeout: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RunStopped(timeout.aborted ? "timeout" : "stopped"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const MAX_PART_TEXT = 200;

// The text of an MCP result: its text parts, other parts described (an image's data is not
// pasted into the conversation), the structured content when there is no text.
function resultText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const parts = content.map((part) => {
    if (isJsonObject(part) && part.type === "text" && typeof part.text === "string") {
      return part.text;
    }
    if (isJsonObject(part) && typeof part.data === "string") {
      return JSON.stringify({ ...part, data: `<${part.data.length} characters>` });
    }
    const text = JSON.stringify(part);
    return text.length > MAX_PART_TEXT * 50 ? `${text.slice(0, MAX_PART_TEXT * 50)}…` : text;
  });
  const text = parts.join("\n");
  if (text === "" && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return text;
}

function toolDefinitions(
  raw: unknown[],
  provider: AgentArm["provider"],
): { definitions: ToolDefinition[]; back: Map<string, string>; renamed: Record<string, string> } {
  const tools = raw.filter((tool): tool is JsonObject =>
    isJsonObject(tool) && typeof tool.name === "string" && tool.name !== ""
  );
  const names = providerToolNames(tools.map((tool) => tool.name as string), provider);
  const back = new Map<string, string>();
  const renamed: Record<string, string> = {};
  const definitions: ToolDefinition[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    const name = tool.name as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const safe = names.get(name)!;
    back.set(safe, name);
    if (safe !== name) renamed[name] = safe;
    definitions.push({
      name: safe,
      description: typeof tool.description === "string" ? tool.description : "",
      inputSchema: isJsonObject(tool.inputSchema)
        ? tool.inputSchema
        : { type: "object", properties: {} },
    });
  }
  return { definitions, back, renamed };
}

function addUsage(total: ReplyUsage, usage: ReplyUsage): ReplyUsage {
  const add = (a: number | null, b: number | null) => a === null || b === null ? null : a + b;
  return {
    inputTokens: add(total.inputTokens, usage.inputTokens),
    outputTokens: add(total.outputTokens, usage.outputTokens),
  };
}

function seconds(since: number): number {
  return Math.round(performance.now() - since) / 1000;
}

async function runCall(
  session: McpSession,
  call: ModelCall,
  tool: string,
  occurrence: number,
  input: RunInput,
  guard: <T>(promise: Promise<T>) => Promise<T>,
): Promise<{ record: ToolCall; reply: ToolReply }> {
  const record: ToolCall = { tool, id: call.id };
  const reply = (text: string, isError: boolean): ToolReply => ({
    id: call.id,
    name: call.name,
    text,
    isError,
  });
  const malformed = malformedCall(call, tool);
  if (malformed !== undefined) return { record: malformed, reply: reply(malformed.error!, true) };
  record.args = call.args!;
  const notes = callNotes(call);
  if (notes !== undefined) record.metadata = notes;
  const started = performance.now();
  let answer: Awaited<ReturnType<McpSession["callToolOrError"]>>;
  try {
    answer = await guard(session.callToolOrError(tool, call.args!));
  } catch (error) {
    throw new CallInFlight(inFlightCall(record, error, session.stderr, seconds(started)), error);
  }
  record.durationS = seconds(started);
  let seen: { text: string; isError: boolean; result: unknown };
  if ("error" in answer) {
    const text = `JSON-RPC error ${answer.error.code}: ${answer.error.message}`;
    seen = { text, isError: true, result: undefined };
  } else {
    const text = resultText(answer.result);
    const isError = answer.result.isError === true;
    const structured = answer.result.structuredContent;
    seen = { text, isError, result: text === "" && structured !== undefined ? structured : text };
    if (structured !== undefined && text !== "") {
      record.metadata = { ...record.metadata, structured_content: structured };
    }
  }
  const faulted = input.faults?.(tool, occurrence, seen) ?? null;
  if (faulted !== null) {
    record.metadata = {
      ...record.metadata,
      injected: { ...faulted.fault, occurrence },
      real_result: seen.isError ? { error: seen.text } : seen.result ?? null,
    };
    seen = faulted;
  }
  if (seen.isError) {
    record.isError = true;
    record.error = seen.text === "" ? "the tool reported an error" : seen.text;
  } else {
    record.result = seen.result;
  }
  return { record, reply: reply(seen.text, seen.isError) };
}

/**
 * Execute one run. Never throws for an infrastructure failure: the output's
 * `stop` is `error` and `error` says what happened (key values hidden).
 * Throws only when the run was stopped from outside (`signal`), so that no
 * row is written for it.
 *
 * @param input The spec, arm, task, provider and run variables.
 * @returns The calls, final answer, usage and how the run ended.
 * @throws {Error} When `signal` stopped the run.
 *
 * @example Usage
 * ```ts ignore
 * import { executeRun } from "./run_loop.ts";
 *
 * const output = await executeRun({ spec, arm, task, provider, lookup, signal, redactor });
 * console.log(output.stop, output.calls.length);
 * ```
 */
export async function executeRun(input: RunInput): Promise<RunOutput> {
  const { spec, arm, task } = input;
  const started = performance.now();
  const timeout = AbortSignal.timeout(spec.timeoutS * 1000);
  const signal = AbortSignal.any([input.signal, timeout]);
  const calls: ToolCall[] = [];
  const modelTurns: TurnRecord[] = [];
  let usage: ReplyUsage = { inputTokens: 0, outputTokens: 0 };
  let model: string | null = null;
  let turns = 0;
  let renamed: Record<string, string> = {};
  let session: McpSession | undefined;
  let ready: number | null = null;
  const finish = (
    stop: RunOutput["stop"],
    extra: {
      finalAnswer?: string;
      error?: string;
      errorKind?: RunOutput["errorKind"];
      budgetNote?: string;
      finalAnswerTruncated?: boolean;
    } = {},
  ): RunOutput => ({
    calls,
    ...extra,
    modelTurns,
    // A budget stop before the first call sent nothing: its usage is 0, not unknown.
    usage: turns === 0 && extra.budgetNote === undefined
      ? { inputTokens: null, outputTokens: null }
      : usage,
    model: model ?? arm.model,
    turns,
    stop,
    renamed,
    serverFresh: !isRemoteSpec(spec.server),
    durationS: seconds(ready ?? started),
    serverStartS: ready === null ? null : Math.round(ready - started) / 1000,
  });
  // On a stop or timeout the session is closed at once, which ends whatever waited on it.
  const closeOnAbort = () => void session?.close().catch(() => {});
  signal.addEventListener("abort", closeOnAbort, { once: true });
  const guard = <T>(promise: Promise<T>) => abortable(promise, signal, timeout);
  try {
    const opening = McpSession.open(spec.server, { lookup: input.lookup });
    // A server that finishes starting after the run was stopped is stopped too.
    opening.then((late) => signal.aborted && void late.close().catch(() => {}), () => {});
    session = await guard(opening);
    const listed = toolDefinitions(await guard(session.listToolsRaw()), arm.provider);
    renamed = listed.renamed;
    ready = performance.now();
    const conversation = input.provider.start({ prompt: task.prompt, tools: listed.definitions });
    const occurrences = new Map<string, number>();
    let results: ToolReply[] = [];
    while (turns < spec.maxTurns) {
      const reply = await guard(conversation.next(results)).catch((error) => {
        input.meter?.fail(error);
        throw error;
      });
      input.meter?.settle(reply.usage);
      turns++;
      usage = addUsage(usage, reply.usage);
      model = reply.model ?? model;
      modelTurns.push(turnRecord(reply, turns));
      if (reply.calls.length === 0) {
        const finalAnswer = finalAnswerOf(reply);
        return stoppedOnLength(reply.stopReason)
          ? finish("max_tokens", { finalAnswer, finalAnswerTruncated: true })
          : finish("final_answer", { finalAnswer });
      }
      results = [];
      for (const call of reply.calls) {
        const tool = listed.back.get(call.name) ?? call.name;
        const occurrence = (occurrences.get(tool) ?? 0) + 1;
        occurrences.set(tool, occurrence);
        const done = await runCall(session, call, tool, occurrence, input, guard);
        done.record.metadata = { ...done.record.metadata, turn: turns };
        calls.push(done.record);
        results.push(done.reply);
      }
    }
    return finish("max_turns");
  } catch (caught) {
    if (input.signal.aborted) throw new RunStopped("stopped");
    let error = caught;
    if (error instanceof CallInFlight) { // the call that did not come back is kept (issue 30)
      calls.push({ ...error.record, metadata: { ...error.record.metadata, turn: turns } });
      error = error.cause;
    }
    if (error instanceof BudgetStop) return finish(error.stop, { budgetNote: error.message });
    const message = error instanceof RunStopped && error.why === "timeout"
      ? `the run passed timeout_s (${spec.timeoutS} s)`
      : error instanceof Error
      ? error.message
      : String(error);
    const errorKind = error instanceof ProviderError
      ? "provider"
      : error instanceof RunStopped && error.why === "timeout"
      ? "timeout"
      : "server";
    return finish("error", { error: input.redactor.text(message), errorKind });
  } finally {
    signal.removeEventListener("abort", closeOnAbort);
    await session?.close().catch(() => {});
  }
}
