/**
 * Writing an export: the records as JSONL and a manifest next to it
 * (`<name>.manifest.json`) holding the schema, the producer, the sources with
 * their hashes, the record count and the SHA-256 of the JSONL file.
 *
 * Both files are written to temporary files in the output folder and renamed
 * into place only when everything succeeded, so a failing export never leaves
 * a half file under the final name and never replaces an existing one. Records
 * stream to disk in blocks: memory stays bounded however many there are.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { resolve } from "node:path";
import {
  commitTempFile,
  discardTempFile,
  openTempFile,
  type TempFile,
} from "../base/atomic_write.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { InputError } from "../base/errors.ts";
import { fileDigest } from "../receipts/digest.ts";
import { RUN_RECORD_SCHEMA_SHA256, type RunRecord, SCHEMA_VERSION } from "./schema.ts";
import { isSealedRecord } from "./record.ts";
import { validateRecord } from "./validate.ts";
import { redactText } from "../checks/security.ts";

/** The manifest written next to an export (file shape). */
export interface ExportManifest {
  /** The record schema: its version and the SHA-256 of its canonical JSON. */
  schema: { version: string; sha256: string };
  /** The program that wrote the export. */
  producer: { name: string; version: string };
  /** When the export was written (UTC, ISO 8601). */
  created_at: string;
  /** Every input, as given, with the SHA-256 and size of its bytes. */
  sources: { path: string; sha256: string; bytes: number }[];
  /** The number of records (lines) in the JSONL file. */
  record_count: number;
  /** The SHA-256 of the JSONL file. */
  jsonl_sha256: string;
}

/** Flush the JSONL buffer to disk at about this many characters. */
const BLOCK = 1 << 20;

/**
 * The manifest path of an export: `out.jsonl` → `out.manifest.json`.
 *
 * @param jsonlPath The JSONL file.
 * @returns The manifest file beside it.
 *
 * @example Usage
 * ```ts
 * import { manifestPathOf } from "./write.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(manifestPathOf("exports/runs.jsonl"), "exports/runs.manifest.json");
 * assert.equal(manifestPathOf("runs"), "runs.manifest.json");
 * ```
 */
export function manifestPathOf(jsonlPath: string): string {
  const stem = jsonlPath.toLowerCase().endsWith(".jsonl") ? jsonlPath.slice(0, -6) : jsonlPath;
  return `${stem}.manifest.json`;
}

function writeError(error: unknown, path: string): InputError {
  if (error instanceof InputError) return error;
  if (error instanceof Deno.errors.NotFound) {
    return new InputError("cannot write: its folder does not exist", path, { cause: error });
  }
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return new InputError(
      "no permission to write it; run deno with --allow-write for this path",
      path,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new InputError(`cannot write (${message})`, path, { cause: error });
}

/**
 * Write records as JSONL (one record per line, `\n`, UTF-8) and a manifest
 * next to it. Every record is checked first ({@linkcode validateRecord}):
 * an invalid one stops the export. Nothing is left behind on failure.
 *
 * @param path The JSONL file to write (replaced when it exists and the export succeeds).
 * @param records The records: a list, or an async iterable such as {@linkcode iterateRecords}.
 * @param inputs The input files, hashed into the manifest's `sources`.
 * @returns The JSONL path and the manifest path.
 * @throws {InputError} On an invalid record, an unreadable input, an output that is a folder
 *   or also an input, or a write failure.
 *
 * @example Usage
 * ```ts ignore
 * import { iterateRecords, writeExport } from "@toolscore/cli";
 *
 * const inputs = ["runs.jsonl", "traces/refund-0.json"];
 * const [jsonl, manifest] = await writeExport(
 *   "export.jsonl",
 *   iterateRecords(inputs, { gold: "contract.yaml", variant: "mini" }),
 *   inputs,
 * );
 * ```
 */
export async function writeExport(
  path: string,
  records: Iterable<RunRecord> | AsyncIterable<RunRecord>,
  inputs: Iterable<string>,
): Promise<[string, string]> {
  const manifestPath = manifestPathOf(path);
  const unique = [...new Set(inputs)];
  // Renaming over an input would destroy it (and the manifest would vouch for the wrong bytes).
  for (const target of [path, manifestPath]) {
    const input = unique.find((p) => resolve(p) === resolve(target));
    if (input !== undefined) {
      throw new InputError(
        `is also an input (${input}); write the export to another file, nothing was written`,
        target,
      );
    }
  }
  try {
    if ((await Deno.stat(path)).isDirectory) {
      throw new InputError(
        "is a folder; give a file path for the export (e.g. export.jsonl inside it)",
        path,
      );
    }
  } catch (error) {
    if (error instanceof InputError) throw error; // missing or unreadable: the write says why
  }
  const sources = [];
  // A path is shown as the records show it: a credential in a file name as its preview (issue 42).
  for (const input of unique) {
    const digest = await fileDigest(input);
    sources.push({ ...digest, path: redactText(digest.path) });
  }
  const temps: TempFile[] = [];
  try {
    const jsonlTemp = await openTempFile(path);
    temps.push(jsonlTemp);
    const hash = createHash("sha256");
    const encoder = new TextEncoder();
    let count = 0;
    const writer = jsonlTemp.file.writable.getWriter();
    let buffer = "";
    const flush = async () => {
      const bytes = encoder.encode(buffer);
      buffer = "";
      hash.update(bytes);
      try {
        await writer.write(bytes);
      } catch (error) {
        throw writeError(error, path);
      }
    };
    try {
      // An error from the records (an input's fault) names the input, never the output file.
      for await (const record of records) {
        // Records sealed by the builders are frozen and valid; anything else is checked.
        const problems = isSealedRecord(record) ? [] : validateRecord(record);
        if (problems.length > 0) {
          throw new InputError(
            `not a valid run record (${problems[0]}); nothing was written`,
            `record ${count + 1}`,
          );
        }
        buffer += `${JSON.stringify(record)}\n`;
        count++;
        if (buffer.length >= BLOCK) await flush();
      }
      await flush();
      await writer.close();
    } catch (error) {
      await writer.abort().catch(() => {});
      throw error;
    }
    const manifest: ExportManifest = {
      schema: { version: SCHEMA_VERSION, sha256: RUN_RECORD_SCHEMA_SHA256 },
      producer: { name: "toolscore", version: denoJson.version },
      created_at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      sources,
      record_count: count,
      jsonl_sha256: hash.digest("hex"),
    };
    const manifestTemp = await openTempFile(manifestPath);
    temps.push(manifestTemp);
    try {
      const bytes = encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`);
      let written = 0;
      while (written < bytes.length) {
        written += await manifestTemp.file.write(bytes.subarray(written));
      }
    } catch (error) {
      throw writeError(error, manifestPath);
    }
    await commitTempFile(jsonlTemp, path);
    temps.shift();
    await commitTempFile(manifestTemp, manifestPath);
    temps.shift();
  } finally {
    for (const temp of temps) await discardTempFile(temp);
  }
  return [path, manifestPath];
}
