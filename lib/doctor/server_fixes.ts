/**
 * What to do about a server that failed: one sentence per kind of failure,
 * naming the setting to change the way the caller knows it (the library's
 * options or the CLI's flags), and for a local server a line to run it by
 * hand, quoted for a POSIX shell, with the variables doctor passes it.
 *
 * @module
 */

import type { McpServerError } from "../mcp/server_error.ts";
import { isRemoteSpec, type McpServerSpec } from "../mcp/server_spec.ts";
import { BASE_ENV_NAMES, readEnv } from "../mcp/server_env.ts";
import { shellLine } from "../mcp/command_line.ts";
import { MARKER_VARIABLE } from "../mcp/process_sweep.ts";
import type { DoctorTerms } from "./terms.ts";
import { maxMessageBytes, sizeText } from "../base/read_limits.ts";

// Launchers that may download the server on first use.
const DOWNLOADERS = new Set(["npx", "npx.cmd", "uvx", "bunx", "pnpx", "pnpm", "yarn", "pipx"]);

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/**
 * The names of the variables a local server is started with (never values).
 *
 * @param spec The local server.
 * @param lookup Reads our variables.
 * @param extra The caller's extra variables.
 * @returns The names, base first.
 *
 * @example Usage
 * ```ts
 * import { passedVariableNames } from "./server_fixes.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(passedVariableNames({ command: ["s"], env: { A: "1" } }, (n) => n === "PATH" ? "/bin" : undefined), ["PATH", "A"]);
 * ```
 */
export function passedVariableNames(
  spec: Extract<McpServerSpec, { command: string[] }>,
  lookup: (name: string) => string | undefined,
  extra: Readonly<Record<string, string>> = {},
): string[] {
  const names = BASE_ENV_NAMES.filter((name) => lookup(name) !== undefined);
  for (const name of [...Object.keys(spec.env ?? {}), ...Object.keys(extra)]) {
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The fix for a server that failed to start or to list.
 *
 * @param error What went wrong.
 * @param spec The server.
 * @param terms How to name settings.
 * @param options How the server was started: our variables and the extra ones.
 * @returns One sentence.
 */
export function fixFor(
  error: McpServerError,
  spec: McpServerSpec,
  terms: DoctorTerms,
  options: {
    lookup?: (name: string) => string | undefined;
    env?: Readonly<Record<string, string>>;
  },
): string {
  const where = isRemoteSpec(spec) ? spec.url : shellLine(spec.command);
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
      if (isRemoteSpec(spec)) {
        return `check that ${where} is an MCP endpoint and reachable, or raise ${terms.timeout}`;
      }
      if (/still writing one line to stdout/.test(error.message)) {
        return `raise ${terms.timeout} for a server whose answers are this large and slow ` +
          "(and TOOLSCORE_MAX_MESSAGE_MIB past the message limit), or make them smaller";
      }
      const downloads = DOWNLOADERS.has(basename(spec.command[0]!));
      return `check that \`${where}\` serves MCP on stdio; if it is only slow to start` +
        `${downloads ? " (a first download can be slow)" : ""}, raise ${terms.timeout}` +
        (spec.timeoutS !== undefined ? ` (it wins over server.timeout_s)` : "");
    }
    case "deadline":
      return `raise ${terms.deadline}, or make the server's lists end (a cursor that never ends)`;
    case "exit": {
      if (isRemoteSpec(spec)) return `check the server at ${where}`;
      const names = passedVariableNames(spec, options.lookup ?? readEnv, options.env);
      return `run \`${where}\` yourself to see why it stops; doctor starts it with a cleared ` +
        `environment where only ${
          names.join(", ") || "nothing"
        } pass (and its marker ${MARKER_VARIABLE})` +
        ` (add one with ${terms.env})`;
    }
    case "config":
      return `set the variable or input named above (and let deno read it), or fix the server spec`;
    case "version":
      return "update the server (or the MCP SDK it is built with) to a protocol version this client supports";
    case "invalid":
      return "fix the server's answer at the JSON paths named; the official SDK's client refuses it";
    case "http":
      return /asks for OAuth/.test(error.message)
        ? "until doctor speaks OAuth, pass a token the provider issued in a header (see above)"
        : /\b40[13]\b/.test(error.message)
        ? "set the header's variable to a valid key or token for this server"
        : /\b404\b/.test(error.message)
        ? "fix server.url: the MCP endpoint's path"
        : "check the server's logs for this status";
    case "unsupported":
      return "the server does not offer this list";
    case "protocol": {
      const loop = /^(\S+) returned the cursor ("(?:[^"\\]|\\.)*") twice/.exec(error.message);
      if (loop) {
        return `make ${loop[1]} end: give each page a new nextCursor and the last page none ` +
          `(the cursor ${loop[2]} came back)`;
      }
      if (/over several lines \(pretty-printed/.test(error.message)) {
        return "write each message as one line of JSON followed by a newline " +
          "(JSON.stringify(message), without indentation)";
      }
      if (/\(the MCP message limit; set TOOLSCORE_MAX_MESSAGE_MIB/.test(error.message)) {
        // Issue 42: over the cap is not "not MCP"; say which setting raises it.
        return `if the server means to send messages that big, raise the limit: ` +
          `TOOLSCORE_MAX_MESSAGE_MIB=${
            Math.max(128, 2 * Math.ceil(maxMessageBytes() / (1024 * 1024)))
          } (MiB, now ${sizeText(maxMessageBytes())}; deno needs --allow-env for it); ` +
          "else make its answers smaller (page long lists with nextCursor)";
      }
      if (/answered in plain HTTP, not TLS/.test(error.message)) {
        return "use http:// in the URL (or serve TLS on that port)";
      }
      return isRemoteSpec(spec)
        ? "check that the server is running and that the URL is its MCP (Streamable HTTP) endpoint"
        : "check that the server speaks MCP on stdio and logs to stderr, not stdout";
    }
  }
}
