/**
 * The agent spec (JSON or YAML): the MCP server, the model arms, the tasks
 * with their contracts, and the keys, packages, prices and budget a run
 * needs. Validated against `schemas/agent-spec.schema.json` (JSON Schema
 * 2020-12, exported as {@linkcode AGENT_SPEC_SCHEMA}); every error names the
 * JSON path of the problem.
 *
 * Beyond the design page's example (as the agent-run issues ask): arms take
 * `api_key_env` and `seed`, `provider` may be `gemini`, and the loaded spec
 * carries its `sha256` (the canonical hash run ids derive from).
 *
 * @module
 */

import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { dirname, isAbsolute, join } from "node:path";
import schema from "../../schemas/agent-spec.schema.json" with { type: "json" };
import { jsonSha256 } from "../base/canonical.ts";
import { joinPath } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { pointerToPath } from "../base/json_pointer.ts";
import { readDocument } from "../base/load.ts";
import { type McpServerSpec, serverSpecFromJson } from "../mcp/server_spec.ts";
import { pricesFromJson, type PriceTable, type TokenCounts } from "./prices.ts";

/** The JSON Schema of an agent spec (2020-12). */
export const AGENT_SPEC_SCHEMA: Readonly<Record<string, unknown>> = schema;

/** The wire formats an arm can speak. */
export type AgentProvider = "openai" | "anthropic" | "gemini";

/** One model configuration to run. */
export interface AgentArm {
  /** Unique id, used in rows and file names. */
  id: string;
  /**
   * The wire format: `openai` (Chat Completions and compatibles), `anthropic`
   * (Messages) or `gemini` (`generateContent`).
   */
  provider: AgentProvider;
  /** The model name as the provider takes it. */
  model: string;
  /** The endpoint (a proxy, a gateway, Ollama, vLLM, OpenRouter…); the provider's path is appended. */
  baseUrl?: string;
  /** The environment variable holding the API key; the provider's default when absent. */
  apiKeyEnv?: string;
  /** A sampling seed, for providers that take one. */
  seed?: number;
  /** Sampling temperature. */
  temperature?: number;
  /** Output token limit per turn. */
  maxTokens?: number;
  /** The system prompt. */
  system?: string;
}

/** One task: a prompt and the contract (or gold file) that scores it. */
export interface AgentTask {
  /** Unique id. */
  id: string;
  /** The user prompt. */
  prompt: string;
  /** The contract or gold file, resolved against the spec's folder. */
  contract: string;
}

/** The spend limit. */
export interface AgentBudget {
  /** Stop before the estimated spend passes this many USD; `null` = no limit. */
  maxUsd: number | null;
  /** Tokens one run is expected to use; `null` = the default estimate. */
  estimatePerRun: TokenCounts | null;
  /** A shard's cap under `--shard k/n`; `null` = `maxUsd / n`. */
  perShardUsd: number | null;
  /** One run's cap, USD; `null` = no limit. */
  maxUsdPerRun: number | null;
  /** One run's cap, input + output tokens; `null` = no limit. */
  maxTokensPerRun: number | null;
}

/** A loaded agent spec (camelCase; the file is snake_case). */
export interface AgentSpec {
  /** Always 1. */
  specVersion: 1;
  /** The MCP server. */
  server: McpServerSpec;
  /** The model arms. */
  arms: AgentArm[];
  /** The tasks. */
  tasks: AgentTask[];
  /** Environment variable names that must be set. */
  keys: string[];
  /** Executables that must be on PATH. */
  packages: string[];
  /** Price overrides (USD per million tokens). */
  prices: PriceTable;
  /** The spend limit. */
  budget: AgentBudget;
  /** Runs per arm × task. */
  repeats: number;
  /** The seed that rotates the arm order inside each cell (default 0). */
  orderSeed: number | string;
  /** Model turns per run at most. */
  maxTurns: number;
  /** Seconds per run at most. */
  timeoutS: number;
  /** Injected faults file, resolved against the spec's folder. */
  faults?: string;
  /** Honesty config file, resolved against the spec's folder. */
  honesty?: string;
  /** The folder relative paths were resolved against. */
  baseDir: string;
  /** The SHA-256 of the spec's canonical JSON (run ids derive from it). */
  sha256: string;
}

