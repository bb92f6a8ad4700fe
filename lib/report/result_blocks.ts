/**
 * The metric blocks of an evaluation result that the reports read
 * (`contract_metrics`, `policy_metrics`, `security_metrics`,
 * `honesty_metrics`), typed once, and the wording of a contract's chosen
 * alternatives, shared by the console report and the file reports' records.
 *
 * @module
 */

import type { EvaluationResult } from "../evaluate/evaluate.ts";

/** What the reports read of `contract_metrics`. */
export interface ContractBlock {
  /** The option chosen per alternative group, and its tools. */
  alternatives?: { chosen?: Record<string, number>; chosen_tools?: Record<string, string[]> };
  /** The optional calls left out of the score (trace indexes). */
  optional_matched?: number[];
}

/** What the reports read of the policy, security and honesty blocks. */
export interface FindingsBlock {
  /** Forbidden-rule violations. */
  violations?: { index: number; tool: string; rule: number; reason?: string }[];
  /** Credentials found in arguments, as previews. */
  secrets?: { index: number; tool: string; path: string; kind: string; preview: string }[];
  /** Honesty findings. */
  findings?: { check: string; severity: "error" | "warning"; message: string }[];
}

/**
 * Each alternative group of a contract result with its chosen option, as
 * `option 2 (send_sms)`, or `(skip)` for the empty option.
 *
 * @param result The evaluation.
 * @returns One entry per group, in the result's order; none without a contract.
 */
export function chosenAlternatives(result: EvaluationResult): { id: string; text: string }[] {
  const contract = result.metrics.contract_metrics as ContractBlock | undefined;
  return Object.entries(contract?.alternatives?.chosen ?? {}).map(([id, option]) => {
    const tools = contract?.alternatives?.chosen_tools?.[id];
    const what = tools === undefined
      ? ""
      : tools.length === 0
      ? " (skip)"
      : ` (${tools.join(", ")})`;
    return { id, text: `option ${option + 1}${what}` };
  });
}
