/**
 * {@linkcode runDoctor}: every preflight check, in order, so that a broken
 * setup is caught before an agent run spends money.
 *
 * @module
 */

import { configCheck } from "./config_check.ts";
import { type AgentSpec, loadAgentSpec } from "../spec/agent_spec.ts";
import { runPlaceholders } from "./run_placeholders.ts";
import { specKeyNames } from "../spec/arm_keys.ts";
import { ToolscoreError } from "../base/errors.ts";
import type { McpServerSpec } from "../mcp/server_spec.ts";
import { DoctorCheck } from "./check.ts";
import { inspectServer, SERVER_CHECKS, type ServerInspection } from "./check_server.ts";
import type { BaselineChoice } from "./catalog_checks.ts";
import { type IgnoreRule, parseIgnoreRule } from "./ignore.ts";
import { type DoctorTerms, LIBRARY_TERMS } from "./terms.ts";
import {
  checkBudget,
  checkKeys,
  checkPackages,
  checkPrices,
  type EnvReader,
  permittedEnv,
} from "./checks.ts";
import { checkContracts, checkContractTools } from "./contract_checks.ts";
import type { ServerProbeOptions } from "./probe_run.ts";

/** Options for {@linkcode runDoctor}. */
export interface RunDoctorOptions extends ServerProbeOptions {
  /**
   * An agent spec to check (server, keys, packages, prices, budget, task contracts).
   * @default {undefined}
   */
  specPath?: string;
  /**
   * A contract or gold file to validate (besides the spec's).
   * @default {undefined}
   */
  contractPath?: string;
  /**
   * A server to start and list; overrides the spec's server.
   * @default {undefined}
   */
  server?: McpServerSpec;
  /**
   * More environment variable names that must be set.
   * @default {[]}
   */
  keys?: string[];
  /**
   * Report a model without a price as a warning, not a failure.
   * @default {false}
   */
  allowUnknownPrice?: boolean;
  /**
   * Start the server (`false` checks only the files and the environment).
   * @default {true}
   */
  startServer?: boolean;
  /**
   * Seconds each server request may take; wins over the server spec's `timeout_s`.
   * @default {undefined} (the spec's `timeout_s`, else 30)
   */
  timeout?: number;
  /**
   * Seconds the server check may take in all.
   * @default {undefined} (four times the per-request timeout, at least 120)
   */
  deadline?: number;
  /**
   * Seconds a local server must stay up after answering `initialize`.
   * @default {1}
   */
  linger?: number;
  /**
   * Seconds what a local server started may outlive it before it is stopped and named.
   * @default {1.5}
   */
  shutdownGrace?: number;
  /**
   * Values for `${input:ID}` in the server spec.
   * @default {{}}
   */
  inputs?: Readonly<Record<string, string>>;
  /**
   * More variables for a local server, over its spec's `env`.
   * @default {{}}
   */
  serverEnv?: Readonly<Record<string, string>>;
  /**
   * A baseline to compare the server's catalog with (adds `catalog-drift`).
   * @default {undefined}
   */
  baseline?: BaselineChoice;
  /**
   * Findings to silence (`--ignore CODE[@PATH]`): of `tool-schemas` warnings, `tool-lint` and
   * `catalog-drift`; the server spec's `ignore` list is added.
   * @default {[]}
   */
  ignore?: readonly IgnoreRule[];
  /**
   * How messages name the settings.
   * @default {LIBRARY_TERMS}
   */
  terms?: Partial<DoctorTerms>;
  /**
   * Reads environment variables; throws `Deno.errors.NotCapable` without permission.
   * @default {permittedEnv}
   */
  env?: EnvReader;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

const SPEC_CHECKS = ["packages", "prices", "budget"] as const;

/**
 * Run the preflight checks, in order: `spec`, `contract`, `keys`,
 * `packages`, `prices`, `budget`, `server-start`, `tools-list`,
 * `tool-schemas`, `server-build`, `contract-tools`. A check that cannot run
 * (no spec, no server, `startServer: false`) is a `skip` saying why.
 *
 * @param options What to check.
 * @returns The checks, in the order they ran.
 *
 * @example Usage
 * ```ts ignore
 * import { doctorReport, runDoctor } from "@toolscore/cli";
 *
 * const checks = await runDoctor({ specPath: "agent.yaml", keys: ["OPENAI_API_KEY"] });
 * if (doctorReport(checks).worst === "fail") Deno.exit(1);
 * ```
 */
export async function runDoctor(options: RunDoctorOptions = {}): Promise<DoctorCheck[]> {
  return (await inspectDoctor(options)).checks;
}

/** What {@linkcode inspectDoctor} found. */
export interface DoctorInspection {
  /** The checks, as {@linkcode runDoctor} returns them. */
  checks: DoctorCheck[];
  /** What the server check found; `null` when no server was started. */
  server: ServerInspection | null;
}

/**
 * {@linkcode runDoctor}, plus what the server check found (what the server
 * offers, timings, output, its catalog) for `--json` and baselines.
 *
 * @param options What to check.
 * @returns The checks and the server's inspection.
 *
 * @example Usage
 * ```ts ignore
 * import { inspectDoctor } from "./run_doctor.ts";
 *
 * const { checks, server } = await inspectDoctor({ server: { command: ["deno", "run", "server.ts"] } });
 * console.log(server?.timings);
 * ```
 */
export async function inspectDoctor(options: RunDoctorOptions = {}): Promise<DoctorInspection> {
  const terms: DoctorTerms = { ...LIBRARY_TERMS, ...options.terms };
  const env = options.env ?? permittedEnv;
  const checks: DoctorCheck[] = [];
  let inspection: ServerInspection | null = null;

  let spec: AgentSpec | undefined;
  let specMissing = `no spec given (${terms.spec})`;
  if (options.specPath === undefined) {
    checks.push(new DoctorCheck("spec", "skip", specMissing));
  } else {
    try {
      spec = await loadAgentSpec(options.specPath);
      checks.push(
        new DoctorCheck(
          "spec",
          "pass",
          `${options.specPath}: ${count(spec.arms.length, "arm")} × ${
            count(spec.tasks.length, "task")
          } × ${count(spec.repeats, "repeat")}`,
        ),
      );
    } catch (error) {
      if (!(error instanceof ToolscoreError)) throw error;
      specMissing = "the spec did not load";
      checks.push(
        new DoctorCheck("spec", "fail", error.message, {
          fix: "fix the spec at the place named (schemas/agent-spec.schema.json lists every key)",
        }),
      );
    }
  }

  const contractPaths = [
    ...(spec?.tasks.map((task) => task.contract) ?? []),
    ...(options.contractPath !== undefined ? [options.contractPath] : []),
  ];
  const { check: contractCheck, contracts } = await checkContracts(contractPaths, {
    contractTerm: terms.contract,
  });
  checks.push(contractCheck);

  // The spec's keys and each arm's key (api_key_env or the provider's default), unless the arm
  // needs none (a loopback base_url).
  const specKeys = spec ? specKeyNames(spec) : [];
  checks.push(
    checkKeys([...new Set([...specKeys, ...(options.keys ?? [])])], env, {
      keyTerm: terms.key,
    }),
  );

  if (spec === undefined) {
    for (const name of SPEC_CHECKS) checks.push(new DoctorCheck(name, "skip", specMissing));
  } else {
    checks.push(checkPackages(spec.packages, env));
    checks.push(
      checkPrices(spec.arms, spec.prices, {
        allowUnknownPrice: options.allowUnknownPrice,
        allowTerm: terms.allowUnknownPrice,
      }),
    );
    checks.push(checkBudget(spec));
  }

  const server = options.server ?? spec?.server;
  let toolNames: string[] | null = null;
  if (server === undefined || options.startServer === false) {
    const why = server !== undefined
      ? `not started (${terms.noServer})`
      : options.specPath !== undefined && spec === undefined
      ? specMissing
      : "no server (a spec with a server, or a server spec)";
    // How a client config's entry was read is known without starting it.
    const config = server === undefined ? null : configCheck(server);
    if (config !== null) checks.push(config);
    for (const name of SERVER_CHECKS) checks.push(new DoctorCheck(name, "skip", why));
  } else {
    // Issue 31: the run variables agent run sets, as placeholders for this one start.
    const placeholders = spec !== undefined && options.server === undefined
      ? await runPlaceholders()
      : undefined;
    inspection = await inspectServer(server, {
      timeout: options.timeout,
      deadline: options.deadline,
      linger: options.linger,
      shutdownGrace: options.shutdownGrace,
      inputs: options.inputs,
      env: options.serverEnv,
      baseline: options.baseline,
      probes: options.probes,
      allowSideEffects: options.allowSideEffects,
      probeDeadline: options.probeDeadline,
      clientCapabilities: options.clientCapabilities,
      // The server entry's own list (a config's or a spec's `ignore`), then the caller's.
      ignore: [
        ...(options.ignore ?? []),
        ...(server.ignore ?? []).map((rule) => parseIgnoreRule(rule, "server.ignore")),
      ],
      terms,
      lookup: (name) => {
        if (placeholders?.values[name] !== undefined) return placeholders.values[name];
        try {
          return env(name);
        } catch {
          return undefined; // not permitted: the child simply does not get it
        }
      },
    }).finally(() => placeholders?.dispose());
    checks.push(...inspection.checks);
    toolNames = inspection.toolNames;
  }

  checks.push(checkContractTools(contracts, toolNames));
  return { checks, server: inspection };
}
