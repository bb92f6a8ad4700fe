/**
 * Internal to the receipts module: where the input paths of a receipt built
 * in this process are relative to. `buildReceipt` stores paths as given
 * (relative to the working directory) or relative to `relativeTo`; knowing
 * which lets `writeReceipt` store them relative to the receipt's own folder
 * and `verifyReceipt` check an unwritten receipt without calling its inputs
 * "escaping". A path edited after the build is not vouched for.
 *
 * @module
 */

import { resolve } from "node:path";

interface Origin {
  /** The absolute folder the stored paths are relative to. */
  base: string;
  /** The path each role was built with. */
  paths: Record<string, string>;
}

const ORIGINS = new WeakMap<object, Origin>();

/**
 * Record how a built receipt's input paths were stored.
 *
 * @param receipt The sealed receipt.
 * @param base The folder the paths are relative to (`relativeTo`, else the working directory).
 * @param paths The stored path of each role.
 */
export function recordOrigin(receipt: object, base: string, paths: Record<string, string>): void {
  ORIGINS.set(receipt, { base: resolve(base), paths: { ...paths } });
}

/**
 * The absolute path of a built receipt's input, when the receipt was built
 * in this process and the entry still holds the path it was built with.
 *
 * @param receipt The receipt.
 * @param role The input role.
 * @param stored The path the entry holds now.
 * @returns The absolute path, or `undefined`.
 */
export function builtInputPath(receipt: object, role: string, stored: string): string | undefined {
  const origin = ORIGINS.get(receipt);
  if (origin === undefined || origin.paths[role] !== stored) return undefined;
  return resolve(origin.base, stored);
}
