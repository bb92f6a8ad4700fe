/**
 * The linger of `server-start` (issue 37): a local server must still run
 * `linger` seconds after it answered `initialize`. The lists run meanwhile,
 * so the wait costs only the part of the linger they do not take; a server
 * that crashes 50–400 ms after the handshake (which passed before) fails
 * `server-start`, with its stderr.
 *
 * @module
 */

import type { McpSession } from "../mcp/client.ts";
import { McpServerError } from "../mcp/server_error.ts";
import { redact } from "../mcp/client_failure.ts";
import { describeServer, type McpServerSpec } from "../mcp/server_spec.ts";
import { DoctorCheck } from "./check.ts";
import { fixFor } from "./server_fixes.ts";
import type { DoctorTerms } from "./terms.ts";

/**
 * Wait out the linger; a failed `server-start` when the server exited meanwhile, else `null`.
 *
 * @param session The open session.
 * @param spec The server.
 * @param linger Seconds after `initialize`.
 * @param terms How messages name the settings.
 * @param options How to read our variables and the extra ones (for the fix).
 * @returns The failed check, or `null` while the server runs (and for a remote one).
 *
 * @example Usage
 * ```ts ignore
 * import { lingerCheck } from "./linger_check.ts";
 *
 * const failed = await lingerCheck(session, spec, 1, LIBRARY_TERMS, {});
 * ```
 */
export async function lingerCheck(
  session: McpSession,
  spec: McpServerSpec,
  linger: number,
  terms: DoctorTerms,
  options: Parameters<typeof fixFor>[3],
): Promise<DoctorCheck | null> {
  const exit = await session.exitWithin(linger * 1000);
  if (exit === null) return null;
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const error = new McpServerError(
    "exit",
    `the server answered initialize, then ${how} within ${linger} s (${describeServer(spec)})`,
    { stderr: session.stderr.map((line) => redact(line, session.secrets)) },
  );
  return new DoctorCheck("server-start", "fail", error.message, {
    fix: fixFor(error, spec, terms, options),
    cause: "crashed",
  });
}
