/**
 * The data of an `eval` run against a gold folder (issues 43 and 44) that
 * its parts share: the folder and waivers loaded, a trace's own contract, and
 * the plain row each scored trace adds to the folder's summary (sent by
 * worker threads as plain data). Types only, like `eval_types.ts`.
 *
 * @module
 */

import type { ContractFolder } from "../evaluate/contract_folder.ts";
import type { Expected } from "../evaluate/expected.ts";

/** One waiver: a known-bad gold item left out of the accuracy. */
export interface Waiver {
  /** The contract id it waives. */
  id: string;
  /** Why. */
  reason: string;
  /** Where it is discussed (an issue), or `null`. */
  link: string | null;
}

/** A gold folder run: the folder, its waivers and the flags that read them. */
export interface GoldFolderRun {
  /** The contracts. */
  folder: ContractFolder;
  /** The waivers (`--waivers`), by contract id. */
  waivers: Map<string, Waiver>;
  /** The waivers whose id has no contract in the folder (a warning, not an error). */
  unusedWaivers: string[];
  /** The bar from `--min-score`/`--fail-under`, if given: every trace's bar. */
  flagBar?: number;
  /** `--bfcl-score DIR`: where the BFCL-shaped score files go. */
  bfclScore?: string;
}

/** The contract one trace is scored against. */
export interface TraceGold {
  /** The contract's id. */
  id: string;
  /** Its file. */
  path: string;
  /** The contract. */
  expected: Expected;
  /** The trace's bar: the flag's, else the contract's `min_score`, else 0.9. */
  bar: number;
}

/** What a failing trace adds to its BFCL score file (`--bfcl-score`). */
export interface BfclFailure {
  /** The trace's model, when it names one. */
  model_name: string | null;
  /** Why it failed: toolscore's reasons. */
  error: string[];
  /** BFCL's `error_type`, when the checker gave one. */
  error_type: string | null;
  /** The calls made, in BFCL's decoded form `[{name: {param: value}}]`. */
  model_result_decoded: Record<string, unknown>[];
}

/** One scored trace, as the gold folder's summary counts it. */
export interface GoldRow {
  /** The trace's name. */
  trace: string;
  /** The contract's id. */
  contract: string;
  /**
   * The entry's own id: the full BFCL id (`simple_python_3#2`), else the
   * run's `task#trial`, else the trace's name. The same entry twice is an error.
   */
  entry: string;
  /** The contract's `source.benchmark`, when it has one. */
  benchmark?: string;
  /** The contract's `source.category`, when it has one. */
  category?: string;
  /** Whether it passed. */
  passed: boolean;
  /** Its score. */
  score: number;
  /** Its waiver, when `--waivers` waives its contract. */
  waived?: Waiver;
  /** For `--bfcl-score`: what a failing BFCL trace adds to its score file. */
  bfcl?: BfclFailure;
}
