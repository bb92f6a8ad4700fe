/**
 * Runs many CLI invocations in one process (each through `runCli`, as
 * `cli.ts` does) and prints one JSON line per invocation as it finishes, so
 * the test can bound the whole batch with one timeout and still name the
 * invocation that hung or crashed the process: the last one started and
 * not finished.
 *
 * Input (stdin): a JSON list of `{id, args}`. Output (stdout): `{"start": id}`
 * before each, `{id, code, out, err}` after.
 *
 * @module
 */

import { runCli } from "../../lib/cli/run.ts";
import type { CliIO } from "../../lib/cli/command.ts";

const cases = JSON.parse(await new Response(Deno.stdin.readable).text()) as {
  id: string;
  args: string[];
}[];
const encoder = new TextEncoder();
const emit = (value: unknown) =>
  Deno.stdout.writeSync(encoder.encode(`${JSON.stringify(value)}\n`));
for (const { id, args } of cases) {
  emit({ start: id });
  let out = "";
  let err = "";
  const io: CliIO = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    color: false,
    progress: false,
    stdin: () => Promise.resolve(""),
  };
  const code = await runCli(args, io);
  emit({ id, code, out, err });
}
