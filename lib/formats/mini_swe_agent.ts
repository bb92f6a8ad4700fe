/**
 * The `mini-swe-agent` format: the trajectories mini-swe-agent saves
 * (`*.traj.json`; issue 35): a chat list of `{role, content}` messages, or
 * `{info, messages, trajectory_format: "mini-swe-agent-…"}`.
 *
 * The agent's actions are bash commands written as fenced code blocks in
 * the assistant's text (```` ```bash ```` or ```` ```mswea_bash_command ````);
 * the next user message is the observation, `<returncode>N</returncode>
 * <output>…</output>` (or the JSON `{returncode, output}` of newer
 * configurations). Each action reads as a call of a `bash` tool with
 * `{command}` and `metadata.text_action: true`. Before this reader such a
 * file read as an OpenAI chat with 0 calls (a silent zero).
 *
 * Decisions where mini-swe-agent is silent:
 * - A list is claimed when one assistant message holds such a fenced block
 *   and the chat is mini-swe-agent's: a user message starting
 *   `<returncode>`, or the text `COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`
 *   (`MINI_SWE_AGENT_FINAL_OUTPUT` in early versions) in any message. A
 *   document with a `trajectory_format` starting `mini-swe-agent` or an
 *   `info.mini_version` is claimed whatever its messages hold.
 * - mini-swe-agent runs an action only when the message holds exactly one
 *   block; a message with none or several was answered with a format error
 *   and made no call, so it reads as none.
 * - An assistant message with OpenAI-style `tool_calls` (the tool-calling
 *   configurations) reads those calls instead; their results are the `tool`
 *   messages with the matching `tool_call_id`.
 * - The observation is the next user (or, for a text action, tool) message;
 *   mini-swe-agent 2's `extra.returncode` and `extra.raw_output` win over
 *   the rendered text. A return code of 0 succeeded; any other failed (the error is the
 *   output, or `exit code N` when it is empty). An observation without a
 *   return code (the submission that follows the final command) is the
 *   call's result, outcome as evaluation reads text.
 * - The final answer is `info.submission` when it is non-empty text, else
 *   the observation after the final `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`
 *   command when non-blank.
 *
 * @module
 */

import { isJsonObject, type JsonObject, type ToolCall } from "../scoring/calls.ts";
import { makeTrace, setArgs } from "./_shared.ts";
import { documentReader, type FormatReader } from "./reader.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

const FENCES = ["```mswea_bash_command", "```bash"];
const SUBMIT = ["COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "MINI_SWE_AGENT_FINAL_OUTPUT"];
const BLOCK_CAP = 64;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => isJsonObject(part) && typeof part.text === "string" ? part.text : "")
    .join("\n");
}

/**
 * The commands of the fenced action blocks in a text (a linear scan, at
 * most 64 blocks).
 *
 * @param text The assistant's text.
 * @returns The commands, trimmed, in order.
 *
 * @example Usage
 * ```ts
 * import { fencedCommands } from "./mini_swe_agent.ts";
 * import assert from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * assert.deepEqual(fencedCommands(`THOUGHT: look\n\n${fence}bash\nls -la\n${fence}`), ["ls -la"]);
 * assert.deepEqual(fencedCommands("no action here"), []);
 * ```
 */
export function fencedCommands(text: string): string[] {
  const commands: string[] = [];
  let at = 0;
  while (commands.length < BLOCK_CAP) {
    let start = -1;
    let fence = "";
    for (const f of FENCES) {
      const i = text.indexOf(f, at);
      if (i >= 0 && (start < 0 || i < start)) [start, fence] = [i, f];
    }
    if (start < 0) break;
    const lineEnd = text.indexOf("\n", start + fence.length);
    if (lineEnd < 0 || text.slice(start + fence.length, lineEnd).trim() !== "") {
      at = start + fence.length;
      continue;
    }
    const close = text.indexOf("\n```", lineEnd);
    if (close < 0) break;
    commands.push(text.slice(lineEnd + 1, close).trim());
    at = close + 4;
  }
  return commands;
}

interface Found {
  messages: JsonObject[];
  info?: JsonObject;
}

function isMessage(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.role === "string";
}

function findTrajectory(value: unknown): Found | undefined {
  if (isJsonObject(value) && Array.isArray(value.messages)) {
    const info = isJsonObject(value.info) ? value.info : undefined;
    const tagged = (typeof value.trajectory_format === "string" &&
      value.trajectory_format.startsWith("mini-swe-agent")) ||
      typeof info?.mini_version === "string";
    if (!tagged || !value.messages.every(isMessage)) return undefined;
    return { messages: value.messages as JsonObject[], ...(info ? { info } : {}) };
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every(isMessage)) return undefined;
  const messages = value as JsonObject[];
  let fenced = false;
  let mini = false;
  for (const message of messages) {
    if (typeof message.content !== "string") continue;
    if (message.role === "assistant" && !fenced) {
      fenced = fencedCommands(message.content).length > 0;
    }
    if (!mini) {
      mini = (message.role === "user" && message.content.trimStart().startsWith("<returncode>")) ||
        SUBMIT.some((word) => (message.content as string).includes(word));
    }
    if (fenced && mini) return { messages };
  }
  return undefined;
}

