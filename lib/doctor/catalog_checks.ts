/**
 * The checks of a listed catalog, each with its findings: `tool-schemas`
 * (the SDK's schema and every JSON Schema), `tool-lint` (the tools, and every
 * other text a model reads: instructions, prompts, resources) and
 * `catalog-drift` (against the baseline entry of this server). Rules from
 * `--ignore` drop findings before the status is worked out.
 *
 * A baseline entry is found by `--baseline-entry NAME`, else by the
 * server's name, else by the command (or URL) it was written from — so the
 * same command compares against its entry even after the server renamed
 * itself.
 *
 * @module
 */

import { DoctorCheck, type DoctorFinding } from "./check.ts";
import { toolListIssues } from "./tool_schemas.ts";
import { lintTools } from "./tool_lint.ts";
import { lintServerTexts, type ServerTexts } from "./lint_server.ts";
import { type IgnoreRule, isIgnored } from "./ignore.ts";
import type { Catalog } from "./catalog.ts";
import { catalogDrift, driftCheck, driftFindings } from "./drift.ts";
import type { DoctorTerms } from "./terms.ts";
import { pointerKey } from "./lint_text.ts";
import { isJsonObject } from "../scoring/calls.ts";

function ignoredNote(n: number): string {
  return n === 0 ? "" : `; ${n} finding${n === 1 ? "" : "s"} ignored`;
}

function keep(
  findings: readonly DoctorFinding[],
  rules: readonly IgnoreRule[],
): { kept: DoctorFinding[]; ignored: number } {
  const kept = findings.filter((finding) => !isIgnored(finding, rules));
  return { kept, ignored: findings.length - kept.length };
}

/** `tools[3].inputSchema.properties.q` → `/tools/NAME/inputSchema/properties/q`. */
function pointerOf(line: string, tools: readonly unknown[]): string {
  const match = /^tools\[(\d+)\]((?:\.[A-Za-z0-9_$-]+|\[\d+\])*)/.exec(line);
  if (!match) return "/tools";
  const tool = tools[Number(match[1])];
  const name = isJsonObject(tool) && typeof tool.name === "string" ? tool.name : match[1]!;
  const rest = [...match[2]!.matchAll(/\.([A-Za-z0-9_$-]+)|\[(\d+)\]/g)]
    .map((m) => `/${pointerKey(m[1] ?? m[2]!)}`).join("");
  return `/tools/${pointerKey(name)}${rest}`;
}

/**
 * `tool-schemas`: what the SDK's client or a model API refuses fails; a
 * dialect we cannot check warns.
 *
 * @param tools The raw tools.
 * @param protocolVersion The negotiated version.
 * @param rules Findings to ignore (only warnings are ignorable here).
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { schemasCheck } from "./catalog_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const check = schemasCheck([{ name: "a", inputSchema: { type: "object", properties: { n: { minimum: "0" } } } }], null, []);
 * assert.equal(check.findings[0]!.code, "schema.invalid");
 * assert.equal(check.findings[0]!.path, "/tools/a/inputSchema/properties/n/minimum");
 * ```
 */
export function schemasCheck(
  tools: readonly unknown[],
  protocolVersion: string | null,
  rules: readonly IgnoreRule[],
): DoctorCheck {
  if (tools.length === 0) return new DoctorCheck("tool-schemas", "skip", "no tools to check");
  const { fails, warns } = toolListIssues(tools, { protocolVersion });
  const failFindings: DoctorFinding[] = fails.map((line) => ({
    code: line.includes("the SDK's client refuses")
      ? "schema.sdk-refused"
      : line.includes("is used twice")
      ? "schema.duplicate-name"
      : "schema.invalid",
    severity: "fail",
    path: pointerOf(line, tools),
    message: line,
  }));
  const { kept, ignored } = keep(
    warns.map((line) => ({
      code: "schema.dialect-unknown",
      severity: "warn" as const,
      path: pointerOf(line, tools),
      message: line,
    })),
    rules,
  );
  const findings = [...failFindings, ...kept];
  const detail = [...fails, ...kept.map((f) => f.message)].join("; ") + ignoredNote(ignored);
  if (fails.length > 0) {
    return new DoctorCheck("tool-schemas", "fail", detail, {
      findings,
      fix:
        "fix these tool definitions at the paths named; the SDK's client or a model API refuses them",
    });
  }
  if (kept.length > 0) {
    return new DoctorCheck("tool-schemas", "warn", detail, {
      findings,
      fix: "name a JSON Schema dialect we can check ($schema draft-07, 2019-09 or 2020-12)",
    });
  }
  return new DoctorCheck(
    "tool-schemas",
    "pass",
    `the list is valid MCP and every input and output schema compiles${ignoredNote(ignored)}`,
  );
}

/**
 * `tool-lint`: the tools' names, descriptions (at any depth), hints and
 * schema smells, and every other text a model reads; warnings only.
 *
 * @param tools The raw tools.
 * @param texts The instructions, prompts and resources.
 * @param rules Findings to ignore.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { lintCheck } from "./catalog_checks.ts";
 * import assert from "node:assert/strict";
 *
 * const check = lintCheck([{ name: "a", description: "Add two numbers.", inputSchema: { type: "object" } }], {}, []);
 * assert.equal(check.status, "warn");
 * assert.deepEqual(check.findings.map((f) => f.code), ["lint.unannotated"]);
 * ```
 */
