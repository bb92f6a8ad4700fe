/**
 * {@linkcode checkServer}: start a server (or connect to its URL), run
 * `initialize` and `tools/list` (all pages), and check its tools and build.
 * It never sends `tools/call`.
 *
 * @module
 */

import { leftBehindNote, McpSession } from "../mcp/client.ts";
import { McpServerError } from "../mcp/server_error.ts";
import {
  describeServer,
  isRemoteSpec,
  type MCPServerSpec,
  type ServerVerify,
} from "../mcp/server_spec.ts";
import { DoctorCheck } from "./check.ts";
import { toolListIssues, toolsSha256 } from "./tool_schemas.ts";

/** Options for {@linkcode checkServer}. */
export interface CheckServerOptions {
  /**
   * The build the server must be (`serverInfo` and the tool list's hash);
   * the spec's `verify` when absent.
   * @default {undefined}
   */
  verify?: ServerVerify;
  /**
   * Seconds each request may take, unless the spec sets `timeout_s`.
   * @default {30}
   */
  timeout?: number;
  /**
   * Reads one of our environment variables for the server's base environment.
   * @default {undefined} (the real environment, where permitted)
   */
  lookup?: (name: string) => string | undefined;
}

/** What {@linkcode inspectServer} found: the checks and the tool names (`null` when not listed). */
export interface ServerInspection {
  /** `server-start`, `tools-list`, `tool-schemas`, `server-build`. */
  checks: DoctorCheck[];
  /** The names of the tools listed, or `null` when listing failed. */
  toolNames: string[] | null;
}

/** The checks {@linkcode checkServer} returns, in order. */
export const SERVER_CHECKS: readonly string[] = [
  "server-start",
  "tools-list",
  "tool-schemas",
  "server-build",
];

// Launchers that may download the server on first use.
const DOWNLOADERS = new Set(["npx", "npx.cmd", "uvx", "bunx", "pnpx", "pnpm", "yarn", "pipx"]);

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

function fixFor(error: McpServerError, spec: MCPServerSpec): string {
  // The command line quoted as a shell needs it, so that the user can paste it.
  const where = isRemoteSpec(spec) ? spec.url : describeServer({ command: spec.command });
  switch (error.kind) {
    case "spawn":
      return isRemoteSpec(spec)
        ? "fix server.url"
        : error.cause instanceof Deno.errors.NotFound
        ? `install ${spec.command[0]} or fix the server command`
        : `make ${spec.command[0]} an executable file, or fix the server command`;
    case "permission":
      return "grant the permission named above to deno";
    case "timeout": {
      // The spec's timeout_s wins over --timeout, so name the setting that applies.
      const knob = spec.timeoutS !== undefined ? "server.timeout_s" : "--timeout";
      if (isRemoteSpec(spec)) {
        return `check that ${where} is an MCP endpoint and reachable, or raise ${knob}`;
      }
      const downloads = DOWNLOADERS.has(basename(spec.command[0]!));
      return `check that \`${where}\` serves MCP on stdio; if it is only slow to start` +
        `${downloads ? " (a first download can be slow)" : ""}, raise ${knob}`;
    }
    case "exit":
      return `run \`${where}\` yourself to see why it stops`;
    case "config":
      return "set the variable named above (and let deno read it), or fix server.env";
    case "protocol":
      return isRemoteSpec(spec)
        ? "check that the server is running and that the URL is its MCP (Streamable HTTP) endpoint"
        : "check that the server speaks MCP on stdio and logs to stderr, not stdout";
  }
}

function skipped(from: number, why: string): DoctorCheck[] {
  return SERVER_CHECKS.slice(from).map((name) => new DoctorCheck(name, "skip", why));
}

function listNames(names: string[]): string {
  return names.length <= 8
    ? names.join(", ")
    : `${names.slice(0, 8).join(", ")}, … (${names.length - 8} more)`;
}

/**
 * {@linkcode checkServer}, plus the names of the tools listed (for the
 * `contract-tools` check).
 *
 * @param spec The server.
 * @param options The pinned build, the timeout and the environment reader.
 * @returns The four checks and the tool names.
 *
 * @example Usage
 * ```ts ignore
 * import { inspectServer } from "./check_server.ts";
 *
 * const { checks, toolNames } = await inspectServer({ command: ["deno", "run", "server.ts"] });
 * ```
 */
