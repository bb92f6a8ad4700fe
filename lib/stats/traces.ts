/**
 * Runs from trace directories: every trace file the one folder walk finds
 * (`lib/formats/trace_folder.ts`: `.json`, `.jsonl`, `.sse`, sniffed
 * `.txt`/`.log`; before issue 32 only `*.json`) scored against a gold file or
 * contract; the gold file itself is left out, and a file that is clearly not
 * a trace gives no run (`onStray`). A trace that cannot be read or scored is an `error` run:
 * it stays in the population, never dropped.
 *
 * Since issue 22 the default task pattern also names the trailing number
 * `(?<repeat>\d+)`, so `refund-3` of two variants are matched one to one
 * (McNemar); the task it gives is unchanged.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { knownTotal, type Trace } from "../scoring/calls.ts";
import { tracesFromText } from "../formats/detect.ts";
import { isStrayText, traceFilesIn } from "../formats/trace_folder.ts";
import { runLabel } from "../formats/runs.ts";
import { InputError, ToolscoreError } from "../base/errors.ts";
import {
  evaluateExpected,
  type Expected,
  expectedMinScore,
  loadExpected,
} from "../evaluate/expected.ts";
import { readTextFile } from "../base/load.ts";
import { Run } from "./runs.ts";
import { compileUserPattern, UserPattern } from "../base/user_regex.ts";

/**
 * The default task pattern: the file stem without a trailing repeat number
 * (`refund-3`, `refund_r2`), which the `repeat` group captures.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_TASK_PATTERN } from "./traces.ts";
 * import assert from "node:assert/strict";
 *
 * const groups = new RegExp(DEFAULT_TASK_PATTERN).exec("refund_r2")?.groups;
 * assert.equal(groups?.task, "refund");
 * assert.equal(groups?.repeat, "2");
 * ```
 */
export const DEFAULT_TASK_PATTERN = "^(?<task>.+?)(?:[-_.]r?(?<repeat>\\d+))?$";

/** Options for {@linkcode runsFromTraces}. */
export interface RunsFromTracesOptions {
  /**
   * The passing score: this one, else the contract's `min_score`, else 0.9
   * (the library's one rule).
   * @default {undefined} (the contract's `min_score`, else 0.9)
   */
  minScore?: number;
  /**
   * A regex with a `task` group (`(?<task>…)` or Python's `(?P<task>…)`, RE2
   * syntax: linear time), applied to each file stem; a stem it does not match
   * is its own task. An optional `repeat` group (digits) gives the run's
   * repeat.
   * @default {"^(?<task>.+?)(?:[-_.]r?(?<repeat>\\d+))?$"}
   */
  taskPattern?: string | RegExp;
  /**
   * Told about every trace that became an `error` run, with the reason, so a
   * caller can say why (the run itself carries no message).
   * @default {undefined}
   */
  onError?: (path: string, error: ToolscoreError) => void;
  /**
   * Told about every file of the directory that is clearly not a trace (no
   * trace shape, no tool-call content: a `package.json`), which gives no run.
   * @default {undefined}
   */
  onStray?: (path: string) => void;
}

/** A trace file's name without its extension. */
function stemOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The task of a trace file stem under a task pattern.
 *
 * @param stem The file name without `.json`.
 * @param pattern A regex with a `task` group (RE2 syntax; `(?P<task>…)` works too).
 * @returns The task; the whole stem when the pattern does not match.
 *
 * @example Usage
 * ```ts
 * import { taskOfStem } from "./traces.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(taskOfStem("refund-3"), "refund");
 * assert.equal(taskOfStem("refund_r12"), "refund");
 * assert.equal(taskOfStem("refund"), "refund");
 * assert.equal(taskOfStem("a-b-7", "^(?P<task>[a-z]+)"), "a");
 * ```
 */
export function taskOfStem(stem: string, pattern: string | RegExp = DEFAULT_TASK_PATTERN): string {
  return taskWith(stem, taskRegex(pattern));
}

function taskWith(stem: string, pattern: UserPattern): string {
  return pattern.groups(stem)?.task || stem;
}

/** The `repeat` group of a stem as a number, or `null` when absent or not a safe integer. */
function repeatOfStem(stem: string, pattern: UserPattern): number | null {
  const digits = pattern.groups(stem)?.repeat;
  if (digits === undefined || !/^\d{1,15}$/.test(digits)) return null;
  return Number(digits);
}

// A task pattern is a user pattern: RE2, linear time (lib/base/user_regex.ts).
const TASK_PATTERNS = new Map<string, UserPattern>();

