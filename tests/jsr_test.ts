// What JSR shows a user: every public symbol described, every function and class with an
// example (`deno test --doc` runs the examples; `.ci/run` runs `deno publish --dry-run`).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runDeno } from "./_cli.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

interface DocSymbol {
  name: string;
  declarations: { kind: string; jsDoc?: { doc?: string; tags?: { kind: string }[] } }[];
}

for (const entry of ["mod.ts", "cli.ts"]) {
  Deno.test(`every public symbol of ${entry} has a description, and each function and class an example`, async () => {
    const { code, out, err } = await runDeno(["doc", "--json", `${root}${entry}`], { cwd: root });
    assert.equal(code, 0, err);
    const nodes = JSON.parse(out).nodes as Record<string, { symbols: DocSymbol[] }>;
    const symbols = nodes[new URL(`../${entry}`, import.meta.url).href]!.symbols;
    assert.ok(symbols.length > 0);
    const undescribed: string[] = [];
    const withoutExample: string[] = [];
    for (const symbol of symbols) {
      for (const declaration of symbol.declarations) {
        if (!declaration.jsDoc?.doc?.trim()) undescribed.push(symbol.name);
        const examples = (declaration.jsDoc?.tags ?? []).filter((tag) => tag.kind === "example");
        if (["function", "class"].includes(declaration.kind) && examples.length === 0) {
          withoutExample.push(symbol.name);
        }
      }
    }
    assert.deepEqual({ undescribed, withoutExample }, { undescribed: [], withoutExample: [] });
  });
}
