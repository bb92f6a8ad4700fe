/**
 * `toolscore agent run SPEC -o runs.jsonl`: every arm × task × repeat of an
 * agent spec against a fresh MCP server, scored with the task's contract,
 * one JSONL row per run (resumable, shardable). `--dry-run` prints the plan
 * and runs the doctor instead.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { UsageError } from "../base/errors.ts";
import { doctorReport, formatDoctorReport } from "../doctor/report.ts";
import { runDoctor } from "../doctor/run_doctor.ts";
import { closeAllTransports } from "../mcp/transport.ts";
import { readEnv } from "../mcp/server_env.ts";
import { callReservation, runEstimateTokens, runEstimateUsd } from "../agent/estimate.ts";
import { planRuns, type Shard } from "../agent/plan.ts";
import { lockOutput } from "../agent/output_lock.ts";
import { restartOutput } from "../agent/restart.ts";
import { defaultOutDir, type MatrixSummary, runMatrix } from "../agent/run_matrix.ts";
import { type AgentSpec, loadAgentSpec } from "../spec/agent_spec.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  numberFlag,
  type ParsedFlags,
  parseFlags,
  stringFlag,
} from "./command.ts";
import { readyAppendFile, readyOutputFolder } from "./output_ready.ts";
import { redactedError, redactedIO } from "./redacted_io.ts";
import { agentConsole, notStartedLines, resumeCommand, summaryJson } from "./agent_console.ts";
import { specRedactor } from "../agent/keys.ts";
import { partOf, planOutOf, shardOf, SPLIT_FLAGS, writePlan } from "./agent_split.ts";

/** `agent run`'s exit code when the matrix is incomplete (error rows, runs not started). */
export const EXIT_INCOMPLETE = 4;

/** `agent run`'s flags (the Kubernetes example's test parses its command line with them). */
export const AGENT_RUN_FLAGS: FlagSpec = {
  output: { type: "string", short: "o" },
  "out-dir": { type: "string" },
  concurrency: { type: "string" },
  shard: { type: "string" },
  "retry-errors": { type: "boolean" },
  restart: { type: "boolean" },
  "dry-run": { type: "boolean" },
  "allow-unknown-price": { type: "boolean" },
  "max-provider-failures": { type: "string" },
  json: { type: "boolean" },
  ...SPLIT_FLAGS,
};

