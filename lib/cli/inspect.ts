/**
 * `toolscore inspect TRACE…`: what the detector read from a trace — the
 * format, model and usage, the run's task, every call with its arguments,
 * outcome, duration and cost, the final answer and the reader's notes — so a
 * user can see why a score is what it is. Unknown figures print as
 * `unknown`, never as 0. Errors written as text are marked as `eval` marks
 * them (the honesty config's `error_text_patterns`).
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { isUserCall } from "../scoring/actors.ts";
import {
  callFailed,
  type FormatName,
  hasOutcome,
  isJsonObject,
  type ToolCall,
  type Trace,
} from "../scoring/calls.ts";
import { UsageError } from "../base/errors.ts";
import { parseFormatName } from "../formats/detect.ts";
import { traceToJson } from "../formats/toolscore.ts";
import { type Palette, palette } from "../report/color.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  parseFlags,
  stringFlag,
} from "./command.ts";
import { readTraceArguments } from "./inputs.ts";
import { applyErrorText } from "../checks/error_text.ts";
import { loadHonestyConfig } from "../checks/honesty_config.ts";
import { FORMAT_DOCS, formatNameList } from "../formats/format_table.ts";

const FLAGS: FlagSpec = {
  format: { type: "string" },
  json: { type: "boolean" },
  full: { type: "boolean" },
  honesty: { type: "string" },
};

const HELP = `toolscore inspect TRACE… [--format F] [--json] [--full]

Print what toolscore read from each trace: the format it was detected as, the
model and token usage, the run's task (for run files), every tool call with its
arguments, outcome (ok, FAILED with the error, FAILED (error text) when the
result text reports an error, or unknown when the trace did not capture it),
duration and cost, the final answer (marked when the model's output-token
limit cut it), the model's turns of an agent run trace (stop reason, text beside
the calls, refusal), and notes: a transcript with no tool calls, and items of a
known format that were skipped ("skipped 1 item of type X"). Use it to see why
a score is what it is.

Shapes read (--format name: shape):
${FORMAT_DOCS.map((row) => `  ${row.name.padEnd(16)}  ${row.shapes}`).join("\n")}
  (run file)        a list of {…, messages|traj|trajectory: […]}: one trace per run, its own format
  streams           as a JSON array, JSONL lines, or raw SSE text (event:/data: lines) in
                    .json, .jsonl, .sse, .txt or .log files: one trace, merged

Arguments:
  TRACE…        trace files, directories (their *.json, *.jsonl, *.sse files and
                .txt/.log streams) or - for stdin

Options:
  --format F    read as F instead of detecting it: ${
  formatNameList({ indent: 16, width: 80, first: 50 })
}
  --honesty H   the honesty config whose error_text_patterns mark text errors
                (default: the shipped patterns, a leading Error:/Exception: prefix)
  --json        print one JSON document: {"traces": [{source, format, calls, …, summary}]}
  --full        print arguments, results and answers in full (default: cut at 160 characters)

Agent frameworks, recordings and conventions read (format in brackets):
  Claude Code / Agent SDK stream-json or transcript, sub-agent calls marked [claude-code]
  Vercel AI SDK generateText result (steps[].content or toolCalls/toolResults) [vercel-ai]
  Vercel AI SDK UI message stream chunks (tool-input-available, tool-output-*) [vercel-ai]
  Vercel AI SDK UI chunks in an envelope: {timestamp, session_id, …, chunk} lines [vercel-ai]
  Claude Managed Agents session events: [event-name, payload] lines, agent.tool_use… [anthropic]
  Anthropic SDK MessageStream dumps with derived text/input_json events [anthropic]
  OpenAI Agents SDK trace export {data: [trace, spans]} or a RunState [openai-agents]
  LangGraph stream: [mode, payload] tuples, {event, data}, {method, params} events [langchain]
  LangChain / LangSmith run trees (run_type "tool", child_runs; {post, patch}) [langchain]
  MCP recorder cassette {interactions: [{request, response}]} [mcp]
  MCP proxy log / MCPSpy capture: lines with a direction and a JSON-RPC message [mcp]
  mcp-recorder session lines {seq, t, dir: "c2s"|"s2c", msg} and its summary line [mcp]
  MCP client log text: "… Message from client|server: {json}" lines [mcp]
  OTel GenAI execute_tool spans and gen_ai.input/output.messages parts [otel]
  OTel OpenLLMetry gen_ai.completion.N.tool_calls.M.* / gen_ai.prompt.N.* [otel]
  OTel OpenInference TOOL spans and llm.output_messages tool_calls [otel]
  OTel Braintrust spans: braintrust.input_json/output_json, one trace per trace id [otel]
  OTel Vercel AI SDK ai.toolCall spans and ai.response.toolCalls [otel]
  OTel export of several linked traces: one trace per traceId, FILE[n] [otel]
  Responses mcp_approval_request, tool_search_call, program items [openai-responses]
  Gemini Interactions API responses (steps or outputs) or event streams [gemini]
  Chat Completions tool messages without tool_call_id, paired in order [openai]

Exit codes: 0 shown, 2 usage or input error.

Examples:
  toolscore inspect trace.json
  toolscore inspect runs.jsonl --format openai
  cat session.jsonl | toolscore inspect - --json
`;

const WIDTH = 160;

/** What a trace adds up to, for the summary line and `--json`. */
interface TraceSummary {
  call_count: number;
  failed_count: number;
  unknown_outcome_count: number;
  total_duration_s: number | null;
  calls_with_duration: number;
  total_cost_usd: number | null;
  calls_with_cost: number;
  /** Calls the user made (τ² dual control), when any (issue 34). */
  user_call_count?: number;
}

