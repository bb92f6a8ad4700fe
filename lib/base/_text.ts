/**
 * Internal: lenient string equality, shared by the matchers and pairing.
 *
 * @module
 */

/**
 * Whether a string starts or ends with a character that `String.prototype.trim()` may remove
 * (ASCII controls and space, NBSP, and everything above U+1000 to stay on the safe side). When
 * it does not, `s.trim() === s`.
 *
 * @param s A string.
 * @returns `true` when trimming may change it.
 */
export function mayTrim(s: string): boolean {
  if (s.length === 0) return false;
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  return first <= 32 || last <= 32 || first === 0xa0 || last === 0xa0 || first > 0x1000 ||
    last > 0x1000;
}

/**
 * Whether two strings are equal after trimming surrounding whitespace, without building the
 * trimmed copies when neither has any (the common case on a mismatch).
 *
 * @param a One string.
 * @param b The other.
 * @returns `true` when they are equal once trimmed.
 */
export function trimmedEqual(a: string, b: string): boolean {
  if (a === b) return true;
  if (!mayTrim(a) && !mayTrim(b)) return false; // already unequal as they are
  return a.trim() === b.trim();
}
