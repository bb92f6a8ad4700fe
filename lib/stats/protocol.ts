/**
 * Decision protocols as declared: rules written before the runs, read from a
 * file and checked for shape. `evaluate_protocol.ts` evaluates them.
 *
 * Since issue 22 a pass_rate `candidate_better` rule may name its `test`
 * (`paired`, `fisher` or `auto`), so a protocol declared before the runs
 * fixes the test too; a rule without `test` means `fisher`, the meaning it
 * had before.
 *
 * Since issue 41 a protocol may fix `errors` (`fail`, the default and the
 * meaning of every protocol written before: an error run counts as not
 * passing; or `exclude`), `adjust` (`holm`, `bh` or `none`, the default: the
 * family is the one pre-registered pair) and `generalize` (`runs`, the
 * default, or `tasks`).
 *
 * @module
 */

import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import { inFile, InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import { ADJUST_METHODS, type AdjustMethod } from "./adjust.ts";
import {
  COMPARE_TESTS,
  type CompareTest,
  ERRORS_MODES,
  type ErrorsMode,
  type Generalize,
  GENERALIZE_TO,
} from "./comparison.ts";
import { checkMetric } from "./variant_stats.ts";

/** What a comparative rule expects of the candidate. */
export type RuleExpectation = "candidate_better" | "not_worse";

/** One rule of a protocol, as declared (file shape). */
export interface ProtocolRule {
  /** The rule's id, unique in the protocol. */
  id: string;
  /** A metric of `OBJECTIVE_METRICS`. */
  metric: string;
  /** A comparison with the baseline. */
  expect?: RuleExpectation;
  /** Absolute slack, in the metric's own units (0.05 = five points of pass rate). */
  tolerance?: number;
  /** Lower bound on the candidate's value. */
  min?: number;
  /** Upper bound on the candidate's value. */
  max?: number;
  /**
   * pass_rate `candidate_better` only: the test that decides (`paired`,
   * `fisher` or `auto`, see `comparePair`); absent means `fisher`, so a
   * protocol declared before paired tests existed keeps its meaning.
   */
  test?: CompareTest;
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
  /** What an error run is: `fail` (default, a run that did not pass) or `exclude`. */
  errors?: ErrorsMode;
  /** Adjust over every variant against the baseline: `holm`, `bh`, or `none` (default). */
  adjust?: AdjustMethod;
  /** What the verdict speaks for: `runs` (default) or `tasks`. */
  generalize?: Generalize;
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
  "errors",
  "adjust",
  "generalize",
  "rules",
];
const RULE_KEYS = ["id", "metric", "expect", "tolerance", "min", "max", "test"];
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
 * Check a protocol's shape: known keys only, `protocol_version: 1` (absent
 * reads as 1), a baseline, a candidate, and at least one well-formed rule.
 *
 * @param value The parsed protocol.
 * @param source The file it came from, for errors.
 * @returns The same value, typed (a copy with `protocol_version: 1` when it had none).
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
    // No protocol_version is version 1 (issue 20); any other value is refused.
    if (value.protocol_version !== 1 && value.protocol_version !== undefined) {
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
    for (
      const [key, known] of [
        ["errors", ERRORS_MODES],
        ["adjust", ADJUST_METHODS],
        ["generalize", GENERALIZE_TO],
      ] as const
    ) {
      const found = value[key];
      if (found !== undefined && !(known as readonly unknown[]).includes(found)) {
        throw new InputError(
          `expected ${known.join(", ")}, got ${
            typeof found === "string" ? JSON.stringify(found) : describeJson(found)
          }`,
          key,
        );
      }
    }
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
      if (rule.test !== undefined) {
        if (!COMPARE_TESTS.includes(rule.test as CompareTest)) {
          throw new InputError(
            `unknown test ${
              typeof rule.test === "string" ? JSON.stringify(rule.test) : describeJson(rule.test)
            }; use ${COMPARE_TESTS.join(", ")}`,
            joinPath(path, "test"),
          );
        }
        if (rule.metric !== "pass_rate" || rule.expect !== "candidate_better") {
          throw new InputError(
            "test applies to pass_rate candidate_better rules only",
            joinPath(path, "test"),
          );
        }
      }
      optionalNumber(rule, "tolerance", path, (n) => Number.isFinite(n) && n >= 0, "a number ≥ 0");
      optionalNumber(rule, "min", path, Number.isFinite, "a number");
      optionalNumber(rule, "max", path, Number.isFinite, "a number");
    });
    return (value.protocol_version === 1
      ? value
      : { protocol_version: 1, ...value }) as unknown as Protocol;
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
