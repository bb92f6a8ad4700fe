/**
 * {@linkcode runProbes}: call what a probe file lists (issue 39) — and
 * nothing else — on an open session, one check each, with its duration and
 * a redacted, capped excerpt of the answer.
 *
 * A tool probe: the tool must be listed; one not annotated
 * `readOnlyHint: true` is refused (`probe.side-effects`) unless the probe
 * says `side_effects: true` or the caller allows side effects; `args` are
 * validated against the tool's `inputSchema` before the call
 * (`probe.invalid-args`, Ajv loaded only here); the answer's
 * `structuredContent` against its `outputSchema` (`probe.output-schema`).
 * `expect_error: true` passes on a JSON-RPC error or `isError: true` and
 * fails on anything else. A resource probe reads (`resources/read`), a
 * prompt probe gets (`prompts/get`, its required arguments checked first);
 * their text is the contents' or messages' text joined with newlines.
 *
 * Decisions: a probe that cannot run (refused, bad arguments, unknown
 * target, past the deadline) fails — a smoke test that did not run did not
 * pass. Checks are named `probe:TOOL`, `probe:resource:URI`,
 * `probe:prompt:NAME` (`#2`… for repeats); their findings' paths point into
 * the catalog (`/tools/echo`).
 *
 * @module
 */

import type { McpSession } from "../mcp/client.ts";
import { McpServerError } from "../mcp/server_error.ts";
import { redact } from "../mcp/client_failure.ts";
import { redactText } from "../checks/security.ts";
import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { valuesMatch } from "../scoring/value_compare.ts";
import { DoctorCheck, type DoctorFinding } from "./check.ts";
import { closestName } from "./closest_name.ts";
import type { Probe } from "./probe_file.ts";
import type { ClientCapabilityName } from "../mcp/client_capabilities.ts";

/** Options for {@linkcode runProbes}. */
export interface RunProbesOptions {
  /**
   * Call tools not annotated `readOnlyHint: true` without `side_effects: true` on the probe.
   * @default {false}
   */
  allowSideEffects?: boolean;
  /**
   * Seconds all probes may take together; the rest fail as not run.
   * @default {120}
   */
  deadline?: number;
  /**
   * Seconds each probe may take when it names no `timeout_s`.
   * @default {30}
   */
  timeout?: number;
  /**
   * What the messages call the flag that allows side effects.
   * @default {"the allowSideEffects option"}
   */
  allowTerm?: string;
}

/** The probe and client settings of a server check (`checkServer`, `runDoctor`). */
export interface ServerProbeOptions {
  /**
   * What to call once the server listed what it offers; nothing else is called.
   * @default {[]}
   */
  probes?: readonly Probe[];
  /**
   * Probe tools not annotated `readOnlyHint: true` without `side_effects: true` on each probe.
   * @default {false}
   */
  allowSideEffects?: boolean;
  /**
   * Seconds all probes may take together.
   * @default {120}
   */
  probeDeadline?: number;
  /**
   * The capabilities the doctor declares as a client (and answers).
   * @default {CLIENT_CAPABILITIES} (roots, sampling and elicitation)
   */
  clientCapabilities?: readonly ClientCapabilityName[];
}

const EXCERPT = 200;

function pointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function pathOf(probe: Probe): string {
  const list = probe.kind === "tool" ? "tools" : probe.kind === "prompt" ? "prompts" : "resources";
  return `/${list}/${pointer(probe.target)}`;
}

/**
 * The name of a probe's check: `probe:TOOL`, `probe:resource:URI` or `probe:prompt:NAME`.
 *
 * @param probe The probe.
 * @returns The check's name (without the `#2` of a repeat).
 *
 * @example Usage
 * ```ts
 * import { probeCheckName } from "./probe_run.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(probeCheckName({ kind: "prompt", target: "greet" } as never), "probe:prompt:greet");
 * ```
 */
export function probeCheckName(probe: Pick<Probe, "kind" | "target">): string {
  return `probe:${labelOf(probe)}`;
}

function labelOf(probe: Pick<Probe, "kind" | "target">): string {
  return probe.kind === "tool" ? probe.target : `${probe.kind}:${probe.target}`;
}

function excerpt(text: string, secrets: readonly string[]): string {
  const clean = redactText(redact(text, secrets)).replace(/\s+/g, " ").trim();
  return clean.length <= EXCERPT ? clean : `${clean.slice(0, EXCERPT)}… (${clean.length} chars)`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 80 ? text : `${text.slice(0, 80)}…`;
}

/** The text a probe's `expect_text` is matched against. */
function joinedText(kind: Probe["kind"], result: JsonObject): string {
  const parts: string[] = [];
  const items = kind === "resource"
    ? result.contents
    : kind === "prompt"
    ? (Array.isArray(result.messages)
      ? result.messages.map((m) => isJsonObject(m) ? m.content : m)
      : [])
    : result.content;
  for (const item of Array.isArray(items) ? items : []) {
    if (isJsonObject(item) && typeof item.text === "string") parts.push(item.text);
  }
  return parts.join("\n");
}