/** Options for {@linkcode agentSpecFromJson}. */
export interface AgentSpecFromJsonOptions {
  /**
   * The folder relative paths (contracts, faults, honesty) are resolved against.
   * @default {"."}
   */
  baseDir?: string;
}

// The file shape, once the schema has accepted it.
interface RawSpec {
  server: unknown;
  arms: {
    id: string;
    provider: AgentArm["provider"];
    model: string;
    base_url?: string;
    api_key_env?: string;
    seed?: number;
    temperature?: number;
    max_tokens?: number;
    system?: string;
  }[];
  tasks: { id: string; prompt: string; contract: string }[];
  keys?: string[];
  packages?: string[];
  prices?: unknown;
  budget?: {
    max_usd?: number;
    per_shard_usd?: number;
    max_usd_per_run?: number;
    max_tokens_per_run?: number;
    estimate_per_run?: { input_tokens: number; output_tokens: number };
  };
  repeats?: number;
  order_seed?: number | string;
  max_turns?: number;
  timeout_s?: number;
  faults?: string;
  honesty?: string;
}

let validator: ReturnType<Ajv2020["compile"]> | undefined;

function describeSchemaError(error: ErrorObject): { path: string; message: string } {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { path: joinPath(path, String(params.missingProperty)), message: "missing; add it" };
    case "additionalProperties": {
      const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(parent?.properties ?? {}).join(", ");
      return {
        path: joinPath(path, String(params.additionalProperty)),
        message: known === "" ? "unknown key" : `unknown key; the keys are ${known}`,
      };
    }
    case "enum":
      return {
        path,
        message: `must be one of ${
          (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")
        }`,
      };
    case "const":
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case "oneOf":
    case "anyOf":
      return { path, message: "has the wrong shape" };
    default:
      return { path, message: error.message ?? "is invalid" };
  }
}

// The error to report. Ajv lists every branch's errors before a oneOf's own: the branch that got
// furthest (deepest into the value, or past the type check) says what is wrong; when every
// branch failed on the type, name the types.
function describeSchemaErrors(errors: readonly ErrorObject[]): { path: string; message: string } {
  const union = errors.find((error) => error.keyword === "oneOf" || error.keyword === "anyOf");
  if (union === undefined) return describeSchemaError(errors[0]!);
  const branches = errors.filter((error) => error.schemaPath.startsWith(`${union.schemaPath}/`));
  const progress = (error: ErrorObject) =>
    error.instancePath.length * 2 + (error.keyword === "type" ? 0 : 1);
  const best = branches.reduce<ErrorObject | undefined>(
    (found, error) => found === undefined || progress(error) > progress(found) ? error : found,
    undefined,
  );
  if (best === undefined) return describeSchemaError(union);
  if (best.keyword !== "type" || best.instancePath !== union.instancePath) {
    return describeSchemaError(best);
  }
  const types = branches.map((error) => String(error.params.type));
  return { path: pointerToPath(union.instancePath), message: `must be ${types.join(" or ")}` };
}

function resolve(baseDir: string, path: string): string {
  return isAbsolute(path) || baseDir === "." ? path : join(baseDir, path);
}

function uniqueIds(items: { id: string }[], path: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id)) {
      throw new InputError(
        `duplicate id ${JSON.stringify(item.id)}; ids must be unique`,
        joinPath(joinPath(path, i), "id"),
      );
    }
    seen.add(item.id);
  });
}

/**
 * Validate and read an agent spec in the file shape.
 *
 * @param value The parsed JSON or YAML value.
 * @param options Where relative paths resolve.
 * @returns The spec.
 * @throws {InputError} Naming the JSON path of the first problem (`arms[1].model: missing; add it`).
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "./agent_spec.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["npx", "-y", "@modelcontextprotocol/server-everything"] },
 *   arms: [{ id: "mini", provider: "openai", model: "gpt-4.1-mini" }],
 *   tasks: [{ id: "t1", prompt: "Add 2 and 3", contract: "add.json" }],
 * });
 * assert.equal(spec.repeats, 1);
 * assert.throws(
 *   () => agentSpecFromJson({ spec_version: 1, server: { command: ["x"] }, arms: [{ id: "a" }], tasks: [] }),
 *   /arms\[0\]\.provider: missing/,
 * );
 * ```
 */
