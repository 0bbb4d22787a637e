/**
 * Ids of stored access policies (signed identifiers on a table, at most 5 per table, ids ≤ 64
 * chars).
 */
import { invalidPolicyGeneration } from '../keyErrors';

const SAS_POLICY_PREFIX = 'directory-sas-v';

/**
 * Id of one generation of the stored access policy that table SAS are bound to:
 * `directory-sas-v7`. Rotating the policy moves to the next generation.
 *
 * @throws {Error} for a generation that is not a positive safe integer.
 */
export function sasPolicyId(generation: number): string {
  if (!Number.isSafeInteger(generation) || generation < 1) {
    throw invalidPolicyGeneration(generation);
  }
  return `${SAS_POLICY_PREFIX}${generation}`;
}

/** Reverses {@link sasPolicyId}; `undefined` for a signed identifier someone else created. */
export function parseSasPolicyId(id: string): number | undefined {
  const match = /^directory-sas-v([1-9]\d{0,15})$/.exec(id);
  const generation = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(generation) ? generation : undefined;
}
