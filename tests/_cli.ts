// Shared by the CLI tests: run `toolscore` in-process with a CliIO that collects the output.
import type { CliIO } from "../lib/cli/command.ts";
import { runCli } from "../lib/cli/run.ts";

/** What one in-process CLI run printed, and its exit code. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Run the CLI with these arguments; `stdin` is what `-` reads. */
export async function runCollect(args: string[], stdin = ""): Promise<CliRun> {
  let out = "";
  let err = "";
  const io: CliIO = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    color: false,
    progress: false,
    stdin: () => Promise.resolve(stdin),
  };
  const code = await runCli(args, io);
  return { code, out, err };
}

/** Run `deno` with these arguments as its own process (NO_COLOR set) and decode its output. */
export async function runDeno(args: string[], options: { cwd?: string } = {}): Promise<CliRun> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}
