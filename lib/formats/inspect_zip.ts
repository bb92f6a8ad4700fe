/**
 * Inspect AI's zipped `.eval` logs (issue 35): a zip of `header.json`,
 * `summaries.json`, `_journal/…` and one `samples/ID_epoch_N.json` per
 * sample. A file is a zip when its bytes start `PK\x03\x04`. The CLI's file
 * reading looks at a `.eval` file's bytes before any text decoding; any
 * other file's only when it is not UTF-8 or its text starts with those four
 * ASCII bytes, so a text trace pays no extra open (8 µs a file, measured,
 * against 11 µs for the read) and a zip under another name is still one.
 *
 * Unzipped with `fflate` (`unzipSync`, loaded lazily like the other heavy
 * packages), one sample entry at a time so a big log is never inflated
 * whole. Bounds, checked on the central directory before inflating: at most
 * {@linkcode MAX_EVAL_SAMPLE_BYTES} per sample, {@linkcode MAX_EVAL_TOTAL_BYTES}
 * in all, and a compression ratio of at most {@linkcode MAX_EVAL_RATIO} for
 * an entry over 1 MiB (a zip bomb is an input error, exit 2). Each inflated
 * sample is strict UTF-8 and parsed with the JSON limits of every trace.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { fflateModule } from "../base/_lazy.ts";
import { decodeUtf8 } from "../base/load.ts";
import type { FormatName, Trace } from "../scoring/calls.ts";
import { tracesFromText } from "./detect.ts";

/** The most bytes one sample entry may inflate to (512 MiB). */
export const MAX_EVAL_SAMPLE_BYTES = 512 * 1024 * 1024;
/** The most bytes all the sample entries of one `.eval` may inflate to (4 GiB). */
export const MAX_EVAL_TOTAL_BYTES = 4 * 1024 * 1024 * 1024;
/** The highest compression ratio of a sample entry over 1 MiB. */
export const MAX_EVAL_RATIO = 200;

const SAMPLE = /^samples\/[^/]+\.json$/;

/**
 * Whether bytes start a zip file (`PK\x03\x04`).
 *
 * @param bytes The file's first bytes (four are enough).
 * @returns Whether it is a zip.
 *
 * @example Usage
 * ```ts
 * import { isZipBytes } from "./inspect_zip.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isZipBytes(new Uint8Array([0x50, 0x4b, 3, 4, 0])), true);
 * assert.equal(isZipBytes(new TextEncoder().encode("{}")), false);
 * ```
 */
export function isZipBytes(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 &&
    bytes[3] === 4;
}

/**
 * Whether a file starts `PK\x03\x04` (reads four bytes).
 *
 * @param path The file.
 * @returns Whether it is a zip; `false` when it cannot be read (its reading reports why).
 *
 * @example Usage
 * ```ts
 * import { isZipFile } from "./inspect_zip.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isZipFile("deno.json"), false);
 * ```
 */
export function isZipFile(path: string): boolean {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path);
    const head = new Uint8Array(4);
    let got = 0;
    while (got < 4) {
      const n = file.readSync(head.subarray(got));
      if (n === null) break;
      got += n;
    }
    return isZipBytes(head.subarray(0, got));
  } catch {
    return false;
  } finally {
    file?.close();
  }
}

/** Options for {@linkcode tracesFromEvalZip}. */
export interface EvalZipOptions {
  /**
   * The format asked for; anything but `auto` and `inspect` is refused.
   * @default {"auto"}
   */
  format?: "auto" | FormatName;
}

/**
 * The traces of an Inspect `.eval` zip: one per sample entry, in the zip's
 * order.
 *
 * @param bytes The file's bytes.
 * @param source The file name, for errors.
 * @param options The format.
 * @returns The traces, each with its sample id and epoch in `run`.
 * @throws {InputError} On a zip that is not an Inspect log, holds no samples,
 * or passes the bounds, and on a sample that cannot be read.
 *
 * @example Usage
 * ```ts
 * import { tracesFromEvalZip } from "./inspect_zip.ts";
 * import { zipSync, strToU8 } from "fflate";
 * import assert from "node:assert/strict";
 *
 * const sample = { id: 1, epoch: 1, input: "hi", messages: [{ role: "assistant", content: "hello" }] };
 * const zip = zipSync({ "samples/1_epoch_1.json": strToU8(JSON.stringify(sample)) });
 * const [trace] = tracesFromEvalZip(zip, "log.eval");
 * assert.equal(trace?.finalAnswer, "hello");
 * ```
 */
export function tracesFromEvalZip(
  bytes: Uint8Array,
  source: string,
  options: EvalZipOptions = {},
): Trace[] {
  const format = options.format ?? "auto";
  if (format !== "auto" && format !== "inspect") {
    throw new InputError(
      `a zip file is read only as an Inspect .eval log, not as ${format}`,
      source,
    );
  }
  const { unzipSync } = fflateModule();
  const names: string[] = [];
  let total = 0;
  try {
    // A first pass reads only the central directory: nothing is inflated.
    unzipSync(bytes, {
      filter(entry) {
        if (!SAMPLE.test(entry.name)) return false;
        const size = entry.originalSize;
        if (size > MAX_EVAL_SAMPLE_BYTES) {
          throw new InputError(
            `${entry.name} inflates to ${size} bytes, over the ${MAX_EVAL_SAMPLE_BYTES} a sample may`,
            source,
          );
        }
        if (size > 1024 * 1024 && size > MAX_EVAL_RATIO * Math.max(entry.size, 1)) {
          throw new InputError(
            `${entry.name} inflates ${Math.round(size / Math.max(entry.size, 1))}-fold, ` +
              `over the ${MAX_EVAL_RATIO}-fold an Inspect sample may (a zip bomb?)`,
            source,
          );
        }
        total += size;
        if (total > MAX_EVAL_TOTAL_BYTES) {
          throw new InputError(
            `the samples inflate to over ${MAX_EVAL_TOTAL_BYTES} bytes; split the log`,
            source,
          );
        }
        names.push(entry.name);
        return false;
      },
    });
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`not a readable zip: ${(error as Error).message}`, source);
  }
  if (names.length === 0) {
    throw new InputError("the zip holds no samples/*.json: not an Inspect .eval log", source);
  }
  const traces: Trace[] = [];
  for (const name of names) {
    let inflated: Uint8Array | undefined;
    try {
      inflated = unzipSync(bytes, { filter: (entry) => entry.name === name })[name];
    } catch (error) {
      throw new InputError(`${name}: cannot inflate: ${(error as Error).message}`, source);
    }
    if (inflated === undefined) throw new InputError(`${name}: cannot inflate`, source);
    const where = `${source}:${name}`;
    const found = tracesFromText(decodeUtf8(inflated, where), where, { format: "inspect" });
    for (const trace of found) traces.push(trace);
  }
  return traces;
}
