/**
 * `eval`'s own files and outputs (issue 32): the run's configuration files,
 * left out of a trace folder that holds them, and every writer made ready
 * before any scoring.
 *
 * @module
 */

import { dirname } from "node:path";
import { UsageError } from "../base/errors.ts";
import { readyOutputFile, readyOutputFolder, readyReports } from "./output_ready.ts";
import type { EvalSession } from "./eval_types.ts";
import { goldFolderFiles } from "./eval_gold_folder.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/**
 * The run's own files: left out of a trace folder that holds them.
 *
 * @param session The run.
 * @returns The gold, forbidden, honesty, injected and final-answer files (some undefined).
 */
export function configFiles(session: EvalSession): (string | undefined)[] {
  const { inputs } = session.run;
  const answerFile = session.values["final-answer-file"];
  return [
    session.run.goldPath,
    inputs.forbidden,
    inputs.honesty_config,
    inputs.injected,
    typeof answerFile === "string" ? answerFile : undefined,
    // A gold folder's index and contracts, and the waivers (issue 43).
    ...goldFolderFiles(session.folder),
    typeof session.values.waivers === "string" ? session.values.waivers : undefined,
  ];
}

/**
 * Every writer of the run made ready before any scoring: folders created, write access and the
 * overwrite rule checked, the step summary's permissions checked.
 *
 * @param session The run.
 * @param files The trace files.
 * @throws {UsageError} On receipt flags that cannot be honoured.
 * @throws {InputError} When an output cannot be written.
 */
export async function prepareEvalOutputs(session: EvalSession, files: string[]): Promise<void> {
  const { values } = session;
  const inputs = [...configFiles(session), ...files];
  // The receipt flags' own refusals come first, so a refused run creates no folder.
  const chosen = [values.receipt === true, values["receipt-out"], values["receipt-dir"]]
    .filter((v) => v !== undefined && v !== false).length;
  if (chosen > 1) throw new UsageError("give one of --receipt, --receipt-out and --receipt-dir");
  if (chosen === 1 && files.includes("-")) {
    throw new UsageError(
      "a trace read from standard input cannot have a receipt (there is no file to hash); " +
        "save it to a file and pass its path",
    );
  }
  await readyReports(values, inputs);
  const receiptOut = values["receipt-out"];
  if (typeof receiptOut === "string") await readyOutputFile(receiptOut, "--receipt-out");
  const bfclScore = session.folder?.bfclScore;
  if (bfclScore !== undefined) await readyOutputFolder(bfclScore, "--bfcl-score");
  const receiptDir = values["receipt-dir"];
  if (typeof receiptDir === "string") await readyOutputFolder(receiptDir, "--receipt-dir");
  if (values.receipt === true) {
    // Beside each trace: every trace folder once.
    for (const folder of new Set(files.map((file) => dirname(file)))) {
      await readyOutputFolder(folder, "--receipt");
    }
  }
}

/**
 * The `--json` document of a single trace: its result, indented, without
 * its `source` (the command line named it); 64-bit ids keep their digits.
 *
 * @param result The result's JSON text.
 * @returns The document, with a final newline.
 */
export function singleDocument(result: string): string {
  const { source: _source, ...doc } = parseJsonLossless(result) as Record<string, unknown>;
  return `${JSON.stringify(doc, null, 2)}\n`;
}
