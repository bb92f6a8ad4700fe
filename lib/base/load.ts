/**
 * Reading JSON, JSONC and YAML documents with errors that name the file,
 * line and column. Every file toolscore reads (gold files, contracts, traces,
 * honesty configs, protocols, specs) goes through here.
 *
 * The syntax is chosen by extension (`.json`, `.jsonc`, `.yaml`/`.yml`); any
 * other extension is sniffed: JSON first, then JSONC, then YAML when the text
 * does not start like JSON.
 *
 * Every document is held to the limits of `json_limits.ts` before anything
 * walks it (issue 20): nesting depth 1,000, YAML aliases adding at most
 * 100,000 nodes, no number a float cannot hold, and — for the files people
 * write, read by {@linkcode readDocument} — no key given twice in one object.
 * JSON and JSONC keep number literals a double cannot hold as their digits
 * (`lossless_json.ts`, issue 42), so a 64-bit id in a gold file, a contract,
 * a trace or a receipt is compared and written back exactly; so does YAML
 * for decimal integers (`yaml_exact_int.ts`; `0x…` integers stay doubles).
 * Files must be UTF-8: invalid bytes are an error naming the line and column,
 * not replacement characters. Files are read with the input cap of
 * `read_limits.ts` (512 MiB, `TOOLSCORE_MAX_INPUT_MIB`; issue 42), checked
 * while reading: a device or pipe stops at the cap, a larger regular file is
 * refused before it is read.
 *
 * @module
 */

import type { ParseError } from "jsonc-parser";
import { jsoncModule, withHeavy, yamlModule } from "./_lazy.ts";
import { InputError } from "./errors.ts";
import { maxInputBytes, readFileCapped, readFileCappedSync } from "./read_limits.ts";
import {
  checkDuplicateKeys,
  checkJsonLimits,
  checkYamlAliases,
  keysAreUnique,
  MAX_NESTING_DEPTH,
  tooDeepOffset,
} from "./json_limits.ts";
import { parseJsonLossless } from "./lossless_json.ts";
import { parseJsoncLossless } from "./lossless_jsonc.ts";
import { exactYamlSchema } from "./yaml_exact_int.ts";

/** The syntaxes {@linkcode parseDocument} reads. */
export type Syntax = "json" | "jsonc" | "yaml";

/** Options for {@linkcode parseDocument}. */
export interface ParseDocumentOptions {
  /**
   * The syntax; chosen from the file name's extension when absent, else sniffed.
   * @default {undefined}
   */
  syntax?: Syntax;
  /**
   * Refuse a key given twice in one JSON or JSONC object (YAML always does).
   * {@linkcode readDocument}, which reads the files people write, turns it on.
   * @default {false}
   */
  uniqueKeys?: boolean;
}

/**
 * The syntax a file name's extension implies, or `undefined`.
 *
 * @param file A file name or path.
 * @returns `json`, `jsonc`, `yaml` or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { syntaxOf } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(syntaxOf("contract.yml"), "yaml");
 * assert.equal(syntaxOf("trace.txt"), undefined);
 * ```
 */
export function syntaxOf(file: string): Syntax | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".jsonc")) return "jsonc";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  return undefined;
}

/**
 * The 1-based line and column of a character offset.
 *
 * @param text The text.
 * @param offset A 0-based offset into `text`.
 * @returns `[line, column]`, both 1-based.
 *
 * @example Usage
 * ```ts
 * import { lineColumn } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(lineColumn("ab\ncd", 4), [2, 2]);
 * ```
 */
export function lineColumn(text: string, offset: number): [number, number] {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return [line, end - start + 1];
}

function depthError(text: string, file: string): InputError | undefined {
  const offset = tooDeepOffset(text);
  if (offset < 0) return undefined;
  const [line, column] = lineColumn(text, offset);
  return new InputError(
    `nested deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects (the limit); ` +
      "flatten the data",
    `${file}:${line}:${column}`,
  );
}

function jsoncError(text: string, file: string, allowComments: boolean): InputError | undefined {
  // jsonc-parser recurses: hand it nothing deeper than the limit.
  const deep = depthError(text, file);
  if (deep) return deep;
  const errors: ParseError[] = [];
  const { parse: parseJsonc, printParseErrorCode } = jsoncModule();
  parseJsonc(text, errors, { allowTrailingComma: allowComments, disallowComments: !allowComments });
  const first = errors[0];
  if (first === undefined) return undefined;
  const [line, column] = lineColumn(text, first.offset);
  const what = printParseErrorCode(first.error);
  return new InputError(
    `invalid ${allowComments ? "JSONC" : "JSON"} (${what}); fix the syntax at this position`,
    `${file}:${line}:${column}`,
  );
}

