/**
 * Benchmark: `fileDigest()` of a 1 GiB file keeps memory bounded.
 *
 * Creates a 1 GiB file in a temporary folder (sparse by default; with
 * `--generated`, 1 GiB of real pseudo-random bytes written in 1 MiB chunks),
 * digests it while sampling the process's resident memory every 10 ms,
 * prints the figures, and deletes the file. Not part of the tests or CI.
 *
 *   deno run --allow-read --allow-write scripts/bench_file_digest.ts [--generated] [--size-mib N]
 *
 * @module
 */

import { fileDigest } from "../lib/receipts/digest.ts";

const MIB = 1 << 20;
const LIMIT_MB = 100;

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

async function makeFile(path: string, size: number, generated: boolean): Promise<void> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  if (!generated) {
    await file.truncate(size); // sparse: no blocks written
    return;
  }
  const chunk = new Uint8Array(MIB);
  let state = 0x9e3779b9;
  for (let written = 0; written < size; written += chunk.length) {
    for (let i = 0; i < chunk.length; i += 4) {
      // xorshift32: cheap bytes that do not compress to nothing
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      chunk[i] = state & 0xff;
      chunk[i + 1] = (state >>> 8) & 0xff;
      chunk[i + 2] = (state >>> 16) & 0xff;
      chunk[i + 3] = (state >>> 24) & 0xff;
    }
    let offset = 0;
    const part = chunk.subarray(0, Math.min(chunk.length, size - written));
    while (offset < part.length) offset += await file.write(part.subarray(offset));
  }
}

async function main(): Promise<void> {
  const generated = Deno.args.includes("--generated");
  const sizeArg = Deno.args.indexOf("--size-mib");
  const size = (sizeArg >= 0 ? Number(Deno.args[sizeArg + 1]) : 1024) * MIB;
  const dir = await Deno.makeTempDir({ prefix: "toolscore-digest-bench-" });
  const path = `${dir}/big.bin`;
  try {
    const madeAt = performance.now();
    await makeFile(path, size, generated);
    const made = (performance.now() - madeAt) / 1000;
    const kind = generated ? "generated" : "sparse";
    console.log(`file: ${mb(size)} MB (${size} bytes, ${kind}), created in ${made.toFixed(2)} s`);

    const before = Deno.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, Deno.memoryUsage().rss);
    }, 10);
    const start = performance.now();
    let digest;
    try {
      digest = await fileDigest(path);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - start) / 1000;
    peak = Math.max(peak, Deno.memoryUsage().rss);

    console.log(`sha256: ${digest.sha256}`);
    console.log(`bytes:  ${digest.bytes}`);
    console.log(`time:   ${seconds.toFixed(2)} s (${(size / MIB / seconds).toFixed(0)} MiB/s)`);
    console.log(
      `rss before: ${mb(before)} MB, peak during: ${mb(peak)} MB, ` +
        `growth: ${mb(peak - before)} MB`,
    );
    const ok = peak < LIMIT_MB * 1e6;
    console.log(
      `${ok ? "OK" : "OVER"}: peak resident memory ${mb(peak)} MB ` +
        `${ok ? "<" : ">="} ${LIMIT_MB} MB`,
    );
    if (digest.bytes !== size) throw new Error(`read ${digest.bytes} bytes, expected ${size}`);
    if (!ok) Deno.exitCode = 1;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
