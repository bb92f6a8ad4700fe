/**
 * `toolscore decide PROTOCOL RUNS.jsonl…`: evaluate a protocol declared
 * before the runs; exit 0 adopt, 1 reject, 3 undecided.
 *
 * @module
 */

import { compareRuns } from "../stats/compare.ts";
import { evaluateProtocol } from "../stats/evaluate_protocol.ts";
import { loadProtocol } from "../stats/protocol.ts";
import { formatProtocolResult } from "../report/stats_console.ts";
import { type CliIO, type Command, EXIT, type FlagSpec, parseFlags } from "./command.ts";
import { UsageError } from "../base/errors.ts";
import { readRuns, RUN_FLAGS, RUN_FLAGS_HELP } from "./compare.ts";
import { readyReports } from "./output_ready.ts";
import { decideHtml } from "../report/html/decide.ts";
import { decideJunit } from "../report/junit.ts";
import { suiteWhere } from "./host_name.ts";
import { decideMarkdown } from "../report/markdown_stats.ts";
import {
  JUNIT_REPORT_FLAGS,
  reportFlagsHelp,
  reportTargets,
  writeReports,
} from "./report_flags.ts";

const FLAGS: FlagSpec = { ...RUN_FLAGS, ...JUNIT_REPORT_FLAGS };

const EXIT_OF = { adopt: EXIT.ok, reject: EXIT.gate, undecided: EXIT.undecided } as const;

/** `toolscore decide`. */
export const decideCommand: Command = {
  name: "decide",
  summary: "evaluate a pre-declared decision protocol: adopt, reject or undecided",
  help: `toolscore decide PROTOCOL RUNS.jsonl… [OPTIONS]

Evaluate decision rules declared before the runs (a YAML or JSON protocol):
each rule passes, fails, or is unknown (its metric is unknown, or a variant
has fewer than min_runs runs — unknown is never a pass). The decision is
adopt when every rule passes, reject when any fails, else undecided.
The protocol's sha256 is printed so it can be recorded before the runs.

Protocol keys: protocol_version (1), title, baseline, candidate, alpha (0.05),
min_runs (default 10), k (1), errors (fail or exclude; default fail, as every
protocol_version 1 protocol meant), adjust (holm, bh or none; default none:
the family is the one pre-registered pair), generalize (runs or tasks;
default runs), rules: [{id, metric, expect: candidate_better |
not_worse, tolerance?, test?} or {id, metric, min?, max?}]; test (pass_rate
candidate_better only) is paired, fisher or auto, absent meaning fisher. Metrics: pass_rate,
pass_hat_k, interval_low, cost, latency. tolerance is absolute, in the
metric's units (0.05 = five points of pass rate).

${RUN_FLAGS_HELP}

Options:
  --json                   print the result and the comparison as one JSON document
${
    reportFlagsHelp(
      "the rules, interval bars, pass^k, the Pareto scatter, verdicts",
      "one testcase per rule; an unknown rule is skipped",
    )
  }

Exit codes: 0 adopt, 1 reject, 2 usage or input error, 3 undecided.

Examples:
  toolscore decide protocol.yaml runs.jsonl
  toolscore decide protocol.yaml runs-a.jsonl runs-b.jsonl --json
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const startedAt = Date.now();
    const flags = parseFlags("decide", args, FLAGS);
    const [protocolPath, ...paths] = flags.positionals;
    if (protocolPath === undefined) {
      throw new UsageError(
        "give a PROTOCOL file and RUNS.jsonl files; see toolscore decide --help",
      );
    }
    const protocol = await loadProtocol(protocolPath);
    // The reports' folders and write access, before any run is read (issue 32).
    await readyReports(flags.values, [protocolPath, ...paths]);
    const runs = await readRuns("decide", flags, paths, io);
    // Issue 33: the comparison shown beside the rules decides its pairs with the test of the
    // protocol's pass-rate rule (fisher when the rule names none), so the page cannot say
    // "large beats mini" under a paired test beside a rule's "not shown better" under Fisher.
    const passRule = protocol.rules.find((rule) =>
      rule.metric === "pass_rate" && rule.expect === "candidate_better"
    );
    const comparison = compareRuns(runs, {
      ...(passRule === undefined ? {} : { test: passRule.test ?? "fisher" }),
      k: protocol.k ?? 1,
      alpha: protocol.alpha ?? 0.05,
      minN: protocol.min_runs ?? 10,
      baseline: protocol.baseline,
      errors: protocol.errors ?? "fail",
      adjust: protocol.adjust ?? "none",
      generalize: protocol.generalize ?? "runs",
    });
    const result = evaluateProtocol(protocol, comparison);
    await writeReports(
      reportTargets(flags.values),
      {
        markdown: () => decideMarkdown(result, comparison),
        html: () => decideHtml(result, comparison),
        junit: () => decideJunit(result, suiteWhere(startedAt)),
      },
      io,
      flags.positionals,
    );
    if (flags.values.json === true) {
      const document = { ...result.toJSON(), comparison: comparison.toJSON() };
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    } else {
      io.stdout(formatProtocolResult(result, { color: io.color }));
    }
    return EXIT_OF[result.decision];
  },
};