export async function inspectServer(
  spec: MCPServerSpec,
  options: CheckServerOptions = {},
): Promise<ServerInspection> {
  const started = performance.now();
  let session: McpSession;
  try {
    session = await McpSession.open(spec, {
      timeoutS: options.timeout ?? 30,
      lookup: options.lookup,
    });
  } catch (error) {
    if (!(error instanceof McpServerError)) throw error;
    return {
      checks: [
        new DoctorCheck("server-start", "fail", error.message, { fix: fixFor(error, spec) }),
        ...skipped(1, "the server did not start"),
      ],
      toolNames: null,
    };
  }
  const checks: DoctorCheck[] = [];
  let tools: unknown[];
  try {
    const { name, version, protocolVersion } = session.identity;
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    checks.push(
      new DoctorCheck(
        "server-start",
        "pass",
        `${name || "(no name)"} ${version || "(no version)"} answered initialize in ${seconds} s` +
          ` (protocol ${protocolVersion ?? "unknown"}): ${describeServer(spec)}`,
      ),
    );
    try {
      tools = await session.listToolsRaw();
    } catch (error) {
      if (!(error instanceof McpServerError)) throw error;
      checks.push(
        new DoctorCheck("tools-list", "fail", error.message, { fix: fixFor(error, spec) }),
        ...skipped(2, "no tool list"),
      );
      return { checks, toolNames: null };
    }
  } finally {
    await session.close();
    // A process the server started outlived it: say so, unless a failure already did.
    const left = leftBehindNote(session.leftBehind);
    if (left !== null && checks.every((check) => check.status !== "fail")) {
      checks[0] = new DoctorCheck("server-start", "warn", `${checks[0]!.detail}; ${left.detail}`, {
        fix: left.fix,
      });
    }
  }

  const names = tools.flatMap((tool) =>
    typeof (tool as { name?: unknown })?.name === "string" ? [(tool as { name: string }).name] : []
  );
  const hash = toolsSha256(tools);
  checks.push(
    tools.length === 0
      ? new DoctorCheck("tools-list", "warn", "the server lists no tools", {
        fix: "check the server's arguments (a folder, a config) that enable its tools",
      })
      : new DoctorCheck(
        "tools-list",
        "pass",
        `${tools.length} tool${tools.length === 1 ? "" : "s"}: ${
          listNames(names)
        }; tools_sha256 ${hash}`,
      ),
  );

  const { fails, warns } = toolListIssues(tools);
  if (fails.length > 0) {
    checks.push(
      new DoctorCheck("tool-schemas", "fail", [...fails, ...warns].join("; "), {
        fix: "fix these tool definitions in the server; a model API rejects such tools",
      }),
    );
  } else if (warns.length > 0) {
    checks.push(
      new DoctorCheck("tool-schemas", "warn", warns.join("; "), {
        fix:
          "fix these tool definitions in the server (schemas and descriptions are what the model sees)",
      }),
    );
  } else {
    checks.push(
      new DoctorCheck(
        "tool-schemas",
        tools.length === 0 ? "skip" : "pass",
        tools.length === 0
          ? "no tools to check"
          : "every tool has a name, a valid object input schema and a description",
      ),
    );
  }

  const verify = options.verify ?? spec.verify;
  if (verify === undefined) {
    checks.push(
      new DoctorCheck(
        "server-build",
        "skip",
        "no build pinned (server.verify: {name, version, tools_sha256})",
      ),
    );
  } else {
    const { name, version } = session.identity;
    const mismatches: string[] = [];
    if (verify.name !== undefined && verify.name !== name) {
      mismatches.push(
        `serverInfo.name is ${JSON.stringify(name)}, pinned ${JSON.stringify(verify.name)}`,
      );
    }
    if (verify.version !== undefined && verify.version !== version) {
      mismatches.push(
        `serverInfo.version is ${JSON.stringify(version)}, pinned ${
          JSON.stringify(verify.version)
        }`,
      );
    }
    if (verify.toolsSha256 !== undefined && verify.toolsSha256 !== hash) {
      mismatches.push(`tools_sha256 is ${hash}, pinned ${verify.toolsSha256}`);
    }
    const pinned = [
      verify.name !== undefined ? "name" : "",
      verify.version !== undefined ? "version" : "",
      verify.toolsSha256 !== undefined ? "tools_sha256" : "",
    ].filter((x) => x !== "").join(", ");
    checks.push(
      mismatches.length > 0
        ? new DoctorCheck("server-build", "fail", mismatches.join("; "), {
          fix: "start the pinned build, or update server.verify after reviewing the change",
        })
        : new DoctorCheck("server-build", "pass", `matches the pinned ${pinned || "build"}`),
    );
  }
  return { checks, toolNames: names };
}

/**
 * Start a server, list its tools and check its build; nothing else is
 * called (never `tools/call`). The checks, in order: `server-start`,
 * `tools-list`, `tool-schemas`, `server-build`. A local server is always
 * killed and reaped before this returns.
 *
 * @param spec The server.
 * @param options The pinned build, the timeout (seconds) and the environment reader.
 * @returns The four checks.
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
  spec: MCPServerSpec,
  options: CheckServerOptions = {},
): Promise<DoctorCheck[]> {
  return (await inspectServer(spec, options)).checks;
}
