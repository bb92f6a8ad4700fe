/**
 * `eval DIR RESULTS… --bfcl-score OUT` (issue 43): BFCL-shaped score files,
 * for side-by-side comparison with the leaderboard's own. BFCL's writer
 * (`save_eval_results` in `bfcl_eval/eval_checker/eval_runner_helper.py`,
 * ShishirPatil/gorilla) writes `score/<model>/<group>/BFCL_v4_<category>_score.json`
 * (`VERSION_PREFIX = "BFCL_v4"`, `bfcl_eval/constants/category_mapping.py`;
 * the group from `get_general_grouping`: `live` for `live_*`, `multi_turn` for
 * `multi_turn_*`, `non_live` otherwise), as JSON Lines written by Python's
 * `json.dumps(entry, ensure_ascii=False)`: first the header
 * `{"accuracy", "correct_count", "total_count"}`, then one line per failed
 * entry `{"id", "model_name", "test_category", "valid", "error",
 * "error_type", …}`.
 *
 * toolscore writes `OUT/<group>/BFCL_v4_<category>_score.json` (so `OUT` is
 * BFCL's `score/<model>`) for every category of the contracts whose
 * `source.benchmark` is `bfcl`, in the same byte form (`", "` and `": "`
 * separators, floats as Python prints them: `1.0`, `5e-05`). The header counts
 * the traces scored, waived ones left out; with `--waivers` it gains
 * `"waived": [{id, reason, link, valid}]` (BFCL's own headers carry extra keys
 * in some categories, so its readers take them). A failed entry's line has
 * `id` (the BFCL id, else the trace name), `model_name` (the trace's model, or
 * `null`: BFCL's result files do not name it), `test_category`, `valid:
 * false`, `error` (toolscore's reasons: the failed checks and the first
 * issue), `error_type` (BFCL's, from the checker, else `null`) and
 * `model_result_decoded` (the calls as `[{name: {param: value}}]`); the
 * prompt and the possible answer, which BFCL adds, are not in the contract
 * and are left out. Credentials are redacted as on stdout.
 *
 * An existing score file is replaced only when it is a score file (its first
 * line an object with `accuracy`, `correct_count` and `total_count`) and not
 * an input of the run; anything else is an error (exit 2) before any file is
 * written.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { InputError, UsageError } from "../base/errors.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import { redactText } from "../checks/security.ts";
import { pushAll } from "../base/arrays.ts";
import { isNumberText } from "../base/lossless_json.ts";
import type { CliIO } from "./command.ts";
import { configFiles } from "./eval_outputs.ts";
import type { GoldTally } from "./eval_gold_summary.ts";
import type { GoldRow } from "./eval_gold_types.ts";
import type { EvalSession } from "./eval_types.ts";

/** BFCL's score file name prefix (`VERSION_PREFIX`). */
export const BFCL_VERSION_PREFIX = "BFCL_v4";

/**
 * A float as Python's `repr` prints it: `1.0` for whole numbers, `5e-05`
 * for exponents.
 *
 * @param value The number.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { pythonFloat } from "./eval_bfcl_score.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pythonFloat(1), "1.0");
 * assert.equal(pythonFloat(1 / 3), "0.3333333333333333");
 * assert.equal(pythonFloat(1 / 20000), "5e-05");
 * ```
 */
export function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : value < 0 ? "-Infinity" : "NaN";
  const abs = Math.abs(value);
  if (Object.is(value, -0)) return "-0.0";
  if (Number.isInteger(value) && abs < 1e16) return `${value}.0`;
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    const [mantissa, exponent] = value.toExponential().split("e") as [string, string];
    const sign = exponent.startsWith("-") ? "-" : "+";
    const digits = exponent.replace(/^[+-]/, "").padStart(2, "0");
    return `${mantissa}e${sign}${digits}`;
  }
  return String(value);
}