type Validate = (schema: JsonObject, value: unknown) => string | null;

// Ajv only when a probe needs it (the doctor without --probe never loads it for this).
async function loadValidator(): Promise<Validate> {
  const [{ Ajv }, { Ajv2019 }, { Ajv2020 }] = await Promise.all([
    import("ajv"),
    import("ajv/dist/2019.js"),
    import("ajv/dist/2020.js"),
  ]);
  // Not keeping used schemas: two probes of one tool with an `$id` would clash.
  const options = { strict: false, validateFormats: false, allErrors: true, addUsedSchema: false };
  const byDialect = {
    "draft-07": new Ajv(options),
    "2019-09": new Ajv2019(options),
    "2020-12": new Ajv2020(options),
  };
  return (schema, value) => {
    const name = typeof schema.$schema === "string" ? schema.$schema : "";
    const dialect =
      name.includes("draft-07") || name.includes("draft-04") || name.includes("draft-06")
        ? "draft-07"
        : name.includes("2019-09")
        ? "2019-09"
        : "2020-12";
    const { $schema: _, ...rest } = schema;
    try {
      const validate = byDialect[dialect].compile(rest);
      if (validate(value)) return null;
      return (validate.errors ?? []).slice(0, 3).map((error) =>
        `${error.instancePath === "" ? "(top)" : error.instancePath} ${error.message ?? "invalid"}`
      ).join("; ");
    } catch (error) {
      return `the schema cannot be used (${(error as Error).message.split("\n")[0]})`;
    }
  };
}

interface Outcome {
  status: "pass" | "fail";
  code: string;
  detail: string;
  fix?: string;
  excerpt?: string;
}

/**
 * Run the probes on an open session, in file order.
 *
 * @param session The open session.
 * @param lists The tools and prompts the server listed (`null`: not listed).
 * @param probes The probes.
 * @param options Side effects allowed, the deadline, how messages name the flag.
 * @returns One check per probe.
 *
 * @example Usage
 * ```ts ignore
 * import { runProbes } from "./probe_run.ts";
 *
 * const checks = await runProbes(session, { tools, prompts }, probes, { deadline: 60 });
 * ```
 */
