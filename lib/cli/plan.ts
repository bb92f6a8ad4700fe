/**
 * `toolscore plan --rate P --difference D [RUNS.jsonl…]`: how many runs per
 * variant a comparison needs before spending money on it, and, given runs
 * already made, how clustering by task changes that, how many more each
 * variant needs and what they would cost.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { UsageError } from "../base/errors.ts";
import { compareRuns } from "../stats/compare.ts";
import { formatMetricValue, formatPassRate } from "../stats/format.ts";
import { formatStatsTable } from "../report/stats_console.ts";
import { cohensH, runsNeeded } from "../stats/runs_needed.ts";
import type { VariantStats } from "../stats/variant_stats.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  listFlag,
  numberFlag,
  parseFlags,
} from "./command.ts";
import { errorsFlag, readRuns, RUN_FLAGS, RUN_FLAGS_HELP } from "./compare.ts";

const FLAGS: FlagSpec = {
  ...RUN_FLAGS,
  rate: { type: "string" },
  difference: { type: "string" },
  alpha: { type: "string" },
  power: { type: "string" },
  errors: { type: "string" },
};

interface VariantPlan {
  variant: string;
  n: number;
  tasks: number;
  passRate: number | null;
  designEffect: number | null;
  runsNeeded: number | null;
  tasksNeeded: number | null;
  moreRuns: number | null;
  meanCost: number | null;
  costKnown: number;
  estimatedCost: number | null;
}

function planOf(
  stats: VariantStats,
  p1: number,
  p2: number,
  settings: { alpha: number; power: number },
): VariantPlan {
  const needed = stats.designEffect === null
    ? null
    : runsNeeded(p1, p2, { ...settings, designEffect: stats.designEffect });
  const more = needed === null ? null : Math.max(0, needed - stats.n);
  // generalize: tasks — the same runs, as tasks at the variant's runs per task.
  const tasksNeeded = needed === null || stats.tasks === 0
    ? null
    : Math.ceil(needed / (stats.n / stats.tasks) - 1e-9);
  return {
    variant: stats.variant,
    n: stats.n,
    tasks: stats.tasks,
    passRate: stats.passRate,
    designEffect: stats.designEffect,
    runsNeeded: needed,
    tasksNeeded,
    moreRuns: more,
    meanCost: stats.cost,
    costKnown: stats.costKnown,
    estimatedCost: more === null || stats.cost === null ? null : more * stats.cost,
  };
}

function requiredNumber(value: number | undefined, flag: string): number {
  if (value === undefined) {
    throw new UsageError(`give ${flag}; see toolscore plan --help`);
  }
  return value;
}

/** `toolscore plan`. */
export const planCommand: Command = {
  name: "plan",
  summary: "runs needed per variant to detect a difference in pass rate, and what they cost",
  help: `toolscore plan --rate P --difference D [--alpha A] [--power W] [RUNS.jsonl…]

How many runs per variant are needed to tell a pass rate of P from P + D
with a two-sided test at level A with probability W (Cohen's h and the
normal power equation solved exactly, both tails; statsmodels'
NormalIndPower gives the same numbers). This assumes independent runs and
an unpaired comparison; runs paired by task and repeat usually need fewer.
That number answers generalize: runs (a verdict about these tasks); the
runs after the design effect, and the tasks they make at the variant's runs
per task, answer generalize: tasks (a verdict about tasks like these).

Given runs already made, it also prints each variant's design effect (deff:
how much clustering by task inflates the variance; runs of one task are
alike), the runs it needs after that (ceil(n × deff)), how many more it
needs, and what they would cost at the variant's mean cost per run (unknown
when no run has a cost, or deff is unknown: fewer than two tasks, or a pass
rate of 0 or 1).

Options:
  --rate P                 the pass rate now, 0 to 1
  --difference D           the change to detect (P + D within 0 and 1; negative: --difference=-0.05)
  --alpha A                two-sided significance level (default 0.05)
  --power W                chance of detecting a real difference (default 0.8)
  --errors E               fail or exclude: error runs count as not passing (default) or are left out
  --json                   print the plan as one JSON document

${RUN_FLAGS_HELP}

Exit codes: 0 ok, 2 usage or input error.

Examples:
  toolscore plan --rate 0.7 --difference 0.1
  toolscore plan --rate 0.7 --difference 0.1 --power 0.9 runs.jsonl
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("plan", args, FLAGS);
    const p1 = requiredNumber(numberFlag(flags, "rate", [0, 1]), "--rate P");
    const difference = requiredNumber(numberFlag(flags, "difference", [-1, 1]), "--difference D");
    const p2 = p1 + difference;
    if (difference === 0) throw new UsageError("--difference 0: nothing to detect; give D ≠ 0");
    if (p2 < -1e-12 || p2 > 1 + 1e-12) {
      throw new UsageError(
        `--rate ${p1} --difference ${difference}: P + D = ${p2} is outside 0 to 1`,
      );
    }
    const target = Math.min(1, Math.max(0, p2));
    const alpha = numberFlag(flags, "alpha", [0, 1]) ?? 0.05;
    if (alpha === 0 || alpha === 1) {
      throw new UsageError(`--alpha ${alpha}: expected 0 < alpha < 1`);
    }
    const power = numberFlag(flags, "power", [0, 1]) ?? 0.8;
    if (!(power > alpha && power < 1)) {
      throw new UsageError(`--power ${power}: expected alpha < power < 1`);
    }
    const settings = { alpha, power };
    const independent = runsNeeded(p1, target, settings);
    const h = cohensH(p1, target);
    const given = flags.positionals.length > 0 || listFlag(flags, "traces").length > 0;
    const errors = errorsFlag(flags);
    const plans = given
      ? compareRuns(await readRuns("plan", flags, flags.positionals, io), { errors }).variants.map((
        stats,
      ) => planOf(stats, p1, target, settings))
      : [];
    const costs = plans.map((plan) => plan.estimatedCost);
    const total = plans.length === 0 || costs.some((cost) => cost === null)
      ? null
      : costs.reduce((sum: number, cost) => sum + cost!, 0);

    if (flags.values.json === true) {
      io.stdout(`${
        JSON.stringify(
          {
            rate: p1,
            difference,
            target_rate: target,
            alpha,
            power,
            cohens_h: h,
            runs_needed: independent,
            errors: errors ?? "fail",
            variants: plans.map((plan) => ({
              variant: plan.variant,
              n: plan.n,
              tasks: plan.tasks,
              pass_rate: plan.passRate,
              design_effect: plan.designEffect,
              runs_needed: plan.runsNeeded,
              runs_needed_by_generalize: { runs: independent, tasks: plan.runsNeeded },
              tasks_needed: plan.tasksNeeded,
              more_runs: plan.moreRuns,
              mean_cost: plan.meanCost,
              cost_known: plan.costKnown,
              estimated_cost: plan.estimatedCost,
            })),
            estimated_cost_total: total,
          },
          null,
          2,
        )
      }\n`);
      return EXIT.ok;
    }
    const lines = [
      `Runs needed per variant to tell a pass rate of ${formatPassRate(p1)} from ${
        formatPassRate(target)
      }: ${independent}`,
      `  (two-sided alpha = ${alpha}, power = ${power}, Cohen's h = ${
        h.toFixed(3)
      }; independent runs)`,
      "",
    ];
    if (plans.length > 0) {
      const table = formatStatsTable(
        [
          "variant",
          "runs",
          "tasks",
          "pass rate",
          "deff",
          "runs needed",
          "tasks needed",
          "more runs",
          "mean cost",
          "cost of more runs",
        ],
        plans.map((plan) => [
          plan.variant,
          String(plan.n),
          String(plan.tasks),
          formatPassRate(plan.passRate),
          plan.designEffect === null ? "unknown" : plan.designEffect.toFixed(2),
          plan.runsNeeded === null ? "unknown" : String(plan.runsNeeded),
          plan.tasksNeeded === null ? "unknown" : String(plan.tasksNeeded),
          plan.moreRuns === null ? "unknown" : String(plan.moreRuns),
          formatMetricValue("cost", plan.meanCost),
          formatMetricValue("cost", plan.estimatedCost),
        ]),
        [1, 2, 4, 5, 6, 7],
      );
      lines.push(
        `Given the runs (generalize: tasks; runs needed = ceil(n × deff), deff from clustering by task; generalize: runs needs ${independent}):`,
      );
      pushAll(lines, table);
      lines.push("");
      lines.push(`Estimated cost of the more runs: ${formatMetricValue("cost", total)}`);
      const unknown = plans.filter((plan) => plan.designEffect === null);
      for (const plan of unknown) {
        lines.push(
          `  - ${plan.variant}: design effect unknown (${
            plan.tasks < 2 ? `${plan.tasks} task; needs two or more` : "pass rate of 0 or 1"
          }), so its runs needed are unknown`,
        );
      }
      for (const plan of plans.filter((p) => p.designEffect !== null && p.designEffect < 1)) {
        lines.push(
          `  - ${plan.variant}: deff ${
            plan.designEffect!.toFixed(2)
          } < 1 over ${plan.tasks} tasks is more likely noise than runs that help each other; with deff 1 it needs ${independent}`,
        );
      }
      for (const plan of plans.filter((p) => p.meanCost === null)) {
        lines.push(`  - ${plan.variant}: no run has a cost, so its cost is unknown`);
      }
      lines.push("");
    }
    io.stdout(lines.join("\n"));
    return EXIT.ok;
  },
};
