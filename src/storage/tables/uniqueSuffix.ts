/**
 * Random suffixes that keep two time-based keys of the same tick distinct.
 */
import { randomBytes } from 'node:crypto';

/**
 * Eight random hex digits (32 bits). Two writes in the same 100 ns tick collide only with
 * probability 2⁻³²; writers insert (never upsert) and draw a new suffix on the 409 that follows.
 */
export function newUniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}
