/**
 * ProtocolDecision protocols: rules declared before the runs, evaluated after them.
 * A rule without enough data is unknown, never a pass.
 *
 * @module
 */

import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import { jsonSha256 } from "../base/canonical.ts";
import { inFile, InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import {
  checkMetric,
  comparePair,
  type Comparison,
  formatPValue,
  OBJECTIVE_METRICS,
  type VariantStats,
} from "./compare.ts";
import { formatMetricValue } from "./select.ts";

/** A rule's outcome. */
export type RuleStatus = "pass" | "fail" | "unknown";

/** What a comparative rule expects of the candidate. */
export type RuleExpectation = "candidate_better" | "not_worse";

/** One rule of a protocol, as declared (file shape). */
export interface ProtocolRule {
  /** The rule's id, unique in the protocol. */
  id: string;
  /** A metric of {@linkcode OBJECTIVE_METRICS}. */
  metric: string;
  /** A comparison with the baseline. */
  expect?: RuleExpectation;
  /** Absolute slack, in the metric's own units (0.05 = five points of pass rate). */
  tolerance?: number;
  /** Lower bound on the candidate's value. */
  min?: number;
  /** Upper bound on the candidate's value. */
  max?: number;
}

/** A protocol, as declared (file shape). */
export interface Protocol {
  /** Always 1. */
  protocol_version: 1;
  /** What is being decided. */
  title?: string;
  /** The variant in use. */
  baseline: string;
  /** The variant that may replace it. */
  candidate: string;
  /** Significance level of the Fisher test. */
  alpha?: number;
  /** Runs per variant before any rule can pass (default: the comparison's min_n). */
  min_runs?: number;
  /** The k of pass^k. */
  k?: number;
  /** The rules; all must pass to adopt. */
  rules: ProtocolRule[];
}

const PROTOCOL_KEYS = [
  "protocol_version",
  "title",
  "baseline",
  "candidate",
  "alpha",
  "min_runs",
  "k",
  "rules",
];
const RULE_KEYS = ["id", "metric", "expect", "tolerance", "min", "max"];
const EXPECTATIONS = ["candidate_better", "not_worse"];

function unknownKeys(value: Record<string, unknown>, known: string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new InputError(
        `unknown key ${key}; a ${path === "" ? "protocol" : "rule"} has ${known.join(", ")}`,
        joinPath(path, key) || key,
      );
    }
  }
}

function requireString(value: Record<string, unknown>, key: string, path: string): string {
  const found = value[key];
  if (typeof found !== "string" || found === "") {
    throw new InputError(
      `expected a non-empty string, got ${describeJson(found)}`,
      joinPath(path, key),
    );
  }
  return found;
}

function optionalNumber(
  value: Record<string, unknown>,
  key: string,
  path: string,
  check: (n: number) => boolean,
  what: string,
): void {
  const found = value[key];
  if (found !== undefined && (typeof found !== "number" || !check(found))) {
    throw new InputError(`expected ${what}, got ${describeJson(found)}`, joinPath(path, key));
  }
}

/**
 * Check a protocol's shape: known keys only, `protocol_version: 1`, a
 * baseline, a candidate, and at least one well-formed rule.
 *
 * @param value The parsed protocol.
 * @param source The file it came from, for errors.
 * @returns The same value, typed.
 * @throws {InputError} Naming the bad key, rule or metric.
 *
 * @example Usage
 * ```ts
 * import { protocolFromJson } from "./protocol.ts";
 * import assert from "node:assert/strict";
 *
 * const protocol = protocolFromJson({
 *   protocol_version: 1, baseline: "a", candidate: "b",
 *   rules: [{ id: "better", metric: "pass_rate", expect: "candidate_better" }],
 * });
 * assert.equal(protocol.rules.length, 1);
 * assert.throws(() => protocolFromJson({ ...protocol, seed: 1 }), /seed: unknown key seed/);
 * ```
 */
