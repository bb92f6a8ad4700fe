// Fix 3: no process survives doctor under the README's permission line (unscoped --allow-run),
// whatever the fault shape — a grandchild left in the server's process group, one that left the
// group, a server that hangs and is stopped by a timeout or a signal — and doctor names what it
// stopped. Under a narrowed --allow-run it names the survivors with a command that stops them.
// Every check of "gone" reads the process table (ps).
import assert from "node:assert/strict";
import { tempDir } from "./_mcp.ts";
import { badServer, doctorProcess, README_PERMISSIONS, readPids, running } from "./_doctor.ts";

const ignore = Deno.build.os !== "linux";

// What these tests stop never exits by itself, and none crashes after initialize: a short
// grace and linger (doctor_lifecycle_test.ts checks both at their defaults).
const SHORT = ["--linger", "0.1", "--shutdown-grace", "0.2"];

async function withPidFile(fn: (pidFile: string) => Promise<void>): Promise<void> {
  const dir = await tempDir(".doctor_orphans_");
  const pidFile = `${dir}/pids`;
  try {
    await fn(pidFile);
  } finally {
    // Whatever happened above, leave nothing running.
    for (const pid of await readPids(pidFile, 0, 0)) {
      if (await running(pid)) Deno.kill(pid, "SIGKILL");
    }
    await Deno.remove(dir, { recursive: true });
  }
}

async function assertGone(pids: number[]): Promise<void> {
  for (const pid of pids) assert.equal(await running(pid), false, `process ${pid} survived`);
}

function stoppedLine(out: string): string {
  return /^! shutdown +(.*)$/m.exec(out)?.[1] ?? `(no shutdown warning in)\n${out}`;
}

for (
  const [shape, flag] of [
    ["a grandchild in its group", "--grandchild"],
    ["a grandchild that left its group", "--escape"],
  ] as const
) {
  Deno.test({
    name: `toolscore doctor stops ${shape} after a normal run and names it`,
    ignore,
    async fn() {
      await withPidFile(async (pidFile) => {
        const server = badServer([flag, "--pid-file", pidFile], { writable: pidFile });
        const { code, out } = await doctorProcess([...README_PERMISSIONS], [
          ...SHORT,
          "--",
          ...server.command,
        ]);
        const pids = await readPids(pidFile, 1);
        assert.equal(pids.length, 1);
        assert.equal(code, 0, out);
        assert.equal(
          stoppedLine(out),
          `stopped 1 process(es) the server left running: ${pids[0]} (/usr/bin/sleep 300)`,
        );
        await assertGone(pids);
      });
    },
  });
}

Deno.test({
  name: "toolscore doctor stops a hung server and both grandchildren on a timeout",
  ignore,
  async fn() {
    await withPidFile(async (pidFile) => {
      const server = badServer(["--grandchild", "--escape", "--hang", "--pid-file", pidFile], {
        writable: pidFile,
      });
      const { code, out } = await doctorProcess([...README_PERMISSIONS], [
        ...SHORT,
        "--timeout",
        "1",
        "--",
        ...server.command,
      ]);
      const pids = await readPids(pidFile, 2);
      assert.equal(code, 1);
      assert.match(out, /✗ server-start +no answer to initialize within 1 s/);
      assert.match(
        stoppedLine(out),
        new RegExp(
          `^stopped 2 process\\(es\\) the server left running: (${pids.join("|")}) .*, (${
            pids.join("|")
          }) `,
        ),
      );
      await assertGone(pids);
    });
  },
});

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  Deno.test({
    name: `toolscore doctor stops a hung server and what it started on ${signal}, and says so`,
    ignore,
    async fn() {
      await withPidFile(async (pidFile) => {
        const server = badServer(["--grandchild", "--escape", "--hang", "--pid-file", pidFile], {
          writable: pidFile,
        });
        const cli = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--no-prompt",
            ...README_PERMISSIONS,
            "cli.ts",
            "doctor",
            ...SHORT,
            "--timeout",
            "60",
            "--",
            ...server.command,
          ],
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        try {
          // The server writes the pids after the CLI listens for signals, before it hangs.
          const pids = await readPids(pidFile, 2);
          assert.equal(pids.length, 2);
          await new Promise((resolve) => setTimeout(resolve, 300));
          cli.kill(signal);
          const output = await cli.output();
          const err = new TextDecoder().decode(output.stderr);
          assert.equal(output.code, code, err);
          assert.match(
            err,
            new RegExp(`^doctor: interrupted by ${signal}\\ndoctor: stopped the server \\d+ \\(`),
          );
          assert.match(err, /doctor: stopped 2 process\(es\) the server left running: /);
          for (const pid of pids) {
            assert.match(err, new RegExp(`\\b${pid} \\(/usr/bin/sleep 300\\)`));
          }
          await assertGone(pids);
        } finally {
          try {
            cli.kill("SIGKILL");
          } catch {
            // Ended.
          }
        }
      });
    },
  });
}

