/**
 * `toolscore demo`: a self-contained tour on bundled data. Three recorded
 * runs of a flight-booking agent, in three formats, are scored against one
 * gold file: a good run, one with a wrong argument, and one that misses a
 * call and claims a success it did not have. No setup, no keys, no files:
 * the data is imported as JSON modules.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import gold from "../../data/demo/gold.json" with { type: "json" };
import good from "../../data/demo/good.json" with { type: "json" };
import wrongArgument from "../../data/demo/wrong_argument.json" with { type: "json" };
import missingCall from "../../data/demo/missing_call.json" with { type: "json" };
import { UsageError } from "../base/errors.ts";
import { evaluate } from "../evaluate/evaluate.ts";
import { evaluationEvidence } from "../checks/evidence.ts";
import { traceFromValue } from "../formats/detect.ts";
import { palette } from "../report/color.ts";
import { formatResult, formatSummary, summaryRow } from "../report/console.ts";
import type { CliIO, Command } from "./command.ts";

const RUNS = [
  {
    name: "good.json",
    value: good as unknown,
    story: "An OpenAI chat transcript: the agent searched, booked and confirmed, as expected.",
  },
  {
    name: "wrong_argument.json",
    value: wrongArgument as unknown,
    story: "An Anthropic message list: the right tools, but the wrong date, one passenger " +
      "instead of two, and a repeated search.",
  },
  {
    name: "missing_call.json",
    value: missingCall as unknown,
    story: "A toolscore trace: the booking failed, no confirmation was sent, " +
      'and the agent still said "Done!".',
  },
];

const HELP = `toolscore demo — a self-contained tour on bundled data (no setup, no keys)

Scores three recorded runs of a flight-booking agent (OpenAI, Anthropic and toolscore
formats) against one gold file and explains what each result shows.

Exit codes: 0 shown, 2 usage error.

Examples:
  toolscore demo
`;

/** `toolscore demo`. */
export const demoCommand: Command = {
  name: "demo",
  summary: "a self-contained tour on bundled data (no setup, no keys)",
  help: HELP,
  run(args: string[], io: CliIO): Promise<number> {
    if (args.length > 0) throw new UsageError(`demo takes no arguments, got ${args.join(" ")}`);
    const c = palette(io.color);
    const out: string[] = [
      c.bold("toolscore demo: one gold file, three recorded agent runs"),
      "",
      "The task: book SFO→JFK on 2026-12-24 for two passengers and email a confirmation.",
      "The gold file expects search_flights(origin, destination, date),",
      'book_flight(flight_id matching /^FL-\\d+$/, passengers 2) and send_confirmation(email containing "@").',
      "",
    ];
    const rows = RUNS.map(({ name, value, story }) => {
      const trace = traceFromValue(value, { source: name });
      const result = evaluate(gold, trace);
      const evidence = evaluationEvidence(result);
      out.push(c.dim(`# ${story} (read as ${trace.format})`));
      pushAll(out, formatResult(name, result, evidence, { color: io.color }));
      out.push("");
      return summaryRow(name, result, result.passed(0.9));
    });
    pushAll(out, formatSummary(rows, io.color));
    out.push("");
    out.push(
      c.bold("What this shows"),
      "- The score (0..1) and grade come from which tools were called, with which arguments,",
      "  in what order, and how many calls were extra; the issues say exactly what to fix.",
      "- Wrong argument values and a repeated call cost points but keep the run recognisable",
      "  (a B, not an F); the issues show each expected value next to the actual one.",
      "- Missing data never passes: a check without the data it needs is 'unknown', and a",
      "  success claimed over a failed call is an error whatever the score.",
      "",
      c.bold("Next"),
      "  toolscore eval GOLD TRACE…        score your own traces (any format, a directory, or -)",
      "  toolscore eval GOLD runs/ --fail-under B   gate CI on a grade",
      "  toolscore inspect TRACE           see what was read from a trace",
      "",
    );
    io.stdout(out.join("\n"));
    return Promise.resolve(0);
  },
};
