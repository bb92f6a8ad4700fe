/**
 * The error a regrade raises when a receipt no longer matches its inputs.
 *
 * @module
 */

import { ToolscoreError } from "../base/errors.ts";

/**
 * A receipt's inputs (or the receipt itself) changed since it was written, so
 * a regrade would not be faithful. `problems` lists what changed, one line
 * each, as {@linkcode verifyReceipt} reports it.
 *
 * @example Usage
 * ```ts
 * import { ReceiptMismatchError } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const error = new ReceiptMismatchError("run.receipt.json", ["trace run.json: missing"]);
 * assert.equal(error.name, "ReceiptMismatchError");
 * assert.match(error.message, /run\.receipt\.json: .*trace run\.json: missing/);
 * ```
 */
export class ReceiptMismatchError extends ToolscoreError {
  /**
   * Create the error.
   *
   * @param receipt The receipt file (or a name for it).
   * @param problems What changed, one line each.
   * @param options The `cause`, if any.
   */
  constructor(readonly receipt: string, readonly problems: string[], options?: ErrorOptions) {
    super(
      `${receipt}: the receipt does not match its inputs (${problems.join("; ")}); ` +
        "regrade with verification off to score it anyway",
      options,
    );
    this.name = "ReceiptMismatchError";
  }
}
