/**
 * Processes a local server left behind. Every server we start carries a
 * marker variable (`TOOLSCORE_MCP_RUN=<id>`) that its children inherit, so
 * that what it started is found even after it left the server's process
 * group: by reading `/proc/<pid>/environ` — directly when deno may (it asks
 * for `--allow-all` there), else through `sh` and `grep` (any `--allow-run`
 * that covers `sh`). A child started with a bare environment lacks the
 * marker, so the server's process group and session (it leads both: it is
 * started detached, in a session of its own) count too, read from
 * `/proc/<pid>/stat` (issue 37): a double-forked daemon (ppid 1) keeps
 * them unless it starts a session of its own. Zombies do not count.
 * Stopping them needs `--allow-run` without a list (deno signals other
 * processes only then).
 *
 * @module
 */

/** The variable every local server and its children carry. */
export const MARKER_VARIABLE = "TOOLSCORE_MCP_RUN";

import type { MarkedProcess } from "./server_error.ts";

// Lists `pid<TAB>command line` of every live process whose environment holds "$1" as a whole
// entry, or whose process group or session is "$2".
const FIND_SCRIPT = `m=$1; l=$2
marked=" $(grep -lzxsF -- "$m" /proc/[0-9]*/environ | tr '\\n' ' ') "
for d in /proc/[0-9]*; do
  p=\${d#/proc/}
  read -r s < "$d/stat" 2>/dev/null || continue
  s=\${s##*) }
  set -- $s
  [ "$1" = Z ] && continue
  case "$marked" in *" $d/environ "*) ;; *) [ "$3" = "$l" ] || [ "$4" = "$l" ] || continue ;; esac
  printf '%s\\t' "$p"; tr '\\0' ' ' < "$d/cmdline" 2>/dev/null; echo
done`;

function permitted(name: "sh"): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command: name }).state === "granted";
  } catch {
    return false;
  }
}

function short(command: string): string {
  const line = command.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * The state, process group and session of a process, from its `/proc/<pid>/stat` line.
 *
 * @param stat The line.
 * @returns The fields, or `null` when the line is not a stat line.
 *
 * @example Usage
 * ```ts
 * import { parseProcStat } from "./process_sweep.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseProcStat("42 (my (odd) cmd) S 1 40 39 0 -1"), { state: "S", ppid: 1, pgrp: 40, session: 39 });
 * ```
 */
export function parseProcStat(
  stat: string,
): { state: string; ppid: number; pgrp: number; session: number } | null {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields.length < 4 || !/^\d+$/.test(fields[2] ?? "")) return null;
  return {
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
  };
}

function readProcDirectly(marker: string, leader: number | undefined): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: ReturnType<typeof parseProcStat>;
    try {
      stat = parseProcStat(Deno.readTextFileSync(`/proc/${entry.name}/stat`));
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      continue; // gone
    }
    if (stat === null || stat.state === "Z") continue;
    const ours = leader !== undefined && (stat.pgrp === leader || stat.session === leader);
    let environ = "";
    try {
      if (!ours) environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      continue; // gone, or another user's
    }
    if (!ours && !environ.split("\0").includes(marker)) continue;
    let command = "";
    try {
      command = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
    } catch {
      // Gone meanwhile: it still counts, it was found.
    }
    found.push({ pid: Number(entry.name), command: short(command) });
  }
  return found;
}

/**
 * Every live process carrying the marker entry `marker` (`NAME=value`) or,
 * given `leader`, in its process group or session; `null` when they cannot
 * be looked for here (not Linux, or deno may read neither `/proc` nor run `sh`).
 *
 * @param marker The whole environment entry, e.g. `TOOLSCORE_MCP_RUN=3f…`.
 * @param leader The server's pid, which leads its process group and session.
 * @returns The processes, or `null`.
 *
 * @example Usage
 * ```ts ignore
 * import { findMarkedProcesses } from "./process_sweep.ts";
 *
 * console.log(await findMarkedProcesses("TOOLSCORE_MCP_RUN=no-such-run"));
 * ```
 */
export async function findMarkedProcesses(
  marker: string,
  leader?: number,
): Promise<MarkedProcess[] | null> {
  if (Deno.build.os !== "linux") return null;
  try {
    return readProcDirectly(marker, leader);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) return null;
  }
  if (!permitted("sh")) return null;
  try {
    const output = await new Deno.Command("sh", {
      args: ["-c", FIND_SCRIPT, "sh", marker, String(leader ?? -1)],
      env: { PATH: "/usr/bin:/bin:/usr/sbin:/sbin" },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const found: MarkedProcess[] = [];
    for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
      const match = /^(\d+)\t(.*)$/.exec(line);
      if (match) found.push({ pid: Number(match[1]), command: short(match[2]!) });
    }
    return found;
  } catch {
    return null;
  }
}

/**
 * Send SIGKILL to each process; `false` when deno may not signal other
 * processes (`--allow-run` with a list).
 *
 * @param processes The processes.
 * @returns Whether deno was permitted to signal them.
 *
 * @example Usage
 * ```ts ignore
 * import { killProcesses } from "./process_sweep.ts";
 *
 * killProcesses([{ pid: 12345, command: "sleep 300" }]);
 * ```
 */
export function killProcesses(processes: readonly MarkedProcess[]): boolean {
  for (const { pid } of processes) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) return false;
      // ESRCH: gone already.
    }
  }
  return true;
}

/**
 * A shell line that stops every process carrying a marker: by pid when they
 * are known, else by reading `/proc` for the marker (so it works when the
 * processes left the server's process group, where `kill -- -PGID` does not).
 *
 * @param marker The marker entry.
 * @param survivors The processes known to run, if any.
 * @returns The line to paste.
 *
 * @example Usage
 * ```ts
 * import { stopCommand } from "./process_sweep.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stopCommand("M=1", [{ pid: 7, command: "x" }, { pid: 9, command: "y" }]), "kill -9 7 9");
 * ```
 */
export function stopCommand(marker: string, survivors: readonly MarkedProcess[]): string {
  if (survivors.length > 0) return `kill -9 ${survivors.map(({ pid }) => pid).join(" ")}`;
  return `grep -lzxsF '${marker}' /proc/[0-9]*/environ | cut -d/ -f3 | xargs -r kill -9`;
}