function taskRegex(pattern: string | RegExp | UserPattern): UserPattern {
  if (pattern instanceof UserPattern) return pattern;
  const cached = typeof pattern === "string" ? TASK_PATTERNS.get(pattern) : undefined;
  if (cached !== undefined) return cached;
  const regex = typeof pattern === "string"
    ? compileUserPattern(pattern, "", "task_pattern", "task pattern")
    : compileUserPattern(pattern.source, pattern.flags.replace(/[gdy]/g, ""), "task_pattern");
  if (!regex.groupNames().includes("task")) {
    throw new InputError(
      `${regex.source} has no (?<task>…) group; name the part of the file stem that is the task`,
      "task_pattern",
    );
  }
  if (typeof pattern === "string" && TASK_PATTERNS.size < 64) TASK_PATTERNS.set(pattern, regex);
  return regex;
}

/**
 * Score every trace file in a directory (the one folder walk) against a gold file or contract.
 * A run file (τ-bench results or trajectories, τ²-bench results) is one run
 * per record: its task and trial come from the record (run id
 * `STEM[task#trial]`), not from the file stem.
 *
 * A trace passes under the contract's passing rule at `minScore`
 * (`EvaluationResult.passed`; by default the score and no failed evidence check
 * but `call-errors`, issue 28). A trace that
 * cannot be read or scored is an `error` run. The run id is the file stem;
 * the task comes from the task pattern; cost and latency are the sums over the
 * trace's calls when every call has one, else unknown.
 *
 * @param variant The variant name.
 * @param directory The directory of trace files.
 * @param gold The gold file or contract (a path, or an already loaded {@linkcode Expected}).
 * @param options `minScore`, `taskPattern`, `onError`.
 * @returns One run per trace file, sorted by file name.
 * @throws {InputError} When the directory or the gold file cannot be read, or the task pattern is bad.
 *
 * @example Usage
 * ```ts ignore
 * import { compareRuns, runsFromTraces } from "@toolscore/cli";
 *
 * const runs = [
 *   ...await runsFromTraces("old", "traces/old", "contract.yaml"),
 *   ...await runsFromTraces("new", "traces/new", "contract.yaml"),
 * ];
 * console.log(compareRuns(runs, { baseline: "old" }).pairs[0]!.verdict);
 * ```
 */
export async function runsFromTraces(
  variant: string,
  directory: string,
  gold: string | Expected,
  options: RunsFromTracesOptions = {},
): Promise<Run[]> {
  if (variant === "") throw new InputError("expected a variant name", "variant");
  const pattern = taskRegex(options.taskPattern ?? DEFAULT_TASK_PATTERN);
  const expected = typeof gold === "string" ? await loadExpected(gold) : gold;
  const minScore = options.minScore ?? expectedMinScore(expected) ?? 0.9;
  // The one folder walk (issue 32): the extensions the readers claim, the gold file left out.
  const left = typeof gold === "string" ? resolve(gold) : undefined;
  const names = traceFilesIn(directory).filter((name) => resolve(join(directory, name)) !== left);
  const runs: Run[] = [];
  for (const name of names) {
    const stem = stemOf(name);
    const task = taskWith(stem, pattern);
    const repeat = repeatOfStem(stem, pattern);
    const path = join(directory, name);
    let traces: Trace[];
    let text: string | undefined;
    try {
      text = await readTextFile(path);
      // A run file (tau-bench…) is one run per record, its task and trial from the record.
      traces = tracesFromText(text, path);
    } catch (error) {
      if (!(error instanceof ToolscoreError)) throw error;
      // Clearly not a trace (a package.json): no run at all, and the caller says so.
      if (text !== undefined && isStrayText(text)) {
        options.onStray?.(path);
        continue;
      }
      // Unreadable: an error run, so the population stays whole.
      options.onError?.(path, error);
      runs.push(new Run(variant, task, "error", { runId: stem, repeat }));
      continue;
    }
    for (const [i, trace] of traces.entries()) {
      const runTask = trace.run?.task ?? task;
      // A JSONL file of several traces is one run per line (`STEM[n]`, no repeat of its own).
      const several = trace.run === undefined && traces.length > 1;
      const runId = trace.run !== undefined
        ? `${stem}${runLabel(trace.run)}`
        : several
        ? `${stem}[${i + 1}]`
        : stem;
      // A run file's record names its trial; a plain trace file takes the stem's repeat group.
      const runRepeat = trace.run !== undefined ? trace.run.trial ?? null : several ? null : repeat;
      try {
        const result = evaluateExpected(expected, trace);
        runs.push(
          new Run(variant, runTask, result.passed(minScore) ? "pass" : "fail", {
            cost: knownTotal(result.traceCalls, (call) => call.costUsd),
            latency: knownTotal(result.traceCalls, (call) => call.durationS),
            runId,
            repeat: runRepeat,
          }),
        );
      } catch (error) {
        // Unscorable: an error run, so the population stays whole.
        if (!(error instanceof ToolscoreError)) throw error;
        options.onError?.(path, error);
        runs.push(new Run(variant, runTask, "error", { runId, repeat: runRepeat }));
      }
    }
  }
  return runs;
}
