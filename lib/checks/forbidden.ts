/**
 * Forbidden rules: calls an agent must never make. A call violates a rule
 * when its tool is the rule's tool and every argument the rule lists matches
 * (lenient comparison; `$` operators allowed). The first matching rule wins
 * per call. Violations go to `metrics.policy_metrics` and never change the
 * score.
 *
 * Rules live in a contract's `forbidden` list or in a standalone file (a
 * JSON, JSONC or YAML list of rules, or an object with a `forbidden` list)
 * given to `--forbidden`:
 *
 * ```json
 * [
 *   {"tool": "cancel_booking", "reason": "never cancel unasked"},
 *   {"tool": "run_sql", "args": {"query": {"$regex": "^\\s*drop\\b", "$flags": "i"}}}
 * ]
 * ```
 *
 * @module
 */

import {
  describeJson,
  isJsonObject,
  joinPath,
  type JsonObject,
  type ToolCall,
} from "../scoring/calls.ts";
import { inFile, InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import { expectedArgsFromJson } from "../scoring/matchers.ts";
import { callMatchesEntry } from "../scoring/call_match.ts";
import { redactSecrets } from "./security.ts";

/** A call the agent must never make. */
export interface ForbiddenRule {
  /** The tool name. */
  tool: string;
  /** Arguments that must all match for the rule to apply (values may be matchers); absent = any call of the tool. */
  args?: Record<string, unknown>;
  /** Why it is forbidden, for people. */
  reason?: string;
}

/** One call that broke a rule. */
export interface PolicyViolation {
  /** The call's 0-based position in the trace. */
  index: number;
  /** The call's tool. */
  tool: string;
  /** The call's arguments (`null` when it had none), with any detected credential replaced by its preview. */
  args: JsonObject | null;
  /** The rule's 0-based position. */
  rule: number;
  /** The rule's reason, or `null` when it gives none. */
  reason: string | null;
}

/** `metrics.policy_metrics`: forbidden calls found in a trace. */
export interface PolicyMetrics {
  /** How many calls broke a rule. */
  violation_count: number;
  /** How many rules were checked. */
  rule_count: number;
  /** Each violation, in call order. */
  violations: PolicyViolation[];
}

const RULE_KEYS = ["tool", "args", "reason"];

function ruleFromJson(value: unknown, path: string): ForbiddenRule {
  if (!isJsonObject(value)) {
    throw new InputError(
      `expected a rule object {tool, args?, reason?}, got ${describeJson(value)}`,
      path,
    );
  }
  for (const key of Object.keys(value)) {
    if (!RULE_KEYS.includes(key)) {
      throw new InputError(
        `unknown key ${key} (a forbidden rule has ${RULE_KEYS.join(", ")})`,
        joinPath(path, key),
      );
    }
  }
  const { tool, args, reason } = value;
  if (tool === undefined) throw new InputError("missing", joinPath(path, "tool"));
  if (typeof tool !== "string" || tool === "") {
    throw new InputError(
      `must be a non-empty string, got ${describeJson(tool)}`,
      joinPath(path, "tool"),
    );
  }
  const rule: ForbiddenRule = { tool };
  if (args !== undefined && args !== null) {
    rule.args = expectedArgsFromJson(args, joinPath(path, "args"));
  }
  if (reason !== undefined && reason !== null) {
    if (typeof reason !== "string") {
      throw new InputError(
        `must be a string, got ${describeJson(reason)}`,
        joinPath(path, "reason"),
      );
    }
    rule.reason = reason;
  }
  return rule;
}

/**
 * Read forbidden rules from parsed JSON: a list of `{tool, args?, reason?}`
 * (or an object with a `forbidden` list). `args` go through
 * {@linkcode matcherFromJson}.
 *
 * @param value The parsed list.
 * @param path The list's JSON path, for errors (`forbidden`).
 * @returns The rules, in order.
 * @throws {InputError} On a malformed rule, an unknown key or a bad operator, naming the path.
 *
 * @example Usage
 * ```ts
 * import { forbiddenRulesFromJson } from "./forbidden.ts";
 * import assert from "node:assert/strict";
 *
 * const rules = forbiddenRulesFromJson([{ tool: "rm", reason: "destructive" }]);
 * assert.deepEqual(rules, [{ tool: "rm", reason: "destructive" }]);
 * assert.throws(() => forbiddenRulesFromJson([{ reason: "x" }], "forbidden"), /forbidden\[0\]\.tool: missing/);
 * ```
 */
export function forbiddenRulesFromJson(value: unknown, path = ""): ForbiddenRule[] {
  let list = value;
  let at = path;
  if (isJsonObject(value) && Object.keys(value).length === 1 && Array.isArray(value.forbidden)) {
    list = value.forbidden;
    at = joinPath(path, "forbidden");
  }
  if (!Array.isArray(list)) {
    throw new InputError(
      `expected a list of forbidden rules [{tool, args?, reason?}], got ${describeJson(value)}`,
      path || undefined,
    );
  }
  return list.map((item, i) => ruleFromJson(item, joinPath(at, i)));
}

/**
 * Read a standalone forbidden-rules file (JSON, JSONC or YAML).
 *
 * @param path The file.
 * @returns The rules.
 * @throws {InputError} When the file cannot be read or a rule is malformed; the message names the file.
 *
 * @example Usage
 * ```ts ignore
 * import { loadForbidden } from "@toolscore/cli";
 *
 * const rules = await loadForbidden("forbidden.yaml");
 * ```
 */
export async function loadForbidden(path: string): Promise<ForbiddenRule[]> {
  const value = await readDocument(path);
  try {
    return forbiddenRulesFromJson(value);
  } catch (error) {
    throw error instanceof InputError ? inFile(error, path) : error;
  }
}

/**
 * Check calls against forbidden rules: a call breaks the first rule whose
 * tool is its tool and whose listed arguments all match (leniently).
 *
 * @param calls The calls of a trace (every call, optional ones included).
 * @param rules The rules.
 * @returns `metrics.policy_metrics`.
 *
 * @example Usage
 * ```ts
 * import { checkForbidden, forbiddenRulesFromJson } from "./forbidden.ts";
 * import assert from "node:assert/strict";
 *
 * const rules = forbiddenRulesFromJson([
 *   { tool: "run_sql", args: { query: { $regex: "^\\s*DROP", $flags: "i" } }, reason: "no drops" },
 * ]);
 * const metrics = checkForbidden([
 *   { tool: "run_sql", args: { query: "select 1" } },
 *   { tool: "run_sql", args: { query: "drop table users" } },
 * ], rules);
 * assert.deepEqual(metrics, {
 *   violation_count: 1,
 *   rule_count: 1,
 *   violations: [
 *     { index: 1, tool: "run_sql", args: { query: "drop table users" }, rule: 0, reason: "no drops" },
 *   ],
 * });
 * ```
 */
export function checkForbidden(
  calls: readonly ToolCall[],
  rules: readonly ForbiddenRule[],
): PolicyMetrics {
  const violations: PolicyViolation[] = [];
  if (rules.length > 0) {
    calls.forEach((call, index) => {
      const rule = rules.findIndex((candidate) => callMatchesEntry(candidate, call));
      if (rule === -1) return;
      violations.push({
        index,
        tool: call.tool,
        args: call.args ? redactSecrets(call.args) : null,
        rule,
        reason: rules[rule]?.reason ?? null,
      });
    });
  }
  return { violation_count: violations.length, rule_count: rules.length, violations };
}
