/**
 * What `toolscore doctor` prints besides the checklist: the `--json` shapes
 * (one server, or `--all`), and what it says when interrupted — which
 * servers it stopped, what they had started, and what survives with a
 * command that stops it.
 *
 * @module
 */

import type { DoctorCheck } from "../doctor/check.ts";
import type { ServerInspection } from "../doctor/check_server.ts";
import { type DoctorReport, doctorReport } from "../doctor/report.ts";
import { type DoctorStatus, worstStatus } from "../doctor/check.ts";
import { leftBehindNote } from "../mcp/client_failure.ts";
import { stopAllServers } from "../mcp/transport.ts";
import type { CliIO } from "./command.ts";
import { VERSION } from "../base/version.ts";

/** One server's run. */
export interface ServerRun {
  /** The server's name. */
  name: string;
  /** Its checks. */
  checks: DoctorCheck[];
  /** What the server check found, when a server was started. */
  inspection: ServerInspection | null;
  /** The command line (or URL) the server was started from, for a one-server baseline. */
  command?: string;
}

/** The `$id` of the `--json` document's schema (`schemas/doctor-report.schema.json`). */
export const DOCTOR_REPORT_SCHEMA =
  "https://jsr.io/@toolscore/cli/schemas/doctor-report.schema.json";

/** The `--json` report of one run. */
export interface ServerRunJson extends DoctorReport {
  /** The document's schema ({@linkcode DOCTOR_REPORT_SCHEMA}). */
  schema: string;
  /** The toolscore version that wrote it. */
  toolscore_version: string;
  /** The server's name. */
  name: string;
  /** What the server offers (`null` when none was started or it did not start). */
  server: ServerInspection["server"];
  /** Seconds: `initialize` and each list method. */
  timings_s: Record<string, number>;
  /** What a local server wrote that was not JSON-RPC, and its stderr (secrets hidden). */
  output: { stdout: string[]; stderr: string[] };
}

/**
 * The `--json` report of one run: `{checks, counts, worst}` and the server's lists.
 *
 * @param run The run.
 * @returns The JSON-safe report.
 *
 * @example Usage
 * ```ts
 * import { serverRunJson } from "./doctor_output.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(serverRunJson({ name: "s", checks: [], inspection: null }).server, null);
 * ```
 */
export function serverRunJson(run: ServerRun): ServerRunJson {
  return {
    schema: DOCTOR_REPORT_SCHEMA,
    toolscore_version: VERSION,
    ...doctorReport(run.checks),
    name: run.name,
    server: run.inspection?.server ?? null,
    timings_s: run.inspection?.timings ?? {},
    output: run.inspection?.output ?? { stdout: [], stderr: [] },
  };
}

/**
 * The `--all --json` report: every server's report, the counts of their
 * worst statuses, and the worst of all.
 *
 * @param runs The runs.
 * @returns `{servers, counts, worst}`.
 *
 * @example Usage
 * ```ts
 * import { allReportJson } from "./doctor_output.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(allReportJson([]).worst, "skip");
 * ```
 */
export function allReportJson(
  runs: readonly ServerRun[],
): {
  schema: string;
  toolscore_version: string;
  servers: ServerRunJson[];
  counts: Record<DoctorStatus, number>;
  worst: DoctorStatus;
} {
  const servers = runs.map(serverRunJson);
  const counts: Record<DoctorStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const server of servers) counts[server.worst]++;
  return {
    schema: DOCTOR_REPORT_SCHEMA,
    toolscore_version: VERSION,
    servers,
    counts,
    worst: worstStatus(runs.flatMap((run) => run.checks)),
  };
}

/**
 * On Ctrl-C or SIGTERM while a server runs: stop it and what it started,
 * say so on stderr (with what survives and how to stop it), then exit as a
 * shell reports a death by that signal (128 + its number).
 *
 * @param io Where to say it.
 * @returns A function that removes the listeners.
 *
 * @example Usage
 * ```ts ignore
 * import { onInterrupt } from "./doctor_output.ts";
 *
 * const stop = onInterrupt(io);
 * try { await work(); } finally { stop(); }
 * ```
 */
export function onInterrupt(io: CliIO): () => void {
  const codes: Partial<Record<Deno.Signal, number>> = Deno.build.os === "windows"
    ? { SIGINT: 130 }
    : { SIGINT: 130, SIGTERM: 143 };
  const added: [Deno.Signal, () => void][] = [];
  for (const [signal, code] of Object.entries(codes) as [Deno.Signal, number][]) {
    const handler = async () => {
      const stopped = await stopAllServers();
      const lines = [`doctor: interrupted by ${signal}`];
      for (const server of stopped) {
        lines.push(`doctor: stopped the server ${server.pid} (${server.command})`);
        const note = leftBehindNote(server.leftBehind);
        if (note !== null) {
          lines.push(`doctor: ${note.detail}`);
          const left = server.leftBehind!;
          if (note.fix !== null && (left.survivors.length > 0 || !left.looked)) {
            lines.push(`doctor: to stop them: ${note.fix}`);
          }
        }
      }
      io.stderr(`${lines.join("\n")}\n`);
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
