/**
 * `toolscore eval GOLD TRACE…`: score traces against a gold file or a
 * contract, print the report, and gate.
 *
 * The bar of a trace is, first found: `--min-score` / `--fail-under`, the
 * contract's `min_score`, else 0.9 for reporting only. `passed` = score ≥ bar
 * − 1e-9 and no error-severity honesty finding. The command exits 1 when any
 * trace fails a bar that was set explicitly, or with `--fail-on-violations`
 * on a forbidden call or a credential; with no explicit bar it reports and
 * exits 0.
 *
 * @module
 */

import type { FormatName } from "../calls.ts";
import { InputError, UsageError } from "../errors.ts";
import { type EvaluateOptions, type EvaluationResult } from "../evaluate.ts";
import { evaluationEvidence, type Evidence } from "../evidence.ts";
import { evaluateExpected, type Expected, expectedMinScore, loadExpected } from "../expected.ts";
import { loadForbidden } from "../forbidden.ts";
import { parseFormatName } from "../formats/detect.ts";
import { type HonestyConfig, loadHonestyConfig, loadInjectedFaults } from "../honesty.ts";
import { readTextFile } from "../load.ts";
import { formatResult, formatSummary } from "../report/console.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  listFlag,
  numberFlag,
  parseFlags,
  stringFlag,
} from "./command.ts";
import { parseFailUnder, parseWeightFlags } from "./gate_flags.ts";
import { type NamedTrace, readTraceArguments } from "./inputs.ts";

const FLAGS = {
  format: { type: "string" },
  strict: { type: "boolean" },
  weight: { type: "string", multiple: true },
  forbidden: { type: "string" },
  honesty: { type: "string" },
  injected: { type: "string" },
  "final-answer": { type: "string" },
  "final-answer-file": { type: "string" },
  "min-score": { type: "string" },
  "fail-under": { type: "string" },
  "fail-on-violations": { type: "boolean" },
  receipt: { type: "boolean" },
  "receipt-out": { type: "string" },
  "receipt-dir": { type: "string" },
  json: { type: "boolean" },
  verbose: { type: "boolean", short: "v" },
} as const;

const HELP = `toolscore eval GOLD TRACE… — score traces against a gold file or a contract

GOLD is a gold file (a list of expected calls) or a contract (JSON, JSONC or YAML).
TRACE is a trace file in any supported format, a directory (its *.json and *.jsonl
files, sorted), or - for standard input. A JSONL file of several traces is scored
line by line.

Options:
  --format F               trace format: auto (default), toolscore, openai, openai-responses,
                           anthropic, gemini, mcp, langchain, otel, custom
  --strict                 compare argument values exactly (same type, no trimming)
  --weight NAME=VALUE      score weight (repeatable): selection_accuracy, argument_f1,
                           sequence_accuracy, redundant_rate, required_call_recall
  --min-score S            fail a trace under S (0..1)
  --fail-under A-F|0.x     the same, as a grade or a number
  --forbidden FILE         forbidden-call rules (a list of {tool, args?, reason?})
  --fail-on-violations     exit 1 on a forbidden call or a credential in arguments
  --honesty FILE           honesty-check patterns (JSON or YAML) over the defaults
  --injected FILE          faults injected into tool results, for the disclosure check
  --final-answer TEXT      the agent's final answer, when the trace lacks it
  --final-answer-file F    the same, read from a file
  --receipt                write TRACE.receipt.json beside each trace
  --receipt-out PATH       write the receipt here (one trace)
  --receipt-dir DIR        write receipts into DIR (several traces)
  --json                   print one JSON document on stdout, nothing else
  -v, --verbose            every metric and every issue

Exit codes: 0 ok (or no explicit bar), 1 a trace failed its bar or --fail-on-violations
found a violation, 2 usage or input error.

Examples:
  toolscore eval gold.json trace.json
  toolscore eval contract.yaml runs/ --fail-under B
  toolscore eval gold.json openai_chat.json --format openai --json
  cat trace.json | toolscore eval gold.json - --min-score 0.8
`;

interface Scored {
  named: NamedTrace;
  result: EvaluationResult;
  evidence: Evidence;
  passed: boolean;
  violations: number;
}

async function finalAnswerOf(
  text: string | undefined,
  file: string | undefined,
): Promise<string | undefined> {
  if (text !== undefined && file !== undefined) {
    throw new UsageError("give --final-answer or --final-answer-file, not both");
  }
  if (file !== undefined) return await readTextFile(file);
  return text;
}

async function honestyOf(
  honestyPath: string | undefined,
  injectedPath: string | undefined,
): Promise<HonestyConfig | undefined> {
  if (honestyPath === undefined && injectedPath === undefined) return undefined;
  const config = honestyPath !== undefined ? await loadHonestyConfig(honestyPath) : undefined;
  if (injectedPath === undefined) return config;
  const { DEFAULT_HONESTY } = await import("../honesty.ts");
  return { ...(config ?? DEFAULT_HONESTY), injected: await loadInjectedFaults(injectedPath) };
}

function resultJson(scored: Scored, bar: number): Record<string, unknown> {
  return {
    ...scored.result.toJSON(),
    passed: scored.passed,
    min_score: bar,
    evidence: scored.evidence,
  };
}

/** The settings that changed the result, as receipts record them. */
export interface EvalSettings {
  /** The trace format asked for. */
  format: "auto" | FormatName;
  /** Strict comparison. */
  strict: boolean;
  /** The weights given on the command line, if any. */
  weights?: Record<string, number>;
}

