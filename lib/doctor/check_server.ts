/**
 * {@linkcode checkServer}: start a server (or connect to its URL), run
 * `initialize` and list what it offers — `tools/list`, and
 * `resources/list`, `resources/templates/list`, `prompts/list` when its
 * capabilities say so (all pages) — then check the handshake, the lists with
 * the SDK's own schemas, the tool lint, the shutdown, the pinned build and,
 * given a baseline, the catalog's drift. It sends `tools/call`, reads a
 * resource or gets a prompt only when a probe lists it (`probe_run.ts`).
 *
 * Changed from the design page (issue 18): more checks (`handshake`,
 * `stdout`, `tool-lint`, `resources`, `prompts`, `shutdown`, and
 * `catalog-drift` with a baseline); the caller's timeout wins over the
 * spec's `timeout_s`; an overall deadline.
 *
 * Changed in issue 37: a `config` check first for a spec read from a client
 * config (`config_check.ts`); the linger of `server-start` (`linger_check.ts`);
 * what a server started may outlive it by `shutdownGrace` seconds.
 *
 * Changed in issue 39: the doctor declares client capabilities (roots,
 * sampling, elicitation by default) and runs the probes it is given, one
 * `probe:…` check each after the others.
 *
 * @module
 */

import { McpSession } from "../mcp/client.ts";
import { McpServerError } from "../mcp/server_error.ts";
import { redact } from "../mcp/client_failure.ts";
import {
  describeServer,
  isRemoteSpec,
  type McpServerSpec,
  type ServerVerify,
} from "../mcp/server_spec.ts";
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { DoctorCheck } from "./check.ts";
import { toolsSha256 } from "./tool_schemas.ts";
import { type Catalog, catalogOf } from "./catalog.ts";
import {
  type BaselineChoice,
  baselineDriftCheck,
  lintCheck,
  schemasCheck,
} from "./catalog_checks.ts";
import type { IgnoreRule } from "./ignore.ts";
import { startCause } from "./start_cause.ts";
import { type DoctorTerms, LIBRARY_TERMS } from "./terms.ts";
import { fixFor } from "./server_fixes.ts";
import { configCheck } from "./config_check.ts";
import { lingerCheck } from "./linger_check.ts";
import { probeCheckName, runProbes, type ServerProbeOptions } from "./probe_run.ts";
import { CLIENT_CAPABILITIES } from "../mcp/client_capabilities.ts";
import {
  buildCheck,
  type FetchedList,
  handshakeCheck,
  listCheck,
  shutdownCheck,
  stdoutCheck,
} from "./server_checks.ts";
import { pushAll } from "../base/arrays.ts";

/** Options for {@linkcode checkServer}. */
export interface CheckServerOptions extends ServerProbeOptions {
  /**
   * The build the server must be (`serverInfo` and the tool list's hash);
   * the spec's `verify` when absent.
   * @default {undefined}
   */
  verify?: ServerVerify;
  /**
   * Seconds each request may take; wins over the spec's `timeout_s`.
   * @default {undefined} (the spec's `timeout_s`, else 30)
   */
  timeout?: number;
  /**
   * Seconds the whole check may take, however many requests and pages.
   * @default {undefined} (four times the per-request timeout, at least 120)
   */
  deadline?: number;
  /**
   * Reads one of our environment variables for the server's base environment.
   * @default {undefined} (the real environment, where permitted)
   */
  lookup?: (name: string) => string | undefined;
  /**
   * Values for `${input:ID}` in the spec (VS Code prompts for them).
   * @default {{}}
   */
  inputs?: Readonly<Record<string, string>>;
  /**
   * More variables for a local server, over its spec's `env`.
   * @default {{}}
   */
  env?: Readonly<Record<string, string>>;
  /**
   * A baseline to compare the catalog with: the catalog of each server by
   * name, and what to call it in messages (its file).
   * @default {undefined} (no `catalog-drift` check)
   */
  baseline?: BaselineChoice;
  /**
   * Findings to silence (`--ignore CODE[@PATH]`).
   * @default {[]}
   */
  ignore?: readonly IgnoreRule[];
  /**
   * How messages name the settings.
   * @default {LIBRARY_TERMS}
   */
  terms?: Partial<DoctorTerms>;
  /**
   * Milliseconds between closing stdin, SIGTERM and SIGKILL on shutdown.
   * @default {1500}
   */
  killGraceMs?: number;
  /**
   * Seconds a local server must stay up after answering `initialize` (the
   * lists run meanwhile): one that exits sooner fails `server-start`.
   * @default {1}
   */
  linger?: number;
  /**
   * Seconds what a local server started may outlive it (exiting by itself)
   * before it is stopped and named in `shutdown`.
   * @default {1.5}
   */
  shutdownGrace?: number;
}