function summarize(trace: Trace): TraceSummary {
  let duration: number | null = null;
  let cost: number | null = null;
  let timed = 0;
  let priced = 0;
  for (const call of trace.calls) {
    if (call.durationS !== undefined) {
      duration = (duration ?? 0) + call.durationS;
      timed++;
    }
    if (call.costUsd !== undefined) {
      cost = (cost ?? 0) + call.costUsd;
      priced++;
    }
  }
  const user = trace.calls.filter(isUserCall).length;
  return {
    ...(user > 0 ? { user_call_count: user } : {}),
    call_count: trace.calls.length,
    failed_count: trace.calls.filter(callFailed).length,
    unknown_outcome_count: trace.calls.filter((call) => !hasOutcome(call)).length,
    total_duration_s: duration,
    calls_with_duration: timed,
    total_cost_usd: cost,
    calls_with_cost: priced,
  };
}

function cut(text: string, full: boolean): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ");
  return full || flat.length <= WIDTH ? flat : `${flat.slice(0, WIDTH - 1)}…`;
}

// Strings print quoted, so a result "42" and a result 42 read differently.
function show(value: unknown, full: boolean): string {
  return cut(JSON.stringify(value) ?? "", full);
}

function seconds(value: number): string {
  return `${Number(value.toFixed(3))} s`;
}

function usd(value: number): string {
  return `$${Number(value.toPrecision(6))}`;
}

function outcome(call: ToolCall, colors: Palette, full: boolean): string {
  if (callFailed(call)) {
    const message = typeof call.error === "string" && call.error !== ""
      ? `: ${cut(call.error, full)}`
      : "";
    const how = call.metadata?.outcome_source === "error_text" ? " (error text)" : "";
    return colors.red(`FAILED${how}${message}`);
  }
  if (!hasOutcome(call)) return colors.yellow("unknown (not captured)");
  return colors.green("ok");
}

function callLines(call: ToolCall, index: number, colors: Palette, full: boolean): string[] {
  const args = call.argsError !== undefined
    ? `${colors.red(`arguments did not parse (${call.argsError})`)} raw ${
      show(call.rawArgs ?? "", full)
    }`
    : show(call.args ?? {}, full);
  const facts = [
    `outcome ${outcome(call, colors, full)}`,
    `duration ${call.durationS !== undefined ? seconds(call.durationS) : "unknown"}`,
    `cost ${call.costUsd !== undefined ? usd(call.costUsd) : "unknown"}`,
  ];
  if (call.id !== undefined) facts.push(`id ${call.id}`);
  if (isUserCall(call)) facts.push("actor user");
  if (call.malformed !== undefined) facts.push(colors.red(`malformed ${call.malformed}`));
  const name = call.tool === "" ? colors.red("(no name)") : colors.bold(call.tool);
  const lines = [`  ${index + 1}. ${name} ${args}`, `     ${facts.join("   ")}`];
  if (call.result !== undefined) lines.push(`     result ${show(call.result, full)}`);
  // Issue 30: what agent run noted on the call, and a call in flight when its server failed.
  const { note, in_flight: inFlight, server_stderr: stderr } = call.metadata ?? {};
  if (typeof note === "string") lines.push(`     note ${cut(note, full)}`);
  if (typeof inFlight === "string") lines.push(`     in flight ${cut(inFlight, full)}`);
  if (Array.isArray(stderr) && stderr.length > 0) {
    lines.push(`     server stderr ${cut(stderr.map(String).join("\n"), full)}`);
  }
  return lines;
}

// A total over the calls that carry the figure; partial totals say so.
function total(
  value: number | null,
  known: number,
  summary: TraceSummary,
  unit: (value: number) => string,
): string {
  if (value === null) return "unknown";
  return known === summary.call_count
    ? unit(value)
    : `${unit(value)} over ${known} of ${summary.call_count} calls`;
}

