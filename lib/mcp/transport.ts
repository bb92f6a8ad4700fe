/**
 * An MCP stdio transport over `Deno.Command`, for the official SDK's
 * `Client`: newline-delimited JSON-RPC on the child's stdin and stdout, its
 * stderr kept (the last lines) for error messages, and a shutdown that always
 * kills and reaps the child and its process group. Once the child has
 * exited, what it started gets a grace (`shutdownGraceMs`, 1.5 s) to exit by
 * itself — a watchdog that follows its server out is no leftover — before
 * what is left (by marker, process group or session) is stopped and named;
 * after `kill()` (a timeout, Ctrl-C) there is no grace.
 *
 * The SDK's own stdio transport is not used: it needs `--allow-env` for
 * variables we do not otherwise read, and passes a fixed environment that
 * drops `DENO_DIR` and the CA variables (a Deno or Node server then hangs).
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { findMarkedProcesses, killProcesses, MARKER_VARIABLE } from "./process_sweep.ts";
import type { LeftBehind, MarkedProcess } from "./server_error.ts";
import { groupKill, signalGroup, within } from "./process_group.ts";
import { clip, lineTooLong, readLines, STDERR_LINE_BYTES } from "./line_splitter.ts";
import { maxMessageBytes } from "../base/read_limits.ts";

/** Options for {@linkcode DenoCommandTransport}. */
export interface DenoCommandTransportOptions {
  /**
   * The arguments after the executable.
   * @default {[]}
   */
  args?: string[];
  /**
   * The child's complete environment (nothing of ours is inherited).
   * @default {{}}
   */
  env?: Record<string, string>;
  /**
   * The working directory.
   * @default {undefined} (ours)
   */
  cwd?: string;
  /**
   * How many of the last stderr lines to keep (the first 20 are kept too).
   * @default {40}
   */
  stderrLines?: number;
  /**
   * Milliseconds to wait after closing stdin, then after SIGTERM, before the next step.
   * @default {1500}
   */
  killGraceMs?: number;
  /**
   * Milliseconds to let what the server started exit by itself once the server has
   * exited (a watchdog that follows it), before it is stopped and named as left behind.
   * @default {1500}
   */
  shutdownGraceMs?: number;
}

/** How the child ended. */
export interface ChildExit {
  /** The exit code (128 + signal when killed by a signal on Unix). */
  code: number;
  /** The signal that ended it, if any. */
  signal: string | null;
}

// Every child still running, so that Ctrl-C (closeAllTransports) can kill them.
const LIVE = new Set<DenoCommandTransport>();

/**
 * The transport. Give it to `Client.connect()`; `close()` always ends the
 * child: stdin is closed, then SIGTERM, then SIGKILL, each after a grace
 * period, and the exit status is awaited.
 *
 * @example Usage
 * ```ts ignore
 * import { Client } from "@modelcontextprotocol/sdk/client";
 * import { DenoCommandTransport } from "./transport.ts";
 *
 * const transport = new DenoCommandTransport("deno", { args: ["run", "server.ts"] });
 * const client = new Client({ name: "me", version: "1.0.0" });
 * await client.connect(transport, { timeout: 10_000 });
 * console.log((await client.listTools()).tools.map((tool) => tool.name));
 * await client.close();
 * ```
 */
export class DenoCommandTransport implements Transport {
  /** Called once, when the child exits or the transport is closed. */
  onclose?: () => void;
  /** Called on a line that is not JSON-RPC, or a write error. */
  onerror?: (error: Error) => void;
  /** Called with each JSON-RPC message the child writes. */
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  #pumps: Promise<void>[] = [];
  #stderr: string[] = [];
  #stderrHead: string[] = [];
  #stderrCount = 0;
  #noise: string[] = [];
  #noiseCount = 0;
  #oversized: string | undefined;
  #unfinished = 0;
  #marker = `${MARKER_VARIABLE}=${crypto.randomUUID()}`;
  #exit?: ChildExit;
  #leftBehind: LeftBehind | null = null;
  #status?: Promise<void>;
  #closed = false;
  #closedNotified = false;
  #closing?: Promise<void>;
  #protocolVersion?: string;
  #sent: string[] = [];
  #hurry = Promise.withResolvers<void>();
  #hurried = false;

