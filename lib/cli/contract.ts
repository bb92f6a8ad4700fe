/**
 * `toolscore contract init TRACE [-o contract.json]`: write a starting
 * contract from a known-good trace — every call required with its exact
 * arguments, ready to loosen with operators, alternatives and optional
 * entries.
 *
 * Without `-o` the contract goes to stdout. With `-o` it is written
 * atomically (temporary file + rename); an existing file is kept unless
 * `--force`, and nothing is written when anything fails. A `.yaml`/`.yml`
 * output path writes YAML, anything else JSON.
 *
 * @module
 */

import * as jsYaml from "js-yaml";
import { dump as dumpYaml } from "js-yaml";
import { exactYamlSchema } from "../base/yaml_exact_int.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import { callFailed, type ToolCall } from "../scoring/calls.ts";
import { contractFromTrace } from "../contract/init.ts";
import { InputError, UsageError } from "../base/errors.ts";
import { parseFormatName } from "../formats/detect.ts";
import { syntaxOf } from "../base/load.ts";
import { MAX_PAIRING_CELLS } from "../scoring/hungarian.ts";
import { type CliIO, type Command, EXIT, parseFlags, stringFlag } from "./command.ts";
import { readTraceArguments } from "./inputs.ts";
import { checkOutput } from "./overwrite.ts";
import { readyOutputFile } from "./output_ready.ts";
import { formatNameList } from "../formats/format_table.ts";

const FLAGS = {
  output: { type: "string", short: "o" },
  format: { type: "string" },
  force: { type: "boolean" },
} as const;

const HELP = `toolscore contract init TRACE [-o FILE] — a starting contract from a known-good trace

Every call of TRACE becomes a required call with its exact arguments. Loosen it by hand:
replace values with operators ({"$regex": …}, {"$any": true}…), turn steps into
alternative groups, move calls to "optional", add "forbidden" rules.
A credential found in an argument is written as {"$any": true} (with a warning and a
description on the call), never in clear; a tool or argument name holding one is refused.
Data keys starting with $ are written as $$key, so eval of the contract scores its trace 1.

TRACE is one trace in any supported format, or - for standard input.

Options:
  -o, --output FILE   write the contract here (.json, .jsonc, .yaml or .yml) instead of stdout;
                      written atomically, never over an existing file unless --force
  --force             replace an existing output file (never TRACE itself: an input is
                      never replaced; a contract is edited by hand, so only --force replaces it)
  --format F          trace format: ${formatNameList({ indent: 22, width: 96, first: 36 })}

Exit codes: 0 written, 2 usage or input error (nothing written),
70 internal error — a bug, please report it with TOOLSCORE_DEBUG=1.

Examples:
  toolscore contract init good_run.json -o contract.json
  toolscore contract init transcript.json --format anthropic -o contract.yaml
`;

