/**
 * The doctor's contract checks: `contract` (each task's contract or gold
 * file loads and validates) and `contract-tools` (every tool a contract
 * names exists on the server; a dangling name fails with the closest real
 * one). Built on `lib/expected.ts` (`loadExpected`, `expectedTools`).
 *
 * @module
 */

import { ToolscoreError } from "../base/errors.ts";
import { expectedTools, loadExpected } from "../evaluate/expected.ts";
import { DoctorCheck } from "./check.ts";
import { closestName } from "./closest_name.ts";

/** A contract or gold file that loaded, and the tools it names. */
export interface LoadedContract {
  /** The file. */
  path: string;
  /** `contract` or `gold`. */
  kind: string;
  /** Every tool name it mentions (required, alternatives, optional, forbidden). */
  tools: string[];
}

/** What {@linkcode checkContracts} returns. */
export interface ContractsCheck {
  /** The `contract` check. */
  check: DoctorCheck;
  /** The files that loaded. */
  contracts: LoadedContract[];
}

/** Options for {@linkcode checkContracts}. */
export interface CheckContractsOptions {
  /**
   * How the caller names the contract setting, for the skip's detail.
   * @default {"the contractPath option"}
   */
  contractTerm?: string;
}

/**
 * `contract`: each file loads and validates as a contract or gold file.
 *
 * @param paths The files (duplicates are checked once).
 * @param options How the caller names the contract setting.
 * @returns The check and the files that loaded.
 *
 * @example Usage
 * ```ts ignore
 * import { checkContracts } from "./contract_checks.ts";
 *
 * const { check } = await checkContracts(["contracts/refund.json"]);
 * console.log(check.status);
 * ```
 */
export async function checkContracts(
  paths: readonly string[],
  options: CheckContractsOptions = {},
): Promise<ContractsCheck> {
  const unique = [...new Set(paths)];
  if (unique.length === 0) {
    return {
      check: new DoctorCheck(
        "contract",
        "skip",
        `no contract given (${
          options.contractTerm ?? "the contractPath option"
        }, or tasks[].contract in the spec)`,
      ),
      contracts: [],
    };
  }
  const contracts: LoadedContract[] = [];
  const errors: string[] = [];
  for (const path of unique) {
    try {
      const expected = await loadExpected(path);
      contracts.push({ path, kind: expected.kind, tools: expectedTools(expected) });
    } catch (error) {
      if (!(error instanceof ToolscoreError)) throw error;
      errors.push(error.message.includes(path) ? error.message : `${path}: ${error.message}`);
    }
  }
  if (errors.length > 0) {
    return {
      check: new DoctorCheck("contract", "fail", errors.join("; "), {
        fix: "fix the file at the place named (toolscore eval reports the same error)",
      }),
      contracts,
    };
  }
  const described = contracts.map((c) =>
    `${c.path} (${c.kind}, ${c.tools.length} tool${c.tools.length === 1 ? "" : "s"})`
  );
  return {
    check: new DoctorCheck("contract", "pass", `valid: ${described.join(", ")}`),
    contracts,
  };
}

/**
 * `contract-tools`: every tool the contracts name exists on the server.
 *
 * @param contracts The files that loaded.
 * @param serverTools The server's tool names, or `null` when they were not listed.
 * @returns The check; a dangling name fails with the closest real name.
 *
 * @example Usage
 * ```ts
 * import { checkContractTools } from "./contract_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const check = checkContractTools(
 *   [{ path: "c.json", kind: "contract", tools: ["search_flight"] }],
 *   ["search_flights", "book_flight"],
 * );
 * assert.equal(check.status, "fail");
 * assert.match(check.detail, /search_flight.*closest: search_flights/);
 * ```
 */
export function checkContractTools(
  contracts: readonly LoadedContract[],
  serverTools: readonly string[] | null,
): DoctorCheck {
  if (contracts.length === 0) {
    return new DoctorCheck("contract-tools", "skip", "no contract loaded");
  }
  if (serverTools === null) {
    return new DoctorCheck("contract-tools", "skip", "the server's tools were not listed");
  }
  const available = new Set(serverTools);
  const dangling: string[] = [];
  let named = 0;
  for (const contract of contracts) {
    for (const tool of new Set(contract.tools)) {
      named++;
      if (available.has(tool)) continue;
      // Only a name a typo away is worth suggesting.
      const closest = closestName(tool, serverTools, {
        maxDistance: Math.max(2, Math.floor(tool.length / 2)),
      });
      const hint = serverTools.length === 0
        ? "it has no tools"
        : closest !== null
        ? `closest: ${closest}`
        : `nothing similar among its ${serverTools.length} tools`;
      dangling.push(`${contract.path} names ${tool}, which the server does not have (${hint})`);
    }
  }
  if (dangling.length > 0) {
    return new DoctorCheck("contract-tools", "fail", dangling.join("; "), {
      fix: "rename the tool in the contract, or start the server build that has it",
    });
  }
  return new DoctorCheck(
    "contract-tools",
    "pass",
    `all ${named} tool name${named === 1 ? "" : "s"} the contracts use exist on the server`,
  );
}
