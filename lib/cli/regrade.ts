/**
 * `toolscore regrade SOURCE…`: rescore saved traces or receipts under a new
 * gold file or contract, weights or rules, without re-running anything.
 * Prints old → new score and the delta per source and writes a new receipt
 * for each (`NAME.regraded.receipt.json`, beside the source or in
 * `--receipt-dir`). A receipt whose inputs changed is refused (exit 1)
 * unless `--no-verify`.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { UsageError } from "../base/errors.ts";
import { parseFormatName } from "../formats/detect.ts";
import { ReceiptMismatchError } from "../receipts/errors.ts";
import { writeReceipt } from "../receipts/io.ts";
import { checkOutput } from "./overwrite.ts";
import { checkReceiptTargets, makeReceiptDir, receiptFileName } from "../receipts/paths.ts";
import { type Regrade, regrade, type RegradeOptions } from "../receipts/regrade.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  type FlagSpec,
  listFlag,
  numberFlag,
  parseFlags,
  stringFlag,
} from "./command.ts";
import { parseWeightFlags, SCORING_FLAGS } from "./gate_flags.ts";
import { finalAnswerOf } from "./honesty_flags.ts";
import { formatNameList } from "../formats/format_table.ts";

const FLAGS: FlagSpec = {
  ...SCORING_FLAGS,
  gold: { type: "string" },
  "no-strict": { type: "boolean" },
  "no-verify": { type: "boolean" },
  root: { type: "string" },
  "allow-outside": { type: "boolean" },
  "receipt-dir": { type: "string" },
};

const HELP = `toolscore regrade SOURCE… — rescore saved traces under a new gold, weights or rules

SOURCE is a receipt (its trace, gold file, format and weights are the defaults) or a
trace file (then --gold is required). Nothing is re-run: the saved trace is scored again.
Each source gets a new receipt, NAME.regraded.receipt.json beside it (or in
--receipt-dir), naming the new inputs and the receipt it was regraded from.

Settings: a flag wins; else a new contract brings its own weights and min_score; else
the receipt's settings apply.

Options:
  --gold G                 the new gold file or contract
  --weight NAME=VALUE      score weight (repeatable)
  --forbidden F            forbidden-call rules
  --format F               the trace format: ${formatNameList({ indent: 27, width: 96, first: 45 })}
  --strict                 compare argument values exactly
  --no-strict              compare leniently, even if the receipt's run was strict
  --honesty F              honesty-check patterns over the defaults
  --injected F             faults injected into tool results
  --final-answer TEXT      the final answer, when the trace lacks it
  --final-answer-file F    the same, read from a file
  --min-score S            the bar for "passed" in the new receipt
  --no-verify              regrade a receipt whose inputs changed, reporting the problems
  --root DIR               a receipt's inputs may be anywhere inside DIR (default: its folder)
  --allow-outside          read receipt inputs at any path (trusted receipts only)
  --receipt-dir D          write the new receipts into D (an existing file is replaced only
                           when it is a toolscore receipt, never an input)
  --json                   print one JSON document

Output: "SOURCE  OLD GRADE → NEW GRADE  (DELTA)  → NEW RECEIPT" per source, then the
evidence counts when they changed (a forbidden rule can fail a check at the same score).

Exit codes: 0 regraded, 1 a receipt did not match its inputs (not regraded), 2 usage
or input error.

Examples:
  toolscore regrade runs/run1.receipt.json --weight argument_f1=2
  toolscore regrade runs/*.receipt.json --gold contract_v2.yaml --receipt-dir regraded/
  toolscore regrade trace.json --gold gold.json
`;

function signed(delta: number): string {
  return `${delta >= 0 ? "+" : ""}${delta.toFixed(2)}`;
}

function line(done: Regrade, target: string): string {
  const now = `${done.result.score.toFixed(2)} ${done.result.grade}`;
  const old = done.previous;
  const delta = done.scoreDelta;
  const change = old === null
    ? `${now} (new)`
    : `${old.score.toFixed(2)} ${old.grade} → ${now}  (${signed(delta ?? 0)})`;
  return `${done.source}  ${change}  → ${target}`;
}

function counts(evidence: { pass: number; fail: number; unknown: number }): string {
  return `${evidence.pass} pass, ${evidence.fail} fail, ${evidence.unknown} unknown`;
}

/** The evidence line, when it changed (a new forbidden rule can fail a check at the same score). */
function evidenceChange(done: Regrade): string[] {
  const now = done.receipt.result.evidence;
  const old = done.previous?.evidence;
  if (old !== undefined && counts(old) === counts(now)) return [];
  return [`  evidence: ${counts(now)}${old === undefined ? "" : ` (was ${counts(old)})`}`];
}

/**
 * The verdict line, when it changed: the passing rule of issue 28 fails some
 * traces an older receipt passed (a failed check at a score over the bar).
 */
