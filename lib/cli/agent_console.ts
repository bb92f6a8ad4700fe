/**
 * What `agent run` tells people and CI logs while and after it runs.
 *
 * On a terminal (stderr): one live progress line, redrawn as runs finish —
 * runs done of those to do, passed, errors, spend, ETA. Without a terminal:
 * the same as a plain line on stderr at each further 10 % done, and, while
 * runs are going, at most every {@linkcode HEARTBEAT_MS} otherwise (so a
 * log shows the run is alive). At the end: a table per arm of the rows
 * written now (runs, passed, the pass rate over the judged runs — error and
 * stopped rows are not judged —, errors, stopped, mean turns, spend) and the
 * first few distinct error messages with their counts.
 *
 * @module
 */

import { maxOf } from "../base/arrays.ts";
import type { MatrixEvent, MatrixSummary, NotStarted } from "../agent/run_matrix.ts";
import type { CliIO } from "./command.ts";
import { ownSequence } from "../base/terminal_safe.ts";

/** The longest a log goes without a progress line while runs are going, in milliseconds. */
export const HEARTBEAT_MS = 10_000;
/** Distinct error messages shown at the end. */
export const ERRORS_SHOWN = 5;

// Dollars, with two significant digits below a cent.
function usd(value: number): string {
  return `$${value < 0.01 && value > 0 ? value.toPrecision(2) : value.toFixed(2)}`;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

interface ArmTally {
  runs: number;
  passed: number;
  judged: number;
  errors: number;
  stopped: number;
  turns: number;
  spend: number;
  unknownCost: number;
}

/** Options for {@linkcode agentConsole}. */
export interface AgentConsoleOptions {
  /**
   * The arms, in the spec's order (each gets a line in the table, even without rows).
   * @default {[]}
   */
  arms?: string[];
  /**
   * The clock, in milliseconds.
   * @default {performance.now}
   */
  now?: () => number;
  /**
   * Whether to keep a heartbeat timer without a terminal.
   * @default {true}
   */
  heartbeat?: boolean;
}

/** What {@linkcode agentConsole} returns. */
export interface AgentConsole {
  /** Told what the matrix does. */
  onEvent(event: MatrixEvent): void;
  /** The table per arm and the errors, for the end. */
  table(): string;
  /** Stops the heartbeat and clears the live line. */
  close(): void;
}

/**
 * The console of one `agent run`.
 *
 * @param io Where it writes (stderr).
 * @param options The arms, the clock.
 * @returns Its event handler, the end table and `close`.
 *
 * @example Usage
 * ```ts
 * import { agentConsole } from "./agent_console.ts";
 * import assert from "node:assert/strict";
 *
 * let err = "";
 * const io = { stdout: () => {}, stderr: (t: string) => void (err += t), color: false, progress: false, stdin: () => Promise.resolve("") };
 * const console = agentConsole(io, { arms: ["a"], heartbeat: false });
 * console.onEvent({ type: "planned", total: 1, skipped: 0, todo: 1 });
 * console.onEvent({ type: "finished", run: { arm: { id: "a" } } as never, row: { status: "ok", passed: true, turns: 2 }, costUsd: 0.5 });
 * console.close();
 * assert.match(err, /1\/1 runs, 1 passed, 0 error\(s\), \$0\.50 spent/);
 * assert.match(console.table(), /a +1 +1 +100% +0 +0 +2\.0 +\$0\.50/);
 * ```
 */
export function agentConsole(io: CliIO, options: AgentConsoleOptions = {}): AgentConsole {
  const now = options.now ?? (() => performance.now());
  const tallies = new Map<string, ArmTally>();
  for (const arm of options.arms ?? []) tallies.set(arm, tally());
  const errors = new Map<string, number>();
  let total = 0;
  let done = 0;
  let passed = 0;
  let failedRuns = 0;
  let spend = 0;
  let started = now();
  let lastLine = -Infinity;
  let lastDecile = 0;
  let drawn = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const line = () => {
    const elapsed = (now() - started) / 1000;
    const eta = done === 0 ? Infinity : (elapsed / done) * (total - done);
    return `agent run: ${done}/${total} runs, ${passed} passed, ${failedRuns} error(s), ${
      usd(spend)
    } spent, ETA ${done === total ? "0s" : duration(eta)}`;
  };
  const plain = () => {
    lastLine = now();
    io.stderr(`${line()}\n`);
  };
  const clear = () => {
    if (drawn) io.stderr(ownSequence("\r\x1b[2K"));
    drawn = false;
  };

  return {
    onEvent(event) {
      if (event.type === "note") {
        clear();
        io.stderr(`note: ${event.text}\n`);
        return;
      }
      if (event.type === "planned") {
        total = event.todo;
        started = now();
        lastLine = started;
        if (event.skipped > 0) {
          io.stderr(`resuming: ${event.skipped} run(s) already in the output\n`);
        }
        if (!io.progress && options.heartbeat !== false && total > 0) {
          timer = setInterval(() => {
            if (now() - lastLine >= HEARTBEAT_MS && done < total) plain();
          }, 1000);
          Deno.unrefTimer(timer);
        }
        return;
      }
      if (event.type !== "finished") return;
      done++;
      const row = event.row;
      const arm = event.run.arm.id;
      const t = tallies.get(arm) ?? tally();
      tallies.set(arm, t);
      t.runs++;
      if (row.status === "ok") t.judged++;
      if (row.passed === true) (t.passed++, passed++);
      if (row.status === "error") {
        t.errors++;
        failedRuns++;
        const message = typeof row.error === "string" ? row.error : "(no message)";
        errors.set(message, (errors.get(message) ?? 0) + 1);
      }
      if (row.status === "stopped") t.stopped++;
      if (typeof row.turns === "number") t.turns += row.turns;
      if (event.costUsd === null) t.unknownCost++;
      else t.spend += event.costUsd;
      spend += event.costUsd ?? 0;
      if (io.progress) {
        drawn = true;
        io.stderr(`${ownSequence("\r\x1b[2K")}${line()}`);
        if (done === total) clear();
        return;
      }
      const decile = total === 0 ? 10 : Math.floor((done * 10) / total);
      if (decile > lastDecile) {
        lastDecile = decile;
        plain();
      } else if (now() - lastLine >= HEARTBEAT_MS) plain();
    },
    table() {
      return tableText(tallies, errors);
    },
    close() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      clear();
    },
  };
}

