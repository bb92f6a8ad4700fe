/**
 * The server checks that read what a session learned: the handshake
 * (protocol version, `serverInfo`, capability keys), what the server wrote
 * to stdout that was not JSON-RPC, the resource and prompt lists (with the
 * SDK's own schemas; listed, never read or called), the shutdown (what was
 * stopped or survives; a remote session ended), and the pinned build.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import {
  LATEST_PROTOCOL_VERSION,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { issueLines, leftBehindNote } from "../mcp/client_failure.ts";
import type { LeftBehind } from "../mcp/server_error.ts";
import {
  isLegacySse,
  isRemoteSpec,
  type McpServerSpec,
  type ServerVerify,
} from "../mcp/server_spec.ts";
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { DoctorCheck } from "./check.ts";

// The newest supported revision before the current one.
const PREVIOUS_PROTOCOL_VERSION: string | undefined = SUPPORTED_PROTOCOL_VERSIONS
  .filter((version) => version !== LATEST_PROTOCOL_VERSION).sort().at(-1);

/** The capability keys MCP defines (2025-11-25). */
export const KNOWN_CAPABILITIES: readonly string[] = [
  "experimental",
  "logging",
  "completions",
  "prompts",
  "resources",
  "tools",
  "tasks",
  "extensions",
];

/**
 * `handshake`: the protocol version (current; the previous revision, a
 * note; older, a warning; or refused), `serverInfo`
 * with a name and a version, known capability keys, `listChanged` noted,
 * and the legacy SSE transport flagged as deprecated.
 *
 * @param spec The server.
 * @param initialize The `initialize` result as sent.
 * @param protocolVersion The negotiated version.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { handshakeCheck } from "./server_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const check = handshakeCheck({ command: ["s"] }, {
 *   serverInfo: { name: "s", version: "1" }, capabilities: { tools: {}, bogus: {} },
 * }, "2024-11-05");
 * assert.equal(check.status, "warn");
 * assert.match(check.detail, /protocol 2024-11-05 is old/);
 * assert.match(check.detail, /unknown capability bogus/);
 * ```
 */
export function handshakeCheck(
  spec: McpServerSpec,
  initialize: unknown,
  protocolVersion: string | null,
): DoctorCheck {
  const result = isJsonObject(initialize) ? initialize : {};
  const warns: string[] = [];
  const notes: string[] = [];
  if (protocolVersion === LATEST_PROTOCOL_VERSION) {
    notes.push(`protocol ${protocolVersion} (current)`);
  } else if (protocolVersion !== null && protocolVersion === PREVIOUS_PROTOCOL_VERSION) {
    // The revision before the current one is what most servers still speak: a note (issue 37).
    notes.push(
      `protocol ${protocolVersion} (the previous revision, supported; current: ${LATEST_PROTOCOL_VERSION})`,
    );
  } else if (protocolVersion !== null && SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    warns.push(`protocol ${protocolVersion} is old (current: ${LATEST_PROTOCOL_VERSION})`);
  } else notes.push(`protocol ${protocolVersion ?? "unknown"}`);
  const info = isJsonObject(result.serverInfo) ? result.serverInfo : {};
  for (const key of ["name", "version"]) {
    if (typeof info[key] !== "string" || (info[key] as string).trim() === "") {
      warns.push(`serverInfo has no ${key}`);
    }
  }
  const capabilities = isJsonObject(result.capabilities) ? result.capabilities : {};
  const keys = Object.keys(capabilities);
  const unknown = keys.filter((key) => !KNOWN_CAPABILITIES.includes(key));
  if (unknown.length > 0) {
    warns.push(
      `unknown capability ${unknown.join(", ")} (MCP defines ${KNOWN_CAPABILITIES.join(", ")})`,
    );
  }
  const known = keys.filter((key) => KNOWN_CAPABILITIES.includes(key));
  notes.push(`capabilities: ${known.length > 0 ? known.join(", ") : "none"}`);
  const changing = ["tools", "resources", "prompts"].filter((key) =>
    isJsonObject(capabilities[key]) && (capabilities[key] as JsonObject).listChanged === true
  );
  if (changing.length > 0) {
    notes.push(`${changing.join(", ")} may change during a session (listChanged)`);
  }
  if (isLegacySse(spec)) {
    warns.push(
      "it speaks the legacy HTTP+SSE transport, deprecated since MCP 2025-03-26",
    );
  }
  const detail = [...warns, ...notes].join("; ");
  return warns.length > 0
    ? new DoctorCheck("handshake", "warn", detail, {
      fix: isLegacySse(spec)
        ? "move the server to Streamable HTTP (one endpoint, usually /mcp)"
        : "update the server (or its MCP SDK): report a name and version, the current protocol, known capabilities",
    })
    : new DoctorCheck("handshake", "pass", detail);
}

