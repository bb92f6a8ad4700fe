/**
 * Run files: one file holding many agent runs, read as one named trace per
 * run.
 *
 * - `tau-bench`: τ-bench results and historical trajectories, a list of
 *   `{task_id, reward, info, traj, trial?}` where `traj` is the chat
 *   transcript (read by the detector, OpenAI messages in the published
 *   files), or one such record on its own (issue 34). A record τ-bench
 *   wrote for a run that raised (`info.error`, an empty `traj`) is that
 *   run's input error, not a run of no calls (issue 34).
 * - `tau2-bench`: τ²-bench results, `{"simulations": [{task_id, trial,
 *   messages, reward_info}]}`, where an assistant message's `tool_calls` are
 *   `{id, name, arguments, requestor}` and a `role: "tool"` message carries
 *   the call's `id`, `content` and an `error` flag. The user simulator's
 *   calls (`requestor: "user"`, in `role: "user"` messages: dual control)
 *   are read too and marked `actor: "user"`; scoring keeps them apart from
 *   the agent's (`lib/scoring/actors.ts`). Results pair by id within each
 *   requestor's calls.
 * - generic: a list of objects each holding `messages`, `traj` or
 *   `trajectory` and naming the run (`task_id`, `task`, `instance_id`, `id`,
 *   `trial` or `reward`), read with the transcript's own format (task from
 *   `task_id`, `task`, `instance_id` or `id`, else the 1-based position;
 *   trial from `trial`).
 *
 * A run's task and trial go to `trace.run` (the CLI names it
 * `FILE[task#trial]`), and a recorded `reward` to
 * `trace.metadata.recorded_reward`: it never replaces the score. A τ²
 * simulation's `termination_reason` (an enum name: lower-case letters and
 * `_`, at most 40) goes to `trace.metadata.termination_reason` (issue 44: τ² gives reward 0 to a
 * simulation that did not end by `agent_stop` or `user_stop`).
 *
 * @module
 */

import {
  type FormatName,
  isJsonObject,
  type JsonObject,
  type ToolCall,
  type Trace,
  type TraceRun,
} from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { clipEcho } from "../base/clip_input.ts";
import {
  attachTextResult,
  FinalAnswer,
  finiteNumber,
  idOf,
  makeTrace,
  setArgs,
} from "./_shared.ts";

/** The formats a run file can be in. */
export type RunFileFormat = "tau-bench" | "tau2-bench" | "runs";

/** One run of a run file, before its transcript is read. */
export interface RunEntry {
  /** The task and trial. */
  run: TraceRun;
  /** The transcript (τ-bench `traj`, generic `messages`…). */
  transcript: unknown;
  /** Where the run sits in the file, for errors. */
  path: string;
  /** The recorded reward, if any. */
  reward?: number;
  /** Why the run holds nothing to read: the harness recorded it as failed (issue 34). */
  failure?: string;
  /** How a τ² simulation ended (`termination_reason`), if recorded. */
  termination?: string;
}

/** A run file found in a document. */
export interface RunFile {
  /** Which kind of run file. */
  kind: RunFileFormat;
  /** The runs, in file order. */
  runs: RunEntry[];
}

const TRANSCRIPT_KEYS = ["messages", "traj", "trajectory"] as const;
// A τ² termination reason is an enum name (`user_stop`, `max_steps`…); other text is not kept.
const ENDING = /^[a-z][a-z_]{0,39}$/;
// What makes a generic list item a run: one of these beside its transcript.
const RUN_KEYS = ["task_id", "task", "instance_id", "id", "trial", "reward"];

