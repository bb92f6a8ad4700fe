/**
 * Agreement with BFCL's own checker: every vector of testdata/bfcl/vectors/
 * (BFCL's verdict on a generated output, written by
 * scripts/bfcl_agreement.py from gorilla's ast_checker) must get the same
 * verdict — valid or not, and the same `error_type` — from the contracts
 * `contractsFromBfcl` imports from the same question and answer lines.
 *
 * @module
 */

import { equal } from "node:assert/strict";
import { contractsFromBfcl } from "../lib/benchmarks/bfcl_import.ts";
import { contractFromMapping } from "../lib/contract/parse.ts";
import { evaluateContract } from "../lib/evaluate/evaluate_contract.ts";
import { parseJsonLossless } from "../lib/base/lossless_json.ts";
import type { Contract } from "../lib/contract/model.ts";
import type { ToolCall } from "../lib/scoring/calls.ts";

const DIR = new URL("../testdata/bfcl/", import.meta.url);
const manifest = JSON.parse(await Deno.readTextFile(new URL("vectors/manifest.json", DIR))) as {
  gorilla_commit: string;
  categories: Record<string, { vectors: number }>;
};

interface Vector {
  id: string;
  kind: string;
  model: string;
  underscore_to_dot: boolean;
  output: unknown;
  valid: boolean | null;
  error_type: string | null;
}

// BFCL's decoded output as calls: `[{name: {param: value}}, …]`; anything else (`[{}]`, text)
// is no call, as `is_empty_output` says (the vectors give AST categories call-format outputs).
function callsOf(output: unknown): ToolCall[] {
  if (!Array.isArray(output)) return [];
  const calls: ToolCall[] = [];
  for (const item of output) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return [];
    const keys = Object.keys(item);
    if (keys.length !== 1) return [];
    const args = (item as Record<string, unknown>)[keys[0]!];
    if (typeof args !== "object" || args === null || Array.isArray(args)) return [];
    calls.push({ tool: keys[0]!, args: args as Record<string, unknown> });
  }
  return calls;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(new URL(path, DIR));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

const figures: string[] = [];

for (const category of Object.keys(manifest.categories)) {
  Deno.test(`contractsFromBfcl() agrees with BFCL's checker on every ${category} vector`, async () => {
    const name = `BFCL_v4_${category}.json`;
    const questions = (await readText(`data/${name}`))!;
    const answers = await readText(`data/possible_answer/${name}`);
    const contracts = new Map<string, Contract>();
    for (const underscoreToDot of [false, true]) {
      for (const entry of contractsFromBfcl(questions, answers, { underscoreToDot })) {
        // Through the file, as eval reads it: a plain JSON.parse ($floats keeps int versus float).
        const file = JSON.parse(JSON.stringify(entry.contract));
        contracts.set(`${entry.id}\u0000${underscoreToDot}`, contractFromMapping(file));
      }
    }
    const lines = (await readText(`vectors/${category}.jsonl`))!.split("\n").filter(Boolean);
    let agreed = 0;
    let total = 0;
    let raises = 0;
    const disagreements: string[] = [];
    for (const line of lines) {
      const vector = parseJsonLossless(line, { keep: "float-text" }) as Vector;
      if (vector.valid === null) {
        raises++;
        continue;
      }
      total++;
      const contract = contracts.get(`${vector.id}\u0000${vector.underscore_to_dot}`)!;
      const result = evaluateContract(contract, callsOf(vector.output));
      const bfcl = result.metrics.bfcl as { valid: boolean; error_type?: string };
      const passed = result.passed(contract.minScore);
      const errorType = bfcl.valid ? null : bfcl.error_type ?? null;
      if (
        passed === vector.valid && bfcl.valid === vector.valid && errorType === vector.error_type
      ) {
        agreed++;
      } else if (disagreements.length < 10) {
        disagreements.push(
          `${vector.id} ${vector.kind} ${vector.model}: BFCL ${vector.valid} ${vector.error_type}, ` +
            `toolscore ${passed} ${errorType} ${JSON.stringify(vector.output).slice(0, 300)}`,
        );
      }
    }
    const figure = `${category}: ${agreed}/${total} vectors agree` +
      (raises > 0 ? ` (${raises} where BFCL's checker raises, left out)` : "");
    figures.push(figure);
    console.log(`BFCL agreement (gorilla ${manifest.gorilla_commit.slice(0, 12)}) ${figure}`);
    equal(disagreements.join("\n"), "");
    equal(agreed, total);
  });
}
