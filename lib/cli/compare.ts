/**
 * `toolscore compare RUNS.jsonl…`: statistics over repeated runs — a table
 * per variant and the pair verdicts. Also the run loading and flags that
 * `select` and `decide` share.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { comparisonHtml } from "../report/html/compare.ts";
import { compareMarkdown } from "../report/markdown_stats.ts";
import { REPORT_FLAGS, reportFlagsHelp, reportTargets, writeReports } from "./report_flags.ts";
import { compareRuns, type CompareRunsOptions } from "../stats/compare.ts";
import { ADJUST_METHODS, type AdjustMethod } from "../stats/adjust.ts";
import {
  COMPARE_TESTS,
  type CompareTest,
  type Comparison,
  ERRORS_MODES,
  type ErrorsMode,
} from "../stats/comparison.ts";
import { strayNote } from "./inputs.ts";
import { readyReports } from "./output_ready.ts";
import { formatComparison } from "../report/stats_console.ts";
import { loadRuns, type Run } from "../stats/runs.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  listFlag,
  numberFlag,
  type ParsedFlags,
  parseFlags,
  stringFlag,
} from "./command.ts";

/** The flags that read runs, shared by `compare`, `select` and `decide`. */
export const RUN_FLAGS: FlagSpec = {
  "variant-key": { type: "string" },
  traces: { type: "string", multiple: true },
  gold: { type: "string" },
  "min-score": { type: "string" },
  "task-pattern": { type: "string" },
  json: { type: "boolean" },
};

/** The flags that shape a comparison, shared by `compare` and `select`. */
export const COMPARISON_FLAGS: FlagSpec = {
  k: { type: "string", short: "k" },
  baseline: { type: "string" },
  "all-pairs": { type: "boolean" },
  "min-n": { type: "string" },
  alpha: { type: "string" },
  adjust: { type: "string" },
  errors: { type: "string" },
};

/**
 * The `--errors fail | exclude` flag (shared by `compare`, `select` and `plan`).
 *
 * @param flags Parsed flags.
 * @returns The mode, or `undefined` when not given.
 * @throws {UsageError} On another value.
 */
export function errorsFlag(flags: ParsedFlags): ErrorsMode | undefined {
  const errors = stringFlag(flags, "errors");
  if (errors !== undefined && !(ERRORS_MODES as readonly string[]).includes(errors)) {
    throw new UsageError(`--errors ${errors}: expected ${ERRORS_MODES.join(" or ")}`);
  }
  return errors as ErrorsMode | undefined;
}

/** The help text of the run-reading flags. */
export const RUN_FLAGS_HELP = `Runs:
  RUNS.jsonl…              toolscore agent run output or exported run records (mixed freely)
  --variant-key K          the row key that names the variant (default: arm_id, variant, arm, model)
  --traces VARIANT=DIR     score every *.json trace in DIR as runs of VARIANT (repeatable; needs --gold)
  --gold G                 the gold file or contract for --traces
  --min-score S            the passing score for --traces (default: the contract's, else 0.9)
  --task-pattern RE        regex with a (?<task>…) group over file stems, and optionally (?<repeat>\\d+)
                           (default ^(?<task>.+?)(?:[-_.]r?(?<repeat>\\d+))?$)`;

function integerFlag(flags: ParsedFlags, name: string, low: number): number | undefined {
  const raw = stringFlag(flags, name);
  if (raw === undefined) return undefined;
  const value = raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isSafeInteger(value) || value < low) {
    const flag = name.length === 1 ? `-${name}` : `--${name}`;
    throw new UsageError(`${flag} ${raw}: expected a whole number >= ${low}`);
  }
  return value;
}

/**
 * The comparison options the flags set (`-k`, `--baseline`, `--min-n`, `--alpha`, `--test`,
 * `--adjust`, `--errors`).
 *
 * @param flags Parsed flags.
 * @returns The options for `compareRuns`.
 * @throws {UsageError} On a value out of range.
 */