export function protocolFromJson(value: unknown, source?: string): Protocol {
  try {
    if (!isJsonObject(value)) {
      throw new InputError(`expected a protocol object, got ${describeJson(value)}`);
    }
    unknownKeys(value, PROTOCOL_KEYS, "");
    if (value.protocol_version !== 1) {
      throw new InputError(
        `expected 1, got ${describeJson(value.protocol_version)}`,
        "protocol_version",
      );
    }
    if (value.title !== undefined && typeof value.title !== "string") {
      throw new InputError(`expected a string, got ${describeJson(value.title)}`, "title");
    }
    requireString(value, "baseline", "");
    requireString(value, "candidate", "");
    if (value.baseline === value.candidate) {
      throw new InputError("the candidate must differ from the baseline", "candidate");
    }
    optionalNumber(value, "alpha", "", (n) => n > 0 && n < 1, "a number between 0 and 1");
    optionalNumber(
      value,
      "min_runs",
      "",
      (n) => Number.isSafeInteger(n) && n >= 0,
      "an integer ≥ 0",
    );
    optionalNumber(value, "k", "", (n) => Number.isSafeInteger(n) && n >= 1, "an integer ≥ 1");
    const rules = value.rules;
    if (!Array.isArray(rules) || rules.length === 0) {
      throw new InputError(
        `expected a non-empty array of rules, got ${describeJson(rules)}`,
        "rules",
      );
    }
    const ids = new Set<string>();
    rules.forEach((rule, index) => {
      const path = joinPath("rules", index);
      if (!isJsonObject(rule)) {
        throw new InputError(`expected a rule object, got ${describeJson(rule)}`, path);
      }
      unknownKeys(rule, RULE_KEYS, path);
      const id = requireString(rule, "id", path);
      if (ids.has(id)) throw new InputError(`duplicate rule id ${id}`, joinPath(path, "id"));
      ids.add(id);
      checkMetric(requireString(rule, "metric", path), joinPath(path, "metric"));
      const bounded = rule.min !== undefined || rule.max !== undefined;
      if (rule.expect === undefined && !bounded) {
        throw new InputError("a rule needs expect, or min and/or max", path);
      }
      if (rule.expect !== undefined && bounded) {
        throw new InputError("a rule has either expect or min/max, not both", path);
      }
      if (rule.expect !== undefined && !EXPECTATIONS.includes(rule.expect as string)) {
        throw new InputError(
          `unknown expectation ${
            typeof rule.expect === "string"
              ? JSON.stringify(rule.expect)
              : describeJson(rule.expect)
          }; use ${EXPECTATIONS.join(" or ")}`,
          joinPath(path, "expect"),
        );
      }
      if (rule.tolerance !== undefined && rule.expect === undefined) {
        throw new InputError("tolerance applies to expect rules only", joinPath(path, "tolerance"));
      }
      optionalNumber(rule, "tolerance", path, (n) => Number.isFinite(n) && n >= 0, "a number ≥ 0");
      optionalNumber(rule, "min", path, Number.isFinite, "a number");
      optionalNumber(rule, "max", path, Number.isFinite, "a number");
    });
    return value as unknown as Protocol;
  } catch (error) {
    if (error instanceof InputError && source !== undefined) throw inFile(error, source);
    throw error;
  }
}

/**
 * Read a protocol file (YAML, JSON or JSONC) and check its shape.
 *
 * @param path The file.
 * @returns The protocol as declared; hash it with `jsonSha256` to record it before the runs.
 * @throws {InputError} When the file cannot be read or parsed, or the protocol is malformed.
 *
 * @example Usage
 * ```ts ignore
 * import { jsonSha256, loadProtocol } from "@toolscore/cli";
 *
 * console.log(jsonSha256(await loadProtocol("protocol.yaml")));
 * ```
 */
export async function loadProtocol(path: string): Promise<Protocol> {
  return protocolFromJson(await readDocument(path), path);
}

/** The fields of a {@linkcode RuleOutcome}. */
export interface RuleOutcomeFields {
  /** The rule's id. */
  id: string;
  /** The metric. */
  metric: string;
  /** `pass`, `fail` or `unknown`. */
  status: RuleStatus;
  /** The baseline's value (`null` when unknown or not used). */
  baselineValue: number | null;
  /** The candidate's value (`null` when unknown). */
  candidateValue: number | null;
  /** The Fisher p-value (pass_rate `candidate_better` rules only). */
  pValue: number | null;
  /** A sentence with the numbers. */
  detail: string;
  /** The rule as declared. */
  rule: ProtocolRule;
}