/**
 * A value as Python's `json.dumps(value, ensure_ascii=False)` writes it
 * (numbers as JSON writes them, except the header's floats).
 *
 * @param value A JSON value.
 * @param floats Keys whose numbers are Python floats.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { pythonJson } from "./eval_bfcl_score.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pythonJson({ a: [1, "x"], b: null }), '{"a": [1, "x"], "b": null}');
 * assert.equal(pythonJson({ accuracy: 1 }, new Set(["accuracy"])), '{"accuracy": 1.0}');
 * ```
 */
export function pythonJson(value: unknown, floats: ReadonlySet<string> = new Set()): string {
  const write = (v: unknown, depth: number): string => {
    if (depth > 256) throw new InputError("a value nested more than 256 deep", "--bfcl-score");
    if (Array.isArray(v)) return `[${v.map((item) => write(item, depth + 1)).join(", ")}]`;
    if (typeof v === "object" && v !== null && !isNumberText(v)) {
      const parts: string[] = [];
      for (const [key, child] of Object.entries(v)) {
        if (child === undefined) continue;
        const text = floats.has(key) && typeof child === "number"
          ? pythonFloat(child)
          : write(child, depth + 1);
        parts.push(`${JSON.stringify(key)}: ${text}`);
      }
      return `{${parts.join(", ")}}`;
    }
    return JSON.stringify(v) ?? "null";
  };
  return write(value, 0);
}

/**
 * BFCL's group folder of a category (`get_general_grouping`).
 *
 * @param category The test category.
 * @returns `live`, `multi_turn`, `agentic`, `format_sensitivity` or `non_live`.
 *
 * @example Usage
 * ```ts
 * import { bfclGroup } from "./eval_bfcl_score.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(bfclGroup("live_simple"), "live");
 * assert.equal(bfclGroup("parallel_multiple"), "non_live");
 * ```
 */
export function bfclGroup(category: string): string {
  if (category === "format_sensitivity") return "format_sensitivity";
  if (category.startsWith("live_")) return "live";
  if (category.startsWith("multi_turn")) return "multi_turn";
  if (category.startsWith("web_search") || category.startsWith("memory")) return "agentic";
  return "non_live";
}

/** One score file to write. */
export interface ScoreFile {
  /** Its path. */
  path: string;
  /** Its text. */
  text: string;
}

const HEADER_FLOATS = new Set(["accuracy"]);

/**
 * The score files of a run's BFCL rows, one per category, in category order.
 *
 * @param rows The rows of traces scored against BFCL contracts, in run order.
 * @param dir The `--bfcl-score` folder.
 * @returns The files.
 * @throws {InputError} When a category name cannot be a file name.
 *
 * @example Usage
 * ```ts
 * import { bfclScoreFiles } from "./eval_bfcl_score.ts";
 * import assert from "node:assert/strict";
 *
 * const row = { trace: "r[1]", contract: "simple_python_1", entry: "simple_python_1", score: 1 };
 * const [file] = bfclScoreFiles([{ ...row, category: "simple_python", passed: true }], "score/m");
 * assert.equal(file?.path, "score/m/non_live/BFCL_v4_simple_python_score.json");
 * assert.equal(file?.text, '{"accuracy": 1.0, "correct_count": 1, "total_count": 1}\n');
 * ```
 */