function tally(): ArmTally {
  return {
    runs: 0,
    passed: 0,
    judged: 0,
    errors: 0,
    stopped: 0,
    turns: 0,
    spend: 0,
    unknownCost: 0,
  };
}

function tableText(tallies: Map<string, ArmTally>, errors: Map<string, number>): string {
  const header = ["arm", "runs", "passed", "pass rate", "errors", "stopped", "mean turns", "spend"];
  const rows = [...tallies].map(([arm, t]) => [
    arm,
    String(t.runs),
    String(t.passed),
    t.judged === 0 ? "–" : `${Math.round((100 * t.passed) / t.judged)}%`,
    String(t.errors),
    String(t.stopped),
    t.runs === 0 ? "–" : (t.turns / t.runs).toFixed(1),
    `${usd(t.spend)}${t.unknownCost > 0 ? ` + ${t.unknownCost} unknown` : ""}`,
  ]);
  const widths = header.map((h, i) => maxOf(rows.map((r) => r[i]!.length), h.length));
  const format = (cells: string[]) =>
    cells.map((cell, i) => i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))
      .join("  ").trimEnd();
  const lines = [
    "rows written now, per arm (pass rate: of the runs judged, error and stopped rows left out):",
    format(header),
    ...rows.map(format),
  ];
  if (errors.size > 0) {
    const sorted = [...errors].sort((a, b) => b[1] - a[1]);
    lines.push(
      `errors (${sorted.length} distinct message${sorted.length === 1 ? "" : "s"}${
        sorted.length > ERRORS_SHOWN ? `, the first ${ERRORS_SHOWN}` : ""
      }):`,
    );
    for (const [message, count] of sorted.slice(0, ERRORS_SHOWN)) {
      const flat = message.replace(/\s+/g, " ");
      lines.push(`  ${count}× ${flat.length > 200 ? `${flat.slice(0, 200)}…` : flat}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** Runs not started listed one a line; past this many, they are counted by reason. */
export const NOT_STARTED_LISTED = 10;

/**
 * The lines about runs not started: up to {@linkcode NOT_STARTED_LISTED}
 * one a line, more counted by reason (after a Ctrl-C there may be hundreds).
 *
 * @param runs The runs not started.
 * @returns The lines (none when every run started).
 *
 * @example Usage
 * ```ts
 * import { notStartedLines } from "./agent_console.ts";
 * import assert from "node:assert/strict";
 *
 * const run = { arm_id: "a", task_id: "t", repeat: 0, reason: "stopped" };
 * assert.deepEqual(notStartedLines([run]), ["1 run(s) not started:", "  a t #0: stopped"]);
 * assert.deepEqual(notStartedLines(Array(12).fill(run)), ["12 run(s) not started (--json lists each):", "  12× stopped"]);
 * ```
 */
export function notStartedLines(runs: NotStarted[]): string[] {
  if (runs.length === 0) return [];
  if (runs.length <= NOT_STARTED_LISTED) {
    return [
      `${runs.length} run(s) not started:`,
      ...runs.map((run) => `  ${run.arm_id} ${run.task_id} #${run.repeat}: ${run.reason}`),
    ];
  }
  const byReason = new Map<string, number>();
  for (const run of runs) byReason.set(run.reason, (byReason.get(run.reason) ?? 0) + 1);
  return [
    `${runs.length} run(s) not started (--json lists each):`,
    ...[...byReason].map(([reason, count]) => `  ${count}× ${reason}`),
  ];
}

/**
 * The command that finishes a stopped matrix: the same arguments, without `--restart`.
 *
 * @param args The arguments after `agent run`.
 * @returns The command line, shell-quoted.
 *
 * @example Usage
 * ```ts
 * import { resumeCommand } from "./agent_console.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(resumeCommand(["a b.yaml", "-o", "runs.jsonl", "--restart"]), "toolscore agent run 'a b.yaml' -o runs.jsonl");
 * ```
 */
export function resumeCommand(args: string[]): string {
  const quoted = args.filter((arg) => arg !== "--restart")
    .map((arg) => /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);
  return `toolscore agent run ${quoted.join(" ")}`;
}

/**
 * What `agent run --json` prints at the end: the summary, snake_case.
 *
 * @param summary What the matrix did.
 * @returns The JSON object.
 *
 * @example Usage
 * ```ts ignore
 * import { summaryJson } from "./agent_console.ts";
 *
 * console.log(JSON.stringify(summaryJson(summary)));
 * ```
 */
export function summaryJson(summary: MatrixSummary): Record<string, unknown> {
  return {
    runs: summary.runs,
    errors: summary.errors,
    not_started: summary.notStarted,
    stopped: summary.stopped,
    spend_usd: summary.spendUsd,
    spend_total_usd: summary.spendTotalUsd,
    budget_usd: summary.budgetUsd,
    cells: summary.cells,
    complete_cells: summary.completeCells,
    unknown_cost_runs: summary.unknownCost,
    total: summary.total,
    skipped: summary.skipped,
    interrupted: summary.interrupted,
    breakers: summary.breakers,
  };
}
