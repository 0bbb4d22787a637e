/**
 * Weighted rendezvous (highest random weight) hashing: every account scores every key, and the key
 * goes to the highest score. Adding an account moves only the keys it now wins (about its share of
 * the weight), and removing one moves only its own — no table of ranges to keep. Pure.
 *
 * The score of a weighted account is `-weight / ln(u)` with `u` a uniform hash of (account, key)
 * in (0, 1): the chance an account wins is its weight over the total (Schindelhauer & Schomaker,
 * "Weighted distributed hash tables").
 * Glossary: "spread" (docs/glossary.md).
 */
import { createHash } from 'node:crypto';
import { noWeightedAccount } from './accountErrors';

/** Something rendezvous hashing can pick: a stable name and a weight (0: never picked). */
export interface Weighted {
  readonly name: string;
  readonly weight: number;
}

/** A uniform number in (0, 1) from the hash of `name` and `key`. */
function uniform(name: string, key: string): number {
  const digest = createHash('sha256').update(name).update('\n').update(key).digest();
  // 52 bits: exactly representable, and never 0 or 1 with the half step.
  const high = digest.readUInt32BE(0) >>> 12;
  const low = digest.readUInt32BE(4);
  return (high * 2 ** 32 + low + 0.5) / 2 ** 52;
}

/** The score of `candidate` for `key` (higher wins; 0-weight candidates score -Infinity). */
export function rendezvousScore(candidate: Weighted, key: string): number {
  if (!(candidate.weight > 0)) return -Infinity;
  return -candidate.weight / Math.log(uniform(candidate.name, key));
}

/**
 * The candidate `key` belongs to: the highest score among those with a weight above 0.
 *
 * @throws {RangeError} when no candidate has a weight above 0 (the configuration forbids it).
 */
export function rendezvousPick<T extends Weighted>(key: string, candidates: readonly T[]): T {
  let best: T | undefined;
  let bestScore = -Infinity;
  for (const candidate of candidates) {
    const score = rendezvousScore(candidate, key);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  if (!best) throw noWeightedAccount();
  return best;
}
