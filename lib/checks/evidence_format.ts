/**
 * The console lines of an evaluation's evidence.
 *
 * @module
 */

import { type EvidenceState, STATES } from "./evidence_state.ts";
import type { Evidence } from "./evidence.ts";
import { ownSequence } from "../base/terminal_safe.ts";

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Options for {@linkcode formatEvidence}. */
export interface FormatEvidenceOptions {
  /**
   * Colour the states with ANSI escapes.
   * @default {false}
   */
  color?: boolean;
  /**
   * Add the coverage line.
   * @default {true}
   */
  coverage?: boolean;
}

const COLORS: Record<EvidenceState, string> = {
  pass: "\x1b[32m",
  fail: "\x1b[31m",
  unknown: "\x1b[33m",
};

/**
 * The console lines for evidence: the summary line, each check that did not
 * pass with its detail, and the coverage.
 *
 * @param evidence What {@linkcode evaluationEvidence} returned.
 * @param options Colour and coverage.
 * @returns The lines, without newlines.
 *
 * @example Usage
 * ```ts
 * import { EvidenceCheck, tally } from "@toolscore/cli";
 * import { formatEvidence } from "./evidence_format.ts";
 * import assert from "node:assert/strict";
 *
 * const checks = [
 *   new EvidenceCheck("call-errors", "pass", "none of the 2 calls failed"),
 *   new EvidenceCheck("disclosure", "unknown", "no final answer to check for disclosure"),
 * ];
 * const lines = formatEvidence({
 *   checks,
 *   counts: tally(checks.map((c) => c.status)),
 *   coverage: { calls: 2, with_outcome: 2, with_duration: 0, with_cost: 0, final_answer: "unknown" },
 * });
 * assert.deepEqual(lines, [
 *   "Evidence: 1 pass, 0 fail, 1 unknown",
 *   "  unknown  disclosure: no final answer to check for disclosure",
 *   "Coverage: 2 calls, 2 with an outcome, 0 with a duration, 0 with a cost; final answer unknown",
 * ]);
 * ```
 */
export function formatEvidence(evidence: Evidence, options: FormatEvidenceOptions = {}): string[] {
  const paint = (state: EvidenceState, text: string) =>
    options.color ? `${ownSequence(COLORS[state])}${text}${ownSequence("\x1b[0m")}` : text;
  const counts = evidence.counts;
  const summary = STATES.map((state) => {
    const text = `${counts[state] ?? 0} ${state}`;
    return (counts[state] ?? 0) > 0 ? paint(state, text) : text;
  }).join(", ");
  const lines = [`Evidence: ${summary}`];
  for (const state of ["fail", "unknown"] as const) {
    for (const check of evidence.checks) {
      if (check.status !== state) continue;
      lines.push(`  ${paint(state, state.padEnd(7))}  ${check.check}: ${check.detail}`);
    }
  }
  if (options.coverage ?? true) {
    const c = evidence.coverage;
    lines.push(
      `Coverage: ${plural(c.calls, "call")}, ${c.with_outcome} with an outcome, ` +
        `${c.with_duration} with a duration, ${c.with_cost} with a cost; final answer ${c.final_answer}`,
    );
  }
  return lines;
}
