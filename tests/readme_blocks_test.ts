// Issue 33: the README's commands work as written. Every ```sh block not preceded by
// `<!-- not-run: REASON -->` runs, in order, in one bash (aliases expanded, so the quick
// start's `toolscore` alias carries to the blocks after it) in a scratch copy of the checkout,
// with only the Deno that "Try it" installs (tools/deno) on PATH and no API keys in the
// environment. A command may exit 0, or 1 where the README says so (a gate or doctor doing its
// job): "exit 1" in the command's own comment (on its lines or an indented comment line right
// after), or in a comment line opening at the block's left margin (for the whole block).
// Anything else fails the test with the README line. The skipped blocks are printed with their
// reasons.
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;
const DENO_BIN = `${ROOT}tools/deno/node_modules/.bin`;

interface Block {
  /** The README line of the opening fence. */
  line: number;
  lines: string[];
  skip?: string;
}

function shBlocks(readme: string): Block[] {
  const lines = readme.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```sh") continue;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const skip = /^<!-- not-run: (.+?) -->$/.exec(lines[before] ?? "")?.[1];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j] !== "```"; j++) body.push(lines[j]!);
    blocks.push({ line: i + 1, lines: body, ...(skip === undefined ? {} : { skip }) });
    i = j;
  }
  return blocks;
}

async function git(args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd: ROOT, stdout: "piped", stderr: "piped" })
    .output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

// The checkout's files as a clean clone has them (tracked, and new ones not ignored).
async function scratchCopy(dir: string): Promise<void> {
  const files = (await git(["ls-files", "--cached", "--others", "--exclude-standard", "-z"]))
    .split("\0").filter((name) => name !== "");
  for (const name of files) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(`${ROOT}${name}`);
    } catch {
      continue; // deleted in the work tree
    }
    if (!info.isFile) continue;
    const target = `${dir}/${name}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${ROOT}${name}`, target);
  }
}

Deno.test("every README sh block not marked not-run runs as written", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const blocks = shBlocks(readme);
  const skipped = blocks.filter((block) => block.skip !== undefined);
  for (const block of skipped) console.log(`not run: README.md:${block.line}: ${block.skip}`);
  const run = blocks.filter((block) => block.skip === undefined);
  // What the issue names must run: quick start, reports, receipts, statistics, doctor fixture.
  const text = (block: Block) => block.lines.join("\n");
  for (
    const [what, pattern] of [
      ["quick start", /^alias toolscore=/m],
      ["reports", /--markdown out\/report\.md --junit out\/junit\.xml --html/],
      ["receipts", /^toolscore verify out\/good\.receipt\.json/m],
      ["statistics", /^toolscore compare testdata\/runs\/agent_runs\.jsonl /m],
      ["doctor fixture", /doctor -- deno run --no-prompt testdata\/mcp\/fixture_server\.ts/],
    ] as const
  ) assert.ok(run.some((block) => pattern.test(text(block))), `the ${what} block must run`);

  const dir = await Deno.makeTempDir({ prefix: "toolscore-readme-" });
  try {
    await scratchCopy(dir);
    // One script: each block after `BLOCK=N`; the ERR trap names the script line that failed.
    const script = [
      "shopt -s expand_aliases",
      `trap 'c=$?; if [ "$c" -ne 1 ] || [ "$ALLOW1" != 1 ]; then echo "README_FAIL $LINENO $c" >&2; exit 99; fi' ERR`,
    ];
    const origin: number[] = []; // script line (1-based) → README line
    const push = (line: string, readmeLine: number) => {
      script.push(line);
      origin[script.length] = readmeLine;
    };
    const EXIT_1 = /#.*\bexit 1\b/;
    for (const block of run) {
      const wholeBlock = block.lines.some((line) => /^#.*\bexit 1\b/.test(line));
      push(`echo "README_BLOCK ${block.line}"`, block.line);
      block.lines.forEach((line, i) => {
        const continued = i > 0 && block.lines[i - 1]!.endsWith("\\");
        if (!continued) {
          // The command's lines, and an indented comment line right after them.
          let end = i;
          while (end < block.lines.length - 1 && block.lines[end]!.endsWith("\\")) end++;
          const own = block.lines.slice(i, end + 1);
          const next = block.lines[end + 1];
          if (next !== undefined && /^\s+#/.test(next)) own.push(next);
          const allowed = wholeBlock || own.some((l) => EXIT_1.test(l));
          push(`ALLOW1=${allowed ? 1 : 0}`, block.line + 1 + i);
        }
        push(line, block.line + 1 + i);
      });
    }
    push('echo "README_DONE"', 0);
    await Deno.writeTextFile(`${dir}/.readme_blocks.sh`, `${script.join("\n")}\n`);
    const env: Record<string, string> = {
      PATH: `${DENO_BIN}:/usr/bin:/bin`,
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
    };
    for (const name of ["HOME", "DENO_DIR", "DENO_TLS_CA_STORE"]) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    const started = performance.now();
    const output = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", ".readme_blocks.sh"],
      cwd: dir,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(480_000),
    }).output();
    const out = new TextDecoder().decode(output.stdout);
    const err = new TextDecoder().decode(output.stderr);
    const failed = /README_FAIL (\d+) (\d+)/.exec(err);
    const where = failed
      ? `README.md:${origin[Number(failed[1])]} exited ${failed[2]}: ${
        script[Number(failed[1]) - 1]
      }`
      : `bash exited ${output.code}`;
    assert.equal(
      output.code,
      0,
      `${where}\n--- stdout (end)\n${out.slice(-3000)}\n--- stderr (end)\n${err.slice(-3000)}`,
    );
    assert.match(out, /README_DONE\n$/);
    const ran = [...out.matchAll(/^README_BLOCK (\d+)$/gm)].length;
    assert.equal(ran, run.length);
    console.log(
      `ran ${ran} README blocks (${run.reduce((n, block) => n + block.lines.length, 0)} lines) in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s; ${skipped.length} not run`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
