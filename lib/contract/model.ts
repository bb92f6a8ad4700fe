/**
 * The contract model: required calls with alternative groups, optional
 * calls, forbidden rules, weights and a pass mark, and the expansion of the
 * alternatives into every combination of required calls.
 *
 * @module
 */

import { callToJson, type JsonObject, type ToolCall } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import type { ForbiddenRule } from "../checks/forbidden.ts";
import {
  DEFAULT_PASS_RULE,
  isDefaultPassRule,
  type PassRule,
  passRuleToJson,
} from "./pass_rule.ts";
import { MATCHING_MODES, type MatchingMode } from "./matching.ts";

/**
 * The most combinations {@linkcode Contract.expansions} will produce.
 *
 * @example Usage
 * ```ts
 * import { contractFromMapping, MAX_COMBINATIONS } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * // Eleven groups of two options: 2048 combinations, more than 1024.
 * const required = Array.from({ length: 11 }, (_, i) => ({ id: `g${i}`, alternatives: [[], [{ tool: "a" }]] }));
 * assert.equal(MAX_COMBINATIONS, 1024);
 * assert.throws(() => contractFromMapping({ required }).expansions(), /2048/);
 * ```
 */
export const MAX_COMBINATIONS = 1024;

/**
 * The contract file format version this toolscore reads and writes.
 *
 * @example Usage
 * ```ts
 * import { CONTRACT_VERSION, contractFromMapping } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CONTRACT_VERSION, 2);
 * assert.throws(() => contractFromMapping({ contract_version: 3, required: [] }), /contract_version 2/);
 * ```
 */
export const CONTRACT_VERSION = 2;

/**
 * A place in the required calls where any one of several call lists is
 * acceptable. An option may be empty: skipping the step is acceptable.
 *
 * @example Usage
 * ```ts
 * import { AlternativeGroup } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const notify = new AlternativeGroup("notify", [[{ tool: "send_email" }], [{ tool: "send_sms" }], []]);
 * assert.equal(notify.options.length, 3);
 * ```
 */
export class AlternativeGroup {
  /**
   * Create a group.
   *
   * @param id The group's id, unique in its contract.
   * @param options The acceptable call lists, in order of preference for ties.
   * @throws {InputError} When there is no option at all.
   */
  constructor(readonly id: string, readonly options: ToolCall[][]) {
    if (options.length === 0) {
      throw new InputError(
        `group ${JSON.stringify(id)} needs at least one option (a list of calls; [] means skip)`,
      );
    }
  }

  /**
   * The file shape.
   *
   * @returns `{id, alternatives: [[call, …], …]}`.
   */
  toJSON(): JsonObject {
    return { id: this.id, alternatives: this.options.map((option) => option.map(callToJson)) };
  }
}

/** A required entry: a call, or a group of alternatives. */
export type RequiredEntry = ToolCall | AlternativeGroup;

/** One combination of alternatives. */
export interface Expansion {
  /** The required calls of this combination, in declaration order. */
  calls: ToolCall[];
  /** The option index chosen for each group, by group id. */
  chosen: Record<string, number>;
}

/** Options for {@linkcode Contract}. */
export interface ContractOptions {
  /**
   * Required calls and alternative groups, in order.
   * @default {[]}
   */
  required?: RequiredEntry[];
  /**
   * Calls the agent may make without penalty.
   * @default {[]}
   */
  optional?: ToolCall[];
  /**
   * Calls the agent must never make.
   * @default {[]}
   */
  forbidden?: ForbiddenRule[];
  /**
   * Score weights (partial; merged over the defaults).
   * @default {undefined}
   */
  weights?: Record<string, number>;
  /**
   * The pass mark, in [0, 1].
   * @default {0.9}
   */
  minScore?: number;
  /**
   * What passing means (the file's `pass` key; see `pass_rule.ts`).
   * @default {DEFAULT_PASS_RULE} (the score and every check but `call-errors`)
   */
  pass?: PassRule;
  /**
   * How required calls pair with actual ones (the file's `matching` key).
   * @default {"optimal"}
   */
  matching?: MatchingMode;
  /**
   * Where an imported contract came from (the file's `source` key): metadata, never scored.
   * @default {undefined}
   */
  source?: JsonObject;
}

/**
 * A parsed contract (contracts v2).
 *
 * @example Usage
 * ```ts
 * import { AlternativeGroup, Contract } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const contract = new Contract({
 *   required: [
 *     { tool: "search" },
 *     new AlternativeGroup("notify", [[{ tool: "send_email" }], []]),
 *   ],
 * });
 * assert.deepEqual(
 *   contract.expansions().map((e) => [e.calls.map((c) => c.tool), e.chosen]),
 *   [[["search", "send_email"], { notify: 0 }], [["search"], { notify: 1 }]],
 * );
 * assert.equal(contract.minScore, 0.9);
 * ```
 */
