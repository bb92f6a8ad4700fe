// Shared by the doctor tests: the check order, the scripted misbehaving server, the process table.
import assert from "node:assert/strict";
import type { DoctorCheck } from "../lib/doctor/check.ts";
import { SERVER_CHECKS } from "../lib/doctor/check_server.ts";

/** Every check runDoctor() returns, in order (no baseline). */
export const CHECK_ORDER: readonly string[] = [
  "spec",
  "contract",
  "keys",
  "packages",
  "prices",
  "budget",
  ...SERVER_CHECKS,
  "contract-tools",
];

/** The check of that name; fails the test when there is none. */
export function byName(checks: readonly DoctorCheck[], name: string): DoctorCheck {
  const check = checks.find((c) => c.name === name);
  assert.ok(check, `no ${name} check`);
  return check;
}

/** The scripted misbehaving server (testdata/mcp/bad_server.ts). */
export const BAD_SERVER = "testdata/mcp/bad_server.ts";

/**
 * The bad server run by this deno (never a `deno` looked up on PATH), allowed to start `sleep`,
 * to write `writable` and read `readable` when given, with these flags.
 */
export function badServer(
  flags: string[],
  access: { writable?: string; readable?: string } = {},
): { command: string[] } {
  return {
    command: [
      Deno.execPath(),
      "run",
      "--no-prompt",
      "--allow-run=sleep",
      ...(access.writable ? [`--allow-write=${access.writable}`] : []),
      ...(access.readable ? [`--allow-read=${access.readable}`] : []),
      BAD_SERVER,
      ...flags,
    ],
  };
}

/**
 * Whether a process still runs, from the process table (`ps`): a zombie (state Z, dead but not
 * yet reaped by its new parent) does not run.
 */
export async function running(pid: number): Promise<boolean> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-o", "stat=", "-p", String(pid)],
    stdout: "piped",
    stderr: "null",
  }).output();
  const state = new TextDecoder().decode(stdout).trim();
  return state !== "" && !state.startsWith("Z");
}

/** The pids the bad server wrote with --pid-file (one per line), waiting up to `waitMs` for `count`. */
export async function readPids(file: string, count: number, waitMs = 10_000): Promise<number[]> {
  const until = Date.now() + waitMs;
  while (true) {
    const text = await Deno.readTextFile(file).catch(() => "");
    const pids = text.split("\n").filter((line) => /^\d+$/.test(line)).map(Number);
    if (pids.length >= count || Date.now() >= until) return pids;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Run the CLI as its own process with these deno permissions and doctor arguments. */
export async function doctorProcess(
  permissions: string[],
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...permissions, "cli.ts", "doctor", ...args],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

/** The permission line the README gives for doctor with a local server. */
export const README_PERMISSIONS: readonly string[] = ["--allow-read", "--allow-env", "--allow-run"];
