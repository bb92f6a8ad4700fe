/**
 * The compact hashing behind the duplicate-row check: a streaming 64-bit
 * hash (two cyrb53-style lanes), the canonical fingerprint of a parsed row
 * (key order does not matter), and an open-addressing table of 64-bit keys
 * in typed arrays, so that an export of a million rows keeps some 50 MB of
 * index rather than a few hundred MB of strings in Maps.
 *
 * @module
 */

/** A 64-bit hash as two unsigned 32-bit halves. */
export type Hash64 = [number, number];

class Lanes {
  h1: number;
  h2: number;
  constructor(seed: number) {
    this.h1 = 0xdeadbeef ^ seed;
    this.h2 = 0x41c6ce57 ^ seed;
  }
  text(value: string): void {
    let { h1, h2 } = this;
    for (let i = 0; i < value.length; i++) {
      const ch = value.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
  code(value: number): void {
    this.h1 = Math.imul(this.h1 ^ value, 2654435761);
    this.h2 = Math.imul(this.h2 ^ value, 1597334677);
  }
  // A string with its length first (beyond any UTF-16 unit), so no two sequences feed alike.
  item(value: string): void {
    this.code(0x10000 + value.length);
    this.text(value);
  }
  done(): Hash64 {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return [h1 >>> 0, h2 >>> 0];
  }
}

function walk(lanes: Lanes, value: unknown, depth: number): void {
  // Type tags are codes past any UTF-16 unit and any length code.
  if (value === null) return lanes.code(-1);
  switch (typeof value) {
    case "boolean":
      return lanes.code(value ? -2 : -3);
    case "number":
      // As JSON.parse gives them: String() is the RFC 8785 form of a finite number.
      lanes.code(-4);
      return lanes.item(String(value));
    case "string":
      lanes.code(-5);
      return lanes.item(value);
    case "object":
      break;
    default:
      lanes.code(-6);
      return lanes.item(String(value));
  }
  if (depth > 256) return lanes.code(-7);
  if (Array.isArray(value)) {
    lanes.code(-8);
    for (const item of value) walk(lanes, item, depth + 1);
    return lanes.code(-9);
  }
  // An object's entries hashed one by one and summed: the sum does not depend on key order,
  // so no sort is needed (a row has about twenty keys, a million rows would sort them all).
  const record = value as Record<string, unknown>;
  let sum1 = 0;
  let sum2 = 0;
  let count = 0;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const entry = new Lanes(0x85ebca6b);
    entry.item(key);
    walk(entry, record[key], depth + 1);
    const [a, b] = entry.done();
    sum1 = (sum1 + a) >>> 0;
    sum2 = (sum2 + b) >>> 0;
    count++;
  }
  lanes.code(-10);
  lanes.code(count);
  lanes.code(sum1);
  lanes.code(sum2);
}

/**
 * The fingerprint of a parsed JSON value: equal for values equal as
 * canonical JSON (RFC 8785: key order does not matter), as 32 bits. It is
 * only compared between rows of one key, so two different rows of one run
 * pass for one with a chance of 2^-32.
 *
 * @param value A value parsed from JSON.
 * @returns An unsigned 32-bit number.
 */
export function fingerprint(value: unknown): number {
  const lanes = new Lanes(0);
  walk(lanes, value, 0);
  const [lo, hi] = lanes.done();
  return (lo ^ Math.imul(hi, 0x9e3779b1)) >>> 0;
}

/**
 * A 64-bit key of some strings.
 *
 * @param parts The strings.
 * @returns Two unsigned 32-bit words (the second never 0, which marks an empty slot).
 */
export function key64(...parts: string[]): Hash64 {
  const lanes = new Lanes(0);
  for (const part of parts) lanes.item(part);
  const [a, b] = lanes.done();
  return [a, (b | 1) >>> 0];
}

/**
 * An open-addressing table from 64-bit keys to a 32-bit value and a place
 * (file index, line), in typed arrays: 20 bytes a slot, at most 3/4 full.
 */
export class KeyTable {
  #capacity = 1024;
  #size = 0;
  #keys = new Uint32Array(2 * 1024);
  #values = new Uint32Array(1024);
  #files = new Uint32Array(1024);
  #lines = new Uint32Array(1024);

  #slot(hi: number, lo: number): number {
    const keys = this.#keys;
    let slot = hi % this.#capacity;
    while (keys[2 * slot + 1] !== 0) {
      if (keys[2 * slot] === hi && keys[2 * slot + 1] === lo) return slot;
      slot = slot + 1 === this.#capacity ? 0 : slot + 1;
    }
    return slot;
  }

  /**
   * What is stored under a key.
   *
   * @param key The key.
   * @returns `[value, file, line]`, or `undefined` when the key is not there.
   */
  get(key: Hash64): [number, number, number] | undefined {
    const slot = this.#slot(key[0], key[1]);
    if (this.#keys[2 * slot + 1] === 0) return undefined;
    return [this.#values[slot]!, this.#files[slot]!, this.#lines[slot]!];
  }

  /**
   * Store a value and a place under a key that is not there yet.
   *
   * @param key The key.
   * @param value An unsigned 32-bit value.
   * @param file A file index.
   * @param line A line.
   */
  set(key: Hash64, value: number, file: number, line: number): void {
    if ((this.#size + 1) * 4 > this.#capacity * 3) this.#grow();
    const slot = this.#slot(key[0], key[1]);
    if (this.#keys[2 * slot + 1] === 0) this.#size++;
    this.#keys[2 * slot] = key[0];
    this.#keys[2 * slot + 1] = key[1];
    this.#values[slot] = value;
    this.#files[slot] = file;
    this.#lines[slot] = line;
  }

  #grow(): void {
    const [keys, values, files, lines] = [this.#keys, this.#values, this.#files, this.#lines];
    const old = this.#capacity;
    this.#capacity = Math.ceil(old * 1.5);
    this.#keys = new Uint32Array(2 * this.#capacity);
    this.#values = new Uint32Array(this.#capacity);
    this.#files = new Uint32Array(this.#capacity);
    this.#lines = new Uint32Array(this.#capacity);
    this.#size = 0;
    for (let slot = 0; slot < old; slot++) {
      if (keys[2 * slot + 1] === 0) continue;
      this.set([keys[2 * slot]!, keys[2 * slot + 1]!], values[slot]!, files[slot]!, lines[slot]!);
    }
  }
}
