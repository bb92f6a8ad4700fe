/**
 * `verifyReceipt()`: check a receipt against itself (its shape and
 * `receipt_sha256`) and against the files it names (existence, size,
 * SHA-256). Input paths that lead outside the receipt's folder and the
 * current directory (absolute, `..`, or a symbolic link) are reported and
 * never opened, unless the caller names a `root` or opts in. Issue 20 added
 * the current directory (receipts written by `eval --receipt-dir` name
 * `../trace.json` and verify from the project root), and a receipt built in
 * this process verifies in memory whatever paths it was built with.
 *
 * @module
 */

import { isJsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { receiptSha256 } from "./build.ts";
import { fileDigest } from "./digest.ts";
import { receiptShapeProblems } from "./io.ts";
import { locateInput, type LocateOptions } from "./paths.ts";
import { builtInputPath } from "./origin.ts";

/** Options for {@linkcode verifyReceipt}. */
export interface VerifyReceiptOptions {
  /**
   * The folder relative input paths resolve against (the receipt's own
   * folder, usually). When absent: the current directory, and the inputs of
   * a receipt built in this process by `buildReceipt` are found where they
   * were built from (absolute paths and `relativeTo` included).
   * @default {"."}
   */
  base?: string;
  /**
   * The folder inputs must stay inside: a wider one (the project's) lets a
   * receipt name `../../gold.json` while `/etc/passwd` is still refused.
   * @default {undefined} (inside `base` or inside the current directory)
   */
  root?: string;
  /**
   * Read inputs that are absolute or lead outside `root`; otherwise each is a
   * problem and is not read.
   * @default {false}
   */
  allowOutside?: boolean;
}

function short(hash: unknown): string {
  return typeof hash === "string" ? `${hash.slice(0, 12)}…` : String(hash);
}

async function inputProblem(
  receipt: object,
  role: string,
  entry: unknown,
  base: string | undefined,
  options: LocateOptions,
): Promise<string | undefined> {
  if (!isJsonObject(entry) || typeof entry.path !== "string") {
    return `input ${role}: no path; the receipt is damaged`;
  }
  const name = `${role} ${entry.path}`;
  // A receipt built in this process, not yet written: its paths are the caller's own.
  const built = base === undefined ? builtInputPath(receipt, role, entry.path) : undefined;
  const location = built !== undefined
    ? { path: built }
    : await locateInput(entry.path, base ?? ".", options);
  if (location.problem !== undefined) return `${name}: ${location.problem}`;
  let digest;
  try {
    digest = await fileDigest(location.path);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    if (error.cause instanceof Deno.errors.NotFound) {
      return `${name}: missing (looked for ${location.path})`;
    }
    return `${name}: cannot be read (${error.message})`;
  }
  if (digest.sha256 === entry.sha256 && digest.bytes === entry.bytes) return undefined;
  return `${name}: changed since the receipt was written ` +
    `(now ${digest.bytes} bytes, sha256 ${short(digest.sha256)}; ` +
    `the receipt says ${entry.bytes} bytes, sha256 ${short(entry.sha256)})`;
}

/**
 * Check a receipt against itself and the files it names.
 *
 * @param receipt The receipt (parsed JSON; a damaged one is reported, not thrown).
 * @param options The folder inputs resolve against, the folder they must stay in, and
 * whether to read inputs outside it.
 * @returns The problems, one line each, empty when the receipt and every
 * input check out: its shape, its own hash (`receipt_sha256`), and per input
 * a missing file, changed bytes, or a path that escapes the receipt's folder.
 *
 * @example Usage
 * ```ts
 * import { buildReceipt, evaluate, verifyReceipt } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const receipt = await buildReceipt(evaluate([{ tool: "a" }], [{ tool: "a" }]));
 * assert.deepEqual(await verifyReceipt(receipt), []);
 *
 * receipt.result.score = 0.5;
 * assert.match((await verifyReceipt(receipt))[0]!, /receipt_sha256 does not match/);
 *
 * receipt.inputs.gold = { path: "../../etc/passwd", sha256: "0".repeat(64), bytes: 1 };
 * assert.ok((await verifyReceipt(receipt)).some((p) => p.includes("escapes the receipt directory")));
 * ```
 */
export async function verifyReceipt(
  receipt: unknown,
  options: VerifyReceiptOptions = {},
): Promise<string[]> {
  const base = options.base;
  if (!isJsonObject(receipt)) return ["not a receipt: expected a JSON object"];
  // Some other JSON file (a trace, a gold file): one line, not a list of missing keys.
  if (!("receipt_version" in receipt)) {
    return [
      "not a receipt (it has no receipt_version); give a file written by toolscore eval --receipt",
    ];
  }
  const problems = receiptShapeProblems(receipt).map((p) => `not a valid receipt: ${p}`);
  if (typeof receipt.receipt_sha256 === "string") {
    const computed = receiptSha256(receipt);
    if (computed !== receipt.receipt_sha256) {
      problems.push(
        "receipt_sha256 does not match the receipt's content: the receipt itself was changed " +
          `after it was written (it says ${short(receipt.receipt_sha256)}, ` +
          `its content hashes to ${short(computed)})`,
      );
    }
  }
  if (isJsonObject(receipt.inputs)) {
    for (const [role, entry] of Object.entries(receipt.inputs)) {
      const problem = await inputProblem(receipt, role, entry, base, {
        allowOutside: options.allowOutside,
        root: options.root,
      });
      if (problem !== undefined) problems.push(problem);
    }
  }
  return problems;
}