function parseJson(text: string, file: string, uniqueKeys: boolean): unknown {
  let value: unknown;
  try {
    value = parseJsonLossless(text);
  } catch (error) {
    throw jsoncError(text, file, false) ??
      new InputError(`invalid JSON (${(error as Error).message})`, file);
  }
  return checked(value, text, file, uniqueKeys, true);
}

function checked(
  value: unknown,
  text: string,
  file: string,
  uniqueKeys: boolean,
  plainJson = false,
): unknown {
  checkJsonLimits(value, file);
  // In plain JSON, counting keys decides most files without loading jsonc-parser, which names
  // the duplicate.
  if (uniqueKeys && !(plainJson && keysAreUnique(text, value))) {
    checkDuplicateKeys(text, file, jsoncModule().createScanner);
  }
  return value;
}

function parseJsoncText(text: string, file: string, uniqueKeys: boolean): unknown {
  const error = jsoncError(text, file, true);
  if (error) throw error;
  return checked(
    parseJsoncLossless(text),
    text,
    file,
    uniqueKeys,
  );
}

function parseYaml(text: string, file: string): unknown {
  const yaml = yamlModule();
  try {
    // Events first: the alias expansion is counted before the document is built.
    const events = yaml.parseEvents(text, { maxDepth: MAX_NESTING_DEPTH });
    checkYamlAliases(events, text, file, lineColumn);
    // `!!binary` (bytes, as VCR.py writes a gzip body; issue 35) reads as a Uint8Array.
    // Integers past 2^53 keep their digits (issue 42).
    const schema = exactYamlSchema(yaml);
    const documents = yaml.constructFromEvents(events, { source: text, schema });
    if (documents.length !== 1) {
      throw new InputError(
        documents.length === 0
          ? "invalid YAML (the file holds no document); write one"
          : `invalid YAML (the file holds ${documents.length} documents separated by ---); ` +
            "keep one",
        file,
      );
    }
    checkJsonLimits(documents[0], file);
    return documents[0];
  } catch (error) {
    if (error instanceof yamlModule().YAMLException) {
      const mark = error.mark;
      const where = mark ? `${file}:${mark.line + 1}:${mark.column + 1}` : file;
      throw new InputError(
        `invalid YAML (${error.reason}); fix the syntax at this position`,
        where,
      );
    }
    throw error;
  }
}

/**
 * Parse a document's text.
 *
 * @param text The text.
 * @param file The file name, for errors and to choose the syntax.
 * @param options The syntax, when the file name does not say.
 * @returns The parsed value.
 * @throws {InputError} On a syntax error, naming `file:line:column`.
 *
 * @example Usage
 * ```ts
 * import { parseDocument } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseDocument("a: 1", "x.yaml"), { a: 1 });
 * assert.throws(() => parseDocument('{"a": }', "x.json"), /x\.json:1:7/);
 * ```
 */
export function parseDocument(
  text: string,
  file: string,
  options: ParseDocumentOptions = {},
): unknown {
  const syntax = options.syntax ?? syntaxOf(file);
  const unique = options.uniqueKeys ?? false;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (syntax === "json") return parseJson(text, file, unique);
  if (syntax === "jsonc") return parseJsoncText(text, file, unique);
  if (syntax === "yaml") return parseYaml(text, file);
  const head = text.trimStart()[0];
  if (head === "{" || head === "[") {
    let value: unknown;
    try {
      value = parseJsonLossless(text);
    } catch {
      return parseJsoncText(text, file, unique);
    }
    return checked(value, text, file, unique);
  }
  return parseYaml(text, file);
}

/**
 * Read a file's text, turning "not found" and permission errors into
 * one-line {@linkcode InputError}s.
 *
 * @param path The file.
 * @returns The text.
 * @throws {InputError} When the file cannot be read.
 *
 * @example Usage
 * ```ts ignore
 * import { readTextFile } from "./load.ts";
 *
 * const text = await readTextFile("gold.json");
 * ```
 */