interface Observation {
  output: string;
  returncode?: number;
}

function between(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(close, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end);
}

function observation(text: string): Observation {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const parsed = parseJsonLossless(trimmed);
      if (isJsonObject(parsed) && typeof parsed.returncode === "number") {
        const output = typeof parsed.output === "string"
          ? parsed.output
          : [parsed.output_head, parsed.output_tail].filter((s) => typeof s === "string")
            .join("\n");
        return { output, returncode: parsed.returncode };
      }
    } catch {
      // not JSON: read as text below
    }
  }
  const code = between(trimmed, "<returncode>", "</returncode>");
  if (code !== undefined && /^\s*-?\d{1,9}\s*$/.test(code)) {
    const output = between(trimmed, "<output>", "</output>") ??
      between(trimmed, "<output_head>", "</output_head>") ?? "";
    return { output: output.replace(/^\n/, "").replace(/\n$/, ""), returncode: Number(code) };
  }
  return { output: text };
}

function attach(call: ToolCall, message: JsonObject): void {
  // mini-swe-agent 2 keeps the raw output and return code in the message's `extra`.
  const extra = isJsonObject(message.extra) ? message.extra : {};
  const seen = typeof extra.returncode === "number" && Number.isInteger(extra.returncode)
    ? {
      output: typeof extra.raw_output === "string" ? extra.raw_output : textOf(message.content),
      returncode: extra.returncode,
    }
    : observation(textOf(message.content));
  call.result = seen.output;
  if (seen.returncode === undefined) return;
  call.metadata = { ...call.metadata, returncode: seen.returncode };
  if (seen.returncode === 0) call.isError = false;
  else {
    call.isError = true;
    call.error = seen.output.trim() === "" ? `exit code ${seen.returncode}` : seen.output;
  }
}

function toolCalls(message: JsonObject): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const item of message.tool_calls as unknown[]) {
    const fn = isJsonObject(item) && isJsonObject(item.function) ? item.function : undefined;
    if (typeof fn?.name !== "string" || fn.name === "") continue;
    const call: ToolCall = { tool: fn.name };
    if (typeof (item as JsonObject).id === "string") call.id = (item as JsonObject).id as string;
    setArgs(call, fn.arguments ?? undefined);
    calls.push(call);
  }
  return calls;
}

/**
 * The `mini-swe-agent` reader.
 *
 * @example Usage
 * ```ts
 * import { miniSweAgentReader } from "./mini_swe_agent.ts";
 * import assert from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const chat = [
 *   { role: "system", content: "To finish, issue: `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`" },
 *   { role: "assistant", content: `Look around.\n\n${fence}bash\nls\n${fence}` },
 *   { role: "user", content: "<returncode>2</returncode>\n<output>\nls: denied\n</output>" },
 * ];
 * const trace = miniSweAgentReader.read(chat, "run.traj.json");
 * assert.deepEqual(trace.calls[0]?.args, { command: "ls" });
 * assert.equal(trace.calls[0]?.isError, true);
 * assert.equal(trace.calls[0]?.metadata?.text_action, true);
 * ```
 */
export const miniSweAgentReader: FormatReader = documentReader(
  "mini-swe-agent",
  findTrajectory,
  "not a mini-swe-agent trajectory: expected a chat list whose assistant messages hold ```bash blocks",
  (found) => {
    const calls: ToolCall[] = [];
    const byId = new Map<string, ToolCall>();
    let pending: ToolCall | undefined;
    let submitted: ToolCall | undefined;
    for (const message of found.messages) {
      if (message.role === "assistant") {
        pending = undefined;
        if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
          for (const call of toolCalls(message)) {
            calls.push(call);
            if (call.id !== undefined) byId.set(call.id, call);
          }
          continue;
        }
        const extra = isJsonObject(message.extra) ? message.extra : undefined;
        const actions = Array.isArray(extra?.actions)
          ? extra.actions.flatMap((a) =>
            isJsonObject(a) && typeof a.command === "string" ? [a.command] : []
          )
          : fencedCommands(textOf(message.content));
        if (actions.length !== 1) continue;
        const command = actions[0]!;
        const call: ToolCall = { tool: "bash", args: { command }, metadata: { text_action: true } };
        calls.push(call);
        pending = call;
        if (SUBMIT.some((word) => command.includes(word))) submitted = call;
      } else if (message.role === "tool" || message.role === "user") {
        const byCall = typeof message.tool_call_id === "string"
          ? byId.get(message.tool_call_id)
          : undefined;
        const call = byCall ?? pending;
        if (call !== undefined && call.result === undefined) attach(call, message);
        pending = undefined;
      }
    }
    const submission = found.info?.submission;
    const answer = typeof submission === "string" && submission.trim() !== ""
      ? submission
      : typeof submitted?.result === "string" && submitted.result.trim() !== ""
      ? submitted.result
      : undefined;
    const trace = makeTrace("mini-swe-agent", calls, { finalAnswer: answer });
    const status = found.info?.exit_status;
    if (typeof status === "string" && status !== "") trace.metadata = { exit_status: status };
    return trace;
  },
);
