/**
 * `regrade()`: rescore a saved trace under a new gold file or contract,
 * weights or rules, without re-running the agent. The source is a receipt
 * (its trace, gold, format and weights are the defaults) or a bare trace
 * file (then a gold file is required).
 *
 * Settings precedence: an explicit option wins; else a new gold file or
 * contract brings its own (a contract's weights and `min_score`); else the
 * receipt's settings apply. A receipt whose inputs changed is refused with
 * {@linkcode ReceiptMismatchError} unless `verify` is off; input paths that
 * escape the receipt's folder are never read unless `allowOutside`.
 *
 * @module
 */

import { basename, dirname } from "node:path";
import { type FormatName, isJsonObject, type Trace } from "../scoring/calls.ts";
import { jsonSha256, sha256Hex } from "../base/canonical.ts";
import { InputError } from "../base/errors.ts";
import type { EvaluationResult } from "../evaluate/evaluate.ts";
import { evaluateExpected, expectedMinScore, loadExpected } from "../evaluate/expected.ts";
import { type ForbiddenRule, loadForbidden } from "../checks/forbidden.ts";
import { parseFormatName, tracesFromText } from "../formats/detect.ts";
import { type HonestyConfig, loadHonestyFiles } from "../checks/honesty_config.ts";
import { loadInjectedFaults } from "../checks/injected_faults.ts";
import { parseDocument, readTextFile } from "../base/load.ts";
import { buildReceipt, type ReceiptInputSpec } from "./build.ts";
import { ReceiptMismatchError } from "./errors.ts";
import { receiptFromJson } from "./io.ts";
import type { Receipt, ReceiptInput, ReceiptResult } from "./model.ts";
import { locateInput, type LocateOptions, storedPath } from "./paths.ts";
import { verifyReceipt } from "./verify.ts";
import { assertRegularFile } from "./regular_file.ts";

/** Options for {@linkcode regrade}. */
export interface RegradeOptions {
  /**
   * The new gold file or contract.
   * @default {undefined} (the receipt's; required for a bare trace)
   */
  gold?: string;
  /**
   * New score weights.
   * @default {undefined} (a new contract's, else the receipt's)
   */
  weights?: Record<string, number>;
  /**
   * A forbidden-rules file.
   * @default {undefined} (the receipt's, if any)
   */
  forbidden?: string;
  /**
   * The trace format.
   * @default {undefined} (the receipt's, else `"auto"`)
   */
  format?: "auto" | FormatName;
  /**
   * Compare argument values exactly.
   * @default {undefined} (the receipt's, else `false`)
   */
  strict?: boolean;
  /**
   * Honesty-check configuration as a value; the new receipt records its hash
   * (`settings.honesty_sha256`) since there is no file to name.
   * @default {undefined} (the receipt's `honesty_config` and `injected` files, else the defaults)
   */
  honesty?: HonestyConfig;
  /**
   * A honesty configuration file (JSON or YAML) over the defaults.
   * @default {undefined} (the receipt's, if any)
   */
  honestyConfig?: string;
  /**
   * A file of faults injected into tool results.
   * @default {undefined} (the receipt's, if any)
   */
  injected?: string;
  /**
   * The final answer, when the trace does not hold one.
   * @default {undefined}
   */
  finalAnswer?: string;
  /**
   * The bar `passed` is measured against.
   * @default {undefined} (a new contract's `min_score`, else the receipt's, else 0.9)
   */
  minScore?: number;
  /**
   * Refuse a receipt whose inputs changed ({@linkcode ReceiptMismatchError});
   * `false` regrades anyway and reports the problems.
   * @default {true}
   */
  verify?: boolean;
  /**
   * The folder a receipt's inputs must stay inside.
   * @default {undefined} (the receipt's folder)
   */
  root?: string;
  /**
   * Read receipt inputs that are absolute or lead outside the receipt's folder (or `root`).
   * @default {false}
   */
  allowOutside?: boolean;
  /**
   * The folder the new receipt will be written to (its paths are relative to it).
   * @default {undefined} (the source's folder)
   */
  receiptDir?: string;
  /**
   * When the new receipt was made.
   * @default {new Date()}
   */
  createdAt?: Date;
}

/** What {@linkcode Regrade}'s constructor takes besides the essentials. */
export interface RegradeDetails {
  /**
   * The previous result block, from the source receipt.
   * @default {null}
   */
  previous?: ReceiptResult | null;
  /**
   * What `verifyReceipt` found.
   * @default {[]}
   */
  problems?: string[];
  /**
   * Things the caller should know (e.g. an external final answer that only the hash kept).
   * @default {[]}
   */
  warnings?: string[];
}

