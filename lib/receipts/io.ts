/**
 * Receipt files: written atomically as indented JSON, read back and checked
 * against the receipt JSON Schema.
 *
 * @module
 */

import type { ErrorObject } from "ajv/dist/2020.js";
import { ajv2020Class } from "../base/_lazy.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import { InputError } from "../base/errors.ts";
import { parseDocument, readTextFile } from "../base/load.ts";
import { schemaErrorLine } from "../base/schema_problems.ts";
import { type Receipt, RECEIPT_SCHEMA } from "./model.ts";
import { dirname } from "node:path";
import { jsonSha256 } from "../base/canonical.ts";
import { builtInputPath } from "./origin.ts";
import { storedPath } from "./paths.ts";

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

let validator: Validate | undefined;

function validate(): Validate {
  validator ??= new (ajv2020Class())({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
  })
    .compile(RECEIPT_SCHEMA) as Validate;
  return validator;
}

/**
 * What is wrong with a value as a receipt, by JSON Schema; empty when it has
 * the receipt shape. Hashes are not checked here (see `verifyReceipt`).
 *
 * @param value The parsed receipt.
 * @returns One line per problem, each naming the JSON pointer (`/result/score: must be number`).
 *
 * @example Usage
 * ```ts
 * import { receiptShapeProblems } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(receiptShapeProblems([]), ["/: must be object"]);
 * assert.ok(receiptShapeProblems({ receipt_version: 1 }).includes("/producer: is missing"));
 * ```
 */
export function receiptShapeProblems(value: unknown): string[] {
  const check = validate();
  if (check(value)) return [];
  return (check.errors ?? []).map((e) => schemaErrorLine(e, "a receipt field"));
}

/**
 * Read parsed JSON as a receipt.
 *
 * @param value The parsed document.
 * @param source The file name, for errors.
 * @returns The receipt (the same object).
 * @throws {InputError} When it is not a receipt, naming the first problems.
 *
 * @example Usage
 * ```ts
 * import { receiptFromJson } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => receiptFromJson({ calls: [] }, "run.json"), /run\.json: not a receipt/);
 * ```
 */
export function receiptFromJson(value: unknown, source?: string): Receipt {
  const problems = receiptShapeProblems(value);
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).join("; ");
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : "";
    throw new InputError(
      `not a receipt (${shown}${more}); give a file written by toolscore eval --receipt`,
      source,
    );
  }
  return value as Receipt;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false; // missing or unreadable: the write says why
  }
}

/**
 * Write a receipt as indented JSON (temporary file + rename: never a partial
 * file under the final name). Input paths of a receipt built in this process
 * are stored relative to the receipt's folder (and the receipt resealed), so
 * the written receipt verifies from its folder or the project root whatever
 * paths it was built with.
 *
 * @param path The file to write.
 * @param receipt The receipt.
 * @returns The path written.
 * @throws {InputError} When the path is a folder or the file cannot be written.
 *
 * @example Usage
 * ```ts ignore
 * import { buildReceipt, evaluate, writeReceipt } from "@toolscore/cli";
 *
 * const receipt = await buildReceipt(evaluate([{ tool: "a" }], [{ tool: "a" }]));
 * await writeReceipt("run.receipt.json", receipt);
 * ```
 */
export async function writeReceipt(path: string, receipt: Receipt): Promise<string> {
  if (await isFolder(path)) {
    throw new InputError(
      "is a folder; give a file path for the receipt (e.g. run.receipt.json inside it)",
      path,
    );
  }
  await writeTextFileAtomic(path, `${JSON.stringify(rebased(receipt, dirname(path)), null, 2)}\n`);
  return path;
}

// The receipt with the paths it was built with made relative to `folder`, resealed.
function rebased(receipt: Receipt, folder: string): Receipt {
  let changed = false;
  const inputs: Record<string, unknown> = {};
  for (const [role, entry] of Object.entries(receipt.inputs ?? {})) {
    const absolute = builtInputPath(receipt, role, entry.path);
    const path = absolute === undefined ? entry.path : storedPath(absolute, folder);
    changed ||= path !== entry.path;
    inputs[role] = { ...entry, path };
  }
  if (!changed) return receipt;
  const { receipt_sha256: _, ...body } = { ...receipt, inputs } as Record<string, unknown>;
  return { ...body, receipt_sha256: jsonSha256(body) } as unknown as Receipt;
}

/**
 * Read a receipt file.
 *
 * @param path The file.
 * @returns The receipt.
 * @throws {InputError} When the file cannot be read, is not JSON, or is not a receipt.
 *
 * @example Usage
 * ```ts ignore
 * import { loadReceipt } from "@toolscore/cli";
 *
 * const receipt = await loadReceipt("run.receipt.json");
 * console.log(receipt.result.score);
 * ```
 */
export async function loadReceipt(path: string): Promise<Receipt> {
  const value = parseDocument(await readTextFile(path), path, { syntax: "json" });
  return receiptFromJson(value, path);
}
