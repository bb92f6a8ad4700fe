/**
 * The capabilities a session declares as a client, and the answers they
 * oblige (issue 39): `roots` (`roots/list` answers the workspace folder, else
 * an empty list), `sampling` (`sampling/createMessage` answers the JSON-RPC
 * error "doctor does not sample") and `elicitation` (`elicitation/create`
 * answers `{action: "decline"}`). A server that registers tools only for a
 * client with these capabilities (server-everything's `get-roots-list`,
 * `trigger-sampling-request`, …) shows them as VS Code would see them.
 *
 * Decisions: `roots` is declared without `listChanged` (the roots never
 * change during a session); `sampling` is refused with code -1, the code the
 * specification names for a refused sampling request.
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import { InputError } from "../base/errors.ts";

/** A capability a client may declare. */
export type ClientCapabilityName = "roots" | "sampling" | "elicitation";

/** Every capability a client may declare, the default set. */
export const CLIENT_CAPABILITIES: readonly ClientCapabilityName[] = [
  "roots",
  "sampling",
  "elicitation",
];

/**
 * Read `none`, `default` or a comma-separated list of capabilities.
 *
 * @param text The value, e.g. `roots,sampling`.
 * @param where What to call it in errors (`--client-capabilities`).
 * @returns The capabilities, sorted in {@linkcode CLIENT_CAPABILITIES} order.
 * @throws {InputError} On an unknown name.
 *
 * @example Usage
 * ```ts
 * import { parseClientCapabilities } from "./client_capabilities.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseClientCapabilities("none"), []);
 * assert.deepEqual(parseClientCapabilities("sampling, roots"), ["roots", "sampling"]);
 * assert.throws(() => parseClientCapabilities("tasks", "--client-capabilities"), /tasks/);
 * ```
 */
export function parseClientCapabilities(
  text: string,
  where = "client capabilities",
): ClientCapabilityName[] {
  const value = text.trim();
  if (value === "none") return [];
  if (value === "default") return [...CLIENT_CAPABILITIES];
  const names = value.split(",").map((name) => name.trim()).filter((name) => name !== "");
  for (const name of names) {
    if (!(CLIENT_CAPABILITIES as readonly string[]).includes(name)) {
      throw new InputError(
        `unknown capability ${JSON.stringify(name.slice(0, 40))}: give none, default or a list of ${
          CLIENT_CAPABILITIES.join(", ")
        }`,
        where,
      );
    }
  }
  return CLIENT_CAPABILITIES.filter((name) => names.includes(name));
}

/**
 * The `capabilities` object of `initialize` for these capabilities.
 *
 * @param names The capabilities.
 * @returns E.g. `{roots: {}, sampling: {}, elicitation: {}}`.
 *
 * @example Usage
 * ```ts
 * import { capabilitiesObject } from "./client_capabilities.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(capabilitiesObject(["roots"]), { roots: {} });
 * ```
 */
export function capabilitiesObject(
  names: readonly ClientCapabilityName[],
): Record<string, Record<string, never>> {
  const out: Record<string, Record<string, never>> = {};
  for (const name of names) out[name] = {};
  return out;
}

/**
 * Answer what the declared capabilities oblige, on a client not yet connected.
 *
 * @param client The SDK client, created with {@linkcode capabilitiesObject}.
 * @param names The capabilities it declared.
 * @param workspaceFolder The folder `roots/list` answers, if any.
 *
 * @example Usage
 * ```ts ignore
 * import { Client } from "@modelcontextprotocol/sdk/client";
 * import { answerClientRequests, capabilitiesObject } from "./client_capabilities.ts";
 *
 * const client = new Client({ name: "x", version: "1" }, { capabilities: capabilitiesObject(["roots"]) });
 * answerClientRequests(client, ["roots"], "/work/project");
 * ```
 */
export function answerClientRequests(
  client: Client,
  names: readonly ClientCapabilityName[],
  workspaceFolder: string | undefined,
): void {
  if (names.includes("roots")) {
    const roots = workspaceFolder === undefined ? [] : [{
      uri: pathToFileURL(workspaceFolder).href,
      name: workspaceFolder.split(/[\\/]/).filter((part) => part !== "").at(-1) ?? workspaceFolder,
    }];
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  }
  if (names.includes("sampling")) {
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      throw new McpError(-1, "doctor does not sample");
    });
  }
  if (names.includes("elicitation")) {
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" as const }));
  }
}