/**
 * One regraded trace: the new evaluation and receipt, beside the previous
 * result when the source was a receipt.
 *
 * @example Usage
 * ```ts
 * import { Regrade, regrade } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * // A bare trace (the demo's run that skipped a call) under weights that count required calls.
 * const done = await regrade("data/demo/missing_call.json", {
 *   gold: "data/demo/gold.json",
 *   weights: { required_call_recall: 1 },
 * });
 * assert.ok(done instanceof Regrade);
 * assert.equal(done.result.grade, "D");
 * assert.equal(done.receipt.result.grade, "D");
 * assert.equal(done.previous, null); // a bare trace has no earlier result
 * assert.equal(done.scoreDelta, null);
 * ```
 */
export class Regrade {
  /**
   * Record a regrade; use {@linkcode regrade} rather than this.
   *
   * @param source The receipt or trace that was regraded.
   * @param result The new evaluation.
   * @param receipt The new receipt.
   * @param details The previous result block, problems and warnings.
   */
  constructor(
    readonly source: string,
    readonly result: EvaluationResult,
    readonly receipt: Receipt,
    details: RegradeDetails = {},
  ) {
    this.previous = details.previous ?? null;
    this.problems = details.problems ?? [];
    this.warnings = details.warnings ?? [];
  }

  /** The previous result block (score, grade…), or `null` for a bare trace. */
  readonly previous: ReceiptResult | null;
  /** What `verifyReceipt` found (empty when it checked out). */
  readonly problems: string[];
  /** Things the caller should know about this regrade. */
  readonly warnings: string[];

  /**
   * New score minus the previous one.
   *
   * @returns The difference, or `null` without a previous score.
   */
  get scoreDelta(): number | null {
    const old = this.previous?.score;
    return typeof old === "number" ? this.result.score - old : null;
  }
}

/** Which trace of a file to score: the only one, or the `index`-th (1-based). */
async function readOneTrace(
  path: string,
  format: "auto" | FormatName,
  index: number | undefined,
): Promise<Trace> {
  const traces = tracesFromText(await readTextFile(path), path, { format });
  if (index !== undefined) {
    const trace = traces[index - 1];
    if (trace === undefined) {
      throw new InputError(
        `the receipt names trace ${index}, but the file holds ${traces.length} (read as ${format})`,
        path,
      );
    }
    return trace;
  }
  if (traces.length !== 1) {
    throw new InputError(
      `holds ${traces.length} traces; regrade takes one trace per file (or a receipt naming one)`,
      path,
    );
  }
  return traces[0]!;
}

/** The inputs a regrade reads, as paths relative to the working directory. */
interface Sources {
  trace: ReceiptInputSpec;
  gold?: string;
  forbidden?: string;
  honestyConfig?: string;
  injected?: string;
}

/** Where a receipt's input is, or an error when it must not be read. */
async function receiptInput(
  receipt: Receipt,
  role: string,
  base: string,
  options: LocateOptions,
  source: string,
): Promise<string | undefined> {
  const entry: ReceiptInput | undefined = receipt.inputs[role];
  if (entry === undefined) return undefined;
  const location = await locateInput(entry.path, base, options);
  if (location.problem !== undefined) {
    throw new InputError(
      `${role} ${entry.path}: ${location.problem}; name a root folder that holds it ` +
        "(--root), or allow any path (--allow-outside) only for a receipt you trust",
      source,
    );
  }
  assertRegularFile(location.path);
  return location.path;
}

/**
 * Rescore a saved trace with a new gold file or contract, weights or rules.
 * Nothing is re-run.
 *
 * @param source A receipt file or a trace file.
 * @param options The new gold, weights, rules and format; verification; where the new receipt goes.
 * @returns The new evaluation and receipt, the previous result block, and any problems.
 * @throws {ReceiptMismatchError} When `verify` is on and the receipt does not match its inputs.
 * @throws {InputError} When a file cannot be read, a bare trace has no gold, or an input escapes the receipt's folder.
 *
 * @example Usage
 * ```ts ignore
 * import { regrade, writeReceipt } from "@toolscore/cli";
 *
 * const done = await regrade("runs/run1.receipt.json", { weights: { argument_f1: 2 } });
 * console.log(done.previous?.score, "→", done.result.score, done.scoreDelta);
 * await writeReceipt("runs/run1.regraded.receipt.json", done.receipt);
 * ```
 */
