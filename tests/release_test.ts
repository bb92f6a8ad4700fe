// The release path as far as it runs here: the binaries' compile commands and permissions,
// the tag check, SHA256SUMS as `sha256sum --check` reads it, and the release workflow's steps.
// `deno compile` itself needs the release runner (README).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";
import { systemBin } from "./_deps.ts";
import { runDeno } from "./_cli.ts";
import { BINARY_PERMISSIONS, binaryName, checksums, TARGETS } from "../scripts/compile.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = await Deno.readTextFile(`${root}README.md`);
const version = JSON.parse(await Deno.readTextFile(`${root}deno.json`)).version as string;

function section(title: string): string {
  return readme.split(`\n## ${title}\n`)[1]?.split("\n## ")[0] ?? "";
}

Deno.test("scripts/compile.ts builds five targets with the README's permission union and the version in their names", async () => {
  const { code, out, err } = await runDeno(
    ["run", "--no-prompt", "--allow-read", `${root}scripts/compile.ts`, "--print"],
    { cwd: root },
  );
  assert.equal(code, 0, err);
  const commands = out.trimEnd().split("\n").map((line) => line.split(" "));
  assert.deepEqual(
    commands.map((args) => args[args.indexOf("--target") + 1]),
    [
      "x86_64-unknown-linux-gnu",
      "aarch64-unknown-linux-gnu",
      "x86_64-apple-darwin",
      "aarch64-apple-darwin",
      "x86_64-pc-windows-msvc",
    ],
  );
  // The README states the binaries' permissions in one line …
  const stated = /```sh\n(--allow-[^\n]*)\n```/.exec(section("Binaries and releases"))?.[1];
  assert.equal(stated, BINARY_PERMISSIONS.join(" "));
  // … and they are the union of every command's flags in its Permissions table, unscoped.
  const kinds = new Set(
    [...section("Permissions").matchAll(/--allow-(\w+)/g)].map((match) => match[1]),
  );
  assert.deepEqual([...kinds].sort(), BINARY_PERMISSIONS.map((f) => f.slice(8)).sort());
  for (const args of commands) {
    const target = args[args.indexOf("--target") + 1]!;
    assert.deepEqual(args.slice(0, 2), ["deno", "compile"]);
    assert.equal(args.at(-1), "cli.ts");
    assert.deepEqual(args.filter((arg) => arg.startsWith("--allow-")), [...BINARY_PERMISSIONS]);
    assert.equal(args[args.indexOf("--output") + 1], `dist/${binaryName(version, target)}`);
    assert.equal(args[args.indexOf("--include") + 1], "lib/cli/eval_worker.ts");
  }
  assert.equal(binaryName(version, TARGETS[4]!), `toolscore-${version}-x86_64-pc-windows-msvc.exe`);
  await Deno.stat(`${root}lib/cli/eval_worker.ts`); // the worker module it embeds exists
});

Deno.test("scripts/compile.ts refuses a tag that is not the deno.json version", async () => {
  const { code, out, err } = await runDeno(
    ["run", "--no-prompt", "--allow-read", `${root}scripts/compile.ts`, "--tag", "v9.9.9"],
    { cwd: root },
  );
  assert.equal(code, 2);
  assert.equal(out, "");
  assert.equal(
    err,
    `compile: the tag v9.9.9 is not v${version}, the version in deno.json; ` +
      `tag v${version} or change deno.json\n`,
  );
});

Deno.test("checksums() writes SHA256SUMS that sha256sum --check accepts", async () => {
  const sha256sum = systemBin("/usr/bin/sha256sum");
  if (sha256sum === undefined) return;
  const dir = await Deno.makeTempDir({ prefix: "toolscore-sums-" });
  try {
    const names = ["toolscore-b", "toolscore-a.exe", "empty"];
    await Deno.writeTextFile(`${dir}/toolscore-b`, "b".repeat(200_000));
    await Deno.copyFile(`${root}data/demo/good.json`, `${dir}/toolscore-a.exe`);
    await Deno.writeTextFile(`${dir}/empty`, "");
    const sums = await checksums(dir, names);
    assert.deepEqual(sums.split("\n").map((line) => line.split("  ")[1]), [
      "empty",
      "toolscore-a.exe",
      "toolscore-b",
      undefined,
    ]);
    await Deno.writeTextFile(`${dir}/SHA256SUMS`, sums);
    const check = await new Deno.Command(sha256sum, {
      args: ["--check", "--strict", "SHA256SUMS"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));
    assert.match(new TextDecoder().decode(check.stdout), /^empty: OK\n.*\n.*\n$/);
    // A changed binary fails the check.
    await Deno.writeTextFile(`${dir}/toolscore-b`, "c");
    const changed = await new Deno.Command(sha256sum, {
      args: ["--check", "--quiet", "SHA256SUMS"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(changed.code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("release.yml on a tag runs CI, builds, checksums, releases and publishes with provenance", async () => {
  const path = `${root}.github/workflows/release.yml`;
  // tests/report_action_test.ts parses every workflow, this one too, with GitHub's parser.
  const content = await Deno.readTextFile(path);
  type Step = { run?: string; uses?: string };
  const workflow = load(content) as {
    on: { push: { tags: string[] } };
    jobs: Record<string, { permissions: Record<string, string>; steps: Step[] }>;
  };
  assert.deepEqual(workflow.on.push.tags, ["v*"]);
  const job = workflow.jobs.release!;
  assert.deepEqual(job.permissions, { contents: "write", "id-token": "write" });
  const runs = job.steps.map((step) => step.run ?? "");
  const at = (pattern: RegExp) => {
    const index = runs.findIndex((run) => pattern.test(run));
    assert.ok(index >= 0, `a step matches ${pattern}`);
    return index;
  };
  const ci = at(/^CI=true bash \.ci\/run$/);
  const compile = at(/scripts\/compile\.ts --tag "\$GITHUB_REF_NAME" --out dist/);
  // Issue 33: JSR before the GitHub release (a failed publish re-runs with no release in the
  // way), and the release step re-runnable (an earlier try's release gets its files replaced).
  const release = at(/gh release create "\$GITHUB_REF_NAME" dist\/toolscore-\* dist\/SHA256SUMS /);
  const publish = at(/^deno publish$/);
  assert.ok(ci < compile && compile < publish && publish < release, "in this order");
  assert.match(
    runs[release]!,
    /if gh release view "\$GITHUB_REF_NAME"[^\n]*\n\s*gh release upload "\$GITHUB_REF_NAME" dist\/toolscore-\* dist\/SHA256SUMS --clobber\n\s*else\n/,
  );
  assert.ok(job.steps.some((step) => step.uses?.startsWith("actions/checkout@")));
});