export function bfclScoreFiles(rows: readonly GoldRow[], dir: string): ScoreFile[] {
  const byCategory = new Map<string, GoldRow[]>();
  for (const row of rows) {
    if (row.category === undefined) continue;
    const list = byCategory.get(row.category) ?? [];
    list.push(row);
    byCategory.set(row.category, list);
  }
  const files: ScoreFile[] = [];
  for (const category of [...byCategory.keys()].sort()) {
    if (!/^[A-Za-z0-9_]+$/.test(category)) {
      throw new InputError(
        `category ${JSON.stringify(category)} cannot name a score file (letters, digits, _)`,
        "--bfcl-score",
      );
    }
    const list = byCategory.get(category)!;
    const counted = list.filter((row) => row.waived === undefined);
    const correct = counted.filter((row) => row.passed).length;
    const waived = list.filter((row) => row.waived !== undefined);
    const header = {
      accuracy: counted.length === 0 ? null : correct / counted.length, // every entry waived: unknown
      correct_count: correct,
      total_count: counted.length,
      ...(waived.length > 0
        ? {
          waived: waived.map((row) => ({
            id: row.entry,
            reason: row.waived!.reason,
            link: row.waived!.link,
            valid: row.passed,
          })),
        }
        : {}),
    };
    const lines = [pythonJson(header, HEADER_FLOATS)];
    for (const row of counted) {
      if (row.passed || row.bfcl === undefined) continue;
      lines.push(pythonJson({
        id: row.entry,
        model_name: row.bfcl.model_name,
        test_category: category,
        valid: false,
        error: row.bfcl.error,
        error_type: row.bfcl.error_type,
        model_result_decoded: row.bfcl.model_result_decoded,
      }));
    }
    files.push({
      path: join(dir, bfclGroup(category), `${BFCL_VERSION_PREFIX}_${category}_score.json`),
      text: redactText(`${lines.join("\n")}\n`),
    });
  }
  return files;
}

async function isScoreFile(path: string): Promise<boolean> {
  let head: string;
  try {
    const file = await Deno.open(path, { read: true });
    try {
      const buffer = new Uint8Array(64 * 1024);
      const n = await file.read(buffer) ?? 0;
      head = new TextDecoder().decode(buffer.subarray(0, n)).split("\n")[0] ?? "";
    } finally {
      file.close();
    }
  } catch {
    return false;
  }
  try {
    const doc = JSON.parse(head);
    return typeof doc === "object" && doc !== null && "accuracy" in doc &&
      "correct_count" in doc && "total_count" in doc;
  } catch {
    return false;
  }
}

/**
 * Write the score files: every target is checked first (the overwrite rule),
 * then each is written atomically.
 *
 * @param files The files.
 * @param inputs The run's input files (never replaced).
 * @throws {UsageError} When a target exists and is not a score file, or is an input.
 */
export async function writeBfclScoreFiles(
  files: readonly ScoreFile[],
  inputs: readonly string[],
): Promise<void> {
  const inputSet = new Set(inputs.filter((p) => p !== "-").map((p) => resolve(p)));
  for (const file of files) {
    if (inputSet.has(resolve(file.path))) {
      throw new UsageError(
        `--bfcl-score: ${file.path} is an input of this run; choose another DIR`,
      );
    }
    let exists = false;
    try {
      exists = (await Deno.lstat(file.path)) !== undefined;
    } catch { /* missing: written */ }
    if (exists && !await isScoreFile(file.path)) {
      throw new UsageError(
        `--bfcl-score: ${file.path} exists and is not a score file; move it or choose another DIR`,
      );
    }
  }
  for (const file of files) {
    await Deno.mkdir(dirname(file.path), { recursive: true });
    await writeTextFileAtomic(file.path, file.text);
  }
}

/**
 * Write a run's `--bfcl-score` files, one stderr line each.
 *
 * @param session The run.
 * @param tally Its gold folder summary (the BFCL rows).
 * @param files The trace files (inputs, never replaced).
 * @param io Where the lines go.
 * @throws {InputError} When no trace was scored against a BFCL contract.
 */
export async function writeRunScores(
  session: EvalSession,
  tally: GoldTally,
  files: readonly string[],
  io: Pick<CliIO, "stderr">,
): Promise<void> {
  const dir = session.folder?.bfclScore;
  if (dir === undefined) return;
  if (tally.bfclRows.length === 0) {
    throw new InputError(
      'no trace was scored against a BFCL contract (source.benchmark "bfcl" with a category); ' +
        "no score file written",
      "--bfcl-score",
    );
  }
  const inputs = configFiles(session).filter((file): file is string => file !== undefined);
  pushAll(inputs, files);
  const written = bfclScoreFiles(tally.bfclRows, dir);
  await writeBfclScoreFiles(written, inputs);
  for (const file of written) io.stderr(`bfcl score: ${file.path}\n`);
}
