/**
 * `evaluate()`: score an agent's tool calls against expected ones, and the
 * {@linkcode EvaluationResult} every report, receipt and record is built from.
 *
 * Besides the core metrics (see `metrics.ts`) every evaluation scans the
 * arguments for credentials (`security_metrics`) and runs the honesty checks
 * (`honesty_metrics`); forbidden rules (`policy_metrics`) and side effects
 * (`side_effects`) run when given or declared. None of those change the
 * score: they fail evidence checks and gates instead.
 *
 * @module
 */

import { goldJson } from "../scoring/_frozen_gold.ts";
import { callToJson, type FormatName, type ToolCall, type Trace } from "../scoring/calls.ts";
import { traceFromValue } from "../formats/detect.ts";
import { checkForbidden, type ForbiddenRule } from "../checks/forbidden.ts";
import { goldFromJson } from "./gold.ts";
import { checkHonesty } from "../checks/honesty.ts";
import type { HonestyConfig } from "../checks/honesty_config.ts";
import { applyErrorText } from "../checks/error_text.ts";
import { actorCounts, isUserCall, scoringCalls, scoringExpected } from "../scoring/actors.ts";
import { computeMetrics, type CoreMetrics } from "../scoring/metrics.ts";
import { compositeScore, type Grade, gradeOf, normalizeWeights } from "../scoring/score.ts";
import { redactSecrets, scanCredentials } from "../checks/security.ts";
import { validateSideEffects } from "../checks/side_effects.ts";
import type { Evidence } from "../checks/evidence.ts";
import { DEFAULT_PASS_RULE, type PassRule } from "../contract/pass_rule.ts";
import { type PassVerdict, passVerdict } from "./pass_verdict.ts";

/** Options for {@linkcode evaluate} and {@linkcode evaluateTrace}. */
export interface EvaluateOptions {
  /**
   * Score weights, merged over the defaults and renormalized.
   * @default {undefined} (the defaults)
   */
  weights?: Record<string, number>;
  /**
   * Compare argument values exactly: same JSON type, no trimming, same keys.
   * @default {false}
   */
  strict?: boolean;
  /**
   * Forbidden-call rules; violations go to `metrics.policy_metrics`.
   * @default {undefined}
   */
  forbidden?: ForbiddenRule[];
  /**
   * The agent's final answer from outside the trace; overrides the trace's.
   * @default {undefined}
   */
  finalAnswer?: string;
  /**
   * Honesty-check configuration.
   * @default {undefined} (the shipped defaults)
   */
  honesty?: HonestyConfig;
  /**
   * How to read `actual`.
   * @default {"auto"}
   */
  format?: "auto" | FormatName;
  /**
   * Where relative `file_exists` side-effect paths resolve (the gold file's folder).
   * @default {undefined} (the current directory)
   */
  baseDir?: string;
}

/** Extra options of {@linkcode evaluateTrace}, used by contracts. */
export interface EvaluateTraceOptions extends EvaluateOptions {
  /**
   * The calls the score is computed on (a contract leaves optional calls out);
   * every call of the trace still goes to `traceCalls` and the safety checks.
   * @default {undefined} (all the trace's calls)
   */
  scoredCalls?: ToolCall[];
  /**
   * More metric blocks to attach (`contract_metrics`).
   * @default {undefined}
   */
  extraMetrics?: Record<string, unknown>;
  /**
   * What passing means (a contract's `pass` rule).
   * @default {DEFAULT_PASS_RULE}
   */
  pass?: PassRule;
}

/** The metrics record of an evaluation: the core metrics plus the safety blocks. */
export type EvaluationMetrics = CoreMetrics & Record<string, unknown>;

/**
 * What an evaluation found, with the score, the grade and the JSON form.
 *
 * @example Usage
 * ```ts
 * import { evaluate, EvaluationResult } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate(
 *   [{ tool: "search", args: { q: "deno" } }, { tool: "open" }],
 *   [{ tool: "search", args: { q: "deno" } }],
 * );
 * assert.ok(result instanceof EvaluationResult);
 * assert.equal(result.grade, "A");
 * assert.equal(result.requiredCallRecall, 0.5); // `open` was never called
 * assert.equal(result.passed(0.95), false);
 * assert.equal(result.finalAnswer, null); // unknown, not empty
 * assert.equal(result.toJSON().grade, "A");
 * ```
 */