/** What the server offers, as sent (for `--json`). */
export interface ServerSummary {
  /** `serverInfo` as sent. */
  info: JsonObject;
  /** The negotiated protocol version. */
  protocol_version: string | null;
  /** The declared capabilities. */
  capabilities: JsonObject;
  /** The server's instructions, if any. */
  instructions: string | null;
  /** Every tool, with its schemas. */
  tools: unknown[];
  /** Every resource (listed, never read). */
  resources: unknown[];
  /** Every resource template. */
  resource_templates: unknown[];
  /** Every prompt (listed, never called). */
  prompts: unknown[];
}

/** What {@linkcode inspectServer} found. */
export interface ServerInspection {
  /** The checks, in {@linkcode SERVER_CHECKS} order (and `catalog-drift` with a baseline). */
  checks: DoctorCheck[];
  /** The names of the tools listed, or `null` when listing failed. */
  toolNames: string[] | null;
  /** The server's name for baselines and sections: the spec's name, else `serverInfo.name`. */
  name: string;
  /** What the server offers; `null` when it did not start. */
  server: ServerSummary | null;
  /** The catalog (for a baseline); `null` when the tools could not be listed. */
  catalog: Catalog | null;
  /** Seconds: `initialize` and each list method. */
  timings: Record<string, number>;
  /** What a local server wrote that was not JSON-RPC, and its stderr (secrets hidden). */
  output: { stdout: string[]; stderr: string[] };
}

/** The checks {@linkcode checkServer} returns, in order. */
export const SERVER_CHECKS: readonly string[] = [
  "server-start",
  "handshake",
  "stdout",
  "tools-list",
  "tool-schemas",
  "tool-lint",
  "resources",
  "prompts",
  "shutdown",
  "server-build",
];

function skipped(names: readonly string[], why: string): DoctorCheck[] {
  return names.map((name) => new DoctorCheck(name, "skip", why));
}

function listNames(names: string[]): string {
  return names.length <= 8
    ? names.join(", ")
    : `${names.slice(0, 8).join(", ")}, … (${names.length - 8} more)`;
}

async function fetchList(session: McpSession, method: FetchedList["method"]): Promise<FetchedList> {
  try {
    return { method, items: await session.listAll(method) };
  } catch (error) {
    if (!(error instanceof McpServerError)) throw error;
    return { method, items: null, error: { kind: error.kind, message: error.message } };
  }
}

function declared(capabilities: JsonObject, key: string): boolean {
  return isJsonObject(capabilities[key]);
}

/**
 * {@linkcode checkServer}, plus what the server offers, the timings, its
 * output and the catalog (for `--json` and baselines).
 *
 * @param spec The server.
 * @param options The pinned build, timeouts, inputs, a baseline and the environment reader.
 * @returns The checks and what was found.
 *
 * @example Usage
 * ```ts ignore
 * import { inspectServer } from "./check_server.ts";
 *
 * const { checks, toolNames } = await inspectServer({ command: ["deno", "run", "server.ts"] });
 * ```
 */
