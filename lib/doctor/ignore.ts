/**
 * Known findings silenced: `--ignore CODE[@PATH]` and a config's `ignore`
 * list. A rule matches a finding with its code (or every code of a family:
 * `lint` matches `lint.hidden-unicode`) and, with a path, a finding at that
 * JSON pointer or below it (`/tools/search` matches
 * `/tools/search/inputSchema/properties/q`). Rules silence the findings of
 * `tool-schemas` warnings, `tool-lint` and `catalog-drift`, whose status is
 * then that of what is left; a failed start or a missing key is never
 * silenced.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import type { DoctorFinding } from "./check.ts";

/** One rule: a code (or family), and optionally a JSON pointer. */
export interface IgnoreRule {
  /** The code, or a family (`lint`, `drift`). */
  code: string;
  /** A JSON pointer the finding is at or under; `null` for anywhere. */
  path: string | null;
}

/**
 * Parse `CODE` or `CODE@PATH`.
 *
 * @param text The rule.
 * @param where Where it was given, for the error (`--ignore`).
 * @returns The rule.
 * @throws {UsageError} When it has no code or a path that is not a JSON pointer.
 *
 * @example Usage
 * ```ts
 * import { parseIgnoreRule } from "./ignore.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseIgnoreRule("drift.compatible@/resources", "--ignore"), {
 *   code: "drift.compatible",
 *   path: "/resources",
 * });
 * ```
 */
export function parseIgnoreRule(text: string, where: string): IgnoreRule {
  const at = text.indexOf("@");
  const code = (at === -1 ? text : text.slice(0, at)).trim();
  const path = at === -1 ? null : text.slice(at + 1);
  if (!/^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*$/.test(code)) {
    throw new UsageError(
      `${where} ${
        JSON.stringify(text)
      }: expected CODE or CODE@PATH (a code such as lint.hidden-unicode, or a family such as lint)`,
    );
  }
  if (path !== null && !path.startsWith("/")) {
    throw new UsageError(
      `${where} ${
        JSON.stringify(text)
      }: the path after @ is a JSON pointer starting with / (e.g. /tools/search)`,
    );
  }
  return { code, path };
}

/**
 * Whether a rule silences a finding.
 *
 * @param finding The finding.
 * @param rules The rules.
 * @returns `true` when one matches.
 *
 * @example Usage
 * ```ts
 * import { isIgnored } from "./ignore.ts";
 * import assert from "node:assert/strict";
 *
 * const finding = { code: "lint.unannotated", severity: "warn" as const, path: "/tools/a/annotations", message: "" };
 * assert.equal(isIgnored(finding, [{ code: "lint", path: "/tools/a" }]), true);
 * assert.equal(isIgnored(finding, [{ code: "lint", path: "/tools/ab" }]), false);
 * ```
 */
export function isIgnored(finding: DoctorFinding, rules: readonly IgnoreRule[]): boolean {
  return rules.some((rule) =>
    (finding.code === rule.code || finding.code.startsWith(`${rule.code}.`)) &&
    (rule.path === null || finding.path === rule.path ||
      finding.path.startsWith(rule.path.endsWith("/") ? rule.path : `${rule.path}/`))
  );
}
