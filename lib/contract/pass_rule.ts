/**
 * The contract's `pass` key (issue 28): what "passed" means, one rule read
 * by `eval`, `agent run` rows, receipts, `compare --traces` and export alike.
 *
 * - absent: the default — the score reaches `min_score` and none of
 *   {@linkcode DEFAULT_PASS_CHECKS} has status `fail` (`unknown` does not
 *   fail). `call-errors` is left out: an injected fault fails a call by
 *   design, and `required-calls` already fails a required call that failed
 *   without a successful retry.
 * - `{checks: [...]}`: the score and these checks instead (any evidence check
 *   id, `call-errors` included; `[]` is the score alone).
 * - `score`: the score alone (the rule before issue 28 minus honesty).
 * - `exact`: reserved for benchmark importers, defined now so it is the same
 *   rule everywhere: pass only when every required call was matched with
 *   every argument, no call sent an unexpected parameter, and the scored
 *   calls are exactly the calls required (none missing, none extra). Neither
 *   the score nor the evidence checks are consulted; outcomes are not read.
 *   Under `matching: "bfcl-greedy"` the exact match is BFCL's checker's
 *   verdict (its count rule, greedy pairing and parameter rules, see
 *   `matching.ts`); BFCL's verdict is exact in this sense, with its own
 *   notion of an acceptable argument (`$normalize: "bfcl"`).
 * - `any-call`: pass when the trace has at least one call, whatever it is
 *   (BFCL's `live_relevance`: the output decodes to a function call).
 * - `tau2-actions` (issue 44, τ²-bench's action reward): pass only when every
 *   required call is matched under `matching: "non-consuming"` (which the
 *   contract must declare). Neither the score nor the evidence checks are
 *   consulted. It equals τ²'s recorded reward only for a task whose
 *   `reward_basis` is `["ACTION"]`; for the others it is the action checks
 *   alone, and the result says so (`metrics.matching.note`).
 *
 * A gold file (no contract) gets the default rule.
 *
 * @module
 */

import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";

/**
 * Every evidence check id a `pass: {checks: [...]}` list may name.
 *
 * @example Usage
 * ```ts
 * import { PASS_CHECK_IDS } from "./pass_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(PASS_CHECK_IDS.includes("call-errors"));
 * ```
 */
export const PASS_CHECK_IDS: readonly string[] = Object.freeze([
  "required-calls",
  "call-errors",
  "forbidden-calls",
  "credentials",
  "claimed-success",
  "disclosure",
  "escape-hatch",
  "side-effects",
]);

/**
 * The checks the default rule reads: every evidence check but `call-errors`.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_PASS_CHECKS } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DEFAULT_PASS_CHECKS.includes("call-errors"), false);
 * assert.equal(DEFAULT_PASS_CHECKS.length, 7);
 * ```
 */
export const DEFAULT_PASS_CHECKS: readonly string[] = Object.freeze(
  PASS_CHECK_IDS.filter((id) => id !== "call-errors"),
);

/**
 * What passing means: the score and a list of checks, the score alone, or
 * an exact match.
 */
export type PassRule =
  | { readonly kind: "checks"; readonly checks: readonly string[] }
  | { readonly kind: "score" }
  | { readonly kind: "exact" }
  | { readonly kind: "tau2-actions" }
  | { readonly kind: "any-call" };

/**
 * Whether a rule reads the score: `exact`, `tau2-actions` and `any-call` do not.
 *
 * @param rule The rule.
 * @returns `true` when the score must reach the bar.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_PASS_RULE, ruleReadsScore } from "./pass_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ruleReadsScore(DEFAULT_PASS_RULE), true);
 * assert.equal(ruleReadsScore({ kind: "tau2-actions" }), false);
 * assert.equal(ruleReadsScore({ kind: "any-call" }), false);
 * ```
 */
export function ruleReadsScore(rule: PassRule): boolean {
  return rule.kind !== "exact" && rule.kind !== "tau2-actions" && rule.kind !== "any-call";
}