  /**
   * Prepare a transport; nothing starts until `start()`.
   *
   * @param command The executable (a name looked up on the child's `PATH`, or a path).
   * @param options Arguments, environment, working directory and shutdown timing.
   */
  constructor(readonly command: string, readonly options: DenoCommandTransportOptions = {}) {}

  /** The child's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.#exit;
  }

  /**
   * What closing found of the processes the child started (stopped or still
   * running), or `null` when it found none and nothing held its output open.
   */
  get leftBehind(): LeftBehind | null {
    return this.#leftBehind;
  }

  /** The marker entry (`TOOLSCORE_MCP_RUN=<id>`) in the child's environment. */
  get marker(): string {
    return this.#marker;
  }

  /** The protocol version the client negotiated, once initialized. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** The methods of every request and notification sent, in order. */
  get sentMethods(): readonly string[] {
    return this.#sent;
  }

  /**
   * What the child wrote to stderr: the first 20 lines and the last
   * `stderrLines`, with one `… (N lines left out)` line between when it wrote more.
   */
  get stderrTail(): readonly string[] {
    const left = this.#stderrCount - this.#stderrHead.length - this.#stderr.length;
    return [
      ...this.#stderrHead,
      ...(left > 0 ? [`… (${left} lines left out)`] : []),
      ...this.#stderr,
    ];
  }

  /** Why the server was stopped for a line past the message limit, if it was. */
  get oversized(): string | undefined {
    return this.#oversized;
  }

  /** The characters of a last stdout line that had no newline when reading ended (0: none). */
  get unfinishedLine(): number {
    return this.#unfinished;
  }

  /** The first lines on stdout that were not JSON-RPC (a banner, or a server logging to stdout). */
  get stdoutNoise(): readonly string[] {
    return this.#noise;
  }

  /** How many lines on stdout were not JSON-RPC. */
  get stdoutNoiseCount(): number {
    return this.#noiseCount;
  }