function taskText(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function trialOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function isTauRecord(value: unknown): value is JsonObject {
  return isJsonObject(value) && taskText(value.task_id) !== undefined &&
    Array.isArray(value.traj) &&
    ("reward" in value || "info" in value);
}

// A τ² results document: every simulation an object, at least one with its `messages` list (or
// none at all). A simulation whose `messages` is missing or not a list is then that run's own
// input error (issue 34: run files fail per run), not a reason to refuse the whole file.
function isTau2Document(value: unknown): value is JsonObject {
  return isJsonObject(value) && Array.isArray(value.simulations) &&
    value.simulations.every(isJsonObject) &&
    (value.simulations.length === 0 ||
      value.simulations.some((s) => Array.isArray((s as JsonObject).messages)));
}

function transcriptKey(value: unknown): (typeof TRANSCRIPT_KEYS)[number] | undefined {
  if (!isJsonObject(value)) return undefined;
  return TRANSCRIPT_KEYS.find((key) => Array.isArray(value[key]));
}

function runOf(task: string, trial: number | undefined): TraceRun {
  return trial === undefined ? { task } : { task, trial };
}

/**
 * The run file a document is, or `undefined`.
 *
 * @param value The parsed document.
 * @returns The kind and its runs.
 *
 * @example Usage
 * ```ts
 * import { findRunFile } from "./runs.ts";
 * import assert from "node:assert/strict";
 *
 * const file = findRunFile([{ task_id: 7, reward: 1, info: {}, traj: [], trial: 0 }]);
 * assert.equal(file?.kind, "tau-bench");
 * assert.deepEqual(file?.runs[0]?.run, { task: "7", trial: 0 });
 * ```
 */
export function findRunFile(value: unknown): RunFile | undefined {
  if (Array.isArray(value) && value.length > 0 && value.every(isTauRecord)) {
    return { kind: "tau-bench", runs: value.map((record, i) => tauRun(record, `[${i}].traj`)) };
  }
  // Issue 34: one τ-bench record on its own is a run file of one run.
  if (isTauRecord(value)) return { kind: "tau-bench", runs: [tauRun(value, "traj")] };
  if (isTau2Document(value)) {
    return {
      kind: "tau2-bench",
      runs: (value.simulations as JsonObject[]).map((sim, i) => ({
        run: runOf(taskText(sim.task_id) ?? String(i + 1), trialOf(sim.trial)),
        transcript: sim.messages,
        path: `simulations[${i}].messages`,
        ...rewardOf(isJsonObject(sim.reward_info) ? sim.reward_info.reward : sim.reward),
        ...(typeof sim.termination_reason === "string" && ENDING.test(sim.termination_reason)
          ? { termination: sim.termination_reason }
          : {}),
      })),
    };
  }
  // A generic run names itself (a list of bare {messages} states is a LangGraph stream, not runs).
  if (
    Array.isArray(value) && value.length > 0 &&
    value.every((v) =>
      transcriptKey(v) !== undefined && RUN_KEYS.some((k) => k in (v as JsonObject))
    )
  ) {
    return {
      kind: "runs",
      runs: (value as JsonObject[]).map((record, i) => {
        const key = transcriptKey(record) as string;
        const task = taskText(record.task_id) ?? taskText(record.task) ??
          taskText(record.instance_id) ?? taskText(record.id) ?? String(i + 1);
        return {
          run: runOf(task, trialOf(record.trial)),
          transcript: record[key],
          path: `[${i}].${key}`,
          ...rewardOf(record.reward),
        };
      }),
    };
  }
  return undefined;
}

function tauRun(record: JsonObject, path: string): RunEntry {
  return {
    run: runOf(taskText(record.task_id) as string, trialOf(record.trial)),
    transcript: record.traj,
    path,
    ...rewardOf(record.reward),
    ...tauFailure(record),
  };
}

// τ-bench keeps a run that raised as `{reward: 0, info: {error, traceback}, traj: []}` (its
// run.py): no transcript, so that run's input error, never an agent that made no call.
function tauFailure(record: JsonObject): { failure?: string } {
  const info = record.info;
  if (!isJsonObject(info) || typeof info.error !== "string") return {};
  if (!Array.isArray(record.traj) || record.traj.length > 0) return {};
  return {
    failure: `the run raised before any message was kept (info.error: ${
      JSON.stringify(clipEcho(info.error))
    }), so there is nothing to score; rerun that task or leave the record out`,
  };
}

function rewardOf(value: unknown): { reward?: number } {
  const reward = finiteNumber(value);
  return reward === undefined ? {} : { reward };
}

/**
 * Read τ²-bench simulation messages: the agent's calls and the user's
 * (`actor: "user"`), their results by `id`, failed when the tool message
 * says `error: true`.
 *
 * @param messages The simulation's `messages`.
 * @param source The file and JSON path, for errors.
 * @returns The trace (format `tau2-bench`).
 * @throws {InputError} On a tool call without a name.
 *
 * @example Usage
 * ```ts
 * import { readTau2Messages } from "./runs.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = readTau2Messages([
 *   { role: "assistant", tool_calls: [{ id: "1", name: "a", arguments: { x: 1 }, requestor: "assistant" }] },
 *   { role: "tool", id: "1", content: "Error: no", requestor: "assistant", error: true },
 * ], "r.json");
 * assert.equal(trace.calls[0]?.isError, true);
 * ```
 */
export function readTau2Messages(messages: unknown[], source: string): Trace {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall[]>();
  const answer = new FinalAnswer();
  messages.forEach((message, i) => {
    if (!isJsonObject(message)) return;
    if (message.role === "assistant" || message.role === "user") {
      const agent = message.role === "assistant";
      if (agent) {
        answer.message();
        answer.text(message.content);
      }
      if (!Array.isArray(message.tool_calls)) return;
      message.tool_calls.forEach((entry, j) => {
        if (!isJsonObject(entry)) return;
        // Issue 34: the user simulator's calls (dual control) are read, marked actor "user".
        const user = entry.requestor === "user" || (!agent && entry.requestor === undefined);
        if (typeof entry.name !== "string" || entry.name === "") {
          throw new InputError("tool call has no name", `${source}[${i}].tool_calls[${j}]`);
        }
        const call: ToolCall = { tool: entry.name };
        setArgs(call, entry.arguments);
        if (user) call.actor = "user";
        const id = idOf(entry.id);
        if (id !== undefined) {
          call.id = id;
          const key = `${user ? "user" : "assistant"}\u0000${id}`;
          byId.set(key, [...(byId.get(key) ?? []), call]);
        }
        calls.push(call);
        if (!user) answer.call();
      });
    } else if (message.role === "tool") {
      const side = message.requestor === "user" ? "user" : "assistant";
      const id = idOf(message.id) ?? idOf(message.tool_call_id) ?? "";
      const queue = byId.get(`${side}\u0000${id}`) ?? [];
      const call = queue.find((c) => c.result === undefined && c.isError === undefined);
      if (call === undefined) return;
      const text = typeof message.content === "string"
        ? message.content
        : JSON.stringify(message.content ?? null);
      attachTextResult(call, text);
      if (message.error === true) {
        call.isError = true;
        if (call.error === undefined) call.error = text === "" ? "tool error" : text;
      } else if (message.error === false && call.error === undefined) call.isError = false;
    }
  });
  return makeTrace("tau2-bench", calls, { finalAnswer: answer.value });
}

/**
 * Finish one run's trace: its run, the recorded reward in metadata, and the
 * run file's format name for τ-bench files.
 *
 * @param trace The trace read from the run's transcript.
 * @param entry The run.
 * @param kind The run file's kind.
 * @returns The trace.
 */
export function finishRun(trace: Trace, entry: RunEntry, kind: RunFileFormat): Trace {
  const out: Trace = { ...trace, run: entry.run };
  if (kind !== "runs") out.format = kind as FormatName;
  const metadata: JsonObject = { ...(trace.metadata ?? {}), task_id: entry.run.task };
  if (entry.run.trial !== undefined) metadata.trial = entry.run.trial;
  if (entry.reward !== undefined) metadata.recorded_reward = entry.reward;
  if (entry.termination !== undefined) metadata.termination_reason = entry.termination;
  out.metadata = metadata;
  return out;
}

/**
 * The label of a run: `[task]`, or `[task#trial]` with a trial.
 *
 * @param run The run.
 * @returns The label to append to the file name.
 *
 * @example Usage
 * ```ts
 * import { runLabel } from "./runs.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(runLabel({ task: "3", trial: 1 }), "[3#1]");
 * assert.equal(runLabel({ task: "refund" }), "[refund]");
 * ```
 */
export function runLabel(run: TraceRun): string {
  return run.trial === undefined ? `[${run.task}]` : `[${run.task}#${run.trial}]`;
}
