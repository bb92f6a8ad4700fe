/**
 * `toolscore select RUNS.jsonl…`: pick a variant by a policy over
 * objectives (pass rate, pass^k, interval low, cost, latency).
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { compareRuns } from "../stats/compare.ts";
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
  -k K, --baseline V, --min-n N, --alpha A, --adjust M, --errors E   as for toolscore compare
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
    const runs = await readRuns("select", flags, flags.positionals, io);
    const comparison = compareRuns(runs, options);
    const selection = selectVariant(comparison, {
      policy: stringFlag(flags, "policy"),
      objectives: objectives.length > 0 ? objectives : undefined,
      weights,
    });
    if (flags.values.json === true) {
      const document = { ...selection.toJSON(), comparison: comparison.toJSON() };
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    } else {
      io.stdout(formatSelection(selection, comparison, { color: io.color }));
    }
    return EXIT.ok;
  },
};
