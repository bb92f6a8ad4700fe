/**
 * A server's catalog — its tools (with schemas and annotations), resources,
 * resource templates and prompts — and the baseline file that keeps one
 * catalog per server for review: `{baseline_version: 1, servers: {NAME:
 * catalog}}`, keys sorted, two-space indented, so that it diffs well. An
 * entry written from one server's command (`--update-baseline FILE -- CMD`)
 * also keeps that `command` (issue 38); every entry records the
 * `client_capabilities` the doctor declared when it took it (issue 39).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { readDocument } from "../base/load.ts";
import { writeTextFileAtomic } from "../base/atomic_write.ts";

/** What a server offers, keyed for review: tools and prompts by name, resources by URI. */
export interface Catalog {
  /** Tool name → `{description, title, inputSchema, outputSchema, annotations}` (those present). */
  tools: Record<string, JsonObject>;
  /** Resource URI → `{name, title, description, mimeType}`. */
  resources: Record<string, JsonObject>;
  /** URI template → `{name, title, description, mimeType}`. */
  resource_templates: Record<string, JsonObject>;
  /** Prompt name → `{description, title, arguments}`. */
  prompts: Record<string, JsonObject>;
  /**
   * The command line (or URL) a one-server baseline entry was written from,
   * so that the same command finds it after the server renamed itself.
   */
  command?: string;
  /**
   * The capabilities the doctor declared as a client when it took this
   * catalog (issue 39): a server may offer more tools to a client with more.
   */
  client_capabilities?: string[];
}

/** The baseline file's version. */
export const BASELINE_VERSION = 1;

function pick(item: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) if (item[key] !== undefined) out[key] = item[key]!;
  return out;
}

function byKey(
  items: readonly unknown[],
  key: string,
  keep: readonly string[],
): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const item of items) {
    if (isJsonObject(item) && typeof item[key] === "string") {
      out[item[key] as string] = pick(item, keep);
    }
  }
  return out;
}

/**
 * The catalog of the lists a server sent.
 *
 * @param lists The raw items of each list (missing lists are empty).
 * @returns The catalog.
 *
 * @example Usage
 * ```ts
 * import { catalogOf } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * const catalog = catalogOf({ tools: [{ name: "a", inputSchema: { type: "object" }, _meta: {} }] });
 * assert.deepEqual(catalog.tools, { a: { inputSchema: { type: "object" } } });
 * ```
 */
export function catalogOf(lists: {
  tools?: readonly unknown[];
  resources?: readonly unknown[];
  resourceTemplates?: readonly unknown[];
  prompts?: readonly unknown[];
}): Catalog {
  const meta = ["name", "title", "description", "mimeType"];
  return {
    tools: byKey(lists.tools ?? [], "name", [
      "title",
      "description",
      "inputSchema",
      "outputSchema",
      "annotations",
    ]),
    resources: byKey(lists.resources ?? [], "uri", meta),
    resource_templates: byKey(lists.resourceTemplates ?? [], "uriTemplate", meta),
    prompts: byKey(lists.prompts ?? [], "name", ["title", "description", "arguments"]),
  };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
  return out;
}

/**
 * The baseline file's text: keys sorted, two-space indented, a final newline.
 *
 * @param servers Server name → catalog.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { baselineText, catalogOf } from "./catalog.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(baselineText({ s: catalogOf({}) }), /^\{\n  "baseline_version": 1,\n  "servers": \{/);
 * ```
 */
export function baselineText(servers: Readonly<Record<string, Catalog>>): string {
  return `${JSON.stringify(sortKeys({ baseline_version: BASELINE_VERSION, servers }), null, 2)}\n`;
}

/**
 * Read a baseline file.
 *
 * @param path The file.
 * @returns Server name → catalog.
 * @throws {InputError} When it is missing, unreadable or not a baseline (with the JSON path).
 *
 * @example Usage
 * ```ts ignore
 * import { readBaseline } from "./catalog.ts";
 *
 * const servers = await readBaseline("mcp-baseline.json");
 * ```
 */
export async function readBaseline(path: string): Promise<Record<string, Catalog>> {
  const value = await readDocument(path);
  if (!isJsonObject(value) || value.baseline_version !== BASELINE_VERSION) {
    throw new InputError(
      `not a doctor baseline (expected baseline_version: ${BASELINE_VERSION}); write one with --update-baseline`,
      `${path}: baseline_version`,
    );
  }
  if (!isJsonObject(value.servers)) {
    throw new InputError("expected an object of servers", `${path}: servers`);
  }
  const out: Record<string, Catalog> = {};
  for (const [name, catalog] of Object.entries(value.servers)) {
    if (!isJsonObject(catalog)) {
      throw new InputError("expected a catalog object", `${path}: servers.${name}`);
    }
    const part = (key: string) =>
      (isJsonObject(catalog[key]) ? catalog[key] : {}) as Record<string, JsonObject>;
    out[name] = {
      tools: part("tools"),
      resources: part("resources"),
      resource_templates: part("resource_templates"),
      prompts: part("prompts"),
      ...(typeof catalog.command === "string" ? { command: catalog.command } : {}),
      ...(Array.isArray(catalog.client_capabilities)
        ? { client_capabilities: catalog.client_capabilities.filter((c) => typeof c === "string") }
        : {}),
    };
  }
  return out;
}

/**
 * Write catalogs into a baseline file, keeping the other servers of an existing one.
 *
 * @param path The file.
 * @param servers Server name → catalog to write.
 * @returns When written (atomically).
 * @throws {InputError} When an existing file is not a baseline.
 *
 * @example Usage
 * ```ts ignore
 * import { catalogOf, writeBaseline } from "./catalog.ts";
 *
 * await writeBaseline("mcp-baseline.json", { files: catalogOf({ tools: [] }) });
 * ```
 */
export async function writeBaseline(
  path: string,
  servers: Readonly<Record<string, Catalog>>,
): Promise<void> {
  let existing: Record<string, Catalog> = {};
  try {
    await Deno.stat(path);
    existing = await readBaseline(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await writeTextFileAtomic(path, baselineText({ ...existing, ...servers }));
}
