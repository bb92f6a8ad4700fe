/**
 * A starting contract from a known-good trace: every call required, with its
 * exact arguments, ready for the user to loosen with operators, alternatives
 * and optional entries.
 *
 * @module
 */

import type { JsonObject, Trace } from "../scoring/calls.ts";
import { isJsonObject, joinPath } from "../scoring/calls.ts";
import { escapeDataKey } from "../scoring/matcher_json.ts";
import { InputError } from "../base/errors.ts";
import { findSecrets } from "../checks/security.ts";
import { CONTRACT_VERSION } from "./model.ts";

// Argument data whose own keys start with `$` would read back as operators: such a key is
// written with one more `$` (`$$match`, the matcher layer's escape), at any depth and at the
// top of `args` (issue 42), so every argument object reads back as itself. A value holding a
// credential becomes `{"$any": true}` and its path is reported (the call's `description`
// says so, the CLI warns), so a contract (a file meant to be committed) never holds a secret.
function literal(value: unknown, path: string, secrets: string[]): unknown {
  if (typeof value === "string") {
    if (findSecrets(value).length === 0) return value;
    secrets.push(path);
    return { $any: true };
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => literal(item, joinPath(path, i), secrets));
  }
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (findSecrets(key).length > 0) {
      throw new SecretInTraceError(
        "an argument name holds a credential; contract init will not write it into a contract",
        path, // not the key: it is the credential
      );
    }
    Object.defineProperty(out, escapeDataKey(key), {
      value: literal(item, joinPath(path, key), secrets),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A credential in a tool name or argument name: `contract init` cannot write the call. */
export class SecretInTraceError extends InputError {
  /** The error's name. */
  override name = "SecretInTraceError";
}

/** Options for {@linkcode contractFromTrace}. */
export interface ContractFromTraceOptions {
  /**
   * Called with the JSON path of each argument value that held a credential
   * (written as `{"$any": true}`), e.g. `required[0].args.token`.
   * @default {undefined}
   */
  onSecret?: (path: string) => void;
}

/**
 * Build a contract document (the file shape) from a trace: every call
 * required, in order, with its exact arguments. A call whose arguments did
 * not parse is required without an argument check; a string argument that
 * holds a credential is written as `{"$any": true}`, never in clear, and the
 * call's `description` says so; data keys starting with `$` are escaped as
 * `$$key`, so `eval` of the contract against its trace scores 1.
 *
 * @param trace The known-good trace.
 * @param options Where to report credentials left out.
 * @returns The contract as JSON: `{contract_version: 2, required, optional: [], forbidden: [], min_score: 0.9}`.
 * @throws {SecretInTraceError} When a tool name or argument name holds a credential.
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
export function contractFromTrace(
  trace: Trace,
  options: ContractFromTraceOptions = {},
): JsonObject {
  // A call the model sent that could not be made (issue 30) is no call to require.
  const calls = trace.calls.filter((call) => call.malformed === undefined);
  return {
    contract_version: CONTRACT_VERSION,
    required: calls.map((call, i) => {
      const at = `required[${i}]`;
      if (findSecrets(call.tool).length > 0) {
        throw new SecretInTraceError(
          "the tool name holds a credential; contract init will not write it into a contract",
          at,
        );
      }
      const checked = !(call.argsError !== undefined || call.args === undefined ||
        call.args === null);
      const secrets: string[] = [];
      const args = checked ? literal(call.args, `${at}.args`, secrets) : undefined;
      for (const path of secrets) options.onSecret?.(path);
      return {
        tool: call.tool,
        ...(checked ? { args } : {}),
        // Issue 34: a call the user made (τ² dual control) stays the user's.
        ...(call.actor === "user" ? { actor: "user" } : {}),
        ...(secrets.length > 0
          ? {
            description: `${secrets.join(", ")} held a credential, written as {"$any": true}; ` +
              "write the value to check (from a secret store, not in clear)",
          }
          : {}),
      };
    }),
    optional: [],
    forbidden: [],
    min_score: 0.9,
  };
}
