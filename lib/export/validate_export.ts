/**
 * Checking a written export: every record (schema and `record_sha256`), and
 * the manifest beside it (JSONL hash, record count, schema, sources).
 *
 * @module
 */

import { checkJsonLimits } from "../base/json_limits.ts";
import { createHash } from "node:crypto";
import { isJsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { fileLineBlocks } from "../base/jsonl_lines.ts";
import { readTextFile } from "../base/load.ts";
import {
  RUN_RECORD_SCHEMA_SHA256,
  RUN_RECORD_SCHEMA_V1_SHA256,
  SCHEMA_VERSIONS,
} from "./schema.ts";
import { validateRecordAsync } from "./validate.ts";
import { manifestPathOf } from "./write.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** One problem found in an export. */
export interface ExportProblem {
  /** The file the problem is in (the JSONL file or its manifest). */
  file: string;
  /** The 1-based JSONL line, or `null` for the file as a whole. */
  line: number | null;
  /** What is wrong. */
  message: string;
}

/** What {@linkcode validateExport} found. */
export interface ExportCheck {
  /** The number of records (non-blank lines) in the JSONL file. */
  recordCount: number;
  /** The problems, empty when the export checks out. */
  problems: ExportProblem[];
  /** Record problems found beyond `maxProblems`, not listed in `problems`. */
  unlisted: number;
}

/** Options for {@linkcode validateExport}. */
export interface ValidateExportOptions {
  /**
   * Stop listing record problems after this many (the count checks still run).
   * @default {1000}
   */
  maxProblems?: number;
}

/**
 * Check an export: every line is a valid record whose `record_sha256`
 * matches, and the manifest (`<name>.manifest.json`) matches the JSONL file's
 * SHA-256 and line count, names the shipped schema, and lists every source a
 * record names with the same SHA-256. The JSONL file is streamed.
 *
 * @param path The JSONL file.
 * @param options How many record problems to list.
 * @returns The record count, the problems (empty when the export checks out) and how many
 *   record problems were found beyond `maxProblems` and not listed.
 * @throws {InputError} When the JSONL file cannot be read.
 *
 * @example Usage
 * ```ts ignore
 * import { validateExport } from "./validate_export.ts";
 *
 * const { problems } = await validateExport("export.jsonl");
 * for (const p of problems) console.log(`${p.file}:${p.line ?? ""}: ${p.message}`);
 * ```
 */
export async function validateExport(
  path: string,
  options: ValidateExportOptions = {},
): Promise<ExportCheck> {
  const maxProblems = options.maxProblems ?? 1000;
  const problems: ExportProblem[] = [];
  let listed = 0;
  const problem = (line: number | null, message: string) => {
    if (line !== null && listed++ >= maxProblems) return;
    problems.push({ file: path, line, message });
  };
  const hash = createHash("sha256");
  const sourcesSeen = new Map<string, { sha256: unknown; line: number }>();
  const versionsSeen = new Map<string, number>();
  let count = 0;
  // The checks of one line; the record hash is awaited a block of lines at a time.
  const checkLine = (text: string, line: number): Promise<string[]> => {
    if (text === "") return Promise.resolve(["blank line; every line must be one record"]);
    count++;
    let record: unknown;
    try {
      record = parseJsonLossless(text);
      checkJsonLimits(record);
    } catch (error) {
      return Promise.resolve([`not valid JSON (${(error as Error).message})`]);
    }
    if (isJsonObject(record) && typeof record.schema_version === "string") {
      if (!versionsSeen.has(record.schema_version)) versionsSeen.set(record.schema_version, line);
    }
    if (isJsonObject(record) && isJsonObject(record.source)) {
      const { path: source, sha256 } = record.source;
      if (typeof source === "string" && !sourcesSeen.has(source)) {
        sourcesSeen.set(source, { sha256, line });
      }
    }
    return validateRecordAsync(record);
  };
  for await (const block of fileLineBlocks(path, hash)) {
    const pending = block.map(({ text, line }) => [line, checkLine(text, line)] as const);
    for (const [line, messages] of pending) {
      for (const message of await messages) problem(line, message);
    }
    const last = block.at(-1)!;
    if (last.unterminated) {
      problem(last.line, "the last line has no line break; the file may be cut short");
    }
  }
  const jsonlSha256 = hash.digest("hex");
  for (
    const found of checkManifest(path, await readManifest(path), {
      jsonlSha256,
      count,
      sourcesSeen,
      versionsSeen,
    })
  ) {
    problems.push(found);
  }
  return { recordCount: count, problems, unlisted: Math.max(0, listed - maxProblems) };
}

async function readManifest(path: string): Promise<unknown> {
  const manifestPath = manifestPathOf(path);
  try {
    return JSON.parse(await readTextFile(manifestPath));
  } catch (error) {
    const message = error instanceof InputError ? error.message : (error as Error).message;
    return new Error(message);
  }
}

function checkManifest(
  path: string,
  manifest: unknown,
  found: {
    jsonlSha256: string;
    count: number;
    sourcesSeen: Map<string, { sha256: unknown; line: number }>;
    versionsSeen: Map<string, number>;
  },
): ExportProblem[] {
  const file = manifestPathOf(path);
  const problems: ExportProblem[] = [];
  const problem = (message: string, line: number | null = null, at = file) =>
    problems.push({ file: at, line, message });
  if (manifest instanceof Error) {
    problem(`cannot read the manifest (${manifest.message}); export again to write it`);
    return problems;
  }
  if (!isJsonObject(manifest)) {
    problem("the manifest is not a JSON object");
    return problems;
  }
  if (manifest.jsonl_sha256 !== found.jsonlSha256) {
    problem(
      `jsonl_sha256 is ${JSON.stringify(manifest.jsonl_sha256)} but the JSONL file hashes to ` +
        `${found.jsonlSha256}; the file was changed after export`,
    );
  }
  if (manifest.record_count !== found.count) {
    problem(
      `record_count is ${JSON.stringify(manifest.record_count)} but the JSONL file has ` +
        `${found.count} records`,
    );
  }
  const schema = isJsonObject(manifest.schema) ? manifest.schema : {};
  // A v1 export (its manifest names the v1 schema) still checks out: v2 reads v1 records.
  const shipped = { "1": RUN_RECORD_SCHEMA_V1_SHA256, "2": RUN_RECORD_SCHEMA_SHA256 };
  if (!(SCHEMA_VERSIONS as readonly unknown[]).includes(schema.version)) {
    problem(
      `schema.version is ${JSON.stringify(schema.version)}; expected ${
        SCHEMA_VERSIONS.map((v) => `"${v}"`).join(" or ")
      }`,
    );
  } else if (schema.sha256 !== shipped[schema.version as keyof typeof shipped]) {
    problem("schema.sha256 is not the shipped run-record schema's; it was written by another one");
  } else {
    // One export, one version: a v2 record under a v1 manifest was not written by an export.
    for (const [version, line] of found.versionsSeen) {
      if (version !== schema.version && (SCHEMA_VERSIONS as readonly string[]).includes(version)) {
        problem(
          `a record of schema_version "${version}" in an export whose manifest says "${schema.version}"`,
          line,
          path,
        );
      }
    }
  }
  const sources = new Map<string, unknown>();
  for (const source of Array.isArray(manifest.sources) ? manifest.sources : []) {
    if (isJsonObject(source) && typeof source.path === "string") {
      sources.set(source.path, source.sha256);
    }
  }
  for (const [source, seen] of found.sourcesSeen) {
    if (!sources.has(source)) {
      problem(`the record's source ${source} is not in the manifest's sources`, seen.line, path);
    } else if (sources.get(source) !== seen.sha256) {
      problem(
        `the record's source ${source} has a different sha256 than the manifest lists`,
        seen.line,
        path,
      );
    }
  }
  return problems;
}