/** Everything an evaluation used, for receipts. */
export interface EvalRun {
  /** The gold file or contract path. */
  goldPath: string;
  /** The gold file or contract. */
  expected: Expected;
  /** The options evaluate ran with. */
  options: EvaluateOptions;
  /** Optional input files by role. */
  inputs: { forbidden?: string; honesty_config?: string; injected?: string };
  /** Settings that changed the result. */
  settings: EvalSettings;
  /** The bar. */
  bar: number;
}

/** `toolscore eval`. */
export const evalCommand: Command = {
  name: "eval",
  summary: "score traces against a gold file or contract",
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("eval", args, FLAGS);
    const [goldPath, ...tracePaths] = flags.positionals;
    if (goldPath === undefined || tracePaths.length === 0) {
      throw new UsageError("eval needs GOLD and at least one TRACE; see toolscore eval --help");
    }
    const format = parseFormatName(stringFlag(flags, "format") ?? "auto");
    const weights = parseWeightFlags(listFlag(flags, "weight"));
    const minScore = numberFlag(flags, "min-score", [0, 1]);
    const failUnder = stringFlag(flags, "fail-under");
    if (minScore !== undefined && failUnder !== undefined) {
      throw new UsageError("give --min-score or --fail-under, not both");
    }
    const flagBar = minScore ?? (failUnder !== undefined ? parseFailUnder(failUnder) : undefined);
    const receiptOut = stringFlag(flags, "receipt-out");
    if (receiptOut !== undefined && tracePaths.length > 1) {
      throw new UsageError("--receipt-out takes one trace; use --receipt-dir for several");
    }

    const expected = await loadExpected(goldPath);
    const contractBar = expectedMinScore(expected);
    const bar = flagBar ?? contractBar ?? 0.9;
    const gated = flagBar !== undefined || contractBar !== undefined;
    const forbiddenPath = stringFlag(flags, "forbidden");
    const forbidden = forbiddenPath !== undefined ? await loadForbidden(forbiddenPath) : undefined;
    const honestyPath = stringFlag(flags, "honesty");
    const injectedPath = stringFlag(flags, "injected");
    const honesty = await honestyOf(honestyPath, injectedPath);
    const finalAnswer = await finalAnswerOf(
      stringFlag(flags, "final-answer"),
      stringFlag(flags, "final-answer-file"),
    );
    const traces = await readTraceArguments(tracePaths, io, format);
    if (finalAnswer !== undefined && traces.length > 1) {
      throw new UsageError("--final-answer applies to one trace; this run has several");
    }
    if (receiptOut !== undefined && traces.length > 1) {
      throw new UsageError("--receipt-out takes one trace; use --receipt-dir for several");
    }
    const options: EvaluateOptions = {
      weights,
      strict: flags.values.strict === true,
      forbidden,
      honesty,
      finalAnswer,
      format,
    };
    const run: EvalRun = {
      goldPath,
      expected,
      options,
      inputs: { forbidden: forbiddenPath, honesty_config: honestyPath, injected: injectedPath },
      settings: { format, strict: options.strict ?? false, weights },
      bar,
    };

    const scoredList: Scored[] = traces.map((named) => {
      const result = evaluateExpected(expected, named.trace, options);
      const evidence = evaluationEvidence(result);
      const violations =
        ((result.metrics.policy_metrics as { violation_count?: number } | undefined)
          ?.violation_count ?? 0) +
        ((result.metrics.security_metrics as { secret_count?: number } | undefined)
          ?.secret_count ?? 0);
      return { named, result, evidence, passed: result.passed(bar), violations };
    });

    await writeReceipts(run, scoredList, flags.values, io);

    if (flags.values.json === true) {
      const docs = scoredList.map((s) => resultJson(s, bar));
      const passed = scoredList.filter((s) => s.passed).length;
      const document = scoredList.length === 1 && tracePaths.length === 1 &&
          !traces[0]!.name.endsWith("]")
        ? docs[0]
        : {
          results: docs.map((doc, i) => ({ trace: scoredList[i]!.named.name, ...doc })),
          summary: {
            count: docs.length,
            passed,
            failed: docs.length - passed,
            mean_score: scoredList.reduce((s, x) => s + x.result.score, 0) / docs.length,
          },
        };
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    } else {
      const chunks: string[] = [];
      for (const scored of scoredList) {
        chunks.push(
          formatResult(scored.named.name, scored.result, scored.evidence, {
            bar,
            gated,
            verbose: flags.values.verbose === true,
            color: io.color,
          }).join("\n"),
        );
        if (chunks.length >= 200) io.stdout(`${chunks.splice(0).join("\n\n")}\n\n`);
      }
      if (chunks.length > 0) io.stdout(`${chunks.join("\n\n")}\n`);
      if (scoredList.length > 1) {
        io.stdout(
          `\n${
            formatSummary(
              scoredList.map((s) => ({ name: s.named.name, result: s.result, passed: s.passed })),
              io.color,
            ).join("\n")
          }\n`,
        );
      }
    }

    const failedGate = gated && scoredList.some((s) => !s.passed);
    const failedViolations = flags.values["fail-on-violations"] === true &&
      scoredList.some((s) => s.violations > 0);
    return failedGate || failedViolations ? EXIT.gate : EXIT.ok;
  },
};

// Receipts are written by the receipts module once it lands (issue 6); until then the flags
// are refused rather than silently ignored.
function writeReceipts(
  _run: EvalRun,
  _scored: Scored[],
  values: Record<string, unknown>,
  _io: CliIO,
): Promise<void> {
  if (
    values.receipt === true || values["receipt-out"] !== undefined ||
    values["receipt-dir"] !== undefined
  ) {
    throw new InputError("receipts are not available in this build");
  }
  return Promise.resolve();
}
