// Shared by the MCP and doctor tests: the fixture server, scratch folders and process checks.

/** The fixture MCP server, relative to the repository root (where the tests run). */
export const FIXTURE = "testdata/mcp/fixture_server.ts";

/** A scratch folder inside the repository (the test task may read only `.`). */
export function tempDir(prefix: string): Promise<string> {
  return Deno.makeTempDir({ dir: new URL("..", import.meta.url).pathname, prefix, suffix: ".tmp" });
}

/** The fixture run by this deno with no permissions, and these fixture flags. */
export function fixture(...flags: string[]): { command: string[] } {
  return { command: [Deno.execPath(), "run", "--no-prompt", FIXTURE, ...flags] };
}

/** The fixture allowed to write one file (for --record or --pid-file), and these fixture flags. */
export function fixtureWriting(file: string, ...flags: string[]): { command: string[] } {
  return {
    command: [Deno.execPath(), "run", "--no-prompt", `--allow-write=${file}`, FIXTURE, ...flags],
  };
}

/** Whether a process exists. A zombie counts too, so `false` also means it was reaped. */
export function isAlive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT"); // harmless to a live process; throws when it is gone
    return true;
  } catch {
    return false;
  }
}

/**
 * The process id the fixture wrote with --pid-file, waiting for it up to `waitMs`; 0 when none.
 * Only a complete line counts, never a half-written number (which could name another process).
 */
export async function readPidFile(file: string, waitMs = 10_000): Promise<number> {
  const until = Date.now() + waitMs;
  while (true) {
    const text = await Deno.readTextFile(file).catch(() => "");
    if (/^\d+\n$/.test(text)) return Number(text);
    if (Date.now() >= until) return 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The methods of the JSON-RPC messages the fixture recorded with --record, in order. */
export async function recordedMethods(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(file);
  return text.trim().split("\n").map((line) => JSON.parse(line).method as string);
}