const HELP =
  `toolscore agent run SPEC -o RUNS.jsonl — run models against an MCP server and score them

Runs every arm × task × repeat of the agent spec: a fresh stdio server per run,
its tools handed to the model, the model ↔ tools/call loop until a final answer,
max_turns or timeout_s; the trace scored with the task's contract (honesty
included); one JSONL row per run, read by compare, select, decide and export.

Usage:
  toolscore agent run SPEC -o RUNS.jsonl [--out-dir DIR] [--concurrency N]
                      [--shard k/n] [--retry-errors] [--allow-unknown-price]
                      [--dry-run] [--json]
  toolscore agent run SPEC --plan-out PLAN.jsonl
  toolscore agent run SPEC --runs PART.jsonl -o RUNS.jsonl

Options:
  -o, --output FILE     the JSONL file (required); rows already in it are skipped
  --out-dir DIR         traces and receipts (default: beside FILE, in FILE's name
                        without .jsonl: runs.jsonl → runs/)
  --concurrency N       runs at once (default 1)
  --shard k/n           only the cells (task, repeat) whose index is k-1 mod n; the
                        shards' files merge into the run (toolscore merge)
  --shard-index I --shard-count N
                        the same, 0-based (Kubernetes' JOB_COMPLETION_INDEX); without a
                        shard flag TOOLSCORE_SHARD=k/n is read (--allow-env=TOOLSCORE_SHARD)
  --plan-out PLAN.jsonl write one line per planned run {run_id, arm_id, task_id, repeat,
                        cell, index} and stop (reads the spec and contracts only)
  --runs PART.jsonl     run exactly the runs a part of the plan names (ids the spec
                        does not plan: exit 2); its budget is max_usd × its runs / planned
  --retry-errors        run again the runs whose row has status "error"
  --restart             start over: move FILE, its out-dir and FILE.* aside as
                        NAME.TIMESTAMP.jsonl and DIR.TIMESTAMP/ (a new budget ledger)
  --allow-unknown-price under budget.max_usd, run arms without a price (cost stays unknown)
  --max-provider-failures N
                        consecutive failed attempts (no connection, timeout, 5xx; not
                        429 or other 4xx) that open a provider endpoint's circuit
                        breaker (default 5): its runs in flight fail, its other runs
                        are not started, other endpoints go on
  --dry-run             print the plan and estimated cost, run the doctor, run nothing
  --json                print {runs, errors, stopped, not_started, spend_usd,
                        spend_total_usd, budget_usd, breakers, …} at the end

Runs go cell by cell (for each repeat, for each task, every arm; the arm order
rotated by the spec's order_seed); --shard takes whole cells.

budget.max_usd is a hard cap: before each model call its worst case (request
bytes / 3 input tokens + the arm's max_tokens, else 4096, output tokens) is
reserved, and a call that would pass the cap is not made; a cell starts only if
its arms' run estimates (budget.estimate_per_run, else 20,000 + 2,000 tokens) fit
too. Every call's cost goes to RUNS.spend.jsonl, so reruns, resumes and
--retry-errors continue the same budget; --shard k/n gets budget.per_shard_usd,
else max_usd / n (a --runs part: max_usd × its runs / runs planned). budget.max_usd_per_run and budget.max_tokens_per_run limit one
run. A run the budget stopped is written with status "stopped" (left out of n by
compare; a rerun runs it again); runs not started are listed with the reason.

Injected faults (the spec's faults file: {tool, occurrence, kind: error | timeout |
warning | replace, message?, result?, probability?, seed?}) change real tool results
before the model sees them; each run's are written to RUN.injected.json.

Run ids hash what makes each run what it is (the arm, the task's prompt and
contract, the server, max_turns, timeout_s, the faults and honesty files, the
repeat), not budget, prices or the other arms: adding arms, tasks or repeats or
raising the budget resumes. A row whose run was planned under another spec
stops the rerun (exit 2, naming what changed) before any model call; use
--restart or a new -o. One process writes an output at a time (FILE.lock).

A stdio server may use \${TOOLSCORE_RUN_DIR} (a fresh folder per run) and
\${TOOLSCORE_RUN_ID} in its env, e.g. MEMORY_FILE_PATH: \${TOOLSCORE_RUN_DIR}/memory.jsonl.
Ctrl-C or SIGTERM stops cleanly: runs in flight are not written, their servers are
stopped; the same command again finishes the matrix. Key values are read from the
environment only and never printed or written: each arm's key, the spec's keys and the
server's env and header values whose names look secret are hidden as *** (raw, JSON-escaped,
URL-encoded, base64) in every file, on stdout and stderr; after each run the text files in
its \${TOOLSCORE_RUN_DIR} are redacted in place and a binary one holding a secret is deleted.

Permissions: --allow-read (spec, contracts, output),
--allow-write=RUNS.jsonl,RUNS.spend.jsonl,RUNS.jsonl.lock,DIR (and the output's folder for
--restart),
--allow-env=KEY,… (the arms' keys, plus PATH, HOME… for the server), --allow-net=HOST,…
(the providers and a url server), --allow-run (a stdio server; unscoped so that
its process group can be stopped).

Exit codes: 0 every run has a row with status ok; ${EXIT_INCOMPLETE} the matrix is incomplete (error rows
— rerun with --retry-errors —, stopped rows or runs not started); 1 --dry-run: a doctor check
failed; 2 usage or input error (a spec changed under the rows already written, another
agent run writing FILE); 130/143 stopped by SIGINT/SIGTERM (rerun to finish).

Examples:
  toolscore agent run agent.yaml -o runs.jsonl --concurrency 4
  toolscore agent run agent.yaml -o shard-1.jsonl --shard 1/4
  toolscore agent run agent.yaml --plan-out plan.jsonl
  toolscore agent run agent.yaml --runs part-1.jsonl -o part-1.jsonl
  toolscore agent run agent.yaml -o runs.jsonl --dry-run
`;

