// Open HTML reports in Debian's headless Chromium through tests/_browser.mjs (playwright-core
// under Node). Returns undefined, after one skip line from tests/_deps.ts, when chromium, node
// or playwright-core is not installed.
import { fileURLToPath as fromFileUrl } from "node:url";
import { npmPackage, systemBin } from "./_deps.ts";

/** What to do on one page. */
export interface BrowserPage {
  file: string;
  filter?: boolean;
  sort?: boolean;
  keyboard?: boolean;
  contrast?: boolean;
  screenshot?: string;
  fullPage?: boolean;
  colorScheme?: "light" | "dark";
}

/** What the browser saw on one page. */
export interface BrowserResult {
  file: string;
  loadMs: number;
  consoleErrors: string[];
  otherRequests: string[];
  text: string;
  rowsBefore?: number;
  rowsAfter?: number;
  filterStatus?: string;
  passSectionsVisible?: number;
  sortedScores?: number[];
  filterReachedByTab?: boolean;
  filterToggledByKey?: boolean;
  contrast?: Record<"light" | "dark", { ratio: number; text: string; tag?: string }>;
  screenshot?: string;
}

/** Whether the browser test can run here (prints the skip reason once when not). */
export function browserAvailable(): boolean {
  return systemBin("/usr/bin/chromium") !== undefined && systemBin("/usr/bin/node") !== undefined &&
    npmPackage("playwright-core") !== undefined;
}

/** Open the pages; throws with the driver's stderr when it fails. */
export async function openInBrowser(
  pages: BrowserPage[],
  outDir: string,
): Promise<BrowserResult[]> {
  const driver = fromFileUrl(new URL("./_browser.mjs", import.meta.url));
  const output = await new Deno.Command("/usr/bin/node", {
    args: [driver, npmPackage("playwright-core")!, JSON.stringify({ pages, outDir })],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (output.code !== 0) throw new Error(`browser driver failed: ${text(output.stderr)}`);
  return JSON.parse(text(output.stdout));
}