  /**
   * Spawn the child.
   *
   * @returns When it is spawned.
   * @throws {Deno.errors.NotFound} When the executable does not exist.
   * @throws {Deno.errors.NotCapable} Without `--allow-run` for it.
   */
  start(): Promise<void> {
    if (this.#child) throw new Error("DenoCommandTransport already started");
    const child = new Deno.Command(this.command, {
      args: this.options.args ?? [],
      // The marker lets close() find what the child started, even outside its process group.
      env: {
        ...this.options.env,
        [MARKER_VARIABLE]: this.#marker.slice(MARKER_VARIABLE.length + 1),
      },
      clearEnv: true,
      cwd: this.options.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: Deno.build.os !== "windows",
    }).spawn();
    this.#child = child;
    LIVE.add(this);
    this.#writer = child.stdin.getWriter();
    this.#writer.closed.catch(() => {}); // a dead child's stdin: reported through send()
    const stdout = child.stdout.getReader();
    const stderr = child.stderr.getReader();
    this.#readers.push(stdout, stderr);
    this.#pumps.push(
      this.#readLines(stdout, (line) => this.#onStdoutLine(line), true),
      this.#readLines(stderr, (line) => this.#keepStderr(line), false),
    );
    this.#status = child.status.then((status) => {
      this.#exit = { code: status.code, signal: status.signal };
      // Still listed until closed: what it started may outlive it (closeAllTransports stops that).
      this.#finish();
    });
    return Promise.resolve();
  }

  /**
   * Write one message as a line of JSON.
   *
   * @param message The JSON-RPC message.
   * @returns When it is written.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("the server is not running");
    if ("method" in message) this.#sent.push(message.method);
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /**
   * Record the protocol version (the client calls this after `initialize`).
   *
   * @param version The negotiated version.
   */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /**
   * End the child: close its stdin, wait, SIGTERM its process group, wait,
   * SIGKILL; then await its exit and the end of its output. Safe to call
   * more than once.
   *
   * @returns When the child is reaped.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /**
   * Like `close()`, but skip the polite wait after closing stdin: for a child
   * that is known to be stuck (a timeout) or on Ctrl-C. Also hurries a
   * `close()` already under way.
   *
   * @returns When the child is reaped.
   */
  kill(): Promise<void> {
    this.#hurried = true; // and no grace for what it started
    this.#hurry.resolve();
    return this.close();
  }

  /**
   * Wait a little for the child to exit on its own.
   *
   * @param ms Milliseconds to wait at most.
   * @returns Whether it has exited.
   */
  async waitForExit(ms: number): Promise<boolean> {
    if (this.#exit !== undefined) return true;
    if (!this.#status) return false;
    return await within(this.#status, ms);
  }

  async #shutDown(): Promise<void> {
    const child = this.#child;
    const status = this.#status;
    if (!child || !status) {
      this.#finish();
      return;
    }
    const grace = this.options.killGraceMs ?? 1500;
    const unix = Deno.build.os !== "windows";
    let signalled = true;
    const seen = new Map<number, MarkedProcess>();
    let looked = unix;
    // What runs now that the server started: by its marker, its process group and its session.
    const current = async (): Promise<MarkedProcess[]> => {
      if (!unix || !looked) return [];
      const found = await findMarkedProcesses(this.#marker, child.pid);
      if (found === null) looked = false;
      return (found ?? []).filter((process) => process.pid !== child.pid);
    };
    const look = async () => {
      for (const process of await current()) seen.set(process.pid, process);
    };
    // Closing stdin waits for pending writes; a child that stopped reading must not block us.
    if (this.#writer) await within(this.#writer.close(), Math.min(grace, 500));
    if (this.#exit === undefined) {
      // Polite first: an MCP server exits when its stdin closes.
      const exited = await within(Promise.race([status, this.#hurry.promise]), grace) &&
        this.#exit !== undefined;
      if (!exited) {
        await look(); // what the group signal is about to stop, so that it can be named
        signalled = groupKill(child, "SIGTERM");
        if (!(await within(status, grace))) signalled = groupKill(child, "SIGKILL") && signalled;
      }
    }
    await status;
    // A helper may exit by itself shortly after the server: look again until none is left or
    // the grace is over; only what outlives it is stopped and named.
    const until = performance.now() + (this.options.shutdownGraceMs ?? 1500);
    let left = await current();
    while (left.length > 0 && !this.#hurried && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, until - performance.now())));
      left = await current();
    }
    for (const process of left) seen.set(process.pid, process);
    signalled = signalGroup(child, "SIGKILL") && signalled; // leftovers of the group, if any
    const stopped = [...seen.values()];
    if (stopped.length > 0) signalled = killProcesses(stopped) && signalled;
    let survivors: MarkedProcess[] = [];
    if (looked && stopped.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      survivors = await current();
    }
    // Something that outlived the child (or escaped its group) may still hold the pipes open.
    const pipesHeld = !(await within(Promise.all(this.#pumps), survivors.length > 0 ? 100 : 500));
    if (pipesHeld) {
      await Promise.all(this.#readers.map((reader) => reader.cancel().catch(() => {})));
      await Promise.all(this.#pumps);
    }
    if (stopped.length > 0 || survivors.length > 0 || pipesHeld || (unix && !looked)) {
      const alive = new Set(survivors.map((p) => p.pid));
      this.#leftBehind = {
        group: child.pid,
        signalled,
        stopped: stopped.filter((p) => !alive.has(p.pid)),
        survivors,
        looked,
        pipesHeld,
        marker: this.#marker,
      };
    }
    this.#finish();
  }

  #finish(): void {
    if (this.#closing === undefined && this.#exit !== undefined) {
      // Exited on its own: onclose now, and close() still sweeps what it started.
      if (!this.#closedNotified) {
        this.#closedNotified = true;
        this.onclose?.();
      }
      return;
    }
    LIVE.delete(this);
    if (this.#closed) return;
    this.#closed = true;
    if (this.#closedNotified) return;
    this.#closedNotified = true;
    this.onclose?.();
  }

  #keep(lines: string[], line: string): void {
    lines.push(clip(line));
    const max = this.options.stderrLines ?? 40;
    if (lines.length > max) lines.splice(0, lines.length - max);
  }

  #keepStderr(line: string): void {
    this.#stderrCount++;
    if (this.#stderrHead.length < 20) this.#stderrHead.push(clip(line));
    else this.#keep(this.#stderr, line);
  }

  #onStdoutLine(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.#noiseCount++;
      if (this.#noise.length < 20) this.#noise.push(clip(line));
      // JSON-RPC pretty-printed over several lines can never be read: stop now, not at a timeout.
      if (
        /^\s*"jsonrpc"\s*:\s*"2\.0"\s*,?\s*$/.test(line) &&
        this.#noise.some((text) => /^\s*\{\s*$/.test(text))
      ) {
        void this.kill();
      }
      this.onerror?.(
        new Error(`not a JSON-RPC line on stdout: ${line.slice(0, 200)}`, { cause: error }),
      );
      return;
    }
    this.onmessage?.(message);
  }

  async #readLines(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    onLine: (line: string) => void,
    stdout: boolean,
  ): Promise<void> {
    const limit = stdout ? maxMessageBytes() : STDERR_LINE_BYTES;
    const unfinished = await readLines(reader, limit, onLine, () => {
      if (!stdout || this.#oversized !== undefined) return;
      this.#oversized = lineTooLong(limit);
      this.onerror?.(new Error(this.#oversized));
      void this.kill();
    });
    // Cut off before its newline (a timeout, an exit): unfinished, not "non-JSON" (issue 42).
    if (unfinished !== undefined && stdout) this.#unfinished = unfinished.length;
    else if (unfinished !== undefined) onLine(unfinished);
  }
}

/** What stopping one server on an interrupt found. */
export interface StoppedServer {
  /** The server's command. */
  command: string;
  /** Its process id. */
  pid: number;
  /** What it left behind, if anything. */
  leftBehind: LeftBehind | null;
}

/**
 * Kill every child a {@linkcode DenoCommandTransport} started that is still
 * running, with what each started (for Ctrl-C), and wait until they are reaped.
 *
 * @returns One entry per server that was running.
 *
 * @example Usage
 * ```ts ignore
 * import { stopAllServers } from "./transport.ts";
 *
 * Deno.addSignalListener("SIGINT", async () => {
 *   for (const { command, leftBehind } of await stopAllServers()) console.error(command, leftBehind);
 *   Deno.exit(130);
 * });
 * ```
 */
export async function stopAllServers(): Promise<StoppedServer[]> {
  const live = [...LIVE];
  await Promise.all(live.map((transport) => transport.kill()));
  return live.map((transport) => ({
    command: transport.command,
    pid: transport.pid ?? 0,
    leftBehind: transport.leftBehind,
  }));
}

/**
 * Kill every child a {@linkcode DenoCommandTransport} started that is still
 * running (for Ctrl-C), and wait until they are reaped.
 *
 * @returns How many were running.
 *
 * @example Usage
 * ```ts ignore
 * import { closeAllTransports } from "./transport.ts";
 *
 * Deno.addSignalListener("SIGINT", async () => {
 *   await closeAllTransports();
 *   Deno.exit(130);
 * });
 * ```
 */
export async function closeAllTransports(): Promise<number> {
  return (await stopAllServers()).length;
}