export function comparisonOptions(flags: ParsedFlags): CompareRunsOptions {
  const alpha = numberFlag(flags, "alpha", [0, 1]);
  if (alpha === 0 || alpha === 1) throw new UsageError(`--alpha ${alpha}: expected 0 < alpha < 1`);
  const test = stringFlag(flags, "test");
  if (test !== undefined && !(COMPARE_TESTS as readonly string[]).includes(test)) {
    throw new UsageError(`--test ${test}: expected ${COMPARE_TESTS.join(", ")}`);
  }
  const adjust = stringFlag(flags, "adjust");
  if (adjust !== undefined && !(ADJUST_METHODS as readonly string[]).includes(adjust)) {
    throw new UsageError(`--adjust ${adjust}: expected ${ADJUST_METHODS.join(", ")}`);
  }
  return {
    adjust: adjust as AdjustMethod | undefined,
    errors: errorsFlag(flags),
    test: test as CompareTest | undefined,
    k: integerFlag(flags, "k", 1),
    baseline: stringFlag(flags, "baseline"),
    allPairs: flags.values["all-pairs"] === true,
    minN: integerFlag(flags, "min-n", 0),
    alpha,
  };
}

/**
 * Read the runs the positionals and `--traces` name.
 *
 * @param command The command, for messages.
 * @param flags Parsed flags.
 * @param paths The JSONL files.
 * @param io Where to note why a trace became an error run.
 * @returns Every run, JSONL files first, then trace directories in flag order.
 * @throws {UsageError} When there is nothing to read, or `--traces` lacks `--gold`.
 * @throws {InputError} On an unreadable file or a bad line.
 */
export async function readRuns(
  command: string,
  flags: ParsedFlags,
  paths: string[],
  io: Pick<CliIO, "stderr">,
): Promise<Run[]> {
  const traces = listFlag(flags, "traces");
  if (paths.length === 0 && traces.length === 0) {
    throw new UsageError(
      `give RUNS.jsonl files or --traces VARIANT=DIR; see toolscore ${command} --help`,
    );
  }
  let stopped = 0;
  const runs = await loadRuns(paths, {
    variantKey: stringFlag(flags, "variant-key"),
    onStopped: () => stopped++,
    onNote: (text) => io.stderr(`toolscore: note: ${text}\n`),
  });
  if (stopped > 0) {
    io.stderr(
      `toolscore: note: ${stopped} run(s) stopped by the budget (status "stopped") left out ` +
        `of n; run agent run again with a larger budget to run them\n`,
    );
  }
  if (traces.length > 0) {
    const gold = stringFlag(flags, "gold");
    if (gold === undefined) {
      throw new UsageError("--traces needs --gold G (a gold file or contract)");
    }
    const minScore = numberFlag(flags, "min-score", [0, 1]);
    const taskPattern = stringFlag(flags, "task-pattern");
    const { runsFromTraces } = await import("../stats/traces.ts");
    const strays: string[] = [];
    for (const spec of traces) {
      const at = spec.indexOf("=");
      if (at <= 0 || at === spec.length - 1) {
        throw new UsageError(`--traces ${spec}: expected VARIANT=DIR`);
      }
      const found = await runsFromTraces(spec.slice(0, at), spec.slice(at + 1), gold, {
        minScore,
        taskPattern,
        onError: (_path, error) =>
          io.stderr(`toolscore: note: ${error.message}; counted as an error run\n`),
        onStray: (path) => strays.push(path),
      });
      for (const run of found) runs.push(run);
    }
    const note = strayNote(strays);
    if (note !== undefined) io.stderr(note);
  } else if (stringFlag(flags, "gold") !== undefined) {
    throw new UsageError("--gold applies to --traces only");
  }
  return runs;
}

const FLAGS: FlagSpec = {
  ...RUN_FLAGS,
  ...COMPARISON_FLAGS,
  ...REPORT_FLAGS,
  test: { type: "string" },
  quiet: { type: "boolean", short: "q" },
};