/**
 * `stdout`: a local server that prints a banner or logs on stdout, with the lines.
 *
 * @param spec The server.
 * @param noise The lines that were not JSON-RPC (the first ones) and how many.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { stdoutCheck } from "./server_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const check = stdoutCheck({ command: ["s"] }, { lines: ["Server ready"], count: 1 });
 * assert.equal(check.detail, 'it wrote 1 line to stdout that is not JSON-RPC: "Server ready"');
 * ```
 */
export function stdoutCheck(
  spec: McpServerSpec,
  noise: { lines: readonly string[]; count: number },
): DoctorCheck {
  if (isRemoteSpec(spec)) return new DoctorCheck("stdout", "skip", "a remote server has no stdout");
  if (noise.count === 0) return new DoctorCheck("stdout", "pass", "only JSON-RPC on stdout");
  const shown = noise.lines.slice(0, 5).map((line) => JSON.stringify(line)).join(", ");
  return new DoctorCheck(
    "stdout",
    "warn",
    `it wrote ${noise.count} line${noise.count === 1 ? "" : "s"} to stdout that ${
      noise.count === 1 ? "is" : "are"
    } not JSON-RPC: ${shown}${noise.count > 5 ? ", …" : ""}`,
    {
      fix:
        "log to stderr: stdout is the protocol channel, and stricter clients drop the connection",
    },
  );
}

const LIST_SCHEMAS = {
  "resources/list": ListResourcesResultSchema,
  "resources/templates/list": ListResourceTemplatesResultSchema,
  "prompts/list": ListPromptsResultSchema,
} as const;

/** One list as fetched for {@linkcode listCheck}: its items, or why it could not be listed. */
export interface FetchedList {
  /** The method. */
  method: "resources/list" | "resources/templates/list" | "prompts/list";
  /** The raw items, or `null`. */
  items: unknown[] | null;
  /** Why listing failed (`unsupported` for "method not found"), when it did. */
  error?: { kind: string; message: string };
}

function names(items: readonly unknown[], key: string): string {
  const list = items.flatMap((item) =>
    isJsonObject(item) && typeof item[key] === "string" ? [item[key] as string] : []
  );
  return list.length <= 6
    ? list.join(", ")
    : `${list.slice(0, 6).join(", ")}, … (${list.length - 6} more)`;
}

/**
 * `resources` or `prompts`: the lists checked with the SDK's result schemas,
 * or a skip when the server does not declare the capability.
 *
 * @param name `resources` or `prompts`.
 * @param declared Whether the capability is declared.
 * @param lists The fetched lists.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { listCheck } from "./server_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const check = listCheck("prompts", true, [{ method: "prompts/list", items: [{ name: "greet" }] }]);
 * assert.equal(check.detail, "1 prompt: greet (listed, never called)");
 * ```
 */
