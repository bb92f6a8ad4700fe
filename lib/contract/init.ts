/**
 * A starting contract from a known-good trace: every call required, with its
 * exact arguments, ready for the user to loosen with operators, alternatives
 * and optional entries.
 *
 * @module
 */

import type { JsonObject, Trace } from "../scoring/calls.ts";
import { isJsonObject } from "../scoring/calls.ts";
import { findSecrets } from "../checks/security.ts";
import { CONTRACT_VERSION } from "./model.ts";

// Argument data whose own keys start with `$` would read back as operators;
// wrap such an object in `$eq` so the contract means exactly this value. A
// string holding a credential becomes `{"$type": "string"}`, so a contract
// (a file meant to be committed) never holds a secret.
function literal(value: unknown): unknown {
  if (typeof value === "string") return findSecrets(value).length > 0 ? { $type: "string" } : value;
  if (Array.isArray(value)) return value.map(literal);
  if (!isJsonObject(value)) return value;
  if (Object.keys(value).some((key) => key.startsWith("$"))) return { $eq: value };
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) out[key] = literal(item);
  return out;
}

/**
 * Build a contract document (the file shape) from a trace: every call
 * required, in order, with its exact arguments. A call whose arguments did
 * not parse is required without an argument check; a string argument that
 * holds a credential is written as `{"$type": "string"}`, never in clear.
 *
 * @param trace The known-good trace.
 * @returns The contract as JSON: `{contract_version: 2, required, optional: [], forbidden: [], min_score: 0.9}`.
 *
 * @example Usage
 * ```ts
 * import { contractFromMapping, evaluateContract } from "@toolscore/cli";
 * import { contractFromTrace } from "./init.ts";
 * import { traceFromValue } from "../formats/detect.ts";
 * import assert from "node:assert/strict";
 *
 * const trace = traceFromValue([{ tool: "search", args: { q: "deno" }, result: "ok" }]);
 * const document = contractFromTrace(trace);
 * assert.deepEqual(document.required, [{ tool: "search", args: { q: "deno" } }]);
 * assert.equal(evaluateContract(contractFromMapping(document), trace).score, 1);
 * ```
 */
export function contractFromTrace(trace: Trace): JsonObject {
  return {
    contract_version: CONTRACT_VERSION,
    // A call the model sent that could not be made (issue 30) is no call to require.
    required: trace.calls.filter((call) => call.malformed === undefined).map((call) => ({
      ...(call.argsError !== undefined || call.args === undefined || call.args === null
        ? { tool: call.tool }
        : { tool: call.tool, args: literal(call.args) }),
      // Issue 34: a call the user made (τ² dual control) stays the user's.
      ...(call.actor === "user" ? { actor: "user" } : {}),
    })),
    optional: [],
    forbidden: [],
    min_score: 0.9,
  };
}
