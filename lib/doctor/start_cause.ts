/**
 * Why a server did not start, as one of a few causes CI can branch on.
 *
 * @module
 */

import type { McpServerError } from "../mcp/server_error.ts";
import type { StartCause } from "./check.ts";

/**
 * The cause of a failed start or list: `not-found` (no such program or
 * endpoint), `spawn-failed` (it could not be started: permissions, a bad
 * config entry), `auth` (HTTP 401/403), `http-status` (another HTTP status),
 * `timeout`, `protocol` (an answer that is not MCP, a refused version) or
 * `crashed` (it exited).
 *
 * @param error The failure.
 * @returns The cause.
 *
 * @example Usage
 * ```ts
 * import { McpServerError } from "@toolscore/cli";
 * import { startCause } from "./start_cause.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(startCause(new McpServerError("spawn", "cannot start x: not found; install it")), "not-found");
 * assert.equal(startCause(new McpServerError("http", "the server answered initialize with HTTP 401 Unauthorized")), "auth");
 * ```
 */
export function startCause(error: McpServerError): StartCause {
  switch (error.kind) {
    case "spawn":
      return /: not found\b/.test(error.message) ? "not-found" : "spawn-failed";
    case "permission":
    case "config":
      return "spawn-failed";
    case "timeout":
    case "deadline":
      return "timeout";
    case "exit":
      return "crashed";
    case "http": {
      const status = /\bHTTP (\d{3})\b/.exec(error.message)?.[1];
      if (status === "401" || status === "403") return "auth";
      if (status === "404") return "not-found";
      return "http-status";
    }
    default:
      return "protocol";
  }
}