export function agentSpecFromJson(
  value: unknown,
  options: AgentSpecFromJsonOptions = {},
): AgentSpec {
  validator ??= new Ajv2020({ allErrors: false, strict: true, verbose: true }).compile(schema);
  if (!validator(value)) {
    const errors = validator.errors ?? [];
    const { path, message } = errors.length > 0
      ? describeSchemaErrors(errors)
      : { path: "", message: "is invalid" };
    throw new InputError(message, path === "" ? "(the spec)" : path);
  }
  const raw = value as RawSpec;
  const baseDir = options.baseDir ?? ".";
  const server = serverSpecFromJson(raw.server, { path: "server" });
  if (!("url" in server) && server.cwd !== undefined) server.cwd = resolve(baseDir, server.cwd);

  const arms = raw.arms.map((arm): AgentArm => {
    const out: AgentArm = { id: arm.id, provider: arm.provider, model: arm.model };
    if (arm.base_url !== undefined) out.baseUrl = arm.base_url;
    if (arm.api_key_env !== undefined) out.apiKeyEnv = arm.api_key_env;
    if (arm.seed !== undefined) out.seed = arm.seed;
    if (arm.temperature !== undefined) out.temperature = arm.temperature;
    if (arm.max_tokens !== undefined) out.maxTokens = arm.max_tokens;
    if (arm.system !== undefined) out.system = arm.system;
    return out;
  });
  uniqueIds(arms, "arms");
  const tasks = raw.tasks.map((task): AgentTask => ({
    id: task.id,
    prompt: task.prompt,
    contract: resolve(baseDir, task.contract),
  }));
  uniqueIds(tasks, "tasks");

  const estimate = raw.budget?.estimate_per_run;
  const spec: AgentSpec = {
    specVersion: 1,
    server,
    arms,
    tasks,
    keys: [...new Set(raw.keys ?? [])],
    packages: [...new Set(raw.packages ?? [])],
    prices: pricesFromJson(raw.prices ?? {}, "prices"),
    budget: {
      maxUsd: raw.budget?.max_usd ?? null,
      estimatePerRun: estimate
        ? { inputTokens: estimate.input_tokens, outputTokens: estimate.output_tokens }
        : null,
      perShardUsd: raw.budget?.per_shard_usd ?? null,
      maxUsdPerRun: raw.budget?.max_usd_per_run ?? null,
      maxTokensPerRun: raw.budget?.max_tokens_per_run ?? null,
    },
    repeats: raw.repeats ?? 1,
    orderSeed: raw.order_seed ?? 0,
    maxTurns: raw.max_turns ?? 20,
    timeoutS: raw.timeout_s ?? 120,
    baseDir,
    sha256: jsonSha256(value),
  };
  if (raw.faults !== undefined) spec.faults = resolve(baseDir, raw.faults);
  if (raw.honesty !== undefined) spec.honesty = resolve(baseDir, raw.honesty);
  return spec;
}

/**
 * Read an agent spec file (JSON, JSONC or YAML). Relative paths in it
 * resolve against the file's folder.
 *
 * @param path The file.
 * @returns The spec.
 * @throws {InputError} On a read or syntax error (`file:line:col`) or an invalid spec (`file: json.path: …`).
 *
 * @example Usage
 * ```ts ignore
 * import { loadAgentSpec } from "./agent_spec.ts";
 *
 * const spec = await loadAgentSpec("agent.yaml");
 * console.log(spec.arms.map((arm) => arm.model));
 * ```
 */
export async function loadAgentSpec(path: string): Promise<AgentSpec> {
  const value = await readDocument(path);
  try {
    return agentSpecFromJson(value, { baseDir: dirname(path) });
  } catch (error) {
    if (error instanceof InputError) throw new InputError(error.message, path, { cause: error });
    throw error;
  }
}
