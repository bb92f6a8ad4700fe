// Opens HTML reports from disk in Debian's headless Chromium, driven by playwright-core, and
// prints what it saw as one JSON document. Run by tests/report_html_test.ts and
// scripts/bench_html_report.ts as a Node subprocess:
//   node tests/_browser.mjs PLAYWRIGHT_CORE_DIR '{"pages": [...], "outDir": "..."}'
// Each page: {file, filter?, sort?, keyboard?, contrast?, screenshot?: "name.png", fullPage?,
// colorScheme?: "light" | "dark" (for the screenshot)}.
// For each page: console errors and page errors, every request other than the page's own
// file:// URL, the load time (navigation start to the load event, from the page's own
// Performance timeline), the page's text, the visible table rows before and after the
// failing-traces filter, and whether the filter is reachable with the Tab key.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [playwrightDir, spec] = process.argv.slice(2);
const { pages, outDir } = JSON.parse(spec);
const { chromium } = await import(pathToFileURL(join(playwrightDir, "index.mjs")).href);

const profile = mkdtempSync(join(tmpdir(), "toolscore-chromium-"));
// A fresh profile: launchPersistentContext passes it as --user-data-dir.
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  viewport: { width: 1280, height: 900 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

const visibleRows = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("#summary-table tbody tr")].filter((row) =>
      row.offsetParent !== null
    )
      .length
  );

// The lowest text contrast on the page (WCAG 2 ratio): every element with its own text, its
// colour (or an SVG text's fill) against the first opaque background up its ancestors.
function worstContrast() {
  const rgb = (text) => {
    const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(text);
    return m
      ? { c: [Number(m[1]), Number(m[2]), Number(m[3])], a: m[4] === undefined ? 1 : Number(m[4]) }
      : null;
  };
  const luminance = ([r, g, b]) => {
    const f = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const bg = rgb(getComputedStyle(node).backgroundColor);
      if (bg && bg.a > 0.5) return bg.c;
    }
    return [255, 255, 255];
  };
  let worst = { ratio: Infinity, text: "" };
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "");
    // SVG <title> is a tooltip, never drawn.
    if (!own || el.tagName.toLowerCase() === "title") continue;
    if (el.offsetParent === null && !(el instanceof SVGElement)) continue;
    const style = getComputedStyle(el);
    const fg = rgb(el instanceof SVGElement ? style.fill : style.color);
    if (!fg) continue;
    const [a, b] = [luminance(fg.c), luminance(background(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < worst.ratio) {
      worst = { ratio, text: el.textContent.trim().slice(0, 60), tag: el.tagName };
    }
  }
  return worst;
}

const results = [];
try {
  for (const item of pages) {
    const url = pathToFileURL(item.file).href;
    const page = await browser.newPage();
    const consoleErrors = [];
    const otherRequests = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    page.on("request", (request) => {
      if (request.url() !== url) otherRequests.push(request.url());
    });
    await page.goto(url, { waitUntil: "load" });
    const loadMs = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      return nav.loadEventEnd - nav.startTime;
    });
    const result = {
      file: item.file,
      loadMs,
      consoleErrors,
      otherRequests,
      text: await page.evaluate(() => document.body.innerText),
    };
    if (item.filter) {
      result.rowsBefore = await visibleRows(page);
      await page.click("#only-failing");
      result.rowsAfter = await visibleRows(page);
      result.filterStatus = await page.textContent("#filter-status");
      result.passSectionsVisible = await page.evaluate(() =>
        [...document.querySelectorAll("details.trace.is-pass")].filter((s) =>
          s.offsetParent !== null
        )
          .length
      );
    }
    if (item.sort) {
      await page.click("#summary-table thead th:nth-child(2) button");
      result.sortedScores = await page.evaluate(() =>
        [...document.querySelectorAll("#summary-table tbody tr")].map((row) =>
          Number(row.cells[1].dataset.v)
        )
      );
    }
    if (item.keyboard) {
      // Tab from the top of the page until the filter has the focus (bounded), then Space.
      await page.evaluate(() => document.activeElement?.blur());
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = await page.evaluate(() => document.activeElement?.id === "only-failing");
      }
      result.filterReachedByTab = reached;
      if (reached) {
        const before = await page.isChecked("#only-failing");
        await page.keyboard.press("Space");
        result.filterToggledByKey = (await page.isChecked("#only-failing")) !== before;
      }
    }
    if (item.contrast) {
      result.contrast = {};
      for (const scheme of ["light", "dark"]) {
        await page.emulateMedia({ colorScheme: scheme });
        result.contrast[scheme] = await page.evaluate(worstContrast);
      }
      await page.emulateMedia({ colorScheme: "light" });
    }
    if (item.screenshot) {
      if (item.colorScheme) await page.emulateMedia({ colorScheme: item.colorScheme });
      const path = join(outDir, item.screenshot);
      await page.screenshot({ path, fullPage: item.fullPage ?? false });
      result.screenshot = path;
    }
    results.push(result);
    await page.close();
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(results));
