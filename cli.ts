/**
 * The `toolscore` command line.
 *
 * ```sh
 * deno run --allow-read jsr:@toolscore/cli/cli eval gold.json trace.json
 * ```
 *
 * @module
 */

import { runCli } from "./lib/cli/run.ts";
import type { CliIO } from "./lib/cli/command.ts";
import { readStreamCapped } from "./lib/base/read_limits.ts";

export type { CliIO };

const encoder = new TextEncoder();

/** The exit code when the reader of stdout went away (as after SIGPIPE: 128 + 13). */
const CLOSED_PIPE = 141;

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  writeAllBytes(stream, encoder.encode(text));
}

function writeAllBytes(stream: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  try {
    while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
  } catch (error) {
    // `toolscore eval … | head`: the reader has all it wants. Stop quietly, as a process
    // killed by SIGPIPE would, rather than report an internal error.
    if (error instanceof Deno.errors.BrokenPipe) Deno.exit(CLOSED_PIPE);
    throw error;
  }
}

/**
 * The real terminal: Deno's stdout, stderr and stdin, colour when stdout is a
 * terminal and neither `NO_COLOR` nor `--no-color` is set.
 *
 * @param args The command-line arguments (for `--no-color`).
 * @returns The CLI's input and output.
 *
 * @example Usage
 * ```ts ignore
 * import { terminalIO } from "@toolscore/cli/cli";
 *
 * terminalIO(Deno.args).stdout("hello\n");
 * ```
 */
export function terminalIO(args: string[]): CliIO {
  // Deno.noColor reflects NO_COLOR without asking for env permission, so scoring stays
  // --allow-read only and still honours it.
  const noColor = args.includes("--no-color") || Deno.noColor;
  return {
    stdout: (text) => writeAll(Deno.stdout, text),
    stdoutBytes: (bytes) => writeAllBytes(Deno.stdout, bytes),
    stderr: (text) => writeAll(Deno.stderr, text),
    color: !noColor && Deno.stdout.isTerminal(),
    progress: Deno.stderr.isTerminal(),
    // Capped while reading (issue 42): an endless pipe stops at the input limit.
    stdin: async () =>
      new TextDecoder().decode(await readStreamCapped(Deno.stdin.readable, "<stdin>")),
  };
}

/**
 * Run the CLI with these arguments and exit with its code.
 *
 * @param args The arguments after `toolscore`.
 * @returns Never returns; exits the process.
 *
 * @example Usage
 * ```ts ignore
 * import { main } from "@toolscore/cli/cli";
 *
 * await main(["--version"]);
 * ```
 */
export async function main(args: string[]): Promise<never> {
  const rest = args.filter((arg) => arg !== "--no-color");
  Deno.exit(await runCli(rest, terminalIO(args)));
}

if (import.meta.main) await main(Deno.args);