function formatTrace(name: string, trace: Trace, colors: Palette, full: boolean): string[] {
  const summary = summarize(trace);
  const usage = trace.usage === undefined
    ? "unknown"
    : `${trace.usage.inputTokens ?? "unknown"} input, ${
      trace.usage.outputTokens ?? "unknown"
    } output tokens`;
  const run = trace.run === undefined
    ? ""
    : `   task ${trace.run.task}${
      trace.run.trial === undefined ? "" : ` trial ${trace.run.trial}`
    }` +
      (typeof trace.metadata?.recorded_reward === "number"
        ? `   recorded reward ${trace.metadata.recorded_reward} (not the score)`
        : "");
  const lines = [
    colors.bold(name),
    `format ${trace.format}   model ${trace.model ?? "unknown"}   usage ${usage}${run}`,
    `${summary.call_count} call${summary.call_count === 1 ? "" : "s"}` +
    (summary.user_call_count ? ` (${summary.user_call_count} by the user)` : "") + ": " +
    `${summary.failed_count} failed, ${summary.unknown_outcome_count} without a captured outcome; ` +
    `duration ${total(summary.total_duration_s, summary.calls_with_duration, summary, seconds)}, ` +
    `cost ${total(summary.total_cost_usd, summary.calls_with_cost, summary, usd)}`,
  ];
  trace.calls.forEach((call, i) => pushAll(lines, callLines(call, i, colors, full)));
  lines.push(
    trace.finalAnswer === undefined
      ? `final answer ${colors.yellow("unknown")}`
      : `final answer ${show(trace.finalAnswer, full)}${
        trace.finalAnswerTruncated === true
          ? colors.yellow(" (cut short: the model hit its output-token limit)")
          : ""
      }`,
  );
  pushAll(lines, turnLines(trace, full));
  for (const note of trace.notes ?? []) lines.push(`note ${note}`);
  for (const skip of trace.skipped ?? []) {
    lines.push(
      `note skipped ${skip.count} item${skip.count === 1 ? "" : "s"} of type ${skip.type}`,
    );
  }
  return lines;
}

// Issue 30: what `agent run` kept of each model turn (metadata.model_turns).
function turnLines(trace: Trace, full: boolean): string[] {
  const turns = trace.metadata?.model_turns;
  if (!Array.isArray(turns)) return [];
  return turns.filter(isJsonObject).map((turn) => {
    const parts = [`turn ${turn.turn} stop ${turn.stop_reason ?? "unknown"}`];
    if (typeof turn.calls === "number") {
      parts.push(`${turn.calls} call${turn.calls === 1 ? "" : "s"}`);
    }
    if (typeof turn.text === "string") parts.push(`text ${show(turn.text, full)}`);
    if (typeof turn.refusal === "string") parts.push(`refusal ${show(turn.refusal, full)}`);
    return parts.join("   ");
  });
}

/** The `inspect` command. */
export const inspectCommand: Command = {
  name: "inspect",
  summary: "show what was read from a trace: format, calls with outcomes, final answer",
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("inspect", args, FLAGS);
    if (flags.positionals.length === 0) {
      throw new UsageError("inspect needs at least one TRACE; see toolscore inspect --help");
    }
    const format: "auto" | FormatName = parseFormatName(stringFlag(flags, "format") ?? "auto");
    const honestyPath = stringFlag(flags, "honesty");
    const honesty = honestyPath === undefined ? undefined : await loadHonestyConfig(honestyPath);
    // Errors written as text are marked as evaluation marks them, so inspect shows what eval scores.
    const traces = (await readTraceArguments(flags.positionals, io, format)).map((named) => {
      const calls = applyErrorText(named.trace.calls, honesty);
      return calls === named.trace.calls ? named : { ...named, trace: { ...named.trace, calls } };
    });
    if (flags.values.json === true) {
      const out = traces.map(({ name, trace }) => {
        const { format: _envelope, source_format: _source, ...read } = traceToJson(trace);
        return {
          source: name,
          format: trace.format,
          model: null,
          usage: null,
          final_answer: null,
          ...read,
          summary: summarize(trace),
        };
      });
      io.stdout(`${JSON.stringify({ traces: out }, null, 2)}\n`);
      return EXIT.ok;
    }
    const colors = palette(io.color);
    const full = flags.values.full === true;
    const blocks = traces.map(({ name, trace }) =>
      formatTrace(name, trace, colors, full).join("\n")
    );
    io.stdout(`${blocks.join("\n\n")}\n`);
    return EXIT.ok;
  },
};