export async function inspectServer(
  spec: McpServerSpec,
  options: CheckServerOptions = {},
): Promise<ServerInspection> {
  const terms: DoctorTerms = { ...LIBRARY_TERMS, ...options.terms };
  const perRequest = options.timeout ?? spec.timeoutS ?? 30;
  const inspection: ServerInspection = {
    checks: [],
    toolNames: null,
    name: spec.name ?? "",
    server: null,
    catalog: null,
    timings: {},
    output: { stdout: [], stderr: [] },
  };
  const config = configCheck(spec);
  if (config !== null) inspection.checks.push(config);
  let session: McpSession;
  try {
    session = await McpSession.open(spec, {
      timeoutS: options.timeout,
      deadlineS: options.deadline ?? Math.max(120, 4 * perRequest),
      lookup: options.lookup,
      inputs: options.inputs,
      env: options.env,
      terms,
      clientCapabilities: options.clientCapabilities ?? CLIENT_CAPABILITIES,
      killGraceMs: options.killGraceMs,
      shutdownGraceMs: options.shutdownGrace === undefined
        ? undefined
        : options.shutdownGrace * 1000,
    });
  } catch (error) {
    if (!(error instanceof McpServerError)) throw error;
    inspection.output.stderr = [...error.stderr];
    inspection.checks.push(
      new DoctorCheck("server-start", "fail", error.message, {
        fix: fixFor(error, spec, terms, options),
        cause: startCause(error),
      }),
      ...skipped(SERVER_CHECKS.slice(1, -2), "the server did not start"),
      ...(isRemoteSpec(spec) ? skipped(["shutdown"], "the server did not start") : [
        shutdownCheck(spec, error.leftBehind, false),
      ]),
      ...skipped(["server-build"], "the server did not start"),
    );
    if (options.baseline) {
      inspection.checks.push(new DoctorCheck("catalog-drift", "skip", "the server did not start"));
    }
    const probes = (options.probes ?? []).map(probeCheckName);
    pushAll(inspection.checks, skipped(probes, "the server did not start"));
    return inspection;
  }
  const { name, version, protocolVersion } = session.identity;
  inspection.name = spec.name ?? (name || "server");
  const checks = inspection.checks;
  const capabilities = session.capabilities;
  const summary: ServerSummary = {
    info: isJsonObject((session.initializeResult as JsonObject | undefined)?.serverInfo)
      ? (session.initializeResult as { serverInfo: JsonObject }).serverInfo
      : {},
    protocol_version: protocolVersion,
    capabilities,
    instructions: session.identity.instructions,
    tools: [],
    resources: [],
    resource_templates: [],
    prompts: [],
  };
  inspection.server = summary;
  const startAt = checks.length;
  checks.push(
    new DoctorCheck(
      "server-start",
      "pass",
      `${name || "(no name)"} ${version || "(no version)"} answered initialize in ${
        (session.timings.initialize ?? 0).toFixed(2)
      } s (protocol ${protocolVersion ?? "unknown"}): ${describeServer(spec)}`,
    ),
    handshakeCheck(spec, session.initializeResult, protocolVersion),
  );
  let tools: unknown[] | null = null;
  let toolsError: McpServerError | null = null;
  const lists: FetchedList[] = [];
  let probeChecks: DoctorCheck[] = [];
  try {
    try {
      tools = await session.listToolsRaw();
    } catch (error) {
      if (!(error instanceof McpServerError)) throw error;
      toolsError = error;
    }
    if (toolsError === null || toolsError.kind === "unsupported") {
      if (declared(capabilities, "resources")) {
        lists.push(await fetchList(session, "resources/list"));
        lists.push(await fetchList(session, "resources/templates/list"));
      }
      if (declared(capabilities, "prompts")) lists.push(await fetchList(session, "prompts/list"));
    }
    const prompts = lists.find((list) => list.method === "prompts/list")?.items ?? [];
    probeChecks = await runProbes(session, { tools, prompts }, options.probes ?? [], {
      ...options,
      timeout: perRequest,
      deadline: options.probeDeadline,
      allowTerm: terms.allowSideEffects,
    });
    // A server that crashes just after the handshake would pass: keep it open a while.
    const crashed = await lingerCheck(session, spec, options.linger ?? 1, terms, options);
    if (crashed !== null) checks[startAt] = crashed;
  } finally {
    await session.close();
  }
  const itemsOf = (method: string) => lists.find((list) => list.method === method)?.items ?? [];
  summary.tools = tools ?? [];
  summary.resources = itemsOf("resources/list");
  summary.resource_templates = itemsOf("resources/templates/list");
  summary.prompts = itemsOf("prompts/list");
  inspection.timings = { ...session.timings };
  const noise = session.stdoutNoise;
  inspection.output = {
    stdout: noise.lines.map((line) => redact(line, session.secrets)),
    stderr: session.stderr.map((line) => redact(line, session.secrets)),
  };
  checks.push(stdoutCheck(spec, noise));

  const resourcesCheck = listCheck(
    "resources",
    declared(capabilities, "resources"),
    lists.filter((l) => l.method.startsWith("resources")),
  );
  const promptsCheck = listCheck(
    "prompts",
    declared(capabilities, "prompts"),
    lists.filter((l) => l.method === "prompts/list"),
  );
  const tail = [
    resourcesCheck,
    promptsCheck,
    shutdownCheck(spec, session.leftBehind, session.sessionEnded),
  ];

  if (tools === null) {
    const error = toolsError!;
    if (error.kind === "unsupported") {
      const offers = [
        summary.resources.length > 0 || declared(capabilities, "resources")
          ? `resources (${summary.resources.length}${
            summary.resource_templates.length > 0
              ? ` and ${summary.resource_templates.length} template(s)`
              : ""
          })`
          : "",
        declared(capabilities, "prompts") ? `prompts (${summary.prompts.length})` : "",
        ...["logging", "completions"].filter((key) => declared(capabilities, key)),
      ].filter((part) => part !== "");
      checks.push(
        new DoctorCheck(
          "tools-list",
          "warn",
          `the server has no tools: ${
            declared(capabilities, "tools")
              ? "it declares the tools capability but"
              : "it does not declare the tools capability and"
          } answers tools/list with "method not found"; it offers ${
            offers.length > 0 ? offers.join(", ") : "nothing else"
          }`,
          {
            fix:
              "an agent needs tools: use a server that has them (its resources and prompts are listed below)",
          },
        ),
        ...skipped(["tool-schemas", "tool-lint"], "no tools"),
      );
    } else {
      checks.push(
        new DoctorCheck("tools-list", "fail", error.message, {
          fix: fixFor(error, spec, terms, options),
          cause: startCause(error),
        }),
        ...skipped(["tool-schemas", "tool-lint"], "no tool list"),
      );
    }
    checks.push(
      ...tail,
      buildCheck(options.verify ?? spec.verify, session.identity, toolsSha256([])),
    );
    if (options.baseline) checks.push(new DoctorCheck("catalog-drift", "skip", "no tool list"));
    pushAll(checks, probeChecks);
    return inspection;
  }

  const names = tools.flatMap((tool) =>
    isJsonObject(tool) && typeof tool.name === "string" ? [tool.name] : []
  );
  inspection.toolNames = names;
  const hash = toolsSha256(tools);
  const undeclared = tools.length > 0 && !declared(capabilities, "tools")
    ? "; it lists tools without declaring the tools capability (strict clients will not ask)"
    : "";
  checks.push(
    tools.length === 0
      ? new DoctorCheck("tools-list", "warn", "the server lists no tools", {
        fix: "check the server's arguments (a folder, a config) that enable its tools",
      })
      : new DoctorCheck(
        "tools-list",
        undeclared === "" ? "pass" : "warn",
        `${tools.length} tool${tools.length === 1 ? "" : "s"}: ${
          listNames(names)
        }; tools_sha256 ${hash}${undeclared}`,
        undeclared === ""
          ? {}
          : { fix: "declare capabilities: {tools: {}} in the initialize answer" },
      ),
  );

  const rules = options.ignore ?? [];
  checks.push(schemasCheck(tools, protocolVersion, rules));
  checks.push(lintCheck(tools, {
    instructions: summary.instructions,
    prompts: summary.prompts,
    resources: summary.resources,
    resourceTemplates: summary.resource_templates,
  }, rules));
  checks.push(...tail, buildCheck(options.verify ?? spec.verify, session.identity, hash));

  inspection.catalog = {
    ...catalogOf({
      tools,
      resources: summary.resources,
      resourceTemplates: summary.resource_templates,
      prompts: summary.prompts,
    }),
    client_capabilities: [...(options.clientCapabilities ?? CLIENT_CAPABILITIES)],
  };
  if (options.baseline) {
    const command = describeServer({ ...spec, name: undefined });
    checks.push(
      baselineDriftCheck(
        options.baseline,
        inspection.name,
        command,
        inspection.catalog,
        terms,
        rules,
      ),
    );
  }
  pushAll(checks, probeChecks);
  return inspection;
}

/**
 * Start a server, list what it offers and check it; nothing is called unless
 * `probes` lists it. The checks, in order: {@linkcode SERVER_CHECKS} (and
 * `catalog-drift` given a baseline). A local server, and whatever it
 * started, is always stopped before this returns.
 *
 * @param spec The server.
 * @param options The pinned build, timeouts, inputs, a baseline and the environment reader.
 * @returns The checks.
 *
 * @example Usage
 * ```ts ignore
 * import { checkServer, doctorReport } from "@toolscore/cli";
 *
 * const checks = await checkServer({ command: ["npx", "-y", "@modelcontextprotocol/server-everything"] }, {
 *   timeout: 120,
 * });
 * console.log(doctorReport(checks).worst);
 * ```
 */
export async function checkServer(
  spec: McpServerSpec,
  options: CheckServerOptions = {},
): Promise<DoctorCheck[]> {
  return (await inspectServer(spec, options)).checks;
}