function passedChange(done: Regrade): string[] {
  const now = done.receipt.result;
  const old = done.previous?.passed;
  if (old === undefined || old === now.passed) return [];
  const yes = (passed: boolean) => passed ? "pass" : "fail";
  const why = !now.passed && (now.failed_checks ?? []).length > 0
    ? ` (failed ${now.failed_checks!.join(", ")})`
    : "";
  return [`  passed: ${yes(old)} → ${yes(now.passed)}${why}`];
}

/** `--strict` / `--no-strict`, else the receipt's setting (`undefined`). */
function strictOf(strict: boolean, lenient: boolean): boolean | undefined {
  if (strict && lenient) throw new UsageError("give --strict or --no-strict, not both");
  return strict ? true : lenient ? false : undefined;
}

/** `toolscore regrade`. */
export const regradeCommand: Command = {
  name: "regrade",
  summary: "rescore saved traces or receipts under new gold, weights or rules",
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("regrade", args, FLAGS);
    const sources = flags.positionals;
    if (sources.length === 0) {
      throw new UsageError("regrade needs at least one SOURCE; see toolscore regrade --help");
    }
    const format = stringFlag(flags, "format");
    const finalAnswer = await finalAnswerOf(
      stringFlag(flags, "final-answer"),
      stringFlag(flags, "final-answer-file"),
    );
    if (finalAnswer !== undefined && sources.length > 1) {
      throw new UsageError("--final-answer applies to one source; this run has several");
    }
    const receiptDir = stringFlag(flags, "receipt-dir");
    const options: RegradeOptions = {
      gold: stringFlag(flags, "gold"),
      weights: parseWeightFlags(listFlag(flags, "weight")),
      forbidden: stringFlag(flags, "forbidden"),
      format: format !== undefined ? parseFormatName(format) : undefined,
      strict: strictOf(flags.values.strict === true, flags.values["no-strict"] === true),
      honestyConfig: stringFlag(flags, "honesty"),
      injected: stringFlag(flags, "injected"),
      finalAnswer,
      minScore: numberFlag(flags, "min-score", [0, 1]),
      verify: flags.values["no-verify"] !== true,
      root: stringFlag(flags, "root"),
      allowOutside: flags.values["allow-outside"] === true,
    };
    const targets = sources.map((source) =>
      join(receiptDir ?? dirname(source), receiptFileName(source, undefined, "regraded"))
    );
    const inputs = [
      ...sources,
      options.gold,
      options.forbidden,
      options.honestyConfig,
      options.injected,
    ];
    checkReceiptTargets(targets, inputs);
    // The overwrite rule: an existing file is replaced only when it is a toolscore receipt.
    for (const target of targets) await checkOutput(target, "receipt", { inputs });
    if (receiptDir !== undefined) await makeReceiptDir(receiptDir);

    const json: Record<string, unknown>[] = [];
    let mismatched = false;
    for (const [i, source] of sources.entries()) {
      const target = targets[i]!;
      let done: Regrade;
      try {
        done = await regrade(source, { ...options, receiptDir: dirname(target) });
      } catch (error) {
        if (!(error instanceof ReceiptMismatchError)) throw error;
        mismatched = true;
        json.push({ source, regraded: false, problems: error.problems });
        // An input outside the receipt's folder is never read, verified or not: --root helps.
        const escapes = error.problems.some((p) => p.includes(": input escapes "));
        const hint = escapes
          ? "--root DIR admits a folder that holds its inputs; --no-verify regrades changed inputs"
          : "--no-verify regrades anyway";
        io.stderr(
          `toolscore: ${source}: the receipt does not match its inputs; not regraded ` +
            `(${hint}):\n` +
            error.problems.map((p) => `  ${source}: ${p}\n`).join(""),
        );
        continue;
      }
      await writeReceipt(target, done.receipt);
      json.push({
        source,
        regraded: true,
        previous_score: done.previous?.score ?? null,
        previous_grade: done.previous?.grade ?? null,
        score: done.result.score,
        grade: done.result.grade,
        score_delta: done.scoreDelta,
        previous_passed: done.previous?.passed ?? null,
        passed: done.receipt.result.passed,
        failed_checks: done.receipt.result.failed_checks ?? [],
        receipt: target,
        problems: done.problems,
        warnings: done.warnings,
      });
      if (flags.values.json !== true) {
        const notes = [
          ...evidenceChange(done),
          ...passedChange(done),
          ...done.problems.map((p) => `  not verified: ${p}`),
          ...done.warnings.map((w) => `  note: ${w}`),
        ];
        io.stdout(`${[line(done, target), ...notes].join("\n")}\n`);
      }
    }
    if (flags.values.json === true) io.stdout(`${JSON.stringify({ regrades: json }, null, 2)}\n`);
    return mismatched ? EXIT.gate : EXIT.ok;
  },
};
