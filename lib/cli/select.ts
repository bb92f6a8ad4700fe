/**
 * `toolscore select RUNS.jsonl…`: pick a variant by a policy over
 * objectives (pass rate, pass^k, interval low, cost, latency).
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { compareRuns } from "../stats/compare.ts";
import type { Comparison } from "../stats/comparison.ts";
import { formatSelection } from "../report/stats_console.ts";
import { selectVariant } from "../stats/select.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  listFlag,
  parseFlags,
  stringFlag,
} from "./command.ts";
import {
  COMPARISON_FLAGS,
  comparisonOptions,
  readRuns,
  RUN_FLAGS,
  RUN_FLAGS_HELP,
} from "./compare.ts";

const FLAGS: FlagSpec = {
  ...RUN_FLAGS,
  ...COMPARISON_FLAGS,
  "exclude-flaky": { type: "boolean" },
  policy: { type: "string" },
  objective: { type: "string", multiple: true },
  weight: { type: "string", multiple: true },
};

function weightsOf(specs: string[]): Record<string, number> | undefined {
  if (specs.length === 0) return undefined;
  const weights: Record<string, number> = {};
  for (const spec of specs) {
    const at = spec.indexOf("=");
    const value = at > 0 ? Number(spec.slice(at + 1)) : NaN;
    if (at <= 0 || spec.slice(at + 1).trim() === "" || !Number.isFinite(value)) {
      throw new UsageError(`--weight ${spec}: expected METRIC=NUMBER, e.g. --weight cost=0.5`);
    }
    weights[spec.slice(0, at)] = value;
  }
  return weights;
}

/** Tasks flaky (some runs pass, some fail) under at least one variant, sorted. */
function flakyTasks(comparison: Comparison): string[] {
  const flaky = new Set<string>();
  for (const stats of comparison.variants) {
    for (const task of stats.taskClasses) if (task.class === "flaky") flaky.add(task.task);
  }
  return [...flaky].sort();
}

// From this many variants on, picking the best observed one overstates it.
const WINNERS_CURSE_FROM = 3;

/** `toolscore select`. */
export const selectCommand: Command = {
  name: "select",
  summary: "pick a variant by policy (lexicographic, weighted, pareto) and objectives",
  help: `toolscore select RUNS.jsonl… [--policy P] [--objective O]… [--weight METRIC=W]… [OPTIONS]

Pick a variant from repeated runs. Objectives, most important first, are
metrics: pass_rate, pass_hat_k, interval_low (the lower 95% Wilson bound) are
maximized; cost and latency minimized; -metric minimizes and +metric maximizes
(join a signed objective with =: --objective=-latency).
Unknown values (a variant without costs, say) count as worst.

Policies:
  lexicographic            best on the first objective, ties broken by the next (default)
  weighted                 each objective scaled to [0, 1] across variants (1 best, unknown 0),
                           weighted (--weight METRIC=W, default 1) and summed; highest wins
  pareto                   the Pareto front; ties on it broken by the first objective, then the next

${RUN_FLAGS_HELP}

Options:
  --policy P               lexicographic, weighted or pareto
  --objective O            an objective (repeatable; default pass_rate then cost)
  --weight METRIC=W        a weight for the weighted policy (repeatable)
  --exclude-flaky          leave out every task flaky (some runs pass, some fail) under any
                           variant, for all variants alike (a note lists them)
  -k K, --baseline V, --all-pairs, --min-n N, --alpha A, --adjust M, --errors E   as for
                           toolscore compare
  --json                   print the selection and the comparison as one JSON document

Exit codes: 0 ok, 2 usage or input error.

Examples:
  toolscore select runs.jsonl --policy pareto --objective pass_rate --objective cost
  toolscore select runs.jsonl --policy weighted --objective pass_rate --objective cost --weight pass_rate=3
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("select", args, FLAGS);
    const options = comparisonOptions(flags);
    const objectives = listFlag(flags, "objective");
    const weights = weightsOf(listFlag(flags, "weight"));
    let runs = await readRuns("select", flags, flags.positionals, io);
    let comparison = compareRuns(runs, options);
    const notes: string[] = [];
    if (flags.values["exclude-flaky"] === true) {
      const flaky = flakyTasks(comparison);
      const left = new Set(flaky);
      runs = runs.filter((run) => !left.has(run.task));
      comparison = compareRuns(runs, options);
      const shown = flaky.slice(0, 10).join(", ") + (flaky.length > 10 ? ", …" : "");
      notes.push(
        flaky.length === 0
          ? "--exclude-flaky: no task is flaky under any variant; nothing left out"
          : `--exclude-flaky: ${flaky.length} task${
            flaky.length === 1 ? "" : "s"
          } flaky under some variant left out for every variant (${shown}); the choice speaks for the stable tasks only`,
      );
    }
    const selection = selectVariant(comparison, {
      policy: stringFlag(flags, "policy"),
      objectives: objectives.length > 0 ? objectives : undefined,
      weights,
    });
    if (selection.chosen !== null && comparison.variants.length >= WINNERS_CURSE_FROM) {
      notes.push(
        `winner's curse: ${selection.chosen} is the best observed of ${comparison.variants.length} variants, so its observed figures likely overstate it; confirm it on fresh runs before quoting them`,
      );
    }
    if (flags.values.json === true) {
      const document = { ...selection.toJSON(), notes, comparison: comparison.toJSON() };
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    } else {
      const text = formatSelection(selection, comparison, { color: io.color });
      io.stdout(
        notes.length === 0
          ? text
          : `${text}Notes:\n${notes.map((note) => `  - ${note}`).join("\n")}\n`,
      );
    }
    return EXIT.ok;
  },
};
