/**
 * `toolscore doctor`: preflight checks for an agent run — the spec, its
 * contracts, keys, packages, prices and budget, and the MCP server with what
 * it offers — printed as a checklist with a fix for each problem. Exits 1
 * when a check fails (or warns, with `--fail-on-warn`). With `--all`, every
 * server of a client config; with `--baseline`/`--update-baseline`, catalog
 * drift against a reviewed baseline file; with `--probe`, calls what a
 * probe file lists (issue 39), and nothing else.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { doctorReport, formatDoctorReport } from "../doctor/report.ts";
import { inspectDoctor } from "../doctor/run_doctor.ts";
import { type Catalog, readBaseline, writeBaseline } from "../doctor/catalog.ts";
import type { DoctorTerms } from "../doctor/terms.ts";
import { describeServer, isRemoteSpec, type McpServerSpec } from "../mcp/server_spec.ts";
import type { BaselineChoice } from "../doctor/catalog_checks.ts";
import { parseIgnoreRule } from "../doctor/ignore.ts";
import { serverSpecFromJson } from "../mcp/spec_from_json.ts";
import { serverSpecFromCommandLine } from "../mcp/spec_from_command.ts";
import { type ConfigEntry, readConfigServers } from "./doctor_config.ts";
import { DoctorCheck } from "../doctor/check.ts";
import {
  type CliIO,
  type Command,
  EXIT,
  listFlag,
  numberFlag,
  parseFlags,
  stringFlag,
} from "./command.ts";
import { allReportJson, onInterrupt, type ServerRun, serverRunJson } from "./doctor_output.ts";
import { doctorAllMarkdown, doctorMarkdown } from "../doctor/markdown.ts";
import { MARKDOWN_REPORT_FLAGS, reportTargets, writeReports } from "./report_flags.ts";
import { readyOutputFile, readyReports } from "./output_ready.ts";
import { quietDoctorReport } from "./doctor_quiet.ts";
import { readProbeFile } from "../doctor/probe_file.ts";
import { probesByServer } from "./doctor_probes.ts";
import { parseClientCapabilities } from "../mcp/client_capabilities.ts";

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
  client: { type: "string" },
  all: { type: "boolean" },
  input: { type: "string", multiple: true },
  env: { type: "string", short: "e", multiple: true },
  timeout: { type: "string" },
  deadline: { type: "string" },
  linger: { type: "string" },
  "shutdown-grace": { type: "string" },
  baseline: { type: "string" },
  "update-baseline": { type: "string" },
  "baseline-entry": { type: "string" },
  ignore: { type: "string", multiple: true },
  probe: { type: "string" },
  "probe-deadline": { type: "string" },
  "allow-side-effects": { type: "boolean" },
  "client-capabilities": { type: "string" },
  quiet: { type: "boolean", short: "q" },
  "fail-on-warn": { type: "boolean" },
  json: { type: "boolean" },
  ...MARKDOWN_REPORT_FLAGS,
} as const;

/** How the CLI's messages name its settings. */
export const CLI_TERMS: Readonly<DoctorTerms> = Object.freeze({
  noServer: "--no-server",
  spec: "--spec",
  contract: "--contract",
  key: "--key NAME",
  allowUnknownPrice: "--allow-unknown-price",
  updateBaseline: "--update-baseline FILE",
  timeout: "--timeout",
  deadline: "--deadline",
  env: "-e KEY=VALUE",
  input: (id: string) => `pass --input ${id}=VALUE`,
  allowSideEffects: "--allow-side-effects",
});