export class Contract {
  /** Required calls and alternative groups, in order. */
  readonly required: RequiredEntry[];
  /** Calls the agent may make without penalty. */
  readonly optional: ToolCall[];
  /** Calls the agent must never make. */
  readonly forbidden: ForbiddenRule[];
  /** Score weights, or `undefined` for the defaults. */
  readonly weights: Record<string, number> | undefined;
  /** The pass mark. */
  readonly minScore: number;
  /** What passing means. */
  readonly pass: PassRule;
  /** How required calls pair with actual ones (`lib/contract/matching.ts`). */
  readonly matching: MatchingMode;
  /** Where an imported contract came from: metadata, never scored. */
  readonly source: JsonObject | undefined;

  /**
   * Create a contract.
   *
   * @param options The entries, weights and pass mark.
   * @throws {InputError} On a duplicate group id or a pass mark outside [0, 1].
   */
  constructor(options: ContractOptions = {}) {
    this.required = options.required ?? [];
    this.optional = options.optional ?? [];
    this.forbidden = options.forbidden ?? [];
    this.weights = options.weights;
    this.minScore = options.minScore ?? 0.9;
    this.pass = options.pass ?? DEFAULT_PASS_RULE;
    this.matching = options.matching ?? MATCHING_MODES[0];
    this.source = options.source;
    if (!(this.minScore >= 0 && this.minScore <= 1)) {
      throw new InputError(`must be a number in [0, 1], got ${this.minScore}`, "min_score");
    }
    const seen = new Set<string>();
    this.required.forEach((entry, i) => {
      if (!(entry instanceof AlternativeGroup)) return;
      if (seen.has(entry.id)) {
        throw new InputError(`duplicate group id ${JSON.stringify(entry.id)}`, `required[${i}].id`);
      }
      seen.add(entry.id);
    });
  }

  /**
   * The alternative groups, in order.
   *
   * @returns The groups.
   */
  get groups(): AlternativeGroup[] {
    return this.required.filter((entry): entry is AlternativeGroup =>
      entry instanceof AlternativeGroup
    );
  }

  /**
   * How many combinations the alternatives expand to (the product of the
   * groups' option counts).
   *
   * @returns The count; 1 without groups.
   */
  get combinationCount(): number {
    return this.groups.reduce((count, group) => count * group.options.length, 1);
  }

  /**
   * Every combination of alternatives, in declaration order: the first option
   * of every group first, the last group varying fastest.
   *
   * @returns The required calls and the chosen options of each combination.
   * @throws {InputError} With more than {@linkcode MAX_COMBINATIONS} combinations, naming the count.
   */
  expansions(): Expansion[] {
    const count = this.combinationCount;
    if (count > MAX_COMBINATIONS) {
      throw new InputError(
        `the alternative groups expand to ${count} combinations, more than MAX_COMBINATIONS ` +
          `(${MAX_COMBINATIONS}); use fewer groups or fewer options`,
        "required",
      );
    }
    let partial: Expansion[] = [{ calls: [], chosen: {} }];
    for (const entry of this.required) {
      if (!(entry instanceof AlternativeGroup)) {
        for (const expansion of partial) expansion.calls.push(entry);
        continue;
      }
      const next: Expansion[] = [];
      for (const expansion of partial) {
        entry.options.forEach((option, index) => {
          next.push({
            calls: [...expansion.calls, ...option],
            chosen: { ...expansion.chosen, [entry.id]: index },
          });
        });
      }
      partial = next;
    }
    return partial;
  }

  /**
   * The file shape (snake_case; matchers as their operator objects).
   *
   * @returns `{contract_version: 2, required, optional, forbidden, weights?, min_score, pass?, matching?, source?}`
   *   (`pass` and `matching` only when they are not the default).
   */
  toJSON(): JsonObject {
    const out: JsonObject = {
      contract_version: CONTRACT_VERSION,
      required: this.required.map((entry) =>
        entry instanceof AlternativeGroup ? entry.toJSON() : callToJson(entry)
      ),
      optional: this.optional.map(callToJson),
      forbidden: this.forbidden.map((rule) => ({ ...rule })),
    };
    if (this.weights !== undefined) out.weights = { ...this.weights };
    out.min_score = this.minScore;
    if (!isDefaultPassRule(this.pass)) out.pass = passRuleToJson(this.pass);
    if (this.matching !== MATCHING_MODES[0]) out.matching = this.matching;
    if (this.source !== undefined) out.source = this.source;
    return out;
  }
}
