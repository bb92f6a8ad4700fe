/**
 * Splitting a byte stream into lines in linear time, with a cap on one line
 * (issue 42): a server that writes a line that never ends costs at most the
 * cap, and the bytes past it are dropped up to the next newline. Before, the
 * stdio transport appended each chunk to one string and searched it from the
 * start, which took minutes and gigabytes for an endless line, and kept the
 * event loop too busy for the request timeout to fire.
 *
 * @module
 */

import { sizeText } from "../base/read_limits.ts";

/** What of one stderr line is kept (it is only ever shown clipped to 500 characters). */
export const STDERR_LINE_BYTES = 4096;

const NEWLINE = 0x0a;
const UTF8 = new TextDecoder();

/**
 * Splits bytes into lines (without the `\n`), keeping at most `limit` bytes
 * of a line that has not ended.
 *
 * @example Usage
 * ```ts
 * import { LineSplitter } from "./line_splitter.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = new LineSplitter(4);
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * assert.deepEqual(lines.push(bytes("ab\ncd")), ["ab"]);
 * assert.deepEqual(lines.push(bytes("efgh\nij")), ["cdef"]);
 * assert.equal(lines.overflowed, true);
 * assert.equal(lines.end(), "ij");
 * ```
 */
export class LineSplitter {
  #chunks: Uint8Array[] = [];
  #size = 0;
  #overflowed = false;

  /**
   * A splitter.
   *
   * @param limit The most bytes kept of one line.
   */
  constructor(readonly limit: number) {}

  /** Whether some line was longer than the limit (its start was kept). */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /**
   * Take the next bytes.
   *
   * @param bytes A chunk.
   * @returns The lines it ended.
   */
  push(bytes: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, start)) {
      this.#keep(bytes.subarray(start, at));
      lines.push(this.#take());
      start = at + 1;
    }
    this.#keep(bytes.subarray(start));
    return lines;
  }

  /**
   * The last line, when the bytes did not end with a newline.
   *
   * @returns The line, or `undefined`.
   */
  end(): string | undefined {
    return this.#size > 0 ? this.#take() : undefined;
  }

  #keep(bytes: Uint8Array): void {
    const room = this.limit - this.#size;
    if (bytes.length > room) this.#overflowed = true;
    const kept = bytes.length > room ? bytes.subarray(0, Math.max(room, 0)) : bytes;
    if (kept.length === 0) return;
    // A copy: the reader may reuse its buffer.
    this.#chunks.push(kept.slice());
    this.#size += kept.length;
  }

  #take(): string {
    const bytes = new Uint8Array(this.#size);
    let at = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    this.#chunks = [];
    this.#size = 0;
    return UTF8.decode(bytes);
  }
}

/**
 * The error text for a stdio line past the message limit.
 *
 * @param limit The limit in bytes.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { lineTooLong } from "./line_splitter.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(lineTooLong(64 * 1024 * 1024), /longer than 64 MiB/);
 * ```
 */
export function lineTooLong(limit: number): string {
  return `a line on the server's stdout is longer than ${sizeText(limit)} ` +
    "(the MCP message limit; set TOOLSCORE_MAX_MESSAGE_MIB to allow more)";
}

/**
 * A line as kept for an error message: at most 500 characters, then `…`.
 *
 * @param line The line.
 * @returns The line, clipped.
 *
 * @example Usage
 * ```ts
 * import { clip } from "./line_splitter.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(clip("x".repeat(501)).length, 501);
 * ```
 */
export function clip(line: string): string {
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/**
 * Read a stream line by line with {@linkcode LineSplitter}: each ended line
 * that is not blank goes to `onLine` (without a trailing `\r`), `onOverflow`
 * is called once when a line passes `limit`, and the last line, when the
 * stream ended without its newline, is returned, not passed on. A read that
 * fails (cancelled on close, a broken pipe) ends the reading quietly: the
 * process's exit says why.
 *
 * @param reader The stream's reader (released at the end).
 * @param limit The most bytes kept of one line.
 * @param onLine Called with each line.
 * @param onOverflow Called once when a line is longer than the limit.
 * @returns The unfinished last line, or `undefined` when the stream ended on a newline.
 *
 * @example Usage
 * ```ts
 * import { readLines } from "./line_splitter.ts";
 * import assert from "node:assert/strict";
 *
 * const lines: string[] = [];
 * const stream = new Blob(["a\r\n\nb\n{\"cut"]).stream();
 * const rest = await readLines(stream.getReader(), 100, (line) => lines.push(line), () => {});
 * assert.deepEqual(lines, ["a", "b"]);
 * assert.equal(rest, '{"cut');
 * ```
 */
export async function readLines(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  onLine: (line: string) => void,
  onOverflow: () => void,
): Promise<string | undefined> {
  const emit = (line: string) => {
    const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (trimmed.trim() !== "") onLine(trimmed);
  };
  const lines = new LineSplitter(limit);
  let told = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const line of lines.push(value)) emit(line);
      if (lines.overflowed && !told) {
        told = true;
        onOverflow();
      }
    }
  } catch {
    // Cancelled on close, or the pipe broke: the exit status says why.
  } finally {
    reader.releaseLock();
  }
  const last = lines.end();
  if (last === undefined) return undefined;
  const trimmed = last.endsWith("\r") ? last.slice(0, -1) : last;
  return trimmed.trim() === "" ? undefined : trimmed;
}
