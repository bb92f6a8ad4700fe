/**
 * Waiting with a time limit, and signalling a child's process group (the
 * child leads its own, so what it starts goes with it) — which deno permits
 * only under `--allow-run` without a list.
 *
 * @module
 */

/**
 * A timer that can be cancelled.
 *
 * @param ms Milliseconds.
 * @returns The promise that resolves after `ms`, and how to cancel it.
 *
 * @example Usage
 * ```ts
 * import { delay } from "./process_group.ts";
 *
 * const timer = delay(10);
 * timer.cancel();
 * ```
 */
export function delay(ms: number): { promise: Promise<void>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Whether a promise settles within a time.
 *
 * @param promise The promise (a rejection counts as settled).
 * @param ms Milliseconds to wait at most.
 * @returns `true` when it settled in time.
 *
 * @example Usage
 * ```ts
 * import { within } from "./process_group.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await within(Promise.resolve(), 10), true);
 * ```
 */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const timer = delay(ms);
  try {
    return await Promise.race([
      promise.then(() => true, () => true),
      timer.promise.then(() => false),
    ]);
  } finally {
    timer.cancel();
  }
}

/**
 * Signal a child's process group (nothing on Windows).
 *
 * @param child The child, which leads its group.
 * @param signal The signal.
 * @returns `false` when deno does not permit it (`--allow-run=CMD` instead of `--allow-run`).
 *
 * @example Usage
 * ```ts ignore
 * import { signalGroup } from "./process_group.ts";
 *
 * signalGroup(child, "SIGTERM");
 * ```
 */
export function signalGroup(child: Deno.ChildProcess, signal: Deno.Signal): boolean {
  if (Deno.build.os === "windows") return true;
  try {
    Deno.kill(-child.pid, signal);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return false;
    // ESRCH: the group is gone.
  }
  return true;
}

/**
 * Signal a child's process group and the child itself.
 *
 * @param child The child.
 * @param signal The signal.
 * @returns Whether the group could be signalled.
 *
 * @example Usage
 * ```ts ignore
 * import { groupKill } from "./process_group.ts";
 *
 * groupKill(child, "SIGKILL");
 * ```
 */
export function groupKill(child: Deno.ChildProcess, signal: Deno.Signal): boolean {
  // The child leads its own process group (detached), so grandchildren (npx → node) go too.
  const signalled = signalGroup(child, signal);
  try {
    child.kill(signal);
  } catch {
    // Already exited (or gone with its group).
  }
  return signalled;
}
