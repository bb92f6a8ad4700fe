/**
 * The file-report flags of `eval`, `compare` and `decide`: `--markdown
 * FILE`, `--html FILE`, `--junit FILE` (eval, decide) and (also for
 * `doctor`, which takes only these two)
 * `--github-summary`, which appends the Markdown report to the file named by
 * `$GITHUB_STEP_SUMMARY` (Deno needs `--allow-env=GITHUB_STEP_SUMMARY` and
 * write access to that file). When the variable is unset, or cannot be read,
 * one stderr line says so and the command exits as it otherwise would.
 *
 * Each report is written atomically after the run (a file that cannot be
 * written is an input error, exit 2, and leaves nothing half-written). The
 * writing code loads only when a report is asked for, so `eval` without
 * report flags starts without it.
 *
 * @module
 */

import denoJson from "../../deno.json" with { type: "json" };
import { InputError } from "../base/errors.ts";
import type { CliIO, FlagSpec } from "./command.ts";
import { redactText } from "../checks/security.ts";

/** The toolscore version the reports name. */
export const REPORT_VERSION: string = denoJson.version;

/** `--markdown`, `--html`, `--github-summary`: what `compare` takes. */
export const REPORT_FLAGS: FlagSpec = {
  markdown: { type: "string" },
  html: { type: "string" },
  "github-summary": { type: "boolean" },
};

/** `--markdown` and `--github-summary`: what `doctor` takes. */
export const MARKDOWN_REPORT_FLAGS: FlagSpec = {
  markdown: { type: "string" },
  "github-summary": { type: "boolean" },
};

/** The same and `--junit`: what `eval` and `decide` take. */
export const JUNIT_REPORT_FLAGS: FlagSpec = { ...REPORT_FLAGS, junit: { type: "string" } };

/**
 * The help lines of the report flags.
 *
 * @param html What the HTML report shows.
 * @param junit What the JUnit report holds, for commands that take `--junit`.
 * @returns The lines, for the command's option list.
 */
export function reportFlagsHelp(html: string, junit?: string): string {
  const pad = " ".repeat(27);
  return [
    "  --markdown FILE          also write a Markdown report (a pull-request comment, at most",
    `${pad}65,536 bytes)`,
    "  --html FILE              also write a self-contained HTML report (no network):",
    `${pad}${html}`,
    ...(junit !== undefined
      ? [
        "  --junit FILE             also write JUnit XML, valid against junit-10.xsd:",
        `${pad}${junit}`,
      ]
      : []),
    "  --github-summary         append the Markdown report to $GITHUB_STEP_SUMMARY (needs",
    `${pad}--allow-env=GITHUB_STEP_SUMMARY and write access to that file)`,
  ].join("\n");
}

/** Where the reports go. */
export interface ReportTargets {
  /** `--markdown`. */
  markdown?: string;
  /** `--html`. */
  html?: string;
  /** `--junit`. */
  junit?: string;
  /** `--github-summary`. */
  githubSummary: boolean;
}

/**
 * The report targets the flags name.
 *
 * @param values The parsed flag values.
 * @returns The targets.
 */
export function reportTargets(values: Record<string, unknown>): ReportTargets {
  const text = (name: string) =>
    typeof values[name] === "string" ? values[name] as string : undefined;
  return {
    markdown: text("markdown"),
    html: text("html"),
    junit: text("junit"),
    githubSummary: values["github-summary"] === true,
  };
}

/**
 * Whether any file report is asked for.
 *
 * @param targets The targets.
 * @returns `true` when some report will be written.
 */
export function anyReport(targets: ReportTargets): boolean {
  return targets.markdown !== undefined || targets.html !== undefined ||
    targets.junit !== undefined ||
    targets.githubSummary;
}

/** The renderers of one command's reports; each runs only when its report is asked for. */
export interface ReportRenderers {
  /** The Markdown text (also the step summary). */
  markdown(): string;
  /** The HTML page, for commands that have one (`doctor` has none). */
  html?(): string;
  /** The JUnit XML, for commands that have one. */
  junit?(): string;
}

function stepSummaryPath(io: Pick<CliIO, "stderr">): string | undefined {
  let path: string | undefined;
  try {
    path = Deno.env.get("GITHUB_STEP_SUMMARY");
  } catch {
    io.stderr(
      "toolscore: --github-summary: cannot read GITHUB_STEP_SUMMARY (run deno with --allow-env=GITHUB_STEP_SUMMARY); no step summary written\n",
    );
    return undefined;
  }
  if (path === undefined || path === "") {
    io.stderr(
      "toolscore: --github-summary: GITHUB_STEP_SUMMARY is not set (not on GitHub Actions); no step summary written\n",
    );
    return undefined;
  }
  return path;
}

/**
 * Write the reports asked for.
 *
 * @param targets Where.
 * @param render What.
 * @param io For the one-line note when there is no step summary.
 * @param inputs The run's input files: a report never replaces one (overwrite.ts).
 * @throws {InputError} When a report cannot be written.
 */
export async function writeReports(
  targets: ReportTargets,
  render: ReportRenderers,
  io: Pick<CliIO, "stderr">,
  inputs: readonly (string | undefined)[] = [],
): Promise<void> {
  const [{ checkOutput }, { writeTextFileAtomic }] = await Promise.all([
    import("./overwrite.ts"),
    import("../base/atomic_write.ts"),
  ]);
  // The overwrite rule (overwrite.ts), for every report before the first is written. Each
  // report's text is redacted whole (issue 42): no field of any input reaches a file in clear.
  for (const target of [targets.markdown, targets.html, targets.junit]) {
    if (target !== undefined) await checkOutput(target, "report", { inputs });
  }
  let markdown: string | undefined;
  if (targets.markdown !== undefined) {
    await writeTextFileAtomic(targets.markdown, markdown = redactText(render.markdown()));
  }
  if (targets.html !== undefined && render.html !== undefined) {
    await writeTextFileAtomic(targets.html, redactText(render.html()));
  }
  if (targets.junit !== undefined && render.junit !== undefined) {
    await writeTextFileAtomic(targets.junit, redactText(render.junit()));
  }
  if (targets.githubSummary) {
    const path = stepSummaryPath(io);
    if (path === undefined) return;
    try {
      await Deno.writeTextFile(path, `${markdown ?? redactText(render.markdown())}\n`, {
        append: true,
      });
    } catch (error) {
      const why = error instanceof Deno.errors.NotCapable
        ? "no write permission: run deno with --allow-write for it"
        : (error as Error).message;
      throw new InputError(`cannot append the step summary (${why})`, path);
    }
  }
}