export async function runProbes(
  session: McpSession,
  lists: { tools: readonly unknown[] | null; prompts: readonly unknown[] },
  probes: readonly Probe[],
  options: RunProbesOptions = {},
): Promise<DoctorCheck[]> {
  const deadlineAt = performance.now() + (options.deadline ?? 120) * 1000;
  const allow = options.allowTerm ?? "the allowSideEffects option";
  let validate: Validate | undefined;
  const seen = new Map<string, number>();
  const checks: DoctorCheck[] = [];
  for (const probe of probes) {
    const label = labelOf(probe);
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    const started = performance.now();
    let outcome: Outcome;
    let gone = false;
    try {
      outcome = await runOne(probe, started);
    } catch (error) {
      if (!(error instanceof McpServerError)) throw error;
      gone = error.kind !== "timeout";
      const late = error.kind === "timeout" && performance.now() >= deadlineAt;
      outcome = {
        status: "fail",
        code: late ? "probe.deadline" : error.kind === "timeout" ? "probe.timeout" : "probe.failed",
        detail: `${error.message.split("\n")[0]!}${late ? " (the probes' deadline passed)" : ""}`,
      };
    }
    const durationS = (performance.now() - started) / 1000;
    const finding: DoctorFinding[] = outcome.status === "fail"
      ? [{ code: outcome.code, severity: "fail", path: pathOf(probe), message: outcome.detail }]
      : [];
    checks.push(
      new DoctorCheck(`probe:${label}${n > 1 ? `#${n}` : ""}`, outcome.status, outcome.detail, {
        fix: outcome.fix ?? (outcome.status === "fail" ? `see ${probe.where}` : null),
        findings: finding,
        durationS,
        excerpt: outcome.excerpt,
      }),
    );
    if (gone) {
      // The connection is gone: the rest cannot run.
      for (const rest of probes.slice(probes.indexOf(probe) + 1)) {
        checks.push(notRun(rest, "the server stopped answering"));
      }
      return checks;
    }
  }
  return checks;

  function notRun(probe: Probe, why: string): DoctorCheck {
    const detail = `not run: ${why}`;
    return new DoctorCheck(`probe:${labelOf(probe)}`, "fail", detail, {
      findings: [{ code: "probe.not-run", severity: "fail", path: pathOf(probe), message: detail }],
    });
  }

  async function runOne(probe: Probe, started: number): Promise<Outcome> {
    const left = (deadlineAt - performance.now()) / 1000;
    if (left <= 0) {
      return {
        status: "fail",
        code: "probe.deadline",
        detail: "not run: the probes' deadline passed",
        fix: "raise the probes' deadline, or probe less",
      };
    }
    const timeoutS = Math.min(probe.timeoutS ?? options.timeout ?? 30, left);
    let schema: JsonObject | undefined;
    let method: string;
    let params: JsonObject;
    if (probe.kind === "tool") {
      if (lists.tools === null) {
        return { status: "fail", code: "probe.unknown-target", detail: "not run: no tool list" };
      }
      const tools = lists.tools.filter(isJsonObject);
      const tool = tools.find((t) => t.name === probe.target);
      if (tool === undefined) {
        const near = closestName(
          probe.target,
          tools.flatMap((t) => typeof t.name === "string" ? [t.name] : []),
        );
        return {
          status: "fail",
          code: "probe.unknown-target",
          detail: `the server lists no tool ${show(probe.target)}${
            near ? ` (did you mean ${near}?)` : ""
          }`,
        };
      }
      const annotations = isJsonObject(tool.annotations) ? tool.annotations : {};
      if (
        annotations.readOnlyHint !== true && !probe.sideEffects && options.allowSideEffects !== true
      ) {
        return {
          status: "fail",
          code: "probe.side-effects",
          detail:
            `refused: ${probe.target} is not annotated readOnlyHint: true, so calling it may change something`,
          fix: `add side_effects: true to the probe at ${probe.where}, or pass ${allow}`,
        };
      }
      if (isJsonObject(tool.inputSchema)) {
        validate ??= await loadValidator();
        const problem = validate(tool.inputSchema, probe.args);
        if (problem !== null) {
          return {
            status: "fail",
            code: "probe.invalid-args",
            detail: `not called: args do not fit ${probe.target}'s inputSchema: ${problem}`,
            fix: `fix args at ${probe.where}`,
          };
        }
      }
      if (isJsonObject(tool.outputSchema)) schema = tool.outputSchema;
      method = "tools/call";
      params = { name: probe.target, arguments: probe.args };
    } else if (probe.kind === "prompt") {
      const prompt = lists.prompts.filter(isJsonObject).find((p) => p.name === probe.target);
      if (prompt === undefined) {
        return {
          status: "fail",
          code: "probe.unknown-target",
          detail: `the server lists no prompt ${show(probe.target)}`,
        };
      }
      const wanted = (Array.isArray(prompt.arguments) ? prompt.arguments : []).filter(isJsonObject);
      const missing = wanted.filter((a) =>
        a.required === true && typeof a.name === "string" && !(a.name in probe.args)
      );
      if (missing.length > 0) {
        return {
          status: "fail",
          code: "probe.invalid-args",
          detail: `not called: the prompt needs ${missing.map((a) => String(a.name)).join(", ")}`,
          fix: `add them to args at ${probe.where}`,
        };
      }
      method = "prompts/get";
      params = { name: probe.target, arguments: probe.args };
    } else {
      method = "resources/read";
      params = { uri: probe.target };
    }
    const answer = await session.requestOrError(method, params, timeoutS);
    const secrets = session.secrets;
    const took = `${((performance.now() - started) / 1000).toFixed(2)} s`;
    if ("error" in answer) {
      const text = `error ${answer.error.code}: ${excerpt(answer.error.message, secrets)}`;
      return probe.expectError
        ? { status: "pass", code: "", detail: `answered ${text} as expected`, excerpt: text }
        : { status: "fail", code: "probe.error", detail: `answered ${text}`, excerpt: text };
    }
    const result = answer.result;
    const text = joinedText(probe.kind, result);
    const shown = excerpt(text === "" ? JSON.stringify(result) : text, secrets);
    const isError = result.isError === true;
    if (isError !== probe.expectError) {
      return {
        status: "fail",
        code: isError ? "probe.tool-error" : "probe.mismatch",
        detail: isError ? `answered isError: true: ${shown}` : `expected an error, got: ${shown}`,
        excerpt: shown,
      };
    }
    if (probe.expectText !== undefined && !valuesMatch(probe.expectText, text)) {
      return {
        status: "fail",
        code: "probe.mismatch",
        detail: `the text does not match ${show(probe.expectText)}: ${shown}`,
        excerpt: shown,
      };
    }
    if (schema !== undefined && !isError) {
      if (result.structuredContent === undefined) {
        return {
          status: "fail",
          code: "probe.output-schema",
          detail: `${probe.target} has an outputSchema but answered no structuredContent`,
          excerpt: shown,
        };
      }
      validate ??= await loadValidator();
      const problem = validate(schema, result.structuredContent);
      if (problem !== null) {
        return {
          status: "fail",
          code: "probe.output-schema",
          detail: `structuredContent does not fit the outputSchema: ${problem}`,
          excerpt: shown,
        };
      }
    }
    if (
      probe.expectStructured !== undefined &&
      !valuesMatch(probe.expectStructured, result.structuredContent)
    ) {
      return {
        status: "fail",
        code: "probe.mismatch",
        detail: `structuredContent ${
          excerpt(JSON.stringify(result.structuredContent) ?? "(none)", secrets)
        } does not match ${show(probe.expectStructured)}`,
        excerpt: shown,
      };
    }
    return {
      status: "pass",
      code: "",
      detail: `${method} answered in ${took}: ${shown}`,
      excerpt: shown,
    };
  }
}
