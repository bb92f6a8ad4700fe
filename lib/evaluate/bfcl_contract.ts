/**
 * The dispatch of `matching: "bfcl-greedy"` in `evaluateContract()`: BFCL's
 * verdict on a trace under a contract (`bfcl_greedy.ts`), kept in
 * `metrics.bfcl`, which the passing rule reads (`pass_verdict.ts`).
 *
 * @module
 */

import type { ToolCall, Trace } from "../scoring/calls.ts";
import { AlternativeGroup, type Contract } from "../contract/model.ts";
import { InputError } from "../base/errors.ts";
import { type BfclVerdict, bfclVerdict } from "./bfcl_greedy.ts";

/**
 * BFCL's verdict on the agent's calls under a contract: its required calls
 * (no alternative groups), the category from `source.category`, and `pass:
 * "any-call"` for live relevance.
 *
 * @param contract The contract (matching `bfcl-greedy`).
 * @param calls The agent's calls.
 * @param trace The trace as read, for the `bfcl` reader's `metadata.decode_error`.
 * @returns The verdict.
 * @throws {InputError} When the contract has alternative groups (BFCL has none).
 *
 * @example Usage
 * ```ts
 * import { bfclVerdictOf } from "./bfcl_contract.ts";
 * import { contractFromMapping } from "../contract/parse.ts";
 * import assert from "node:assert/strict";
 *
 * const contract = contractFromMapping({
 *   matching: "bfcl-greedy",
 *   pass: "exact",
 *   required: [{ tool: "f", args: { x: { $one_of: ["New York"], $normalize: "bfcl", $doc: { type: "string" } } } }],
 * });
 * assert.equal(bfclVerdictOf(contract, [{ tool: "f", args: { x: "new-york" } }]).valid, true);
 * ```
 */
export function bfclVerdictOf(
  contract: Contract,
  calls: readonly ToolCall[],
  trace?: Trace,
): BfclVerdict {
  const required: ToolCall[] = [];
  for (const entry of contract.required) {
    if (entry instanceof AlternativeGroup) {
      throw new InputError(
        `matching "bfcl-greedy" takes plain required calls, not alternative groups ` +
          `(group ${JSON.stringify(entry.id)})`,
        "matching",
      );
    }
    required.push(entry);
  }
  const category = contract.source?.category;
  const decodeError = trace?.metadata?.decode_error;
  return bfclVerdict(required, calls, {
    category: typeof category === "string" ? category : undefined,
    anyCall: contract.pass.kind === "any-call",
    decodeError: typeof decodeError === "string" ? decodeError : undefined,
  });
}