export async function regrade(source: string, options: RegradeOptions = {}): Promise<Regrade> {
  const text = await readTextFile(source);
  let parsed: unknown;
  let parseError: unknown;
  try {
    parsed = parseDocument(text, source, { syntax: "json" });
  } catch (error) {
    parseError = error; // a trace in another syntax (JSONL, YAML), or a damaged receipt
  }
  const isReceipt = (isJsonObject(parsed) && "receipt_version" in parsed) ||
    basename(source).toLowerCase().endsWith(".receipt.json");
  // A receipt that is not valid JSON: say where (file:line:col), not "not a receipt".
  if (isReceipt && parseError !== undefined) throw parseError;
  const receiptDir = options.receiptDir ?? dirname(source);
  const locate = { allowOutside: options.allowOutside, root: options.root };
  const warnings: string[] = [];

  let receipt: Receipt | undefined;
  let problems: string[] = [];
  let sources: Sources;
  if (isReceipt) {
    receipt = receiptFromJson(parsed, source);
    const base = dirname(source);
    problems = await verifyReceipt(receipt, { base, ...locate });
    if ((options.verify ?? true) && problems.length > 0) {
      throw new ReceiptMismatchError(source, problems);
    }
    const at = (role: string) => receiptInput(receipt!, role, base, locate, source);
    const tracePath = await at("trace");
    if (tracePath === undefined) {
      throw new InputError("the receipt names no trace input; there is nothing to regrade", source);
    }
    sources = {
      trace: { path: tracePath, index: receipt.inputs.trace?.index },
      gold: options.gold ?? await at("gold"),
      forbidden: options.forbidden ?? await at("forbidden"),
      honestyConfig: options.honesty
        ? undefined
        : options.honestyConfig ?? await at("honesty_config"),
      injected: options.injected ?? (options.honesty ? undefined : await at("injected")),
    };
    if (receipt.final_answer_sha256 !== null) {
      if (options.finalAnswer === undefined) {
        warnings.push(
          "the original run used a final answer given from outside the trace; the receipt " +
            "keeps only its hash, so this regrade has none (give the final answer to use it)",
        );
      } else if (sha256Hex(options.finalAnswer) !== receipt.final_answer_sha256) {
        warnings.push("the final answer given differs from the one the receipt hashed");
      }
    }
    const honestySha256 = receipt.settings.honesty_sha256;
    if (typeof honestySha256 === "string" && options.honesty === undefined) {
      warnings.push(
        "the original run used a honesty configuration given as a value; the receipt keeps " +
          "only its hash, so this regrade uses the files it names, else the defaults " +
          "(give the configuration to use it)",
      );
    } else if (
      typeof honestySha256 === "string" && options.honesty !== undefined &&
      jsonSha256(options.honesty) !== honestySha256
    ) {
      warnings.push("the honesty configuration given differs from the one the receipt hashed");
    }
  } else {
    sources = {
      trace: { path: source },
      gold: options.gold,
      forbidden: options.forbidden,
      honestyConfig: options.honestyConfig,
      injected: options.injected,
    };
  }
  if (sources.gold === undefined) {
    throw new InputError(
      receipt
        ? "the receipt names no gold file; give the gold file or contract to regrade against"
        : "regrading a bare trace needs a gold file or contract to score it against; give one " +
          "(--gold G)",
      source,
    );
  }

  const expected = await loadExpected(sources.gold);
  const format = options.format ?? (receipt ? parseFormatName(receipt.settings.format) : "auto");
  const strict = options.strict ?? receipt?.settings.strict ?? false;
  // A new contract brings its own weights; otherwise the receipt's apply.
  const contractWeights = options.gold !== undefined && expected.kind === "contract" &&
    expected.contract.weights !== undefined;
  const weights = options.weights ?? (contractWeights ? undefined : receipt?.settings.weights);
  const minScore = options.minScore ??
    (options.gold !== undefined ? expectedMinScore(expected) : undefined) ??
    receipt?.result.min_score ?? expectedMinScore(expected) ?? 0.9;
  const forbidden: ForbiddenRule[] | undefined = sources.forbidden !== undefined
    ? await loadForbidden(sources.forbidden)
    : undefined;
  let honesty = options.honesty ?? await loadHonestyFiles(sources.honestyConfig, sources.injected);
  if (options.honesty && sources.injected !== undefined) {
    honesty = { ...options.honesty, injected: await loadInjectedFaults(sources.injected) };
  }

  const trace = await readOneTrace(sources.trace.path, format, sources.trace.index);
  const result = evaluateExpected(expected, trace, {
    weights,
    strict,
    forbidden,
    honesty,
    finalAnswer: options.finalAnswer,
    format,
  });
  const newReceipt = await buildReceipt(result, {
    inputs: {
      gold: sources.gold,
      trace: sources.trace,
      forbidden: sources.forbidden,
      honesty_config: sources.honestyConfig,
      injected: sources.injected,
    },
    settings: {
      format,
      strict,
      ...(options.honesty ? { honesty_sha256: jsonSha256(options.honesty) } : {}),
    },
    finalAnswer: options.finalAnswer,
    minScore,
    relativeTo: receiptDir,
    createdAt: options.createdAt,
    regradedFrom: receipt
      ? { path: storedPath(source, receiptDir), receipt_sha256: receipt.receipt_sha256 }
      : undefined,
  });
  return new Regrade(source, result, newReceipt, {
    previous: receipt?.result ?? null,
    problems,
    warnings,
  });
}
