// examples/k8s/agent-run-job.yaml: parsed as YAML, and its command lines read with the CLI's own
// flag parser — every index of the Indexed Job is one shard of N, each with its own output, and
// the merge Job merges exactly those outputs against the spec the shards ran.
import assert from "node:assert/strict";
import { loadAll } from "js-yaml";
import { parseFlags } from "../lib/cli/command.ts";
import { AGENT_RUN_FLAGS } from "../lib/cli/agent.ts";
import { shardOf } from "../lib/cli/agent_split.ts";
import { MERGE_FLAGS } from "../lib/cli/merge.ts";

const FILE = new URL("../examples/k8s/agent-run-job.yaml", import.meta.url);

type Doc = Record<string, unknown> & { kind?: string; metadata?: { name?: string } };
type Container = { command?: string[]; args?: string[] };

function container(job: Doc): Container {
  const spec = job.spec as { template: { spec: { containers: Container[] } } };
  return spec.template.spec.containers[0]!;
}

// The toolscore arguments: what follows cli.ts on the deno command line.
function toolscoreArgs(c: Container): string[] {
  const argv = [...c.command ?? [], ...c.args ?? []];
  assert.equal(argv[0], "deno");
  const at = argv.findIndex((arg) => arg.endsWith("/cli.ts"));
  assert.ok(at > 0, argv.join(" "));
  return argv.slice(at + 1);
}

Deno.test("examples/k8s/agent-run-job.yaml: an Indexed Job of whole-cell shards on a shared volume, then a merge Job of exactly their outputs", async () => {
  const docs = loadAll(await Deno.readTextFile(FILE)) as Doc[];
  const jobs = docs.filter((doc) => doc.kind === "Job");
  const shards = jobs.find((job) =>
    (job.spec as Record<string, unknown>).completionMode === "Indexed"
  );
  assert.ok(shards !== undefined, "an Indexed Job");
  const spec = shards.spec as { completions: number; parallelism: number };
  const n = spec.completions;
  assert.ok(n >= 2);

  const [sub, verb, specPath, ...rest] = toolscoreArgs(container(shards));
  assert.deepEqual([sub, verb], ["agent", "run"]);
  const outputs = new Set<string>();
  for (let index = 0; index < n; index++) {
    // Kubernetes expands $(JOB_COMPLETION_INDEX) in args from the pod's environment.
    const args = rest.map((arg) => arg.replaceAll("$(JOB_COMPLETION_INDEX)", String(index)));
    const flags = parseFlags("agent run", [specPath!, ...args], AGENT_RUN_FLAGS);
    assert.deepEqual(flags.positionals, [specPath]);
    assert.deepEqual(shardOf(flags), { k: index + 1, n });
    const output = flags.values.output as string;
    assert.ok(output.startsWith("/data/"), output);
    outputs.add(output);
  }
  assert.equal(outputs.size, n, "each index its own output");
  const mounts = (container(shards) as { volumeMounts: { mountPath: string }[] }).volumeMounts;
  assert.ok(mounts.some((mount) => mount.mountPath === "/data"));
  const claim = docs.find((doc) => doc.kind === "PersistentVolumeClaim")!;
  assert.deepEqual((claim.spec as { accessModes: string[] }).accessModes, ["ReadWriteMany"]);

  const merge = jobs.find((job) => job !== shards)!;
  const [command, ...mergeArgs] = toolscoreArgs(container(merge));
  assert.equal(command, "merge");
  const flags = parseFlags("merge", mergeArgs, MERGE_FLAGS);
  assert.deepEqual(new Set(flags.positionals), outputs);
  assert.equal(flags.values.spec, specPath);
  assert.ok(typeof flags.values.output === "string");
});