export function lintCheck(
  tools: readonly unknown[],
  texts: ServerTexts,
  rules: readonly IgnoreRule[],
): DoctorCheck {
  if (tools.length === 0) return new DoctorCheck("tool-lint", "skip", "no tools to lint");
  const lint = lintTools(tools);
  const { kept, ignored } = keep([...lint.findings, ...lintServerTexts(texts)], rules);
  const size = `the catalog is ≈ ${
    lint.estimatedTokens.toLocaleString("en-US")
  } tokens (an estimate: bytes / 4), paid on every model turn`;
  if (kept.length === 0) {
    return new DoctorCheck(
      "tool-lint",
      "pass",
      `names, descriptions, texts and hints are fine; ${size}${ignoredNote(ignored)}`,
    );
  }
  const codes = new Map<string, number>();
  for (const finding of kept) codes.set(finding.code, (codes.get(finding.code) ?? 0) + 1);
  const summary = [...codes].map(([code, n]) => `${n} ${code}`).join(", ");
  return new DoctorCheck(
    "tool-lint",
    "warn",
    `${kept.length} finding${kept.length === 1 ? "" : "s"} (${summary}); ${size}${
      ignoredNote(ignored)
    }`,
    {
      findings: kept,
      fix:
        "rename, describe and annotate these tools in the server, and clean the texts named (names, descriptions and hints are what a model and a client see)",
    },
  );
}

/** The baseline a run compares with. */
export interface BaselineChoice {
  /** The file, for messages. */
  label: string;
  /** Entry name → catalog. */
  servers: Readonly<Record<string, Catalog>>;
  /**
   * The entry to compare with, whatever the server's name.
   * @default {undefined}
   */
  entry?: string;
}

/**
 * `catalog-drift` of one server: its baseline entry found (by `entry`, its
 * name, or the command it was written from), then every change a finding.
 *
 * @param baseline The baseline.
 * @param name The server's name now.
 * @param command The command or URL it was started from.
 * @param catalog Its catalog now.
 * @param terms How to name writing a baseline.
 * @param rules Findings to ignore.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { baselineDriftCheck } from "./catalog_checks.ts";
 * import { catalogOf } from "./catalog.ts";
 * import { LIBRARY_TERMS } from "./terms.ts";
 * import assert from "node:assert/strict";
 *
 * const before = { ...catalogOf({ tools: [] }), command: "node s.js" };
 * const check = baselineDriftCheck({ label: "b.json", servers: { old: before } }, "new", "node s.js", catalogOf({ tools: [] }), LIBRARY_TERMS, []);
 * assert.equal(check.detail, 'the catalog matches b.json (entry "old", matched by its command)');
 * ```
 */
export function baselineDriftCheck(
  baseline: BaselineChoice,
  name: string,
  command: string,
  catalog: Catalog,
  terms: Pick<DoctorTerms, "updateBaseline">,
  rules: readonly IgnoreRule[],
): DoctorCheck {
  const entries = Object.entries(baseline.servers);
  let key: string | undefined;
  let note = "";
  if (baseline.entry !== undefined) {
    key = Object.hasOwn(baseline.servers, baseline.entry) ? baseline.entry : undefined;
    if (key === undefined) {
      return new DoctorCheck(
        "catalog-drift",
        "fail",
        `${baseline.label} has no entry ${JSON.stringify(baseline.entry)} (it has ${
          entries.map(([n]) => n).join(", ") || "none"
        })`,
        {
          fix: "name one of its entries with --baseline-entry, or write it with --update-baseline",
        },
      );
    }
    if (key !== name) note = ` (entry ${JSON.stringify(key)})`;
  } else if (Object.hasOwn(baseline.servers, name)) key = name;
  else {
    key = entries.find(([, entry]) => entry.command !== undefined && entry.command === command)
      ?.[0];
    if (key !== undefined) note = ` (entry ${JSON.stringify(key)}, matched by its command)`;
  }
  if (key === undefined) {
    return new DoctorCheck(
      "catalog-drift",
      "fail",
      `${baseline.label} has no server named ${
        JSON.stringify(name)
      } and none written from this command (it has ${
        entries.map(([n]) => n).join(", ") || "none"
      })`,
      {
        fix:
          `choose its entry with --baseline-entry NAME, or write it with ${terms.updateBaseline}, after reviewing the catalog`,
      },
    );
  }
  // Issue 39: a server may list other tools to a client with other capabilities.
  const [then, now] = [baseline.servers[key]!.client_capabilities, catalog.client_capabilities];
  if (then !== undefined && now !== undefined && then.join() !== now.join()) {
    note += ` (taken with client capabilities ${then.join(",") || "none"}, checked with ${
      now.join(",") || "none"
    }: a server may list other tools to other clients)`;
  }
  const { kept, ignored } = keep(
    driftFindings(catalogDrift(baseline.servers[key]!, catalog)),
    rules,
  );
  return driftCheck(kept, baseline.label, terms, { note, ignored });
}
