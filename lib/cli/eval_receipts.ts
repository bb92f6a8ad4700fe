/**
 * Receipts for `toolscore eval` (receipts.md), in their own module so that a
 * run without receipts never loads the hashing and path code: `--receipt`
 * writes TRACE.receipt.json beside each trace, `--receipt-out PATH` the
 * receipt of the one trace, `--receipt-dir DIR` one per trace into DIR. A
 * file holding several traces (JSONL) gets one receipt per trace, named
 * RUNS.N.receipt.json, whose trace input records which trace it is (`index`,
 * 1-based, as in `runs.jsonl[N]`). Every receipt is built before the first is
 * written, so a bad input writes none.
 *
 * @module
 */

import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { loadHeavy } from "../base/_lazy.ts";
import { UsageError } from "../base/errors.ts";
import { buildReceipt } from "../receipts/build.ts";
import type { FileDigest } from "../receipts/digest.ts";
import { writeReceipt } from "../receipts/io.ts";
import { checkOutput } from "./overwrite.ts";
import type { Receipt } from "../receipts/model.ts";
import {
  checkReceiptTargets,
  commonRoot,
  leavesFolder,
  makeReceiptDir,
  receiptFileName,
} from "../receipts/paths.ts";
import type { CliIO } from "./command.ts";
import type { EvalRun, Scored } from "./eval_types.ts";

/**
 * Write the receipts `toolscore eval` was asked for.
 *
 * @param run What the evaluation used.
 * @param scored The scored traces.
 * @param values The parsed flags.
 * @param io Where notes go.
 */
export async function writeReceipts(
  run: EvalRun,
  scored: Scored[],
  values: Record<string, unknown>,
  io: CliIO,
): Promise<void> {
  await loadHeavy(); // receipts are validated against their schema (ajv)
  const beside = values.receipt === true;
  const out = typeof values["receipt-out"] === "string" ? values["receipt-out"] : undefined;
  const dir = typeof values["receipt-dir"] === "string" ? values["receipt-dir"] : undefined;
  const chosen = [beside, out !== undefined, dir !== undefined].filter(Boolean).length;
  if (chosen === 0) return;
  if (chosen > 1) throw new UsageError("give one of --receipt, --receipt-out and --receipt-dir");
  if (out !== undefined && scored.length !== 1) {
    throw new UsageError("--receipt-out takes one trace; use --receipt-dir for several");
  }
  // A file of several traces gives each its position (1-based) in the file: `runs.jsonl[2]`
  // by its name, a run file's `runs.json[task#trial]` by its order (issue 42: every trace of a
  // run file wrote the same receipt).
  const perFile = new Map<string, number>();
  for (const s of scored) perFile.set(s.named.file, (perFile.get(s.named.file) ?? 0) + 1);
  const seenInFile = new Map<string, number>();
  const plans = scored.map((s) => {
    if (s.named.file === "-") {
      throw new UsageError(
        "a trace read from standard input cannot have a receipt (there is no file to hash); " +
          "save it to a file and pass its path",
      );
    }
    const ordinal = (seenInFile.get(s.named.file) ?? 0) + 1;
    seenInFile.set(s.named.file, ordinal);
    const n = /\[(\d+)\]$/.exec(s.named.name);
    const several = s.named.name !== s.named.file || perFile.get(s.named.file)! > 1;
    const index = !several ? undefined : n ? Number(n[1]) : ordinal;
    const target = out ??
      join(dir ?? dirname(s.named.file), receiptFileName(s.named.file, index));
    return { scored: s, index, target };
  });
  // With a gold folder (issue 43) each receipt names its trace's own contract and bar.
  const inputs = [run.goldPath, ...scored.map((s) => s.named.file), ...Object.values(run.inputs)];
  for (const s of scored) if (s.gold !== undefined) inputs.push(s.gold.path);
  checkReceiptTargets(plans.map((p) => p.target), inputs);
  // The overwrite rule: an existing file is replaced only when it is a toolscore receipt.
  for (const plan of plans) await checkOutput(plan.target, "receipt", { inputs });
  const digests = new Map<string, FileDigest>();
  const receipts: Receipt[] = [];
  for (const plan of plans) {
    receipts.push(
      await buildReceipt(plan.scored.result, {
        inputs: {
          gold: plan.scored.gold?.path ?? run.goldPath,
          trace: { path: plan.scored.named.file, index: plan.index },
          forbidden: run.inputs.forbidden,
          honesty_config: run.inputs.honesty_config,
          injected: run.inputs.injected,
        },
        settings: { format: run.settings.format, strict: run.settings.strict },
        finalAnswer: run.options.finalAnswer,
        minScore: plan.scored.gold?.bar ?? run.bar,
        relativeTo: dirname(plan.target),
        digests,
      }),
    );
  }
  if (dir !== undefined) await makeReceiptDir(dir);
  for (const [i, plan] of plans.entries()) {
    const receipt = receipts[i]!;
    await writeReceipt(plan.target, receipt);
    io.stderr(`receipt: ${plan.target}\n`);
    // A plain `verify` admits inputs under the receipt's folder or the current directory.
    const outside = Object.values(receipt.inputs).filter((input) =>
      leavesFolder(input.path) && !underCurrentDirectory(dirname(plan.target), input.path)
    );
    if (outside.length > 0) {
      const root = commonRoot(dirname(plan.target), [
        plan.scored.gold?.path ?? run.goldPath,
        plan.scored.named.file,
        ...Object.values(run.inputs).filter((p) => p !== undefined),
      ]);
      io.stderr(
        `note: it names inputs outside its folder (${outside.map((x) => x.path).join(", ")}); ` +
          `verify it with: toolscore verify --root ${root} ${plan.target}\n`,
      );
    }
  }
}

function underCurrentDirectory(folder: string, stored: string): boolean {
  const rel = relative(resolve("."), resolve(folder, stored));
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