export function listCheck(
  name: "resources" | "prompts",
  declared: boolean,
  lists: readonly FetchedList[],
): DoctorCheck {
  if (!declared) {
    return new DoctorCheck(name, "skip", `the server declares no ${name} capability`);
  }
  const fails: string[] = [];
  const warns: string[] = [];
  const parts: string[] = [];
  for (const list of lists) {
    const key = list.method === "resources/templates/list"
      ? "resourceTemplates"
      : list.method === "prompts/list"
      ? "prompts"
      : "resources";
    if (list.items === null) {
      // Templates are optional even with the capability.
      if (list.error?.kind === "unsupported" && key === "resourceTemplates") continue;
      (list.error?.kind === "unsupported" ? warns : fails).push(
        list.error?.message ?? `${list.method} failed`,
      );
      continue;
    }
    const parsed = LIST_SCHEMAS[list.method].safeParse({ [key]: list.items });
    if (!parsed.success) {
      fails.push(
        ...issueLines(parsed.error.issues).map((line) =>
          `${line} (the SDK's client refuses the list)`
        ),
      );
    }
    const word = key === "resourceTemplates"
      ? "template"
      : key === "prompts"
      ? "prompt"
      : "resource";
    const count = list.items.length;
    parts.push(
      `${count} ${word}${count === 1 ? "" : "s"}${
        count > 0
          ? `: ${
            names(
              list.items,
              key === "resourceTemplates" ? "uriTemplate" : key === "prompts" ? "name" : "uri",
            )
          }`
          : ""
      }`,
    );
  }
  const found = `${parts.join("; ")} (listed, never ${name === "prompts" ? "called" : "read"})`;
  if (fails.length > 0) {
    return new DoctorCheck(name, "fail", [...fails, ...warns, found].join("; "), {
      fix: `fix the ${name} list at the paths named; the SDK's client refuses it`,
    });
  }
  if (warns.length > 0) {
    return new DoctorCheck(name, "warn", [...warns, found].join("; "), {
      fix:
        `the server declares the ${name} capability: answer its list methods, or drop the capability`,
    });
  }
  return new DoctorCheck(name, "pass", found);
}

/**
 * `shutdown`: for a local server, what was stopped and what survives (with
 * a command that stops it); for a remote one, whether its session was ended.
 *
 * @param spec The server.
 * @param left What closing found.
 * @param sessionEnded Whether a remote session was ended with a DELETE.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { shutdownCheck } from "./server_checks.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(shutdownCheck({ command: ["s"] }, null, false).detail, "the server was stopped and nothing it started is left");
 * ```
 */
export function shutdownCheck(
  spec: McpServerSpec,
  left: LeftBehind | null,
  sessionEnded: boolean,
): DoctorCheck {
  if (isRemoteSpec(spec)) {
    return new DoctorCheck(
      "shutdown",
      "pass",
      sessionEnded
        ? "the session was ended (HTTP DELETE)"
        : isLegacySse(spec)
        ? "the SSE stream was closed"
        : "the server gave no session to end",
    );
  }
  const note = leftBehindNote(left);
  if (note === null) {
    return new DoctorCheck(
      "shutdown",
      "pass",
      "the server was stopped and nothing it started is left",
    );
  }
  return new DoctorCheck("shutdown", note.status, note.detail, { fix: note.fix });
}

/**
 * `server-build`: `serverInfo` and the tool list's hash against what was pinned.
 *
 * @param verify The pinned build, if any.
 * @param identity The server's name and version.
 * @param hash The tool list's canonical hash.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { buildCheck } from "./server_checks.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(buildCheck({ version: "2" }, { name: "s", version: "1" }, "0").status, "fail");
 * ```
 */
export function buildCheck(
  verify: ServerVerify | undefined,
  identity: { name: string; version: string },
  hash: string,
): DoctorCheck {
  if (verify === undefined) {
    return new DoctorCheck(
      "server-build",
      "skip",
      "no build pinned (server.verify: {name, version, tools_sha256})",
    );
  }
  const mismatches: string[] = [];
  if (verify.name !== undefined && verify.name !== identity.name) {
    mismatches.push(
      `serverInfo.name is ${JSON.stringify(identity.name)}, pinned ${JSON.stringify(verify.name)}`,
    );
  }
  if (verify.version !== undefined && verify.version !== identity.version) {
    mismatches.push(
      `serverInfo.version is ${JSON.stringify(identity.version)}, pinned ${
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
  return mismatches.length > 0
    ? new DoctorCheck("server-build", "fail", mismatches.join("; "), {
      fix: "start the pinned build, or update server.verify after reviewing the change",
    })
    : new DoctorCheck("server-build", "pass", `matches the pinned ${pinned || "build"}`);
}
