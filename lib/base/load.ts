/**
 * Reading JSON, JSONC and YAML documents with errors that name the file,
 * line and column. Every file toolscore reads (gold files, contracts, traces,
 * honesty configs, protocols, specs) goes through here.
 *
 * The syntax is chosen by extension (`.json`, `.jsonc`, `.yaml`/`.yml`); any
 * other extension is sniffed: JSON first, then JSONC, then YAML when the text
 * does not start like JSON.
 *
 * @module
 */

import type { ParseError } from "jsonc-parser";
import { jsoncModule, withHeavy, yamlModule } from "./_lazy.ts";
import { InputError } from "./errors.ts";

/** The syntaxes {@linkcode parseDocument} reads. */
export type Syntax = "json" | "jsonc" | "yaml";

/** Options for {@linkcode parseDocument}. */
export interface ParseDocumentOptions {
  /**
   * The syntax; chosen from the file name's extension when absent, else sniffed.
   * @default {undefined}
   */
  syntax?: Syntax;
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

function jsoncError(text: string, file: string, allowComments: boolean): InputError | undefined {
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

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw jsoncError(text, file, false) ??
      new InputError(`invalid JSON (${(error as Error).message})`, file);
  }
}

function parseJsoncText(text: string, file: string): unknown {
  const error = jsoncError(text, file, true);
  if (error) throw error;
  return jsoncModule().parse(text, [], { allowTrailingComma: true });
}

function parseYaml(text: string, file: string): unknown {
  try {
    return yamlModule().load(text);
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
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (syntax === "json") return parseJson(text, file);
  if (syntax === "jsonc") return parseJsoncText(text, file);
  if (syntax === "yaml") return parseYaml(text, file);
  const head = text.trimStart()[0];
  if (head === "{" || head === "[") {
    try {
      return JSON.parse(text);
    } catch {
      return parseJsoncText(text, file);
    }
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
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw fileError(error, path);
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
 * Read and parse a JSON, JSONC or YAML file.
 *
 * @param path The file.
 * @param options The syntax, when the extension does not say.
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
  // JSONC, YAML and the positions of JSON errors need parsers the CLI loads on demand.
  return withHeavy(() => parseDocument(text, path, options));
}
