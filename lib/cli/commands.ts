/**
 * The command table. Each command's module is imported only when that
 * command runs, so `toolscore --version` stays fast.
 *
 * @module
 */

import type { Command } from "./command.ts";

/** One entry of the command table. */
export interface CommandEntry {
  /** One line for the command list. */
  summary: string;
  /** Load the command's module. */
  load(): Promise<Command>;
}

/** Every command, in the order `toolscore --help` lists them. */
export const COMMANDS: Record<string, CommandEntry> = {
};