const HELP = `toolscore doctor — catch a broken setup before an agent run spends money

Usage:
  toolscore doctor [--spec S] [--contract C] [--key VAR]… [--allow-unknown-price]
                   [--no-server] [--json] [--fail-on-warn] [--markdown F]
                   [--github-summary] [-- SERVER COMMAND…]
  toolscore doctor --mcp-config FILE --all [--baseline B | --update-baseline B]
  toolscore doctor --probe PROBES.yaml [--allow-side-effects] -- SERVER COMMAND…

Checks, in order: spec, contract, keys, packages, prices, budget, (config), server-start,
handshake, stdout, tools-list, tool-schemas, tool-lint, resources, prompts,
shutdown, server-build, (catalog-drift), (probe:…), contract-tools. Each line shows
✓ (pass), ! (warn), ✗ (fail) or - (skip), with a fix under each warning and failure.
The server is started, asked what it offers and stopped; no tool is called unless
--probe lists it (nor a resource read, nor a prompt fetched). Doctor declares the
client capabilities roots, sampling and elicitation, as an editor would, and answers
them: roots/list with the config's workspace folder (else none), sampling with an
error ("doctor does not sample"), elicitation with decline. Key and input values are
never printed.

Options:
  --spec S                an agent spec (JSON or YAML): server, arms, tasks, keys, prices…
  --contract C            a contract or gold file to validate and to match against the tools
  --key VAR               an environment variable that must be set (repeatable)
  --allow-unknown-price   a model without a price is a warning, not a failure
  --no-server             do not start the server (check only files and environment)
  --server "CMD ARGS"     the server as one quoted command line (or: -- CMD ARGS…)
  --url URL               a remote server (Streamable HTTP; a URL ending in /sse: legacy SSE)
  --mcp-config FILE       a client config (Claude Desktop, Claude Code, Cursor, VS Code,
                          Gemini CLI, Cline), read as that client reads it
  --mcp-server NAME       which entry of --mcp-config (needed when it has several)
  --client NAME           read --mcp-config as this client does (claude-desktop, claude-code,
                          cursor, vscode, gemini-cli, cline; default: by the file's name)
  --all                   check every server of --mcp-config, one section each
  --input ID=VALUE        a value for \${input:ID} in a VS Code config (repeatable)
  -e, --env KEY=VALUE     one more variable for a local server (repeatable)
  --timeout SECONDS       seconds per server request (default 30; wins over timeout_s)
  --deadline SECONDS      seconds for the whole server check (default 4 × timeout, ≥ 120)
  --linger SECONDS        a local server must stay up this long after initialize (default 1)
  --shutdown-grace SECONDS  what a local server started may outlive it this long, exiting by
                          itself, before doctor stops it and warns (default 1.5)
  --baseline FILE         compare the server's catalog with FILE: breaking changes fail
  --update-baseline FILE  write the catalog (tools, resources, prompts) into FILE; one server
                          (-- CMD, --server, --url) is also keyed by its command, so the same
                          command finds its entry after the server renamed itself
  --baseline-entry NAME   compare with this entry of --baseline, whatever the server's name
  --ignore CODE[@PATH]    silence a known finding: a code (lint.unannotated) or family (lint),
                          optionally only at or under a JSON pointer (/tools/search); repeatable.
                          A server spec's "ignore" list does the same
  --probe FILE            call what FILE lists (JSON or YAML), one check each: a list of
                          {tool, args, expect_text, expect_structured, expect_error,
                          timeout_s, side_effects}, {resource: URI, expect_text} or
                          {prompt, args, expect_text}; with --all, lists keyed by server name.
                          args must fit the inputSchema; structuredContent the outputSchema
  --allow-side-effects    probe tools not annotated readOnlyHint: true (else a probe of one
                          needs side_effects: true)
  --probe-deadline SECONDS  seconds for all probes together (default 120)
  --client-capabilities none|default|LIST  what doctor declares as a client (default: roots,
                          sampling, elicitation; LIST: comma-separated); a baseline records it
  --fail-on-warn          exit 1 on a warning too (for CI)
  --json                  print {schema, toolscore_version, checks (each with findings: code,
                          severity, path, message, class), counts, worst, server, timings_s,
                          output}; schemas/doctor-report.schema.json describes it
  -q, --quiet             print only warnings and failures (with their fix) and the count
  --markdown FILE         also write the report as Markdown (a pull-request comment, at most
                          65,536 bytes; with --all failing servers first, passing collapsed)
  --github-summary        append the Markdown report to $GITHUB_STEP_SUMMARY (needs
                          --allow-env=GITHUB_STEP_SUMMARY and write access to that file)

Permissions: --allow-read (spec, contracts, configs), --allow-env (the named keys,
PATH, HOME), --allow-run without a list for a local server (deno stops a server's
process group, and what left it, only then); a remote server needs --allow-net
for its host; --markdown F needs --allow-write for F's folder. The server starts
with a cleared environment: the spec's env over PATH, HOME and the locale, temp,
cache, CA and proxy variables deno may read; never your keys.

Exit codes: 0 no check failed, 1 a check failed (a spec or contract that cannot be read
or parsed is a failed check, not an input error; with --fail-on-warn also a warning; with
--baseline a breaking change), 2 usage error (or a report that cannot be written);
130/143 stopped by SIGINT/SIGTERM. The report flags never change the exit code.

Examples:
  toolscore doctor -- npx -y @modelcontextprotocol/server-everything
  toolscore doctor --spec agent.yaml --key OPENAI_API_KEY
  toolscore doctor --mcp-config .vscode/mcp.json --all --input api-key=…
  toolscore doctor --baseline mcp-baseline.json -- node server.js
  toolscore doctor --probe probes.yaml -- npx -y @modelcontextprotocol/server-everything
`;