Deno.test({
  name:
    "toolscore doctor under a narrowed --allow-run names each survivor with a command that stops it",
  ignore,
  async fn() {
    await withPidFile(async (pidFile) => {
      const server = badServer(["--grandchild", "--escape", "--pid-file", pidFile], {
        writable: pidFile,
      });
      const { out } = await doctorProcess(
        ["--allow-read", "--allow-env", `--allow-run=${Deno.execPath()},sh`],
        [...SHORT, "--", ...server.command],
      );
      const pids = await readPids(pidFile, 2);
      const line = stoppedLine(out);
      assert.match(line, /^2 process\(es\) it started still run: /);
      for (const pid of pids) assert.match(line, new RegExp(`\\b${pid} \\(/usr/bin/sleep 300\\)`));
      const fix =
        /^ {4}fix: (kill -9 [\d ]+); with --allow-run for every program, deno stops them itself$/m
          .exec(out)?.[1];
      assert.ok(fix, out);
      for (const pid of pids) assert.ok(await running(pid), `${pid} should have survived`);
      // The fix works (a plain `kill -- -PGID` does not reach the one that left the group).
      await new Deno.Command("sh", { args: ["-c", fix] }).output();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await assertGone(pids);
    });
  },
});

Deno.test({
  name:
    "toolscore doctor that may not even look warns that the sweep is partial (--fail-on-warn fails)",
  ignore,
  async fn() {
    await withPidFile(async (pidFile) => {
      const server = badServer(["--escape", "--pid-file", pidFile], { writable: pidFile });
      const { code, out } = await doctorProcess(
        ["--allow-read", "--allow-env", `--allow-run=${Deno.execPath()}`],
        ["--fail-on-warn", ...SHORT, "--", ...server.command],
      );
      assert.equal(code, 1, out);
      const pids = await readPids(pidFile, 1);
      const skip = /^! shutdown +(.*)$/m.exec(out)?.[1] ?? out;
      assert.match(
        skip,
        /^could not look for processes the server started, so the sweep is partial \(deno may neither run sh nor read \/proc; --allow-run without a list lets it\); to look: grep -lzxsF 'TOOLSCORE_MCP_RUN=[\w-]+' \/proc\/\[0-9\]\*\/environ$/,
      );
      assert.ok(await running(pids[0]!));
      const look = /to look: (.*)$/.exec(skip)![1]!;
      await new Deno.Command("sh", { args: ["-c", `${look} | cut -d/ -f3 | xargs -r kill -9`] })
        .output();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await assertGone(pids);
    });
  },
});

Deno.test({
  name: "toolscore doctor interrupted under a narrowed --allow-run names the survivors on stderr",
  ignore,
  async fn() {
    await withPidFile(async (pidFile) => {
      const server = badServer(["--escape", "--hang", "--pid-file", pidFile], {
        writable: pidFile,
      });
      const cli = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--no-prompt",
          "--allow-read",
          "--allow-env",
          `--allow-run=${Deno.execPath()},sh`,
          "cli.ts",
          "doctor",
          ...SHORT,
          "--timeout",
          "60",
          "--",
          ...server.command,
        ],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const pids = await readPids(pidFile, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      cli.kill("SIGINT");
      const output = await cli.output();
      const err = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 130);
      assert.match(
        err,
        new RegExp(
          `doctor: 1 process\\(es\\) it started still run: ${pids[0]} \\(/usr/bin/sleep 300\\)`,
        ),
      );
      assert.match(err, new RegExp(`doctor: to stop them: kill -9 ${pids[0]}; `));
      assert.ok(await running(pids[0]!));
    });
  },
});