// `--quiet`: one line per pair verdict (per variant when there is no pair), nothing else.
function quietComparison(comparison: Comparison): string {
  const lines = comparison.pairs.length > 0
    ? comparison.pairs.map((pair) => pair.verdict)
    : comparison.variants.map((v) => `${v.variant}: ${v.passes}/${v.n} passed`);
  return `${lines.join("\n")}\n`;
}

/** `toolscore compare`. */
export const compareCommand: Command = {
  name: "compare",
  summary: "statistics over repeated runs: pass rates with intervals, pass^k, cost, verdicts",
  help: `toolscore compare RUNS.jsonl… [OPTIONS]
toolscore compare --traces VARIANT=DIR… --gold G [OPTIONS]

Compare variants (models, prompts, configurations) over repeated runs: per
variant the number of runs, the pass rate with its 95% Wilson interval,
pass^k, mean cost and latency over the runs that have one (unknown stays
unknown), the interval clustered by task with its design effect (deff), and a
verdict for each pair. A difference is called only when both variants have at
least --min-n runs and the deciding test says so at --alpha: with --test auto
(the default) a paired test when both variants ran the same tasks (McNemar
when runs match by task and repeat, else the sign-flip test over tasks), else
the pooled Fisher exact test with the Wilson intervals apart. With more than
two variants, each pair's deciding p-value is adjusted over every pair
reported (--adjust). Each pair shows the difference in pass rate with its 95%
interval (Newcombe's), and each variant its flaky tasks (some repeats pass,
some fail).

${RUN_FLAGS_HELP}

Options:
  -k K                     the k of pass^k (default 1)
  --baseline V             compare every variant with V (default: all pairs up to 50 variants,
                           then each with the best observed, and a note says so)
  --all-pairs              compare every pair even past 50 variants (cost grows with the square)
  --min-n N                runs per variant before a difference can be called (default 10)
  --alpha A                significance level of the pair tests (default 0.05)
  --test T                 auto, paired or fisher: how pairs are decided (default auto)
  --adjust M               holm, bh or none: adjust the pairs' p-values when there are more
                           than two variants (default holm; bh controls the false discovery rate)
  --errors E               fail or exclude: an error run counts as not passing (default), or
                           leaves n, pass rates, pass^k and the tests (the errors column counts it)
  --json                   print the comparison as one JSON document
  -q, --quiet              print one line per pair verdict (per variant without pairs)
${reportFlagsHelp("interval bars, pass^k, the cost vs pass-rate Pareto scatter, verdicts")}

Exit codes: 0 ok, 2 usage or input error.

Examples:
  toolscore compare runs.jsonl
  toolscore compare runs.jsonl --baseline mini -k 3 --json
  toolscore compare runs.jsonl --html compare.html --markdown compare.md
  toolscore compare --traces old=traces/old --traces new=traces/new --gold contract.yaml
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("compare", args, FLAGS);
    const options = comparisonOptions(flags);
    if (flags.values.quiet === true && flags.values.json === true) {
      throw new UsageError("give --quiet or --json, not both");
    }
    // The reports' folders and write access, before any run is read (issue 32).
    await readyReports(flags.values, flags.positionals);
    const runs = await readRuns("compare", flags, flags.positionals, io);
    const comparison = compareRuns(runs, options);
    await writeReports(
      reportTargets(flags.values),
      {
        markdown: () => compareMarkdown(comparison),
        html: () => comparisonHtml(comparison),
      },
      io,
      flags.positionals,
    );
    if (flags.values.json === true) {
      io.stdout(`${JSON.stringify(comparison, null, 2)}\n`);
    } else if (flags.values.quiet === true) {
      io.stdout(quietComparison(comparison));
    } else {
      io.stdout(formatComparison(comparison, { color: io.color }));
    }
    return EXIT.ok;
  },
};
