/**
 * `toolscore verify RECEIPT…`: check receipts against themselves and the
 * files they name. Each problem is printed on its own line; the command
 * exits 1 when any receipt has one.
 *
 * @module
 */

import { dirname } from "node:path";
import { InputError, UsageError } from "../base/errors.ts";
import { parseDocument, readTextFile } from "../base/load.ts";
import { verifyReceipt } from "../receipts/verify.ts";
import { type CliIO, type Command, EXIT, parseFlags, stringFlag } from "./command.ts";

const FLAGS = {
  root: { type: "string" },
  "allow-outside": { type: "boolean" },
  json: { type: "boolean" },
} as const;

const HELP = `toolscore verify RECEIPT… — check receipts against their inputs

Checks each receipt's own hash (receipt_sha256) and, for every input it names
(gold, trace, forbidden, honesty_config, injected), that the file exists and has the
same size and SHA-256. Input paths resolve against the receipt's folder; a path that
leads outside both that folder and the current directory (absolute, .., or a symbolic
link) is reported and not read.

Options:
  --root DIR        inputs may be anywhere inside DIR (e.g. the project folder holding the
                    gold file one level up); still refused outside it
  --allow-outside   read inputs at any path (only for receipts you trust)
  --json            print one JSON document: {receipts: [{path, ok, problems}]}

Output: "ok RECEIPT" for a sound receipt; otherwise "RECEIPT: PROBLEM", one line per problem.

Exit codes: 0 every receipt checks out, 1 a receipt has a problem, 2 usage error or a
receipt file that cannot be read or is not JSON (nothing is checked then).

Examples:
  toolscore verify runs/run1.receipt.json
  toolscore verify --root . runs/run1.receipt.json
  toolscore verify runs/*.receipt.json --json
`;

/** What one receipt's check found. */
interface Checked {
  path: string;
  problems: string[];
}

async function check(
  path: string,
  options: { root?: string; allowOutside: boolean },
): Promise<Checked> {
  // A file that cannot be read or is not JSON is an input error (exit 2, on stderr).
  notAStream(path);
  const value = parseDocument(await readTextFile(path), path, { syntax: "json" });
  return { path, problems: await verifyReceipt(value, { base: dirname(path), ...options }) };
}

// Standard input or a pipe has no folder the receipt's input paths are relative to (issue 42:
// `verify /dev/stdin` said "no permission", or looked for the inputs in /dev).
const STREAM_NAMES = /^(?:-|\/dev\/(?:stdin|fd\/\d+)|\/proc\/self\/fd\/\d+)$/;

function notAStream(path: string): void {
  let stream = STREAM_NAMES.test(path);
  if (!stream) {
    try {
      const info = Deno.statSync(path);
      stream = info.isFifo === true || info.isCharDevice === true || info.isSocket === true;
    } catch {
      // readTextFile names a missing or unreadable file
    }
  }
  if (stream) {
    throw new InputError(
      "a receipt is checked from its file: its input paths are relative to the file's " +
        "folder; save it to a file and give that path (not standard input or a pipe)",
      path,
    );
  }
}

/** `toolscore verify`. */
export const verifyCommand: Command = {
  name: "verify",
  summary: "check receipts against their inputs (hashes, sizes, paths)",
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const flags = parseFlags("verify", args, FLAGS);
    if (flags.positionals.length === 0) {
      throw new UsageError("verify needs at least one RECEIPT; see toolscore verify --help");
    }
    const options = {
      root: stringFlag(flags, "root"),
      allowOutside: flags.values["allow-outside"] === true,
    };
    const results: Checked[] = [];
    for (const path of flags.positionals) results.push(await check(path, options));
    if (flags.values.json === true) {
      const receipts = results.map((r) => ({
        path: r.path,
        ok: r.problems.length === 0,
        problems: r.problems,
      }));
      io.stdout(`${JSON.stringify({ receipts }, null, 2)}\n`);
    } else {
      const lines = results.flatMap((r) =>
        r.problems.length === 0 ? [`ok ${r.path}`] : r.problems.map((p) => `${r.path}: ${p}`)
      );
      io.stdout(`${lines.join("\n")}\n`);
      if (results.some((r) => r.problems.some((p) => p.includes(": input escapes ")))) {
        io.stderr(
          "hint: inputs outside a receipt's folder are not read; --root DIR admits a folder " +
            "that holds them, --allow-outside any path (only for receipts you trust)\n",
        );
      }
    }
    return results.some((r) => r.problems.length > 0) ? EXIT.gate : EXIT.ok;
  },
};