/**
 * One rule's outcome.
 *
 * @example Usage
 * ```ts
 * import { RuleOutcome } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const outcome = new RuleOutcome({
 *   id: "cost", metric: "cost", status: "unknown", baselineValue: null, candidateValue: 0.1,
 *   pValue: null, detail: "cost of baseline a is unknown", rule: { id: "cost", metric: "cost", max: 1 },
 * });
 * assert.equal(outcome.toJSON().baseline_value, null);
 * ```
 */
export class RuleOutcome implements RuleOutcomeFields {
  /** The rule's id. */
  readonly id: string;
  /** The metric. */
  readonly metric: string;
  /** `pass`, `fail` or `unknown`. */
  readonly status: RuleStatus;
  /** The baseline's value (`null` when unknown or not used). */
  readonly baselineValue: number | null;
  /** The candidate's value (`null` when unknown). */
  readonly candidateValue: number | null;
  /** The Fisher p-value (pass_rate `candidate_better` rules only). */
  readonly pValue: number | null;
  /** A sentence with the numbers. */
  readonly detail: string;
  /** The rule as declared. */
  readonly rule: ProtocolRule;

  /**
   * Create a rule outcome (usually {@linkcode evaluateProtocol} does).
   *
   * @param fields Every field.
   */
  constructor(fields: RuleOutcomeFields) {
    this.id = fields.id;
    this.metric = fields.metric;
    this.status = fields.status;
    this.baselineValue = fields.baselineValue;
    this.candidateValue = fields.candidateValue;
    this.pValue = fields.pValue;
    this.detail = fields.detail;
    this.rule = fields.rule;
  }

  /**
   * The outcome in file shape (snake_case).
   *
   * @returns `{id, metric, status, baseline_value, candidate_value, p_value, detail, rule}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      metric: this.metric,
      status: this.status,
      baseline_value: this.baselineValue,
      candidate_value: this.candidateValue,
      p_value: this.pValue,
      detail: this.detail,
      rule: structuredClone(this.rule),
    };
  }
}

/** A protocol's decision. */
export type ProtocolDecision = "adopt" | "reject" | "undecided";

/** The fields of a {@linkcode ProtocolResult}. */
export interface ProtocolResultFields {
  /** The protocol's title. */
  title: string;
  /** `jsonSha256` of the protocol as declared. */
  protocolSha256: string;
  /** The baseline variant. */
  baseline: string;
  /** The candidate variant. */
  candidate: string;
  /** Each rule's outcome. */
  rules: RuleOutcome[];
  /** `adopt`, `reject` or `undecided`. */
  decision: ProtocolDecision;
  /** The significance level used. */
  alpha: number;
  /** Runs per variant needed before a rule can pass. */
  minRuns: number;
  /** The k of pass^k. */
  k: number;
}

/**
 * The result of {@linkcode evaluateProtocol}.
 *
 * @example Usage
 * ```ts
 * import { ProtocolResult } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const result = new ProtocolResult({
 *   title: "t", protocolSha256: "0".repeat(64), baseline: "a", candidate: "b",
 *   rules: [], decision: "undecided", alpha: 0.05, minRuns: 10, k: 1,
 * });
 * assert.equal(result.summary, "undecided: 0 pass, 0 fail, 0 unknown");
 * ```
 */
export class ProtocolResult implements ProtocolResultFields {
  /** The protocol's title. */
  readonly title: string;
  /** `jsonSha256` of the protocol as declared (record it before the runs). */
  readonly protocolSha256: string;
  /** The baseline variant. */
  readonly baseline: string;
  /** The candidate variant. */
  readonly candidate: string;
  /** Each rule's outcome, in declaration order. */
  readonly rules: RuleOutcome[];
  /** `adopt` (every rule passed), `reject` (a rule failed) or `undecided` (a rule is unknown, none failed). */
  readonly decision: ProtocolDecision;
  /** The significance level used. */
  readonly alpha: number;
  /** Runs per variant needed before a rule can pass. */
  readonly minRuns: number;
  /** The k of pass^k. */
  readonly k: number;

  /**
   * Create a protocol result (usually {@linkcode evaluateProtocol} does).
   *
   * @param fields Every field.
   */
  constructor(fields: ProtocolResultFields) {
    this.title = fields.title;
    this.protocolSha256 = fields.protocolSha256;
    this.baseline = fields.baseline;
    this.candidate = fields.candidate;
    this.rules = fields.rules;
    this.decision = fields.decision;
    this.alpha = fields.alpha;
    this.minRuns = fields.minRuns;
    this.k = fields.k;
  }