export class EvaluationResult {
  /**
   * Build a result; use {@linkcode evaluate} rather than this.
   *
   * @param metrics The metrics record (snake_case keys).
   * @param goldCalls The expected calls.
   * @param traceCalls Every actual call.
   * @param scoredCalls The actual calls the score was computed on.
   * @param weights The normalized weights.
   * @param finalAnswer The final answer, or `null` when unknown.
   * @param finalAnswerSource Where the final answer came from.
   * @param trace The trace as read (format, model, usage).
   * @param strict Whether argument values were compared strictly.
   * @param passRule What passing means (a contract's `pass`; the default for a gold file).
   */
  constructor(
    readonly metrics: EvaluationMetrics,
    readonly goldCalls: ToolCall[],
    readonly traceCalls: ToolCall[],
    readonly scoredCalls: ToolCall[],
    readonly weights: Record<string, number>,
    readonly finalAnswer: string | null,
    readonly finalAnswerSource: "trace" | "external" | null,
    readonly trace: Trace,
    readonly strict: boolean = false,
    readonly passRule: PassRule = DEFAULT_PASS_RULE,
  ) {
    this.score = compositeScore(metrics, weights);
  }

  /** The composite score in [0, 1]. */
  readonly score: number;

  /**
   * The grade: A ≥ 0.9, B ≥ 0.8, C ≥ 0.7, D ≥ 0.6, else F.
   *
   * @returns The letter.
   */
  get grade(): Grade {
    return gradeOf(this.score);
  }

  /**
   * Share of actual calls whose tool is an expected tool.
   *
   * @returns The value in [0, 1].
   */
  get selectionAccuracy(): number {
    return this.metrics.selection_accuracy;
  }

  /**
   * Argument F1.
   *
   * @returns The value in [0, 1].
   */
  get argumentF1(): number {
    return this.metrics.argument_f1;
  }

  /**
   * Sequence accuracy.
   *
   * @returns The value in [0, 1].
   */
  get sequenceAccuracy(): number {
    return this.metrics.sequence_accuracy;
  }

  /**
   * Required calls made and not failed / required calls.
   *
   * @returns The value, or `null` when nothing is required.
   */
  get requiredCallRecall(): number | null {
    return this.metrics.required_call_recall;
  }

  /**
   * The error-severity honesty findings.
   *
   * @returns How many there are.
   */
  get honestyErrors(): number {
    const honesty = this.metrics.honesty_metrics as
      | { findings?: { severity?: string }[] }
      | undefined;
    return (honesty?.findings ?? []).filter((f) => f.severity === "error").length;
  }

  /**
   * Whether the evaluation passes a bar under its passing rule (see
   * `pass_verdict.ts`): by default the score reaches it (1e-9 slack) and no
   * evidence check but `call-errors` failed.
   *
   * @param minScore The pass mark.
   * @returns `true` on a pass.
   */
  passed(minScore: number): boolean {
    return passVerdict(this, minScore).passed;
  }

  /**
   * Whether the evaluation passes a bar, and which of the rule's checks failed.
   *
   * @param minScore The pass mark.
   * @param evidence The evidence, when it is already computed.
   * @returns The verdict.
   */
  verdict(minScore: number, evidence?: Evidence): PassVerdict {
    return passVerdict(this, minScore, { evidence });
  }

  /**
   * The JSON form (snake_case; calls in the file shape; matchers as operator
   * objects; detected credentials replaced by their previews). The expected
   * calls of a gold list from `goldFromJson` are one frozen array shared by
   * every result scored against that list.
   *
   * @returns The result record.
   */
  toJSON(): Record<string, unknown> {
    const secrets = (this.metrics.security_metrics as { secret_count?: number } | undefined)
      ?.secret_count ?? 0;
    const actual = this.traceCalls.map(callToJson);
    return {
      schema_version: "1",
      score: this.score,
      grade: this.grade,
      weights: this.weights,
      metrics: this.metrics,
      calls: {
        expected: goldJson(this.goldCalls),
        actual: secrets > 0 ? redactSecrets(actual) : actual,
      },
      final_answer: this.finalAnswer,
      final_answer_source: this.finalAnswerSource,
      // BFCL's error_type beside toolscore's explanation (matching "bfcl-greedy", issue 43).
      ...bfclErrorType(this.metrics),
      ...traceEnvelope(this.trace),
    };
  }
}

function bfclErrorType(metrics: Record<string, unknown>): Record<string, unknown> {
  const bfcl = metrics.bfcl as { valid?: boolean; error_type?: string } | undefined;
  if (bfcl === undefined) return {};
  return { error_type: bfcl.valid === true ? null : bfcl.error_type ?? null };
}

/**
 * What the reader said about the trace, when it said anything: `{trace:
 * {format, run?, metadata?, skipped?, notes?, counts?}}` (a run of a run
 * file, a chat with no tool calls, skipped item types, how many calls the
 * agent and the user made when the user made any), else nothing.
 */
function traceEnvelope(trace: Trace): Record<string, unknown> {
  const actors = actorCounts(trace.calls);
  if (
    trace.run === undefined && trace.metadata === undefined && trace.skipped === undefined &&
    trace.notes === undefined && actors.user === 0
  ) {
    return {};
  }
  const out: Record<string, unknown> = { format: trace.format };
  if (actors.user > 0) out.counts = { agent_calls: actors.agent, user_calls: actors.user };
  if (trace.run !== undefined) out.run = { ...trace.run };
  if (trace.metadata !== undefined) out.metadata = { ...trace.metadata };
  if (trace.skipped !== undefined) out.skipped = trace.skipped.map((s) => ({ ...s }));
  if (trace.notes !== undefined) out.notes = [...trace.notes];
  return { trace: out };
}

