/**
 * API keys of the arms, read from the environment (which variable, and
 * whether an arm needs one: `../spec/arm_keys.ts`), and the redaction that
 * keeps every key value out of messages and files.
 *
 * Key values come only from the environment and live only in memory: they
 * go into request headers and into {@linkcode Redactor}, nowhere else.
 *
 * Issue 31: the secrets hidden are each arm's key, the values of the spec's
 * `keys`, and the values of the server's `env` entries and `headers` whose
 * names look secret (`looksSecret`: …_KEY, …_TOKEN, …SECRET, PASSWORD,
 * CREDENTIAL; `Authorization` too), expanded as the server gets them; in
 * each of their forms (`secret_forms.ts`). An agent spec has no `${input:…}`
 * values to give (agent run prompts for nothing), so none are added.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import type { AgentSpec } from "../spec/agent_spec.ts";
import { armKeyEnv, armNeedsKey } from "../spec/arm_keys.ts";
import { expandVariables, looksSecret } from "../mcp/server_env.ts";
import { MIN_FORM_LENGTH, secretForms } from "./secret_forms.ts";

/**
 * Hides every configured secret in text, in every form it may take
 * (`secret_forms.ts`: raw, JSON-escaped, URL-encoded, base64…): each
 * occurrence becomes `***`.
 *
 * @example Usage
 * ```ts
 * import { Redactor } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * const redactor = new Redactor(['sk-"test\\-123456']);
 * assert.equal(redactor.text('bad key sk-"test\\-123456'), "bad key ***");
 * assert.equal(redactor.text(JSON.stringify('sk-"test\\-123456')), '"***"');
 * assert.deepEqual(redactor.value({ a: ['sk-"test\\-123456'] }), { a: ["***"] });
 * assert.equal(redactor.holds(new TextEncoder().encode('x sk-"test\\-123456')), true);
 * ```
 */
export class Redactor {
  readonly #forms: string[];
  readonly #binary: string[];

  /**
   * Create a redactor.
   *
   * @param secrets The values to hide (forms shorter than 8 characters are not searched).
   */
  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>();
    const binary = new Set<string>();
    for (const secret of new Set(secrets)) {
      for (const form of secretForms(secret)) {
        forms.add(form);
        binary.add(latin1(new TextEncoder().encode(form)));
      }
      // A binary file may hold text as UTF-16 (little-endian), too.
      if (secret.length >= MIN_FORM_LENGTH) {
        binary.add([...secret].map((c) => c.length === 1 ? `${c}\0` : c).join(""));
        binary.add(latin1(utf16le(secret)));
      }
    }
    // Longest first, so that a form containing another is hidden whole.
    this.#forms = [...forms].sort((a, b) => b.length - a.length);
    this.#binary = [...binary];
  }

  /** Whether there is nothing to hide. */
  get empty(): boolean {
    return this.#forms.length === 0;
  }

  /**
   * Text with every secret hidden.
   *
   * @param text The text.
   * @returns The text, redacted.
   */
  text(text: string): string {
    return this.#forms.reduce(
      (out, form) => out.includes(form) ? out.replaceAll(form, "***") : out,
      text,
    );
  }

  /**
   * A JSON value with every secret hidden in every string (keys included).
   *
   * @param value The value.
   * @returns A redacted copy.
   */
  value<T>(value: T): T {
    if (this.#forms.length === 0) return value;
    const walk = (item: unknown): unknown => {
      if (typeof item === "string") return this.text(item);
      if (Array.isArray(item)) return item.map(walk);
      if (item !== null && typeof item === "object") {
        // What JSON.stringify would write: toJSON's value (a Date's text), else the own keys.
        const toJson = (item as { toJSON?: () => unknown }).toJSON;
        if (typeof toJson === "function") return walk(toJson.call(item));
        return Object.fromEntries(
          Object.entries(item).map(([key, inner]) => [this.text(key), walk(inner)]),
        );
      }
      return item;
    };
    return walk(value) as T;
  }

  /**
   * Whether bytes (a binary file) hold a secret in one of its forms, as UTF-8 or UTF-16.
   *
   * @param bytes The bytes.
   * @returns `true` when one is there.
   */
  holds(bytes: Uint8Array): boolean {
    if (this.#binary.length === 0) return false;
    const hay = latin1(bytes);
    return this.#binary.some((needle) => hay.includes(needle));
  }
}

// Bytes as a string of the same length (one character per byte), for searching.
function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[2 * i] = code & 0xff;
    out[2 * i + 1] = code >> 8;
  }
  return out;
}

