/**
 * Which probes of a `--probe` file go to which server (issue 39): a list is
 * the probes of the one server; an object keys lists by server name, as
 * `--mcp-config` names them (with `--all`, every key must name a server of
 * the config, and a server without a key is not probed).
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import type { Probe } from "../doctor/probe_file.ts";

/**
 * The probes of each server, in entry order.
 *
 * @param file What the probe file holds.
 * @param names The servers' names (`""` for a server given by its command or URL).
 * @param path The file, for messages.
 * @returns The probes of each server (`[]` for a server without any).
 * @throws {UsageError} When the file's shape does not fit the servers.
 *
 * @example Usage
 * ```ts
 * import { probesByServer } from "./doctor_probes.ts";
 * import assert from "node:assert/strict";
 *
 * const probe = { kind: "tool", target: "echo", args: {}, expectError: false, sideEffects: false, where: "p" } as const;
 * assert.deepEqual(probesByServer({ a: [probe] }, ["a", "b"], "p.json"), [[probe], []]);
 * assert.throws(() => probesByServer([probe], ["a", "b"], "p.json"), /key the probes by server name/);
 * ```
 */
export function probesByServer(
  file: Probe[] | Record<string, Probe[]>,
  names: readonly string[],
  path: string,
): Probe[][] {
  if (Array.isArray(file)) {
    if (names.length > 1) {
      throw new UsageError(
        `--probe ${path}: with --all, key the probes by server name ({"${names[0]}": [...]})`,
      );
    }
    return [file];
  }
  const unknown = Object.keys(file).filter((key) => !names.includes(key));
  if (unknown.length > 0) {
    const known = names.filter((name) => name !== "");
    throw new UsageError(
      `--probe ${path}: ${JSON.stringify(unknown[0]!.slice(0, 60))} names no server ${
        known.length > 0
          ? `(the servers: ${known.slice(0, 10).join(", ")})`
          : "(a server given by its command takes a plain list of probes)"
      }`,
    );
  }
  return names.map((name) => Object.hasOwn(file, name) ? file[name]! : []);
}
