/**
 * `config`: how a server's entry in a client config was read — which
 * client's rules applied (`client_dialect.ts`), the keys read and not
 * honoured (a note each), and the references that client passes to the
 * server as written (a warning: the server would get `${TOKEN}`, not the
 * token). Only servers read from a client config have this check.
 *
 * @module
 */

import type { McpServerSpec } from "../mcp/server_spec.ts";
import { CLIENT_NAMES } from "../mcp/client_dialect.ts";
import { DoctorCheck } from "./check.ts";

/**
 * The `config` check of a spec read from a client config, or `null` for any other spec.
 *
 * @param spec The server.
 * @returns The check, or `null`.
 *
 * @example Usage
 * ```ts
 * import { configCheck } from "./config_check.ts";
 * import assert from "node:assert/strict";
 *
 * const check = configCheck({
 *   command: ["srv"],
 *   client: "gemini-cli",
 *   configNotes: [{ status: "note", path: "mcpServers.s.trust", message: "trust is Gemini CLI's setting" }],
 * });
 * assert.equal(check?.status, "pass");
 * assert.equal(check?.detail, "read as Gemini CLI reads it; note: mcpServers.s.trust: trust is Gemini CLI's setting");
 * assert.equal(configCheck({ command: ["srv"] }), null);
 * ```
 */
export function configCheck(spec: McpServerSpec): DoctorCheck | null {
  if (spec.client === undefined) return null;
  const notes = spec.configNotes ?? [];
  const warns = notes.filter((note) => note.status === "warn");
  const parts = [`read as ${CLIENT_NAMES[spec.client]} reads it`];
  for (const note of notes) parts.push(`${note.status}: ${note.path}: ${note.message}`);
  return new DoctorCheck("config", warns.length > 0 ? "warn" : "pass", parts.join("; "), {
    fix: warns.length > 0
      ? `${warns[0]!.message.replace(/^.*; /, "")} at ${warns[0]!.path}` +
        " (or check with --client NAME which client reads the file)"
      : null,
  });
}