function usd(value: number): string {
  return `$${value < 0.01 && value > 0 ? value.toPrecision(2) : value.toFixed(2)}`;
}

/** The plan `--dry-run` shows: the matrix and the estimated cost per arm and in total. */
interface Plan {
  arms: number;
  tasks: number;
  repeats: number;
  runs: number;
  shard: string | null;
  shard_runs: number;
  estimate_per_run: { input_tokens: number; output_tokens: number; source: string };
  per_arm: {
    arm_id: string;
    provider: string;
    model: string;
    runs: number;
    usd: number | null;
    reserve_per_call: {
      output_tokens: number;
      output_usd: number | null;
      input_usd_per_1000_bytes: number | null;
    };
  }[];
  total_usd: number;
  unpriced_arms: string[];
  budget_usd: number | null;
  shard_budget_usd: number | null;
}

function planOf(spec: AgentSpec, shard: Shard | undefined): Plan {
  const runs = planRuns(spec, shard);
  const tokens = runEstimateTokens(spec);
  const perArm = spec.arms.map((arm) => {
    const count = runs.filter((run) => run.arm.id === arm.id).length;
    const each = runEstimateUsd(spec, arm);
    // The worst case reserved before each call: max_tokens of output, plus the request's
    // bytes / 3 of input (known only when the request is built).
    const output = callReservation(spec, arm, 0);
    const perKb = callReservation(spec, arm, 3000);
    return {
      arm_id: arm.id,
      provider: arm.provider,
      model: arm.model,
      runs: count,
      usd: each === null ? null : each * count,
      reserve_per_call: {
        output_tokens: output.outputTokens,
        output_usd: output.usd,
        input_usd_per_1000_bytes: perKb.usd === null || output.usd === null
          ? null
          : (perKb.usd - output.usd) / 3,
      },
    };
  });
  return {
    arms: spec.arms.length,
    tasks: spec.tasks.length,
    repeats: spec.repeats,
    runs: planRuns(spec).length,
    shard: shard ? `${shard.k}/${shard.n}` : null,
    shard_runs: runs.length,
    estimate_per_run: {
      input_tokens: tokens.inputTokens,
      output_tokens: tokens.outputTokens,
      source: spec.budget.estimatePerRun ? "budget.estimate_per_run" : "default",
    },
    per_arm: perArm,
    total_usd: perArm.reduce((sum, arm) => sum + (arm.usd ?? 0), 0),
    unpriced_arms: perArm.filter((arm) => arm.usd === null).map((arm) => arm.arm_id),
    budget_usd: spec.budget.maxUsd,
    shard_budget_usd: shard === undefined ? null : spec.budget.perShardUsd ??
      (spec.budget.maxUsd === null ? null : spec.budget.maxUsd / shard.n),
  };
}

function reserveText(reserve: Plan["per_arm"][number]["reserve_per_call"]): string {
  if (reserve.output_usd === null || reserve.input_usd_per_1000_bytes === null) return "";
  return `; reserved before each call: ${usd(reserve.output_usd)} (${
    reserve.output_tokens.toLocaleString("en-US")
  } output tokens) + ${usd(reserve.input_usd_per_1000_bytes)} per 1,000 request bytes`;
}

