/**
 * `toolscore doctor`: preflight checks for an agent run — the spec, its
 * contracts, keys, packages, prices and budget, and the MCP server with its
 * tools — printed as a checklist with a fix for each problem. Exits 1 when a
 * check fails.
 *
 * @module
 */

import { inFile, InputError, UsageError } from "../base/errors.ts";
import type { DoctorCheck } from "../doctor/check.ts";
import { doctorReport, formatDoctorReport } from "../doctor/report.ts";
import { runDoctor } from "../doctor/run_doctor.ts";
import { readDocument } from "../base/load.ts";
import {
  type MCPServerSpec,
  serverSpecFromCommandLine,
  serverSpecFromJson,
} from "../mcp/server_spec.ts";
import { closeAllTransports } from "../mcp/transport.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  listFlag,
  numberFlag,
  parseFlags,
  stringFlag,
} from "./command.ts";

const FLAGS = {
  spec: { type: "string" },
  contract: { type: "string" },
  key: { type: "string", multiple: true },
  "allow-unknown-price": { type: "boolean" },
  "no-server": { type: "boolean" },
  server: { type: "string" },
  url: { type: "string" },
  "mcp-config": { type: "string" },
  "mcp-server": { type: "string" },
  timeout: { type: "string" },
  json: { type: "boolean" },
} as const;

const HELP = `toolscore doctor — catch a broken setup before an agent run spends money

Usage:
  toolscore doctor [--spec S] [--contract C] [--key VAR]… [--allow-unknown-price]
                   [--no-server] [--json] [-- SERVER COMMAND…]

Checks, in order: spec, contract, keys, packages, prices, budget, server-start,
tools-list, tool-schemas, server-build, contract-tools. Each line shows ✓ (pass),
! (warn), ✗ (fail) or - (skip), with a fix under each warning and failure.
The server is started, asked for its tools and stopped; no tool is ever called.
Key values are never printed.

Options:
  --spec S                an agent spec (JSON or YAML): server, arms, tasks, keys, prices…
  --contract C            a contract or gold file to validate and to match against the tools
  --key VAR               an environment variable that must be set (repeatable)
  --allow-unknown-price   a model without a price is a warning, not a failure
  --no-server             do not start the server (check only files and environment)
  --server "CMD ARGS"     the server as one quoted command line (or: -- CMD ARGS…)
  --url URL               a remote server (Streamable HTTP)
  --mcp-config FILE       a client config with mcpServers (Claude Desktop, Cursor, VS Code)
  --mcp-server NAME       which entry of --mcp-config (needed when it has several)
  --timeout SECONDS       seconds per server request (default 30; the spec's timeout_s wins)
  --json                  print the report as JSON: {checks, counts, worst}

Permissions: --allow-read (spec, contracts), --allow-env (the named keys, PATH, HOME),
--allow-run (the server command); a remote server needs --allow-net for its host.
The server starts with the spec's env over PATH, HOME and the locale, temp, cache,
CA and proxy variables deno may read (add DENO_DIR, NODE_EXTRA_CA_CERTS… to
--allow-env when the server needs them); never your keys. A server that ignores the
end of its input is killed; what it started goes with it only under --allow-run
without a list (deno signals a process group only then); doctor names what is left.

Exit codes: 0 no check failed, 1 a check failed (a spec or contract that cannot be read
or parsed is a failed check, not an input error), 2 usage error.

Examples:
  toolscore doctor -- npx -y @modelcontextprotocol/server-everything
  toolscore doctor --spec agent.yaml --key OPENAI_API_KEY
  toolscore doctor --contract refund.json --server "deno run --allow-read=. server.ts"
`;

async function serverFromFlags(
  flags: ReturnType<typeof parseFlags>,
  command: string[],
): Promise<MCPServerSpec | undefined> {
  const line = stringFlag(flags, "server");
  const url = stringFlag(flags, "url");
  const config = stringFlag(flags, "mcp-config");
  const given = [command.length > 0, line !== undefined, url !== undefined, config !== undefined]
    .filter(Boolean).length;
  if (given > 1) {
    throw new UsageError("give the server one way: -- COMMAND…, --server, --url or --mcp-config");
  }
  if (stringFlag(flags, "mcp-server") !== undefined && config === undefined) {
    throw new UsageError("--mcp-server goes with --mcp-config FILE");
  }
  if (command.length > 0) return serverSpecFromCommandLine(command);
  if (line !== undefined) return serverSpecFromCommandLine(line);
  if (url !== undefined) return serverSpecFromJson({ url }, { path: "--url" });
  if (config !== undefined) {
    const value = await readDocument(config);
    try {
      // Errors read `file: mcpServers.name.args[1]: …`, not `file.mcpServers…`.
      return serverSpecFromJson(value, { path: "", entry: stringFlag(flags, "mcp-server") });
    } catch (error) {
      throw error instanceof InputError ? inFile(error, config) : error;
    }
  }
  return undefined;
}

// Ctrl-C (or a TERM) while a server runs: kill it, reap it, then exit.
function onInterrupt(): () => void {
  // Exit as the shell reports a death by that signal: 128 + its number.
  const codes: Partial<Record<Deno.Signal, number>> = Deno.build.os === "windows"
    ? { SIGINT: 130 }
    : { SIGINT: 130, SIGTERM: 143 };
  const added: [Deno.Signal, () => void][] = [];
  for (const [signal, code] of Object.entries(codes) as [Deno.Signal, number][]) {
    const handler = async () => {
      await closeAllTransports();
      Deno.exit(code);
    };
    try {
      Deno.addSignalListener(signal, handler);
      added.push([signal, handler]);
    } catch {
      // Not supported here: the default behaviour (exit) applies.
    }
  }
  return () => added.forEach(([signal, handler]) => Deno.removeSignalListener(signal, handler));
}

/** The `doctor` command. */
export const doctorCommand: Command = {
  name: "doctor",
  summary: "preflight checks: spec, contracts, keys, prices, budget, the MCP server and its tools",
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const dash = args.indexOf("--");
    const own = dash === -1 ? args : args.slice(0, dash);
    const command = dash === -1 ? [] : args.slice(dash + 1);
    if (dash !== -1 && command.length === 0) {
      throw new UsageError("nothing after --; give the server command, e.g. -- npx -y my-server");
    }
    const flags = parseFlags("doctor", own, FLAGS);
    if (flags.positionals.length > 0) {
      throw new UsageError(
        `unexpected argument ${flags.positionals[0]}; put the server command after --`,
      );
    }
    const server = await serverFromFlags(flags, command);
    const timeout = numberFlag(flags, "timeout", [0.001, 86_400]);
    const stopListening = onInterrupt();
    let checks: DoctorCheck[];
    try {
      checks = await runDoctor({
        specPath: stringFlag(flags, "spec"),
        contractPath: stringFlag(flags, "contract"),
        server,
        keys: listFlag(flags, "key"),
        allowUnknownPrice: flags.values["allow-unknown-price"] === true,
        startServer: flags.values["no-server"] !== true,
        timeout,
      });
    } finally {
      stopListening();
    }
    const report = doctorReport(checks);
    io.stdout(
      flags.values.json === true
        ? `${JSON.stringify(report, null, 2)}\n`
        : formatDoctorReport(report, { color: io.color }),
    );
    return report.worst === "fail" ? EXIT.gate : EXIT.ok;
  },
};