function pairs(values: string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0) throw new UsageError(`${flag} ${value.split("=")[0]}: expected NAME=VALUE`);
    out[value.slice(0, at)] = value.slice(at + 1);
  }
  return out;
}

async function serversFromFlags(
  flags: ReturnType<typeof parseFlags>,
  command: string[],
): Promise<ConfigEntry[]> {
  const line = stringFlag(flags, "server");
  const url = stringFlag(flags, "url");
  const config = stringFlag(flags, "mcp-config");
  const given = [command.length > 0, line !== undefined, url !== undefined, config !== undefined]
    .filter(Boolean).length;
  if (given > 1) {
    throw new UsageError("give the server one way: -- COMMAND…, --server, --url or --mcp-config");
  }
  const all = flags.values.all === true;
  if (stringFlag(flags, "mcp-server") !== undefined && config === undefined) {
    throw new UsageError("--mcp-server goes with --mcp-config FILE");
  }
  if (all && (config === undefined || stringFlag(flags, "mcp-server") !== undefined)) {
    throw new UsageError("--all goes with --mcp-config FILE (and without --mcp-server)");
  }
  const client = stringFlag(flags, "client");
  if (client !== undefined && config === undefined) {
    throw new UsageError("--client goes with --mcp-config FILE");
  }
  const one = (spec: McpServerSpec): ConfigEntry[] => [{ name: spec.name ?? "", spec }];
  if (command.length > 0) return one(serverSpecFromCommandLine(command));
  if (line !== undefined) return one(serverSpecFromCommandLine(line));
  if (url !== undefined) return one(serverSpecFromJson({ url }, { path: "--url" }));
  if (config !== undefined) {
    return await readConfigServers(config, {
      entry: stringFlag(flags, "mcp-server"),
      all,
      client,
    });
  }
  return [];
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
    const entries = await serversFromFlags(flags, command);
    const servers = entries.flatMap((entry) => entry.spec ?? []);
    const all = flags.values.all === true;
    if (all && ["spec", "contract", "key"].some((name) => flags.values[name] !== undefined)) {
      throw new UsageError("--all checks the servers only; drop --spec, --contract and --key");
    }
    const timeout = numberFlag(flags, "timeout", [0.001, 86_400]);
    const deadline = numberFlag(flags, "deadline", [0.001, 86_400]);
    const linger = numberFlag(flags, "linger", [0, 600]);
    const shutdownGrace = numberFlag(flags, "shutdown-grace", [0, 600]);
    const inputs = pairs(listFlag(flags, "input"), "--input");
    const serverEnv = pairs(listFlag(flags, "env"), "-e/--env");
    if (Object.keys(serverEnv).length > 0 && servers.some(isRemoteSpec)) {
      throw new UsageError("-e/--env sets a local server's variables; a remote server has none");
    }
    const baselinePath = stringFlag(flags, "baseline");
    const updatePath = stringFlag(flags, "update-baseline");
    if (baselinePath !== undefined && updatePath !== undefined) {
      throw new UsageError("--baseline and --update-baseline are exclusive: compare, or write");
    }
    const entry = stringFlag(flags, "baseline-entry");
    if (entry !== undefined && baselinePath === undefined) {
      throw new UsageError("--baseline-entry goes with --baseline FILE");
    }
    if (entry !== undefined && all) {
      throw new UsageError("--baseline-entry chooses the entry of one server; drop --all");
    }
    const ignore = listFlag(flags, "ignore").map((rule) => parseIgnoreRule(rule, "--ignore"));
    let baseline: BaselineChoice | undefined;
    if (baselinePath !== undefined) {
      baseline = { label: baselinePath, servers: await readBaseline(baselinePath), entry };
    }
    if ((baselinePath ?? updatePath) !== undefined && servers.length === 0) {
      const flag = baselinePath !== undefined ? "--baseline" : "--update-baseline";
      if (flags.values.spec === undefined) throw new UsageError(`${flag} needs a server`);
    }
    const probePath = stringFlag(flags, "probe");
    if (probePath !== undefined && (servers.length === 0 || flags.values["no-server"] === true)) {
      throw new UsageError(
        "--probe needs a server to call (-- CMD, --server, --url, --mcp-config)",
      );
    }
    for (const flag of ["probe-deadline", "allow-side-effects"]) {
      if (flags.values[flag] !== undefined && probePath === undefined) {
        throw new UsageError(`--${flag} goes with --probe FILE`);
      }
    }
    const probeDeadline = numberFlag(flags, "probe-deadline", [0.001, 86_400]);
    const probes = probePath === undefined ? entries.map(() => []) : probesByServer(
      await readProbeFile(probePath),
      entries.map((entry) => entry.name),
      probePath,
    );
    const capabilitiesFlag = stringFlag(flags, "client-capabilities");
    const clientCapabilities = capabilitiesFlag === undefined
      ? undefined
      : parseClientCapabilities(capabilitiesFlag, "--client-capabilities");
    const quiet = flags.values.quiet === true;
    if (quiet && flags.values.json === true) {
      throw new UsageError("give --quiet or --json, not both");
    }
    // Every output's folder and write access, before any server starts (issue 32).
    await readyReports(flags.values);
    if (updatePath !== undefined) await readyOutputFile(updatePath, "--update-baseline");

    const stopListening = onInterrupt(io);
    const runs: ServerRun[] = [];
    try {
      for (const [index, entry] of (entries.length > 0 ? entries : [undefined]).entries()) {
        if (entry?.error !== undefined) {
          // One bad entry of --all fails alone.
          const check = new DoctorCheck("config", "fail", entry.error.message, {
            fix: "fix the entry (the path above says where), or check it alone with --mcp-server",
          });
          runs.push({ name: entry.name, checks: [check], inspection: null });
          continue;
        }
        const server = entry?.spec;
        const found = await inspectDoctor({
          specPath: all ? undefined : stringFlag(flags, "spec"),
          contractPath: all ? undefined : stringFlag(flags, "contract"),
          server,
          keys: listFlag(flags, "key"),
          allowUnknownPrice: flags.values["allow-unknown-price"] === true,
          startServer: flags.values["no-server"] !== true,
          timeout,
          deadline,
          linger,
          shutdownGrace,
          inputs,
          serverEnv,
          baseline,
          ignore,
          probes: probes[index] ?? [],
          allowSideEffects: flags.values["allow-side-effects"] === true,
          probeDeadline,
          clientCapabilities,
          terms: CLI_TERMS,
        });
        const serverOnly = all
          ? found.checks.filter((check) => !NON_SERVER.has(check.name))
          : found.checks;
        runs.push({
          name: found.server?.name ?? server?.name ?? "",
          checks: serverOnly,
          inspection: found.server,
          command: server === undefined
            ? undefined
            : describeServer({ ...server, name: undefined }),
        });
      }
    } finally {
      stopListening();
    }

    if (updatePath !== undefined) {
      const catalogs: Record<string, Catalog> = {};
      for (const run of runs) {
        const catalog = run.inspection?.catalog;
        if (!catalog) continue;
        // One server named on the command line: keyed by its command too (it may rename itself).
        catalogs[run.name] = {
          ...catalog,
          ...(!all && run.command !== undefined ? { command: run.command } : {}),
        };
        const schemas = run.checks.find((check) => check.name === "tool-schemas");
        if (schemas?.status === "fail") {
          io.stderr(
            `doctor: warning: the baseline of ${run.name} records tools whose schemas failed (tool-schemas); fix them before trusting this baseline\n`,
          );
        }
      }
      const names = Object.keys(catalogs);
      if (names.length === 0) {
        io.stderr(`doctor: did not write ${updatePath}: no server listed its tools\n`);
      } else {
        await writeBaseline(updatePath, catalogs);
        io.stderr(`doctor: wrote the catalog of ${names.join(", ")} to ${updatePath}\n`);
      }
    }

    const json = flags.values.json === true;
    const failOnWarn = flags.values["fail-on-warn"] === true;
    const reports = runs.map((run) => doctorReport(run.checks));
    // The reports never change the exit code; a report that cannot be written is exit 2.
    await writeReports(
      reportTargets(flags.values),
      {
        markdown: () =>
          all
            ? doctorAllMarkdown(runs.map((run, i) => ({ name: run.name, report: reports[i]! })), {
              failOnWarn,
            })
            : doctorMarkdown(reports[0]!, runs[0]!.name, { failOnWarn }),
      },
      io,
      [
        stringFlag(flags, "spec"),
        stringFlag(flags, "contract"),
        stringFlag(flags, "mcp-config"),
        baselinePath,
        updatePath,
      ],
    );
    if (all) {
      const combined = allReportJson(runs);
      if (json) io.stdout(`${JSON.stringify(combined, null, 2)}\n`);
      else if (quiet) {
        io.stdout(runs.map((run, i) => quietDoctorReport(reports[i]!, run.name)).join(""));
      } else {
        const sections = runs.map((run, i) =>
          `== ${run.name} ==\n${formatDoctorReport(reports[i]!, { color: io.color })}`
        );
        const summary = runs.map((run, i) => `${run.name}: ${reports[i]!.worst}`).join(", ");
        io.stdout(`${sections.join("\n")}\n${runs.length} servers: ${summary}\n`);
      }
      return exitCode(combined.worst, failOnWarn);
    }
    const run = runs[0]!;
    io.stdout(
      json
        ? `${JSON.stringify(serverRunJson(run), null, 2)}\n`
        : quiet
        ? quietDoctorReport(reports[0]!)
        : formatDoctorReport(reports[0]!, { color: io.color }),
    );
    return exitCode(reports[0]!.worst, failOnWarn);
  },
};

const NON_SERVER = new Set([
  "spec",
  "contract",
  "keys",
  "packages",
  "prices",
  "budget",
  "contract-tools",
]);

function exitCode(worst: string, failOnWarn: boolean): number {
  return worst === "fail" || (failOnWarn && worst === "warn") ? EXIT.gate : EXIT.ok;
}
