/**
 * Issue 44, "Must show": τ²-bench tasks imported as contracts grade every
 * simulation of real τ² results files as τ²'s own evaluator recorded. For
 * each simulation, toolscore's per-action matches (`metrics.matching`) equal
 * every recorded `reward_info.action_checks[].action_match`, in order and by
 * action id; and for the tasks whose `reward_basis` is `["ACTION"]`, `passed`
 * equals the recorded reward. The figures are printed.
 *
 * @module
 */

import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import { contractsFromTau2, evaluateContract } from "../mod.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import type { MatchingBlock } from "../lib/evaluate/matching_metrics.ts";
import type { JsonObject } from "../lib/scoring/calls.ts";

/** A results file and the task file of its domain. */
const PAIRS = [
  {
    results: "testdata/formats/real/tau2-bench-fishtrader-action-only.json",
    tasks: "testdata/tau2/fishtrader_garbich.tasks.json",
  },
  {
    results: "testdata/formats/real/tau2-bench-healthcare-action-env.json",
    tasks: "testdata/tau2/healthcare_macalupu.tasks.json",
  },
  {
    results: "testdata/formats/real/tau2-bench-restaurant-dual-control.json",
    tasks: "testdata/tau2/restaurante_joaquin_cachay.tasks.json",
  },
];

interface Simulation {
  task_id: string;
  trial?: number;
  termination_reason?: string;
  reward_info: {
    reward: number;
    reward_basis?: string[] | null;
    action_checks?: { action: { action_id: string }; action_match: boolean }[] | null;
  };
}

interface Figures {
  simulations: number;
  checks: number;
  agreed: number;
  unmatched: number;
  actionOnly: number;
  rewardAgreed: number;
  actionOnlyFailed: number;
}

// Grade every simulation of one results file with the contracts of its tasks file, asserting
// agreement with τ²'s recorded checks, and count what was compared.
function agreement(pair: { results: string; tasks: string }): Figures {
  const contracts = new Map(
    contractsFromTau2(JSON.parse(Deno.readTextFileSync(pair.tasks))).map((c) => [c.id, c]),
  );
  const text = Deno.readTextFileSync(pair.results);
  const simulations = (JSON.parse(text) as { simulations: Simulation[] }).simulations;
  const traces = tracesFromText(text, pair.results);
  assert.equal(traces.length, simulations.length);
  const figures: Figures = {
    simulations: simulations.length,
    checks: 0,
    agreed: 0,
    unmatched: 0,
    actionOnly: 0,
    rewardAgreed: 0,
    actionOnlyFailed: 0,
  };
  simulations.forEach((sim, i) => {
    const trace = traces[i]!;
    assert.equal(trace.run?.task, sim.task_id, "the run names its task");
    const imported = contracts.get(sim.task_id);
    assert.ok(imported, `no contract for task ${sim.task_id}`);
    const result = evaluateContract(imported.contract, trace);
    const block = result.metrics.matching as MatchingBlock;
    const recorded = sim.reward_info.action_checks ?? [];
    const required = imported.contract.required as JsonObject[];
    assert.equal(block.matches.length, recorded.length, `${sim.task_id}: one match per action`);
    recorded.forEach((check, k) => {
      figures.checks++;
      const metadata = required[k]!.metadata as { action_id?: string };
      assert.equal(metadata.action_id, check.action.action_id, "actions in τ²'s order");
      const mine = block.matches[k]!.actual !== null;
      assert.equal(mine, check.action_match, `${sim.task_id} ${check.action.action_id}`);
      figures.agreed++;
      if (!check.action_match) figures.unmatched++;
    });
    const basis = sim.reward_info.reward_basis ?? [];
    if (basis.length === 1 && basis[0] === "ACTION") {
      figures.actionOnly++;
      assert.equal(block.note, undefined, "an ACTION-only verdict needs no note");
      assert.equal(result.passed(0.9), sim.reward_info.reward === 1, `${sim.task_id}: reward`);
      figures.rewardAgreed++;
      if (sim.reward_info.reward !== 1) figures.actionOnlyFailed++;
    } else {
      assert.match(block.note ?? "", /^action agreement only/, `${sim.task_id}: the note`);
    }
  });
  return figures;
}

for (const pair of PAIRS) {
  Deno.test(`contractsFromTau2() contracts agree with every τ² action check of ${pair.results}`, () => {
    const f = agreement(pair);
    console.log(
      `${pair.results}: ${f.simulations} simulations, ${f.agreed}/${f.checks} action_match agree, ` +
        `${f.rewardAgreed}/${f.actionOnly} ACTION-only rewards agree`,
    );
  });
}

Deno.test("the τ² agreement covers matched and unmatched actions and ACTION-only rewards", () => {
  const totals = PAIRS.map(agreement).reduce((sum, f) => {
    for (const key of Object.keys(sum) as (keyof Figures)[]) sum[key] += f[key];
    return sum;
  });
  assert.equal(totals.simulations, 40);
  assert.equal(totals.checks, 46);
  assert.equal(totals.agreed, totals.checks);
  assert.equal(totals.unmatched, 4);
  assert.equal(totals.actionOnly, 13);
  assert.equal(totals.rewardAgreed, totals.actionOnly);
  assert.equal(totals.actionOnlyFailed, 1);
  console.log(
    `τ² agreement: ${totals.simulations} simulations, ${totals.agreed}/${totals.checks} action checks ` +
      `agree (${totals.unmatched} unmatched), ${totals.rewardAgreed}/${totals.actionOnly} ACTION-only rewards ` +
      `(${totals.actionOnlyFailed} of them 0)`,
  );
});