  /** The decision and the rule counts: `adopt: 3 pass, 0 fail, 0 unknown`. */
  get summary(): string {
    const count = (status: RuleStatus) =>
      this.rules.filter((rule) => rule.status === status).length;
    return `${this.decision}: ${count("pass")} pass, ${count("fail")} fail, ${
      count("unknown")
    } unknown`;
  }

  /**
   * A JSON-safe report (snake_case).
   *
   * @returns `{title, protocol_sha256, baseline, candidate, alpha, min_runs, k, decision, summary, rules}`.
   */
  toJSON(): Record<string, unknown> {
    return {
      title: this.title,
      protocol_sha256: this.protocolSha256,
      baseline: this.baseline,
      candidate: this.candidate,
      alpha: this.alpha,
      min_runs: this.minRuns,
      k: this.k,
      decision: this.decision,
      summary: this.summary,
      rules: this.rules.map((rule) => rule.toJSON()),
    };
  }
}

// Float slack for tolerance comparisons: 0.95 - 0.05 must not fail 0.9.
const EPSILON = 1e-9;

function runsShort(stats: VariantStats, minRuns: number, role: string): string | undefined {
  return stats.n < minRuns
    ? `${role} ${stats.variant} has ${stats.n} run${
      stats.n === 1 ? "" : "s"
    }, fewer than min_runs = ${minRuns}`
    : undefined;
}

function evaluateRule(
  rule: ProtocolRule,
  baseline: VariantStats,
  candidate: VariantStats,
  settings: { alpha: number; minRuns: number },
): RuleOutcome {
  const metric = rule.metric;
  const goal = OBJECTIVE_METRICS[metric]!;
  const comparative = rule.expect !== undefined;
  const candidateValue = candidate.metric(metric);
  const baselineValue = comparative ? baseline.metric(metric) : null;
  const show = (value: number | null) => formatMetricValue(metric, value);
  const outcome = (status: RuleStatus, detail: string, pValue: number | null = null) =>
    new RuleOutcome({
      id: rule.id,
      metric,
      status,
      baselineValue,
      candidateValue,
      pValue,
      detail,
      rule,
    });

  const short = [
    comparative ? runsShort(baseline, settings.minRuns, "baseline") : undefined,
    runsShort(candidate, settings.minRuns, "candidate"),
  ].filter((text): text is string => text !== undefined);
  if (short.length > 0) return outcome("unknown", short.join("; "));
  const missing = [
    comparative && baselineValue === null ? `baseline ${baseline.variant}` : undefined,
    candidateValue === null ? `candidate ${candidate.variant}` : undefined,
  ].filter((text): text is string => text !== undefined);
  if (missing.length > 0) {
    return outcome("unknown", `${metric} of ${missing.join(" and ")} is unknown`);
  }
  const c = candidateValue!;
  const values = comparative
    ? `${candidate.variant} ${show(c)} vs ${baseline.variant} ${show(baselineValue)}`
    : `${candidate.variant} ${show(c)}`;

  if (!comparative) {
    const bounds = [
      rule.min !== undefined ? `min ${show(rule.min)}` : undefined,
      rule.max !== undefined ? `max ${show(rule.max)}` : undefined,
    ].filter((text) => text !== undefined).join(", ");
    const within = (rule.min === undefined || c >= rule.min - EPSILON) &&
      (rule.max === undefined || c <= rule.max + EPSILON);
    return outcome(
      within ? "pass" : "fail",
      `${metric}: ${values}, ${within ? "within" : "outside"} ${bounds}`,
    );
  }

  const b = baselineValue!;
  const tolerance = rule.tolerance ?? 0;
  // How much better the candidate is, in the metric's units (negative: worse).
  const gain = goal === "max" ? c - b : b - c;
  const slack = tolerance > 0 ? ` (tolerance ${show(tolerance)})` : "";
  if (rule.expect === "not_worse") {
    const ok = gain >= -tolerance - EPSILON;
    return outcome(
      ok ? "pass" : "fail",
      `${metric}: ${values}, ${ok ? "not worse" : "worse"}${slack}`,
    );
  }
  if (metric === "pass_rate") {
    const pair = comparePair(baseline, candidate, {
      minN: settings.minRuns,
      alpha: settings.alpha,
    });
    const ok = pair.distinguishable && gain > tolerance + EPSILON;
    const why = ok ? "better" : pair.distinguishable && gain <= 0 ? "worse" : "not shown better";
    const evidence = `p = ${formatPValue(pair.pValue)}, alpha = ${settings.alpha}, intervals ${
      pair.overlap ? "overlap" : "do not overlap"
    }`;
    return outcome(
      ok ? "pass" : "fail",
      `${metric}: ${values}, ${why}${slack}; ${evidence}`,
      pair.pValue,
    );
  }
  const ok = gain > tolerance + EPSILON;
  return outcome(
    ok ? "pass" : "fail",
    `${metric}: ${values}, ${ok ? "better" : "not better"}${slack}`,
  );
}

/**
 * Evaluate decision rules declared before the runs.
 *
 * Rules: `expect: candidate_better` (for `pass_rate`: distinguishable by the
 * Fisher test at the protocol's `alpha` and the 95% intervals, and better by
 * more than `tolerance`; for other metrics: better by more than `tolerance`,
 * default 0), `expect: not_worse` (not worse by more than `tolerance`), or
 * `min`/`max` bounds on the candidate's value. `tolerance` is absolute, in
 * the metric's own units. A rule is `unknown`, never a pass, when its metric
 * is unknown or a variant it uses has fewer than `min_runs` runs (default
 * the comparison's `minN`). ProtocolDecision: `adopt` when every rule passes,
 * `reject` when any fails, else `undecided`.
 *
 * @param protocol The protocol as declared (file shape).
 * @param comparison The comparison of the runs, built with the protocol's `k`.
 * @returns The result, with `protocolSha256` = `jsonSha256(protocol)`.
 * @throws {InputError} On unknown keys, variants or metrics, or a comparison built with another k.
 *
 * @example Usage
 * ```ts
 * import { compareRuns, evaluateProtocol, Run } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const runs = [
 *   ...Array.from({ length: 100 }, (_, i) => new Run("old", "t", i < 50 ? "pass" : "fail")),
 *   ...Array.from({ length: 100 }, (_, i) => new Run("new", "t", i < 90 ? "pass" : "fail")),
 * ];
 * const result = evaluateProtocol({
 *   protocol_version: 1, title: "new prompt", baseline: "old", candidate: "new",
 *   rules: [
 *     { id: "better", metric: "pass_rate", expect: "candidate_better" },
 *     { id: "cost", metric: "cost", max: 0.01 },
 *   ],
 * }, compareRuns(runs));
 * assert.equal(result.rules[0]!.status, "pass");
 * assert.equal(result.rules[1]!.status, "unknown"); // no costs recorded
 * assert.equal(result.decision, "undecided");
 * ```
 */
export function evaluateProtocol(protocol: unknown, comparison: Comparison): ProtocolResult {
  const declared = protocolFromJson(protocol);
  const protocolSha256 = jsonSha256(protocol);
  const baseline = comparison.variant(declared.baseline, "baseline");
  const candidate = comparison.variant(declared.candidate, "candidate");
  const k = declared.k ?? 1;
  if (k !== comparison.k && declared.rules.some((rule) => rule.metric === "pass_hat_k")) {
    throw new InputError(
      `the protocol says k = ${k} but the comparison was built with k = ${comparison.k}; build it with compareRuns(runs, { k: ${k} })`,
      "k",
    );
  }
  const alpha = declared.alpha ?? 0.05;
  const minRuns = declared.min_runs ?? comparison.minN;
  const rules = declared.rules.map((rule) =>
    evaluateRule(rule, baseline, candidate, { alpha, minRuns })
  );
  const decision: ProtocolDecision = rules.some((rule) => rule.status === "fail")
    ? "reject"
    : rules.some((rule) => rule.status === "unknown")
    ? "undecided"
    : "adopt";
  return new ProtocolResult({
    title: declared.title ?? "",
    protocolSha256,
    baseline: declared.baseline,
    candidate: declared.candidate,
    rules,
    decision,
    alpha,
    minRuns,
    k,
  });
}