async function init(args: string[], io: CliIO): Promise<number> {
  const flags = parseFlags("contract", args, FLAGS);
  const [trace, ...rest] = flags.positionals;
  if (trace === undefined) {
    throw new UsageError("contract init needs a TRACE; see toolscore contract --help");
  }
  if (rest.length > 0) {
    throw new UsageError(`contract init takes one TRACE, got also ${rest.join(" ")}`);
  }
  const format = parseFormatName(stringFlag(flags, "format") ?? "auto");
  const output = stringFlag(flags, "output");
  if (output !== undefined) {
    // The output's folder, write access and the overwrite rule, before the trace is read.
    await readyOutputFile(output, "-o");
    await checkOutput(output, "contract", { inputs: [trace], force: flags.values.force === true });
  }
  const traces = await readTraceArguments([trace], io, format);
  if (traces.length !== 1) {
    throw new InputError(
      `holds ${traces.length} traces; give one known-good trace (e.g. one line of the JSONL)`,
      trace,
    );
  }
  const read = traces[0]!.trace;
  const secrets: string[] = [];
  const contract = contractFromTrace(read, { onSecret: (path) => secrets.push(path) });
  const yaml = output !== undefined && syntaxOf(output) === "yaml";
  const text = yaml
    ? dumpYaml(contract, { lineWidth: 100, noRefs: true, schema: exactYamlSchema(jsYaml) })
    : `${JSON.stringify(contract, null, 2)}\n`;
  for (const note of traceNotes(read.calls)) io.stderr(`toolscore: note: ${note}\n`);
  if (secrets.length > 0) {
    io.stderr(
      `toolscore: warning: ${plural(secrets.length, "credential")} in the trace's arguments ${
        secrets.length === 1 ? "was" : "were"
      } written as {"$any": true} (${secrets.slice(0, 5).join(", ")}${
        secrets.length > 5 ? ` and ${secrets.length - 5} more` : ""
      }); write the values to check without the secrets\n`,
    );
  }
  if (output === undefined) {
    io.stdout(text);
    return EXIT.ok;
  }
  // The overwrite rule: never the TRACE itself; an existing contract only with --force.
  await checkOutput(output, "contract", { inputs: [trace], force: flags.values.force === true });
  try {
    await writeTextFileAtomic(output, text, { overwrite: flags.values.force === true });
  } catch (error) {
    if (error instanceof InputError && error.message.endsWith("allow overwriting it")) {
      throw new InputError("already exists; choose another path or pass --force", output);
    }
    throw error;
  }
  io.stderr(
    `toolscore: wrote ${output}: ${plural(read.calls.length, "required call")}; ` +
      `loosen it with operators, alternatives and optional entries\n`,
  );
  return EXIT.ok;
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

// What the user should look at before trusting the contract: the trace is meant to be known-good.
function traceNotes(calls: ToolCall[]): string[] {
  const notes: string[] = [];
  if (calls.length === 0) notes.push("the trace has no tool calls, so the contract requires none");
  const label = (i: number) => `#${i + 1} ${calls[i]!.tool}`;
  const failed = calls.flatMap((call, i) => callFailed(call) ? [label(i)] : []);
  if (failed.length > 0) {
    notes.push(
      `${plural(failed.length, "call")} failed in this trace (${failed.join(", ")}) yet ` +
        `${failed.length === 1 ? "is" : "are"} required; check that the trace is a good run`,
    );
  }
  const unparsed = calls.flatMap((call, i) => call.argsError !== undefined ? [label(i)] : []);
  if (unparsed.length > 0) {
    notes.push(
      `the arguments of ${unparsed.join(", ")} did not parse, so they are required ` +
        `without an argument check`,
    );
  }
  // The contract expects every call, so scoring this trace pairs n × n calls of each tool.
  const perTool = new Map<string, number>();
  for (const call of calls) perTool.set(call.tool, (perTool.get(call.tool) ?? 0) + 1);
  for (const [tool, n] of perTool) {
    if (n * n > MAX_PAIRING_CELLS) {
      notes.push(
        `${n} calls of ${tool}: scoring a trace like this one against the contract pairs ` +
          `${n} × ${n} calls, over the ${MAX_PAIRING_CELLS} toolscore pairs exactly, and will ` +
          `be refused; make the contract from a shorter run, or trim its ${tool} calls`,
      );
    }
  }
  return notes;
}

const SUBCOMMANDS: Record<string, (args: string[], io: CliIO) => Promise<number>> = { init };

/** `toolscore contract init`. */
export const contractCommand: Command = {
  name: "contract",
  summary: "contract tools: init writes a starting contract from a known-good trace",
  help: HELP,
  run(args: string[], io: CliIO): Promise<number> {
    const [sub, ...rest] = args;
    const run = sub !== undefined && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
    if (!run) {
      const got = sub === undefined ? "nothing" : sub;
      throw new UsageError(
        `contract needs a subcommand (init), got ${got}; see toolscore contract --help`,
      );
    }
    return run(rest, io);
  },
};
