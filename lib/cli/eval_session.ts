/**
 * An `eval` session: the command's arguments parsed and its inputs loaded
 * (gold or contract, rules, honesty configuration, final answer), ready to
 * score traces and render each one's report. The command uses it on the main
 * thread, and every worker thread prepares its own from the same arguments.
 *
 * @module
 */

import { loadHeavy } from "../base/_lazy.ts";
import { UsageError } from "../base/errors.ts";
import type { EvaluateOptions } from "../evaluate/evaluate.ts";
import { evaluationEvidence } from "../checks/evidence.ts";
import { evaluateExpected, expectedMinScore, loadExpected } from "../evaluate/expected.ts";
import { loadForbidden } from "../checks/forbidden.ts";
import { loadHonestyFiles } from "../checks/honesty_config.ts";
import { parseFormatName } from "../formats/detect.ts";
import { formatResult, type SummaryRow, summaryRow } from "../report/console.ts";
import { meetsBar } from "../scoring/score.ts";
import { type FlagSpec, listFlag, numberFlag, parseFlags, stringFlag } from "./command.ts";
import { parseFailUnder, parseWeightFlags, SCORING_FLAGS } from "./gate_flags.ts";
import { finalAnswerOf } from "./honesty_flags.ts";
import type { NamedTrace } from "./inputs.ts";
import { anyReport, JUNIT_REPORT_FLAGS, reportTargets } from "./report_flags.ts";
import type { EvalSession, RenderedResult, Scored } from "./eval_types.ts";
import { folderBar, goldRowOf, prepareGoldFolder, traceGoldOf } from "./eval_gold_folder.ts";

/** `eval`'s flags. */
export const FLAGS: FlagSpec = {
  ...SCORING_FLAGS,
  "fail-under": { type: "string" },
  "fail-on-violations": { type: "boolean" },
  receipt: { type: "boolean" },
  "receipt-out": { type: "string" },
  "receipt-dir": { type: "string" },
  verbose: { type: "boolean", short: "v" },
  quiet: { type: "boolean", short: "q" },
  "explain-divergence": { type: "boolean" },
  jobs: { type: "string", short: "j" },
  waivers: { type: "string" },
  "bfcl-score": { type: "string" },
  ...JUNIT_REPORT_FLAGS,
};

// The JSON text of each gold list's expected calls, built once: `toJSON()` hands every result
// scored against one gold list the same frozen array (a contract's chosen calls are new arrays,
// stringified each time).
const EXPECTED_TEXT = new WeakMap<object, string>();

function expectedText(expected: unknown): string {
  if (typeof expected !== "object" || expected === null || !Object.isFrozen(expected)) {
    return JSON.stringify(expected);
  }
  let text = EXPECTED_TEXT.get(expected);
  if (text === undefined) EXPECTED_TEXT.set(expected, text = JSON.stringify(expected));
  return text;
}

/**
 * One result's `--json` document: `{source, ...result.toJSON(), passed,
 * failed_checks, min_score, evidence}` — `source` the trace's name (`FILE`, `FILE[n]`, as
 * `inspect --json` names it), `contract` `{id, path}` with a gold folder (issue 43),
 * `trace` the reader's envelope when it said
 * something (`schemas/result.schema.json`). Byte for byte what
 * `JSON.stringify` of that object prints, but built key by key — twice as
 * fast as one call on the spread object — with the expected calls' text
 * shared. (Before: the name was written as `trace`, and a reader's envelope
 * replaced it, so such a result lost its file name.)
 */
function resultText(scored: Scored, bar: number): string {
  const doc = scored.result.toJSON();
  let out = `{"source":${JSON.stringify(scored.named.name)}`;
  // With a gold folder (issue 43): the contract this trace was scored against.
  if (scored.gold) {
    out += `,"contract":${JSON.stringify({ id: scored.gold.id, path: scored.gold.path })}`;
  }
  for (const key in doc) {
    if (
      key === "source" || key === "passed" || key === "failed_checks" || key === "min_score" ||
      key === "evidence"
    ) continue;
    const value = doc[key];
    let text: string | undefined;
    if (key === "calls" && isCallsBlock(value)) {
      text = `{"expected":${expectedText(value.expected)},"actual":${
        JSON.stringify(value.actual)
      }}`;
    } else text = JSON.stringify(value);
    if (text !== undefined) out += `,${JSON.stringify(key)}:${text}`;
  }
  return `${out},"passed":${scored.passed},"failed_checks":${
    JSON.stringify(scored.failedChecks)
  },"min_score":${JSON.stringify(bar)},"evidence":${JSON.stringify(scored.evidence)}}`;
}

// `{expected, actual}` and nothing else, both present: the shape `toJSON()` writes.
function isCallsBlock(value: unknown): value is { expected: unknown; actual: unknown } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && keys[0] === "expected" && keys[1] === "actual" &&
    (value as { expected: unknown }).expected !== undefined &&
    (value as { actual: unknown }).actual !== undefined &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

// Whether some expected call declares an argument schema (`metadata.schema`), in a gold list
// or anywhere in a contract. Arguments and side effects are not searched.
function declaresSchemas(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(declaresSchemas);
  for (const [key, child] of Object.entries(value)) {
    if (key === "args" || key === "sideEffects") continue;
    if (key === "metadata" && typeof child === "object" && child !== null && "schema" in child) {
      return true;
    }
    if (declaresSchemas(child)) return true;
  }
  return false;
}

