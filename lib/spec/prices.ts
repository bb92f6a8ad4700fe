/**
 * Model prices in USD per million tokens: the shipped table
 * (`data/prices.json`, a JSON module), overrides from an agent spec, and the
 * lookup rule — the exact model name first, then the longest table name the
 * model name extends with a snapshot suffix (a date such as `-2025-04-14`,
 * `-20250929` or `@20250929`, `-latest`, or an Ollama tag such as `:8b`).
 *
 * A model with no known price has an unknown cost: there is no fallback
 * price, and `gpt-5-pro` never borrows the price of `gpt-5`. That is why the
 * "longest prefix" rule is limited to snapshot suffixes: a bare prefix would
 * price `gpt-5-pro` ($15/$120) as `gpt-5` ($1.25/$10). A snapshot priced
 * unlike its alias is listed under its full name (`gpt-4o-2024-05-13`), and
 * the exact name always wins.
 *
 * @module
 */

import table from "../../data/prices.json" with { type: "json" };
import { describeJson, isJsonObject, joinPath } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";

/** The price of one model, USD per million tokens. */
export interface ModelPrice {
  /** Input (prompt) tokens. */
  inputPerMtok: number;
  /** Output (completion) tokens. */
  outputPerMtok: number;
}

/** Prices by model name. */
export type PriceTable = Record<string, ModelPrice>;

/** Where a price was found. */
export interface PriceMatch {
  /** The model asked about. */
  model: string;
  /** The table name that matched. */
  key: string;
  /** `exact`, or `prefix` for a dated snapshot or tag of `key`. */
  match: "exact" | "prefix";
  /** `spec` for an override, `default` for the shipped table. */
  source: "spec" | "default";
  /** The price. */
  price: ModelPrice;
}

/** Options for {@linkcode lookupPrice}. */
export interface LookupPriceOptions {
  /**
   * Prices that override the shipped table (an agent spec's `prices`).
   * @default {{}}
   */
  overrides?: PriceTable;
  /**
   * The shipped table.
   * @default {DEFAULT_PRICES}
   */
  defaults?: PriceTable;
}

/**
 * Read a price table in the file shape: `{model: {input_per_mtok, output_per_mtok}}`.
 *
 * @param value The parsed value.
 * @param path The JSON path, for errors.
 * @returns The table.
 * @throws {InputError} Naming the JSON path of a bad entry.
 *
 * @example Usage
 * ```ts
 * import { pricesFromJson } from "./prices.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pricesFromJson({ m: { input_per_mtok: 1, output_per_mtok: 2 } }), {
 *   m: { inputPerMtok: 1, outputPerMtok: 2 },
 * });
 * assert.throws(() => pricesFromJson({ m: { input_per_mtok: -1 } }), /prices\.m\.input_per_mtok/);
 * ```
 */
export function pricesFromJson(value: unknown, path = "prices"): PriceTable {
  if (!isJsonObject(value)) {
    throw new InputError(
      `expected {model: {input_per_mtok, output_per_mtok}}, got ${describeJson(value)}`,
      path,
    );
  }
  const out: PriceTable = {};
  for (const [model, entry] of Object.entries(value)) {
    const where = joinPath(path, model);
    if (!isJsonObject(entry)) {
      throw new InputError(
        `expected {input_per_mtok, output_per_mtok}, got ${describeJson(entry)}`,
        where,
      );
    }
    for (const key of Object.keys(entry)) {
      if (key !== "input_per_mtok" && key !== "output_per_mtok") {
        throw new InputError(
          "unknown key; the keys are input_per_mtok, output_per_mtok",
          joinPath(where, key),
        );
      }
    }
    const read = (key: string): number => {
      const number = entry[key];
      if (typeof number !== "number" || !Number.isFinite(number) || number < 0) {
        throw new InputError(
          `expected a price ≥ 0 in USD per million tokens, got ${describeJson(number)}`,
          joinPath(where, key),
        );
      }
      return number;
    };
    out[model] = { inputPerMtok: read("input_per_mtok"), outputPerMtok: read("output_per_mtok") };
  }
  return out;
}

/** The shipped price table (`data/prices.json`). */
export const DEFAULT_PRICES: Readonly<PriceTable> = Object.freeze(
  pricesFromJson(table.models, "data/prices.json: models"),
);

/** The date the shipped prices were last checked. */
export const PRICES_AS_OF: string = table.as_of;

// What may follow a table name for the model to count as that model: a dated snapshot, -latest, an Ollama tag.
const SNAPSHOT_SUFFIX = /^(?:[-@](?:\d{4}-?\d{2}-?\d{2}|latest)|:[\w.-]+)$/;

function findIn(model: string, prices: PriceTable): { key: string; exact: boolean } | undefined {
  if (Object.hasOwn(prices, model)) return { key: model, exact: true };
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if (
      key.length < model.length && model.startsWith(key) &&
      SNAPSHOT_SUFFIX.test(model.slice(key.length)) &&
      (best === undefined || key.length > best.length)
    ) {
      best = key;
    }
  }
  return best === undefined ? undefined : { key: best, exact: false };
}

/**
 * Find a model's price: the spec's overrides first (exact, then snapshot
 * prefix), then the shipped table (the same way). `null` when unknown — never
 * a borrowed price.
 *
 * @param model The model name as the provider takes it.
 * @param options Overrides and the table.
 * @returns Where the price came from, or `null`.
 *
 * @example Usage
 * ```ts
 * import { lookupPrice } from "./prices.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lookupPrice("gpt-4.1-mini-2025-04-14")?.key, "gpt-4.1-mini");
 * assert.equal(lookupPrice("gpt-5-pro"), null);
 * assert.equal(lookupPrice("llama3.1:8b", {
 *   overrides: { "llama3.1": { inputPerMtok: 0, outputPerMtok: 0 } },
 * })?.source, "spec");
 * ```
 */
export function lookupPrice(model: string, options: LookupPriceOptions = {}): PriceMatch | null {
  const sources: [PriceMatch["source"], PriceTable][] = [
    ["spec", options.overrides ?? {}],
    ["default", options.defaults ?? DEFAULT_PRICES],
  ];
  // An exact name anywhere beats a prefix anywhere.
  for (const exactOnly of [true, false]) {
    for (const [source, prices] of sources) {
      const found = findIn(model, prices);
      if (found && found.exact === exactOnly) {
        return {
          model,
          key: found.key,
          match: found.exact ? "exact" : "prefix",
          source,
          price: prices[found.key]!,
        };
      }
    }
  }
  return null;
}

/** Token counts of one run. */
export interface TokenCounts {
  /** Input (prompt) tokens. */
  inputTokens: number;
  /** Output (completion) tokens. */
  outputTokens: number;
}

/**
 * The cost of some tokens at a price.
 *
 * @param price The price (USD per million tokens).
 * @param tokens The token counts.
 * @returns USD.
 *
 * @example Usage
 * ```ts
 * import { costUsd } from "./prices.ts";
 * import assert from "node:assert/strict";
 *
 * const usd = costUsd({ inputPerMtok: 0.4, outputPerMtok: 1.6 }, { inputTokens: 20_000, outputTokens: 2_000 });
 * assert.ok(Math.abs(usd - 0.0112) < 1e-12);
 * ```
 */
export function costUsd(price: ModelPrice, tokens: TokenCounts): number {
  return (tokens.inputTokens * price.inputPerMtok + tokens.outputTokens * price.outputPerMtok) /
    1e6;
}