function planText(plan: Plan): string {
  const lines = [
    `plan: ${plan.arms} arm(s) × ${plan.tasks} task(s) × ${plan.repeats} repeat(s)` +
    ` = ${plan.runs} runs${plan.shard ? `; shard ${plan.shard}: ${plan.shard_runs}` : ""}`,
    `estimate per run: ${plan.estimate_per_run.input_tokens.toLocaleString("en-US")} input + ${
      plan.estimate_per_run.output_tokens.toLocaleString("en-US")
    } output tokens (${plan.estimate_per_run.source})`,
    ...plan.per_arm.map((arm) =>
      `  ${arm.arm_id} (${arm.provider} ${arm.model}): ${arm.runs} runs, ${
        arm.usd === null ? "cost unknown (no price)" : `~${usd(arm.usd)}`
      }${reserveText(arm.reserve_per_call)}`
    ),
    `estimated total: ~${usd(plan.total_usd)}${
      plan.unpriced_arms.length > 0 ? " plus the unpriced arms" : ""
    }`,
  ];
  if (plan.budget_usd !== null) {
    lines.push(
      `budget: ${usd(plan.budget_usd)}${
        plan.shard_budget_usd !== null && plan.shard !== null
          ? `; this shard's cap: ${usd(plan.shard_budget_usd)}`
          : ""
      } (less what the spend ledger RUNS.spend.jsonl holds)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

// Ctrl-C and SIGTERM abort the matrix (which stops the servers of the runs in flight).
function listenForStop(controller: AbortController): { signal: () => string | null; done(): void } {
  let received: string | null = null;
  const added: [Deno.Signal, () => void][] = [];
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const name of signals) {
    const handler = () => {
      if (received !== null) return;
      received = name;
      controller.abort();
      void closeAllTransports();
    };
    try {
      Deno.addSignalListener(name, handler);
      added.push([name, handler]);
    } catch {
      // Not supported here: the default (exit) applies.
    }
  }
  return {
    signal: () => received,
    done: () => added.forEach(([name, handler]) => Deno.removeSignalListener(name, handler)),
  };
}

function summaryText(summary: MatrixSummary, output: string): string {
  const lines = [
    `${summary.runs} run(s) written to ${output} (${summary.errors} error(s)), ${summary.skipped} already there; spent ${
      usd(summary.spendUsd)
    }${summary.unknownCost > 0 ? ` + ${summary.unknownCost} run(s) of unknown cost` : ""}`,
  ];
  pushAll(lines, notStartedLines(summary.notStarted));
  lines.push(budgetLine(summary));
  return `${lines.join("\n")}\n`;
}

// The last line: the spend against the budget, what the budget stopped, the complete cells.
function budgetLine(summary: MatrixSummary): string {
  const total = summary.budgetUsd === null
    ? `${usd(summary.spendTotalUsd)} in all (no budget)`
    : `${usd(summary.spendTotalUsd)} of the ${usd(summary.budgetUsd)} budget in all`;
  return `budget: ${usd(summary.spendUsd)} spent now, ${total}; ${summary.stopped} run(s) ` +
    `stopped, ${summary.notStarted.length} not started; ${summary.completeCells} of ` +
    `${summary.cells} cell(s) complete`;
}

async function agentRun(args: string[], terminal: CliIO): Promise<number> {
  const resume = resumeCommand(args);
  const flags = parseFlags("agent run", args, AGENT_RUN_FLAGS);
  const [specPath, ...extra] = flags.positionals;
  if (specPath === undefined) {
    throw new UsageError("agent run needs SPEC; see toolscore agent --help");
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  const shard = shardOf(flags);
  const planOut = planOutOf(flags);
  if (planOut !== undefined) {
    return await writePlan(
      await loadAgentSpec(specPath),
      planOut,
      shard,
      flags.values.json === true,
      terminal,
    );
  }
  const output = stringFlag(flags, "output");
  if (output === undefined) {
    throw new UsageError("agent run needs -o RUNS.jsonl (where the rows go)");
  }
  const concurrency = numberFlag(flags, "concurrency", [1, 256]);
  if (concurrency !== undefined && !Number.isInteger(concurrency)) {
    throw new UsageError(`--concurrency ${concurrency}: expected a whole number`);
  }
  const maxFailures = numberFlag(flags, "max-provider-failures", [1, 1_000_000]);
  if (maxFailures !== undefined && !Number.isInteger(maxFailures)) {
    throw new UsageError(`--max-provider-failures ${maxFailures}: expected a whole number`);
  }
  const spec = await loadAgentSpec(specPath);
  // Issue 31: every secret of the spec, in every form, is hidden in all it prints.
  const redactor = specRedactor(spec, readEnv);
  try {
    return await agentRunSpec(flags, redactedIO(terminal, redactor), {
      specPath,
      spec,
      output,
      concurrency,
      shard,
      maxFailures,
      resume,
    });
  } catch (error) {
    throw redactedError(error, redactor);
  }
}

async function agentRunSpec(
  flags: ParsedFlags,
  io: CliIO,
  { specPath, spec, output, concurrency, shard, maxFailures, resume }: {
    specPath: string;
    resume: string;
    spec: AgentSpec;
    output: string;
    concurrency: number | undefined;
    shard: Shard | undefined;
    maxFailures: number | undefined;
  },
): Promise<number> {
  const part = await partOf(flags, shard, spec);
  const outDir = stringFlag(flags, "out-dir") ?? defaultOutDir(output);

  if (flags.values["dry-run"] === true) {
    const plan = planOf(spec, shard);
    const report = doctorReport(
      await runDoctor({
        specPath,
        allowUnknownPrice: flags.values["allow-unknown-price"] === true,
      }),
    );
    if (flags.values.json === true) {
      io.stdout(`${JSON.stringify({ plan, output, out_dir: outDir, doctor: report }, null, 2)}\n`);
    } else {
      io.stdout(planText(plan));
      io.stdout(`rows: ${output}; traces and receipts: ${outDir}/\n\n`);
      io.stdout(formatDoctorReport(report, { color: io.color }));
    }
    return report.worst === "fail" ? EXIT.gate : EXIT.ok;
  }

  // Both outputs' folders and write access, before any model is called (issue 32).
  await readyAppendFile(output, "-o");
  await readyOutputFolder(outDir, "--out-dir");
  // Held until the matrix ends: a second agent run on this output stops here, before any call.
  const lock = await lockOutput(output);
  try {
    if (flags.values.restart === true) {
      for (const [from, to] of await restartOutput(output, outDir, new Date())) {
        io.stderr(`restart: moved ${from} to ${to}\n`);
      }
    }
    return await runLocked(flags, io, {
      spec,
      output,
      outDir,
      concurrency,
      shard,
      part,
      maxFailures,
      resume,
    });
  } finally {
    lock.release();
  }
}

async function runLocked(
  flags: ParsedFlags,
  io: CliIO,
  { spec, output, outDir, concurrency, shard, part, maxFailures, resume }: {
    resume: string;
    spec: AgentSpec;
    output: string;
    outDir: string;
    concurrency: number | undefined;
    shard: Shard | undefined;
    part?: Map<string, string>;
    maxFailures: number | undefined;
  },
): Promise<number> {
  const controller = new AbortController();
  const stop = listenForStop(controller);
  const screen = agentConsole(io, { arms: spec.arms.map((arm) => arm.id) });
  let summary: MatrixSummary;
  try {
    summary = await runMatrix({
      spec,
      output,
      outDir,
      concurrency,
      shard,
      part,
      retryErrors: flags.values["retry-errors"] === true,
      allowUnknownPrice: flags.values["allow-unknown-price"] === true,
      maxProviderFailures: maxFailures,
      readEnv,
      signal: controller.signal,
      onEvent: (event) => screen.onEvent(event),
    });
  } finally {
    screen.close();
    stop.done();
    await closeAllTransports();
  }
  const received = stop.signal();
  if (flags.values.json === true) io.stdout(`${JSON.stringify(summaryJson(summary))}\n`);
  else io.stdout(screen.table() + summaryText(summary, output));
  if (received !== null) {
    io.stderr(
      `stopped by ${received}: the runs in flight were not written; ${summary.notStarted.length} ` +
        `run(s) not started; to finish, run:\n  ${resume}\n`,
    );
    return received === "SIGTERM" ? 143 : 130;
  }
  const incomplete = summary.errors + summary.stopped + summary.notStarted.length +
    summary.skippedErrors;
  return incomplete > 0 ? EXIT_INCOMPLETE : EXIT.ok;
}

/** `toolscore agent`. */
export const agentCommand: Command = {
  name: "agent",
  summary: "agent run: run models against an MCP server, score every run, write JSONL rows",
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const [sub, ...rest] = args;
    if (sub === "run") return await agentRun(rest, io);
    throw new UsageError(
      sub === undefined
        ? "agent needs a subcommand: agent run SPEC -o RUNS.jsonl"
        : `unknown subcommand agent ${sub}; the subcommand is run`,
    );
  },
};