/**
 * Parse `eval`'s arguments and load its inputs (gold or contract, rules,
 * honesty configuration, final answer). Also used by the worker threads that
 * score large directories.
 *
 * @param args The arguments after `eval`.
 * @returns The session.
 * @throws {UsageError} On bad flags; {@linkcode InputError} on bad files.
 */
export async function prepareEval(args: string[]): Promise<EvalSession> {
  const startedAt = Date.now();
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
  if (stringFlag(flags, "receipt-out") !== undefined && tracePaths.length > 1) {
    throw new UsageError("--receipt-out takes one trace; use --receipt-dir for several");
  }

  // GOLD a folder of contracts (issue 43): each trace is scored against its own.
  const folder = await prepareGoldFolder(goldPath, {
    waivers: stringFlag(flags, "waivers"),
    bfclScore: stringFlag(flags, "bfcl-score"),
    flagBar,
    tracePaths,
  });
  const expected = folder?.folder.entries[0]?.expected ?? await loadExpected(goldPath);
  const allExpected = folder?.folder.entries.map((entry) => entry.expected) ?? expected;
  if (declaresSchemas(allExpected)) await loadHeavy(); // ajv checks the arguments against them
  const contractBar = folder !== undefined ? folderBar(folder) : expectedMinScore(expected);
  const bar = flagBar ?? contractBar ?? 0.9;
  const forbiddenPath = stringFlag(flags, "forbidden");
  const forbidden = forbiddenPath !== undefined ? await loadForbidden(forbiddenPath) : undefined;
  const honestyPath = stringFlag(flags, "honesty");
  const injectedPath = stringFlag(flags, "injected");
  const honesty = await loadHonestyFiles(honestyPath, injectedPath);
  const finalAnswer = await finalAnswerOf(
    stringFlag(flags, "final-answer"),
    stringFlag(flags, "final-answer-file"),
  );
  const options: EvaluateOptions = {
    weights,
    strict: flags.values.strict === true,
    forbidden,
    honesty,
    finalAnswer,
    format,
  };
  // The report writers (HTML, JUnit, Markdown) load only when a report is asked for.
  const reports = anyReport(reportTargets(flags.values))
    ? await import("./eval_reports.ts")
    : undefined;
  const session: EvalSession = {
    startedAt,
    run: {
      goldPath,
      expected,
      options,
      inputs: { forbidden: forbiddenPath, honesty_config: honestyPath, injected: injectedPath },
      settings: { format, strict: options.strict ?? false, weights },
      bar,
    },
    tracePaths,
    gated: flagBar !== undefined || contractBar !== undefined,
    barSource: flagBar !== undefined ? "flag" : contractBar !== undefined ? "contract" : "default",
    values: flags.values,
    ...(folder !== undefined ? { folder } : {}),
    score(named: NamedTrace): Scored {
      const started = performance.now();
      const gold = folder !== undefined ? traceGoldOf(folder, named) : undefined;
      const traceBar = gold?.bar ?? bar;
      const result = evaluateExpected(gold?.expected ?? expected, named.trace, options);
      const evidence = evaluationEvidence(result);
      const violations =
        ((result.metrics.policy_metrics as { violation_count?: number } | undefined)
          ?.violation_count ?? 0) +
        ((result.metrics.security_metrics as { secret_count?: number } | undefined)
          ?.secret_count ?? 0);
      const { passed, failedChecks } = result.verdict(traceBar, evidence);
      const seconds = (performance.now() - started) / 1000;
      const scored = { named, result, evidence, passed, failedChecks, violations, seconds };
      return gold !== undefined ? { ...scored, gold } : scored;
    },
    recordOf: reports && ((scored) => reports.recordOf(session, scored)),
  };
  return session;
}

// A failing trace's first reason (the quiet console's): the first error-severity honesty
// finding when the score met the bar, else the first issue.
function withReason(row: SummaryRow, scored: Scored, bar: number): SummaryRow {
  if (scored.passed || !meetsBar(scored.result.score, bar)) return row;
  const findings = (scored.result.metrics.honesty_metrics as
    | { findings?: { severity?: string; message?: string }[] }
    | undefined)?.findings ?? [];
  const first = findings.find((f) => f.severity === "error")?.message;
  return first === undefined ? row : { ...row, reason: `honesty: ${first}` };
}

/**
 * Render one scored trace for the report.
 *
 * @param session The eval session.
 * @param scored The scored trace.
 * @param color Whether to colour console output.
 * @returns The rendered result.
 */
export function renderScored(session: EvalSession, scored: Scored, color: boolean): RenderedResult {
  const bar = scored.gold?.bar ?? session.run.bar;
  const text = session.values.json === true
    ? resultText(scored, bar)
    : session.consoleLines === true
    ? "" // one line per trace: the block would be dropped
    : formatResult(scored.named.name, scored.result, scored.evidence, {
      bar,
      gated: session.gated,
      verbose: session.values.verbose === true,
      explainDivergence: session.values["explain-divergence"] === true,
      color,
    }).join("\n");
  const row = withReason(summaryRow(scored.named.name, scored.result, scored.passed), scored, bar);
  const gold = session.folder && goldRowOf(session.folder, scored, row.reason);
  return {
    text,
    row,
    violations: scored.violations,
    record: session.recordOf?.(scored),
    ...(gold !== undefined ? { gold } : {}),
  };
}
