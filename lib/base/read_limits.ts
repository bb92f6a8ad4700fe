/**
 * Size limits on what toolscore reads (issue 42): every file (traces, gold
 * files, contracts, receipts, run files) and standard input are read with a
 * cap on bytes that is checked while reading, not after — `/dev/zero` or an
 * endless pipe stops at the cap, and a regular file whose size is past it is
 * refused before a byte is allocated. One MCP message (a stdio line, an HTTP
 * JSON body, one SSE event) has its own cap.
 *
 * | Input                      | Default | Raise it with                 |
 * | -------------------------- | ------- | ----------------------------- |
 * | a file or standard input   | 512 MiB | `TOOLSCORE_MAX_INPUT_MIB`     |
 * | one MCP message or line    | 64 MiB  | `TOOLSCORE_MAX_MESSAGE_MIB`   |
 *
 * The variables are read only when deno may read them (the compiled binary
 * may; `deno run` needs `--allow-env=TOOLSCORE_MAX_INPUT_MIB`): scoring stays
 * `--allow-read` only, as `TOOLSCORE_DEBUG` does. A value that is not a
 * positive number is ignored. Environment variables reach the eval worker
 * pool without plumbing, which a flag would not.
 *
 * @module
 */

import { InputError } from "./errors.ts";

const MIB = 1024 * 1024;

/** The default cap on one file or standard input, in bytes (512 MiB). */
export const DEFAULT_MAX_INPUT_BYTES = 512 * MIB;

/** The default cap on one MCP message or line, in bytes (64 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * MIB;

function mibFromEnv(variable: string): number | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable }).state !== "granted") return undefined;
    const value = Number(Deno.env.get(variable));
    return Number.isFinite(value) && value > 0 ? Math.floor(value * MIB) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cap on one file or standard input, in bytes: `TOOLSCORE_MAX_INPUT_MIB`
 * when set and readable, else 512 MiB.
 *
 * @returns The cap in bytes.
 *
 * @example Usage
 * ```ts
 * import { maxInputBytes } from "./read_limits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(maxInputBytes() > 0);
 * ```
 */
export function maxInputBytes(): number {
  return mibFromEnv("TOOLSCORE_MAX_INPUT_MIB") ?? DEFAULT_MAX_INPUT_BYTES;
}

/**
 * The cap on one MCP message or line, in bytes: `TOOLSCORE_MAX_MESSAGE_MIB`
 * when set and readable, else 64 MiB.
 *
 * @returns The cap in bytes.
 *
 * @example Usage
 * ```ts
 * import { maxMessageBytes } from "./read_limits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(maxMessageBytes() > 0);
 * ```
 */
export function maxMessageBytes(): number {
  return mibFromEnv("TOOLSCORE_MAX_MESSAGE_MIB") ?? DEFAULT_MAX_MESSAGE_BYTES;
}

/**
 * A cap in words: `512 MiB`, or the bytes when not a whole number of MiB.
 *
 * @param bytes The cap.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { sizeText } from "./read_limits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(sizeText(64 * 1024 * 1024), "64 MiB");
 * assert.equal(sizeText(1000), "1000 bytes");
 * ```
 */
export function sizeText(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

function tooBig(where: string, limit: number): InputError {
  return new InputError(
    `larger than ${sizeText(limit)} (the input limit); ` +
      "set TOOLSCORE_MAX_INPUT_MIB to read more",
    where,
  );
}

function joined(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.length === total) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * Read a stream's bytes, stopping with an {@linkcode InputError} as soon as
 * more than `limit` bytes have come (the stream is cancelled).
 *
 * @param stream The stream, e.g. `Deno.stdin.readable`.
 * @param where What it is, for the error (`<stdin>`).
 * @param limit The cap in bytes.
 * @returns The bytes.
 * @throws {InputError} When the stream is longer than `limit`.
 *
 * @example Usage
 * ```ts
 * import { readStreamCapped } from "./read_limits.ts";
 * import assert from "node:assert/strict";
 *
 * const body = () => new Response("hello").body!;
 * assert.equal((await readStreamCapped(body(), "<stdin>", 10)).length, 5);
 * await assert.rejects(readStreamCapped(body(), "<stdin>", 3), /<stdin>: larger than 3 bytes/);
 * ```
 */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  where: string,
  limit: number = maxInputBytes(),
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) {
        chunks.length = 0;
        await reader.cancel().catch(() => {});
        throw tooBig(where, limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return joined(chunks, total);
}

const CHUNK = 1024 * 1024;

/**
 * Read a file's bytes with a cap: a regular file whose size is past `limit`
 * is refused before anything is allocated, and any file (a device, a pipe, a
 * file that grows) is read in chunks that stop at the cap.
 *
 * @param path The file.
 * @param limit The cap in bytes.
 * @returns The bytes.
 * @throws {InputError} When the file is larger than `limit`.
 * @throws {Deno.errors.NotFound} (and the other `Deno.open` errors) unchanged.
 *
 * @example Usage
 * ```ts
 * import { readFileCapped } from "./read_limits.ts";
 * import assert from "node:assert/strict";
 *
 * const file = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(file, "0123456789");
 * assert.equal((await readFileCapped(file, 10)).length, 10);
 * await assert.rejects(readFileCapped(file, 9), /larger than 9 bytes/);
 * Deno.removeSync(file);
 * ```
 */
export async function readFileCapped(
  path: string,
  limit: number = maxInputBytes(),
): Promise<Uint8Array> {
  using file = await Deno.open(path);
  const info = await file.stat();
  if (info.isFile && info.size > limit) throw tooBig(path, limit);
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const buffer = new Uint8Array(
      info.isFile && info.size > 0 ? Math.min(info.size + 1, CHUNK) : CHUNK,
    );
    const read = await file.read(buffer);
    if (read === null) break;
    total += read;
    if (total > limit) throw tooBig(path, limit);
    chunks.push(read === buffer.length ? buffer : buffer.subarray(0, read));
  }
  return joined(chunks, total);
}

/**
 * {@linkcode readFileCapped}, synchronously.
 *
 * @param path The file.
 * @param limit The cap in bytes.
 * @returns The bytes.
 * @throws {InputError} When the file is larger than `limit`.
 *
 * @example Usage
 * ```ts
 * import { readFileCappedSync } from "./read_limits.ts";
 * import assert from "node:assert/strict";
 *
 * const file = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(file, "0123456789");
 * assert.throws(() => readFileCappedSync(file, 9), /larger than 9 bytes/);
 * Deno.removeSync(file);
 * ```
 */
export function readFileCappedSync(path: string, limit: number = maxInputBytes()): Uint8Array {
  using file = Deno.openSync(path);
  const info = file.statSync();
  if (info.isFile && info.size > limit) throw tooBig(path, limit);
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const buffer = new Uint8Array(
      info.isFile && info.size > 0 ? Math.min(info.size + 1, CHUNK) : CHUNK,
    );
    const read = file.readSync(buffer);
    if (read === null) break;
    total += read;
    if (total > limit) throw tooBig(path, limit);
    chunks.push(read === buffer.length ? buffer : buffer.subarray(0, read));
  }
  return joined(chunks, total);
}
