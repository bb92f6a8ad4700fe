// .github/workflows/agent-matrix.yml, read as YAML (actionlint and GitHub's parser check its syntax
// elsewhere): the plan, shard and merge jobs do what the README says, and the toolscore command
// lines of their run: steps parse with the CLI's own flag parser.
import assert from "node:assert/strict";
import { load } from "js-yaml";
import { parseFlags } from "../lib/cli/command.ts";
import { AGENT_RUN_FLAGS } from "../lib/cli/agent.ts";
import { shardOf } from "../lib/cli/agent_split.ts";
import { MERGE_FLAGS } from "../lib/cli/merge.ts";

const FILE = new URL("../.github/workflows/agent-matrix.yml", import.meta.url);

type Step = {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  "continue-on-error"?: boolean;
};
type Job = {
  needs?: string | string[];
  if?: string;
  strategy?: { "fail-fast"?: boolean; "max-parallel"?: unknown; matrix?: Record<string, unknown> };
  steps: Step[];
};

// The toolscore command of a run: script (continuation lines joined), the words after cli.ts,
// with the step's env and the given variables put in.
function toolscoreWords(step: Step, vars: Record<string, string>): string[] {
  const script = step.run!.replace(/\\\n\s*/g, " ");
  const line = script.split("\n").find((l) => l.includes(".toolscore/cli.ts"))!;
  assert.ok(line, step.run);
  const words = line.trim().split(/\s+/);
  const after = words.slice(words.indexOf(".toolscore/cli.ts") + 1);
  const end = after.indexOf("||");
  return (end === -1 ? after : after.slice(0, end)).map((word) =>
    word.replace(/^"\$(\w+)"$|^\$(\w+)$/, (_, a, b) => vars[a ?? b] ?? `$${a ?? b}`)
  );
}

Deno.test(".github/workflows/agent-matrix.yml: a reusable plan → shards → merge workflow whose command lines the CLI accepts", async () => {
  const workflow = load(await Deno.readTextFile(FILE)) as {
    on: { workflow_call: { inputs: Record<string, unknown>; secrets: Record<string, unknown> } };
    jobs: Record<string, Job>;
  };
  const call = workflow.on.workflow_call;
  for (const input of ["spec", "shards", "max-parallel", "deno-version"]) {
    assert.ok(input in call.inputs, input);
  }
  assert.deepEqual(Object.keys(call.secrets).sort(), [
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "OPENAI_API_KEY",
  ]);
  const { plan, shard, merge } = workflow.jobs;
  assert.ok(plan && shard && merge);

  // Plan: --plan-out only.
  const planStep = plan.steps.find((step) => step.run?.includes("--plan-out"))!;
  const planWords = toolscoreWords(planStep, { SPEC: "agent.yaml" });
  const planFlags = parseFlags("agent run", planWords.slice(2), AGENT_RUN_FLAGS);
  assert.deepEqual(planWords.slice(0, 2), ["agent", "run"]);
  assert.equal(planFlags.values["plan-out"], "plan.jsonl");

  // Shards: fail-fast off, every index its own shard, resumed from and uploaded to one name.
  assert.equal(shard.needs, "plan");
  assert.equal(shard.strategy?.["fail-fast"], false);
  assert.equal(shard.strategy?.["max-parallel"], "${{ inputs.max-parallel }}");
  const runAt = shard.steps.findIndex((step) => step.run?.includes("agent run"));
  for (let index = 0; index < 3; index++) {
    const words = toolscoreWords(shard.steps[runAt]!, {
      SPEC: "agent.yaml",
      INDEX: String(index),
      SHARDS: "3",
    });
    const flags = parseFlags("agent run", words.slice(2), AGENT_RUN_FLAGS);
    assert.deepEqual(shardOf(flags), { k: index + 1, n: 3 });
    assert.equal(flags.values.output, "out/runs.jsonl");
  }
  const download = shard.steps.findIndex((step) =>
    step.uses?.startsWith("actions/download-artifact")
  );
  const upload = shard.steps.find((step) => step.uses?.startsWith("actions/upload-artifact"))!;
  assert.ok(download >= 0 && download < runAt, "the earlier output is downloaded before the run");
  assert.equal(shard.steps[download]!["continue-on-error"], true);
  assert.equal(shard.steps[download]!.with?.name, upload.with?.name);
  assert.match(String(upload.with?.name), /\$\{\{ matrix\.index \}\}/);
  assert.equal(upload.if, "always()");
  assert.equal(upload.with?.overwrite, true);
  assert.equal(shard.steps[runAt]!.env?.OPENAI_API_KEY, "${{ secrets.OPENAI_API_KEY }}");

  // Merge: after every shard (whatever became of them), merge --spec, compare to the summary,
  // fail on missing runs.
  assert.deepEqual(merge.needs, ["plan", "shard"]);
  assert.match(String(merge.if), /always\(\)/);
  const mergeStep = merge.steps.find((step) => step.run?.includes("cli.ts merge"))!;
  const [command, ...mergeArgs] = toolscoreWords(mergeStep, { SPEC: "agent.yaml" });
  assert.equal(command, "merge");
  const mergeFlags = parseFlags("merge", mergeArgs, MERGE_FLAGS);
  assert.equal(mergeFlags.values.spec, "agent.yaml");
  assert.deepEqual(mergeFlags.positionals, ["shards/*/runs.jsonl"]);
  const compare = merge.steps.find((step) => step.run?.includes("cli.ts compare"))!;
  assert.match(compare.run!, /--github-summary/);
  const fail = merge.steps.at(-1)!;
  assert.match(String(fail.if), /steps\.merge\.outputs\.status != '0'/);
  assert.match(fail.run!, /exit 1/);
  // toolscore comes from this workflow's own repository and commit, in every job.
  for (const job of [plan, shard, merge]) {
    const checkout = job.steps.find((step) => step.with?.path === ".toolscore")!;
    assert.equal(checkout.with?.ref, "${{ steps.self.outputs.sha }}");
  }
});