/** The keys an agent run uses, read once. */
export interface ArmKeys {
  /** The key of each arm id, when it has one. */
  byArm: Map<string, string>;
  /** Hides every key value read. */
  redactor: Redactor;
}

/**
 * Read every arm's key (and the spec's `keys`) from the environment.
 *
 * @param spec The spec.
 * @param read Reads a variable (`undefined` when unset or not permitted).
 * @returns The keys by arm, and a redactor for all of them.
 * @throws {UsageError} When an arm that needs a key finds none, naming the variable (never a value).
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { readArmKeys } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 * });
 * const keys = readArmKeys(spec, (name) => name === "OPENAI_API_KEY" ? "sk-abc-123" : undefined);
 * assert.equal(keys.byArm.get("a"), "sk-abc-123");
 * assert.throws(() => readArmKeys(spec, () => undefined), /OPENAI_API_KEY is not set/);
 * ```
 */
export function readArmKeys(
  spec: AgentSpec,
  read: (name: string) => string | undefined,
): ArmKeys {
  const byArm = new Map<string, string>();
  const values: string[] = [];
  for (const name of spec.keys) {
    const value = read(name);
    if (value) values.push(value);
  }
  for (const arm of spec.arms) {
    const name = armKeyEnv(arm);
    const value = read(name);
    if (value) {
      byArm.set(arm.id, value);
      values.push(value);
    } else if (armNeedsKey(arm)) {
      throw new UsageError(
        `arm ${arm.id} needs its API key: ${name} is not set (or deno may not read it); ` +
          `export ${name}=… and run deno with --allow-env=${name}`,
      );
    }
  }
  return { byArm, redactor: new Redactor([...values, ...serverSecrets(spec, read)]) };
}

// The server's env and header values whose names look secret, expanded (an unset one is skipped).
function serverSecrets(spec: AgentSpec, read: (name: string) => string | undefined): string[] {
  const server = spec.server as { env?: Record<string, string>; headers?: Record<string, string> };
  const named = [
    ...Object.entries(server.env ?? {}),
    ...Object.entries(server.headers ?? {}),
  ].filter(([name]) => looksSecret(name) || /^(authorization|cookie)$/i.test(name));
  const out: string[] = [];
  for (const [name, value] of named) {
    try {
      const expanded = expandVariables(value, read, name);
      out.push(expanded);
      // `Bearer TOKEN`: the token alone too.
      const token = /^\S+\s+(\S+)$/.exec(expanded)?.[1];
      if (token !== undefined) out.push(token);
    } catch {
      // A variable that is not set: the server fails to start, and nothing is there to hide.
    }
  }
  return out;
}

/**
 * Every secret of a spec that the environment holds, as a redactor; unlike
 * {@linkcode readArmKeys} it never throws (for what the CLI prints before and
 * after the run).
 *
 * @param spec The spec.
 * @param read Reads a variable (`undefined` when unset or not permitted).
 * @returns The redactor.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { specRedactor } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"], env: { DB_PASSWORD: "${PW}" } },
 *   arms: [{ id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 * });
 * const redactor = specRedactor(spec, (name) => name === "PW" ? "hunter2-hunter2" : undefined);
 * assert.equal(redactor.text("pw hunter2-hunter2"), "pw ***");
 * ```
 */
export function specRedactor(
  spec: AgentSpec,
  read: (name: string) => string | undefined,
): Redactor {
  const values = [...spec.keys, ...spec.arms.map(armKeyEnv)].map(read)
    .filter((value): value is string => value !== undefined && value !== "");
  return new Redactor([...values, ...serverSecrets(spec, read)]);
}
