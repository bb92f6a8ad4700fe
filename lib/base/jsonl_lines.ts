/**
 * The lines of a JSONL text or file, numbered from 1, without their line
 * breaks (`\n` or `\r\n`) and without a leading byte order mark: the one
 * line loop behind run files (`loadRuns`), exports (`iterateRecords`,
 * `validateExport`) and JSONL trace files. A file is streamed a block at a
 * time, so a file of a million lines is never held whole.
 *
 * Internal (not exported from `mod.ts`).
 *
 * @module
 */

import { checkJsonLimits } from "./json_limits.ts";
import { InputError } from "./errors.ts";
import { fileError } from "./load.ts";
import { maxInputBytes, sizeText } from "./read_limits.ts";
import { parseJsonLossless } from "./lossless_json.ts";

/** One line of a text, 1-based, without its line break. */
export interface Line {
  /** The line's text, without `\n` or `\r\n`. */
  text: string;
  /** The 1-based line number. */
  line: number;
  /** `true` on a last line that has no line break (the file may be cut short). */
  unterminated?: boolean;
}

function withoutCr(text: string): string {
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}

/**
 * Every line of a text, blank ones included; a final line break does not
 * start another line.
 *
 * @param text The text.
 * @returns The lines, in order.
 *
 * @example Usage
 * ```ts ignore
 * import { textLines } from "./jsonl_lines.ts";
 *
 * const lines = [...textLines('{"a":1}\r\n\n{"b":2}\n')];
 * // [{text: '{"a":1}', line: 1}, {text: "", line: 2}, {text: '{"b":2}', line: 3}]
 * ```
 */
export function* textLines(text: string): Generator<Line> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 0;
  let end: number;
  while ((end = text.indexOf("\n", start)) !== -1) {
    yield { text: withoutCr(text.slice(start, end)), line: ++line };
    start = end + 1;
  }
  if (start < text.length) {
    yield { text: withoutCr(text.slice(start)), line: ++line, unterminated: true };
  }
}

/**
 * The lines of a file, streamed: a block of lines per read (the lines that
 * read completed), blank ones included.
 *
 * @param path The file.
 * @param hash Sees every byte read, in order (e.g. a SHA-256 of the whole file).
 * @returns The blocks of lines, in order.
 * @throws {InputError} When the file cannot be opened or read.
 *
 * @example Usage
 * ```ts ignore
 * import { fileLineBlocks } from "./jsonl_lines.ts";
 *
 * for await (const block of fileLineBlocks("runs.jsonl")) {
 *   for (const { text, line } of block) console.log(line, text);
 * }
 * ```
 */
export async function* fileLineBlocks(
  path: string,
  hash?: { update(data: Uint8Array): void },
): AsyncGenerator<Line[]> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch (error) {
    throw fileError(error, path);
  }
  const decoder = new TextDecoder("utf-8", { fatal: true }); // invalid bytes are an error
  let buffer = "";
  let line = 0;
  let first = true;
  // One line may be at most the input limit, and is searched once, not from its start on every
  // read (issue 42): a line that never ends stops at the cap, in linear time.
  const limit = maxInputBytes();
  try {
    for await (const chunk of file.readable) {
      hash?.update(chunk);
      // The buffer holds no newline between reads: the chunk starts on line `line + 1`.
      let from = buffer.length;
      buffer += decodeChunk(decoder, chunk, path, line + 1);
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
        from = 0;
      }
      const block: Line[] = [];
      let start = 0;
      let end: number;
      while ((end = buffer.indexOf("\n", from)) !== -1) {
        block.push({ text: withoutCr(buffer.slice(start, end)), line: ++line });
        start = from = end + 1;
      }
      buffer = buffer.slice(start);
      if (buffer.length > limit) {
        throw new InputError(
          `a line longer than ${sizeText(limit)} (the input limit); ` +
            "set TOOLSCORE_MAX_INPUT_MIB to read more",
          `${path}:${line + 1}`,
        );
      }
      if (block.length > 0) yield block;
    }
  } catch (error) {
    throw fileError(error, path);
  }
  buffer += decodeChunk(decoder, undefined, path, line + 1);
  if (buffer.length > 0) yield [{ text: withoutCr(buffer), line: line + 1, unterminated: true }];
}

/**
 * One JSONL line parsed as JSON, or an error at its `file:line` saying what
 * each line must be.
 *
 * @param text The line's text.
 * @param where The file and line, `runs.jsonl:3`.
 * @returns The parsed value.
 * @throws {InputError} When the line is not valid JSON.
 *
 * @example Usage
 * ```ts ignore
 * import { parseJsonLine } from "./jsonl_lines.ts";
 *
 * parseJsonLine("{oops", "runs.jsonl:2"); // InputError: runs.jsonl:2: not valid JSON (…); each line must be one JSON object
 * ```
 */
export function parseJsonLine(text: string, where: string): unknown {
  let value: unknown;
  try {
    value = parseJsonLossless(text);
  } catch (error) {
    throw new InputError(
      `not valid JSON (${(error as Error).message}); each line must be one JSON object`,
      where,
    );
  }
  checkJsonLimits(value, where);
  return value;
}

// Strict UTF-8, one chunk at a time: invalid bytes are an InputError naming the line.
function decodeChunk(
  decoder: TextDecoder,
  chunk: Uint8Array | undefined,
  path: string,
  line: number,
): string {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch (error) {
    throw new InputError(
      "not UTF-8; save the file as UTF-8 (a binary file is not JSON lines)",
      `${path}:${line}`,
      { cause: error },
    );
  }
}