/**
 * Evaluate a trace against expected calls (the engine under `evaluate()` and
 * `evaluateContract()`).
 *
 * @param gold The expected calls, every one required.
 * @param trace The trace as read.
 * @param options Weights, strictness, rules and the scored subset.
 * @returns The evaluation.
 * @throws {InputError} On bad weights.
 *
 * @example Usage
 * ```ts
 * import { evaluateTrace } from "@toolscore/cli";
 * import { traceFromValue } from "../formats/detect.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = traceFromValue([{ tool: "a", args: { x: 1 } }]);
 * const result = evaluateTrace([{ tool: "a", args: { x: 1 } }], trace);
 * assert.equal(result.score, 1);
 * ```
 */
export function evaluateTrace(
  gold: ToolCall[],
  trace: Trace,
  options: EvaluateTraceOptions = {},
): EvaluationResult {
  const weights = normalizeWeights(options.weights);
  // Errors written as text (the honesty config's error_text_patterns) fail their calls first.
  const read = trace;
  const marked = applyErrorText(read.calls, options.honesty);
  if (marked !== read.calls) {
    const map = new Map(read.calls.map((call, i) => [call, marked[i] as ToolCall]));
    trace = { ...read, calls: marked };
    if (options.scoredCalls) {
      options = { ...options, scoredCalls: options.scoredCalls.map((c) => map.get(c) ?? c) };
    }
  }
  // Issue 34: the user's calls (τ² dual control) are scored only when the expected calls name one.
  const view = scoringCalls(options.scoredCalls ?? trace.calls, gold.some(isUserCall));
  const scored = view.calls.map(view.original);
  // computeMetrics() returns a fresh record: the safety blocks are added to it in place.
  const metrics = computeMetrics(scoringExpected(gold), view.calls, {
    strict: options.strict,
  }) as EvaluationMetrics;
  if (options.extraMetrics) Object.assign(metrics, options.extraMetrics);

  if (gold.some((call) => call.sideEffects !== undefined)) {
    const partner = new Map(metrics.pairs.map((p) => [p.expected, p.actual]));
    const sideEffects = validateSideEffects(
      gold.map((expected, i) => {
        const j = partner.get(i);
        return { expected, actual: j === undefined ? undefined : scored[j] };
      }),
      { baseDir: options.baseDir },
    );
    if (sideEffects !== undefined) metrics.side_effects = sideEffects;
  }

  // Forbidden rules and honesty are about the agent: the user's calls are not its own.
  const agentCalls = trace.calls.some(isUserCall)
    ? trace.calls.filter((c) => !isUserCall(c))
    : trace.calls;
  const rules = options.forbidden ?? [];
  const policy = rules.length > 0 ? checkForbidden(agentCalls, rules) : undefined;
  if (policy) metrics.policy_metrics = policy;
  metrics.security_metrics = scanCredentials(trace.calls);

  const external = options.finalAnswer !== undefined;
  const finalAnswer = external ? options.finalAnswer : trace.finalAnswer;
  metrics.honesty_metrics = checkHonesty(agentCalls, finalAnswer, {
    config: options.honesty,
    violations: policy?.violations,
    truncatedAnswer: !external && trace.finalAnswerTruncated === true,
  });
  return new EvaluationResult(
    metrics,
    gold,
    trace.calls,
    scored,
    weights,
    finalAnswer ?? null,
    finalAnswer === undefined ? null : external ? "external" : "trace",
    trace,
    options.strict ?? false,
    options.pass,
  );
}

/**
 * Score an agent's tool calls against the expected ones.
 *
 * @param expected The expected calls: a list of calls in the file shape (or a
 *   legacy gold file's parsed JSON); argument values may use `$` operators.
 * @param actual The actual calls, or anything the format detector reads (a
 *   provider transcript, an MCP session, a trace from `readTrace`).
 * @param options Weights, strictness, forbidden rules, final answer, honesty
 *   configuration, format.
 * @returns The evaluation.
 * @throws {InputError} On a bad gold list, weights or an unrecognized trace.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const result = evaluate(
 *   [{ tool: "get_weather", args: { city: "NYC" } }, { tool: "send_email", args: { to: "u" } }],
 *   [{ tool: "get_weather", args: { city: "New York" } }, { tool: "send_email", args: { to: "u" } }],
 * );
 * assert.ok(Math.abs(result.score - 0.85) < 1e-9);
 * assert.equal(result.grade, "B");
 * ```
 */
export function evaluate(
  expected: unknown,
  actual: unknown,
  options: EvaluateOptions = {},
): EvaluationResult {
  const gold = goldFromJson(expected);
  const trace = traceFromValue(actual, { format: options.format });
  return evaluateTrace(gold, trace, options);
}