export async function readTextFile(path: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFileCapped(path);
  } catch (error) {
    throw fileError(error, path);
  }
  return decodeUtf8(bytes, path);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Read a file's text synchronously, strictly as UTF-8: what
 * `decodeUtf8(Deno.readFileSync(path), path)` returns (a leading byte-order
 * mark dropped), or the same error. Deno reads and decodes in one step,
 * replacing bad bytes with U+FFFD; text without U+FFFD was valid UTF-8, and
 * text with one (a bad byte, or a U+FFFD the file holds) is read again as
 * bytes and decoded strictly. Over 10,000 transcripts of 5 KB this took 12 µs
 * a file against 17 µs.
 *
 * @param path The file.
 * @returns The text.
 * @throws {InputError} When the file cannot be read or is not UTF-8.
 *
 * @example Usage
 * ```ts
 * import { readUtf8FileSync } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * const file = Deno.makeTempFileSync();
 * Deno.writeFileSync(file, new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
 * assert.equal(readUtf8FileSync(file), "{}");
 * Deno.writeFileSync(file, new Uint8Array([0x61, 0x0a, 0xff]));
 * assert.throws(() => readUtf8FileSync(file), /:2:1: not UTF-8/);
 * Deno.removeSync(file);
 * ```
 */
export function readUtf8FileSync(path: string): string {
  let text: string;
  try {
    // Not a regular file (a device, a pipe) or past the cap: read with the cap (issue 42).
    const info = Deno.statSync(path);
    if (!info.isFile || info.size > maxInputBytes()) {
      return decodeUtf8(readFileCappedSync(path), path);
    }
    text = Deno.readTextFileSync(path);
    if (text.includes("\ufffd")) return decodeUtf8(Deno.readFileSync(path), path);
  } catch (error) {
    throw fileError(error, path);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Decode UTF-8 strictly: invalid bytes are an error naming the line and
 * column where they start, never replacement characters.
 *
 * @param bytes The file's bytes.
 * @param path The file, for errors.
 * @returns The text.
 * @throws {InputError} When the bytes are not UTF-8.
 *
 * @example Usage
 * ```ts
 * import { decodeUtf8 } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decodeUtf8(new TextEncoder().encode("ok"), "x.json"), "ok");
 * assert.throws(() => decodeUtf8(new Uint8Array([0x61, 0x0a, 0xff]), "x.json"), /x\.json:2:1: not UTF-8/);
 * ```
 */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    // Find the first bad byte: the longest prefix that decodes, within a few bytes.
    let low = 0;
    let high = bytes.length;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (decodes(bytes.subarray(0, mid))) low = mid;
      else high = mid - 1;
    }
    const before = new TextDecoder().decode(bytes.subarray(0, low));
    const [line, column] = lineColumn(before, before.length);
    throw new InputError(
      `not UTF-8 (byte 0x${bytes[low]?.toString(16).padStart(2, "0")} at offset ${low}); ` +
        "save the file as UTF-8 (a binary file is not a document)",
      `${path}:${line}:${column}`,
    );
  }
}

function decodes(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Turn a file-system error into a one-line {@linkcode InputError}.
 *
 * @param error What Deno threw.
 * @param path The file or directory.
 * @returns The error to throw.
 *
 * @example Usage
 * ```ts
 * import { fileError } from "./load.ts";
 * import assert from "node:assert/strict";
 *
 * const error = fileError(new Deno.errors.NotFound("x"), "gold.json");
 * assert.equal(error.message, "gold.json: file not found; check the path");
 * ```
 */
export function fileError(error: unknown, path: string): InputError {
  if (error instanceof Deno.errors.NotFound) {
    return new InputError("file not found; check the path", path, { cause: error });
  }
  if (error instanceof Deno.errors.NotCapable) {
    return new InputError(
      "no permission to read it; run deno with --allow-read for this path",
      path,
      { cause: error },
    );
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new InputError("is a directory, expected a file", path, { cause: error });
  }
  if (error instanceof InputError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new InputError(`cannot read (${message})`, path, { cause: error });
}

/**
 * Read and parse a JSON, JSONC or YAML file that a person wrote (gold file,
 * contract, spec, protocol, honesty or fault file): a key given twice in one
 * object is an error unless `uniqueKeys: false`.
 *
 * @param path The file.
 * @param options The syntax, when the extension does not say; `uniqueKeys` (default `true` here).
 * @returns The parsed value.
 * @throws {InputError} When the file cannot be read or parsed.
 *
 * @example Usage
 * ```ts ignore
 * import { readDocument } from "./load.ts";
 *
 * const contract = await readDocument("contract.yaml");
 * ```
 */
export async function readDocument(
  path: string,
  options: ParseDocumentOptions = {},
): Promise<unknown> {
  const text = await readTextFile(path);
  // JSONC, YAML, duplicate keys and the positions of JSON errors need parsers loaded on demand.
  return withHeavy(() => parseDocument(text, path, { uniqueKeys: true, ...options }));
}
