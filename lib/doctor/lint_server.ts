/**
 * The lint of every text a model reads besides the tools: the server's
 * `instructions`, each prompt's description and title and each of its
 * arguments' descriptions, each resource's and resource template's
 * description and title. Each finding's path is a JSON pointer into the
 * catalog as a baseline holds it (`/prompts/NAME/arguments/0/description`,
 * `/resources/URI/description`); the instructions, which the catalog does not
 * keep, are `/instructions`.
 *
 * @module
 */

import { isJsonObject } from "../scoring/calls.ts";
import type { DoctorFinding } from "./check.ts";
import { pointerKey, textFindings } from "./lint_text.ts";

/** What {@linkcode lintServerTexts} reads. */
export interface ServerTexts {
  /** The server's `instructions` (from `initialize`). */
  instructions?: string | null;
  /** The raw prompts. */
  prompts?: readonly unknown[];
  /** The raw resources. */
  resources?: readonly unknown[];
  /** The raw resource templates. */
  resourceTemplates?: readonly unknown[];
}

/**
 * Lint the instructions, prompts and resources a server sends.
 *
 * @param texts What the server sent.
 * @returns The findings (`lint.hidden-unicode`, `lint.instruction-text`, `lint.secret-path`, `lint.text-size`).
 *
 * @example Usage
 * ```ts
 * import { lintServerTexts } from "./lint_server.ts";
 * import assert from "node:assert/strict";
 *
 * const found = lintServerTexts({ prompts: [{ name: "p", description: "Sum\u202Eup" }] });
 * assert.deepEqual(found.map((f) => [f.code, f.path]), [["lint.hidden-unicode", "/prompts/p/description"]]);
 * ```
 */
export function lintServerTexts(texts: ServerTexts): DoctorFinding[] {
  const out: DoctorFinding[] = [];
  out.push(...textFindings(texts.instructions, "/instructions", "the server's instructions"));
  for (const prompt of texts.prompts ?? []) {
    if (!isJsonObject(prompt) || typeof prompt.name !== "string") continue;
    const at = `/prompts/${pointerKey(prompt.name)}`;
    out.push(...textFindings(prompt.description, `${at}/description`, "the prompt's description"));
    out.push(...textFindings(prompt.title, `${at}/title`, "the prompt's title"));
    if (!Array.isArray(prompt.arguments)) continue;
    prompt.arguments.forEach((arg, i) => {
      if (!isJsonObject(arg)) return;
      out.push(
        ...textFindings(
          arg.description,
          `${at}/arguments/${i}/description`,
          `the description of the argument ${String(arg.name)}`,
        ),
      );
    });
  }
  for (
    const [key, id, list] of [
      ["resources", "uri", texts.resources],
      ["resource_templates", "uriTemplate", texts.resourceTemplates],
    ] as const
  ) {
    for (const item of list ?? []) {
      if (!isJsonObject(item) || typeof item[id] !== "string") continue;
      const at = `/${key}/${pointerKey(item[id] as string)}`;
      const what = key === "resources" ? "the resource's" : "the resource template's";
      out.push(...textFindings(item.description, `${at}/description`, `${what} description`));
      out.push(...textFindings(item.title, `${at}/title`, `${what} title`));
    }
  }
  return out;
}