/**
 * The default rule: the score and {@linkcode DEFAULT_PASS_CHECKS}.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_PASS_RULE } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DEFAULT_PASS_RULE.kind, "checks");
 * ```
 */
export const DEFAULT_PASS_RULE: PassRule = Object.freeze({
  kind: "checks",
  checks: DEFAULT_PASS_CHECKS,
});

/**
 * Read a contract's `pass` value: absent, `"score"`, `"exact"`,
 * `"tau2-actions"` or `{checks: [...]}`.
 *
 * @param value The parsed value (`undefined` when the key is absent).
 * @param path The JSON path, for errors.
 * @returns The rule.
 * @throws {InputError} On another value, an unknown check id or one listed twice, naming the path.
 *
 * @example Usage
 * ```ts
 * import { passRuleFromJson } from "./pass_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(passRuleFromJson("score"), { kind: "score" });
 * assert.deepEqual(passRuleFromJson({ checks: ["call-errors"] }), { kind: "checks", checks: ["call-errors"] });
 * assert.throws(() => passRuleFromJson({ checks: ["nope"] }), /pass\.checks\[0\]: unknown check "nope"/);
 * ```
 */
export function passRuleFromJson(value: unknown, path = "pass"): PassRule {
  if (value === undefined) return DEFAULT_PASS_RULE;
  if (value === "score") return { kind: "score" };
  if (value === "exact") return { kind: "exact" };
  if (value === "tau2-actions") return { kind: "tau2-actions" };
  if (value === "any-call") return { kind: "any-call" };
  if (!isJsonObject(value)) {
    throw new InputError(
      `must be "score", "exact", "tau2-actions", "any-call" or {checks: [...]}, got ${
        describeJson(value)
      }`,
      path,
    );
  }
  for (const key of Object.keys(value)) {
    if (key !== "checks") {
      throw new InputError(
        `unknown key ${JSON.stringify(key)} (pass has checks)`,
        joinPath(path, key),
      );
    }
  }
  const at = joinPath(path, "checks");
  if (!Array.isArray(value.checks)) {
    throw new InputError(`must be a list of check ids, got ${describeJson(value.checks)}`, at);
  }
  const checks: string[] = [];
  value.checks.forEach((id, i) => {
    if (typeof id !== "string" || !PASS_CHECK_IDS.includes(id)) {
      throw new InputError(
        `unknown check ${JSON.stringify(id)}; a check is one of ${PASS_CHECK_IDS.join(", ")}`,
        joinPath(at, i),
      );
    }
    if (checks.includes(id)) throw new InputError(`${id} is listed twice`, joinPath(at, i));
    checks.push(id);
  });
  return { kind: "checks", checks };
}

/**
 * The file shape of a rule: `"score"`, `"exact"` or `{checks: [...]}` (the
 * default written out as its list).
 *
 * @param rule The rule.
 * @returns The JSON value.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_PASS_RULE, passRuleToJson } from "./pass_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(passRuleToJson({ kind: "score" }), "score");
 * assert.equal((passRuleToJson(DEFAULT_PASS_RULE) as { checks: string[] }).checks.length, 7);
 * ```
 */
export function passRuleToJson(
  rule: PassRule,
): "score" | "exact" | "tau2-actions" | "any-call" | { checks: string[] } {
  return rule.kind === "checks" ? { checks: [...rule.checks] } : rule.kind;
}

/**
 * Whether a rule is the default one (the same checks in the same order).
 *
 * @param rule The rule.
 * @returns `true` for the default.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_PASS_RULE, isDefaultPassRule } from "./pass_rule.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isDefaultPassRule(DEFAULT_PASS_RULE), true);
 * assert.equal(isDefaultPassRule({ kind: "score" }), false);
 * ```
 */
export function isDefaultPassRule(rule: PassRule): boolean {
  return rule.kind === "checks" && rule.checks.length === DEFAULT_PASS_CHECKS.length &&
    rule.checks.every((id, i) => id === DEFAULT_PASS_CHECKS[i]);
}
