/**
 * Stored access policies that make table SAS revocable.
 *
 * A SAS that names a policy (`si=directory-sas-v7`) is valid only while the table still holds a
 * signed identifier with that id, so deleting the identifier revokes every token bound to it at
 * once, without rotating the account key. Each table keeps two generations of our policy: the
 * **current** one (lowest generation), to which new tokens are bound, and the **next** one,
 * created one rotation ahead because Azure may take up to 30 seconds to activate a new policy.
 *
 * In Azure the policy carries only the permission (`r`), each token its own start and expiry;
 * Azurite needs times in the policy too (a wide window on a loopback emulator). At most five
 * signed identifiers per table; others' are kept. Set Table ACL has no ETag, so two rotations
 * racing each other may collapse into one.
 * Why: docs/sas.md "Revocation: stored access policies".
 */
import type { SignedIdentifier, TableClient } from '@azure/data-tables';
import { sasPolicyLimit } from './sasErrors';
import { toDomainError, type StorageErrorContext } from '../storage/storageFaults';
import { parseSasPolicyId, sasPolicyId } from '../storage/keys/tables/sasPolicies';
import { CLOCK_SKEW_MS } from '../storage/blobSas';

/** The service allows at most five signed identifiers per table. */
const MAX_SIGNED_IDENTIFIERS = 5;
/** The only permission table SAS ever grant: query (read). */
export const TABLE_SAS_PERMISSION = 'r';
/** Lifetime of an emulator policy (Azurite needs an expiry; Azure policies carry none). */
const EMULATOR_POLICY_MS = 365 * 24 * 3_600_000;

/** Outcome of a rotation. */
export interface PolicyRotation {
  table: string;
  /** The generation new tokens are bound to from now on. */
  policyId: string;
  /** The generation whose tokens stopped working, if there was one. */
  revokedPolicyId?: string;
}

interface PolicyOptions {
  /** How long a policy id read from the table is reused before reading it again. */
  cacheMs: number;
  /** Azurite: give policies the start/expiry its Set Table ACL requires. */
  emulator: boolean;
  now: () => Date;
}

/** Reads, creates and rotates the stored access policies of the tables it is given. */
export class SasPolicyManager {
  private readonly cache = new Map<string, { policyId: string; until: number }>();
  private readonly loading = new Map<string, Promise<string>>();

  constructor(private readonly options: PolicyOptions) {}

  /**
   * The policy id new tokens on this table are bound to; creates the policies on first use.
   *
   * @throws {NotFoundError} `TableNotFound` when the table does not exist.
   * @throws {ConflictError} `SasPolicyLimit` when other policies leave no room for ours.
   */
  async currentPolicyId(table: TableClient): Promise<string> {
    const cached = this.cache.get(table.tableName);
    if (cached && cached.until > Date.now()) return cached.policyId;
    let pending = this.loading.get(table.tableName);
    if (!pending) {
      pending = this.loadOrCreate(table).finally(() => this.loading.delete(table.tableName));
      this.loading.set(table.tableName, pending);
    }
    return pending;
  }

  /**
   * Revokes every token bound to the current generation: deletes it, promotes the next one and
   * creates a new next one.
   *
   * @throws {NotFoundError} `TableNotFound` when the table does not exist.
   * @throws {ConflictError} `SasPolicyLimit` when other policies leave no room for ours.
   */
  async rotate(table: TableClient): Promise<PolicyRotation> {
    const { ours, foreign } = await this.read(table);
    const current = ours[0];
    const promoted = ours[1]?.generation ?? (ours.at(-1)?.generation ?? 0) + 1;
    const kept = ours.filter((p) => p.generation === promoted).map((p) => p.identifier);
    const next = kept.length > 0 ? [...kept] : [this.newPolicy(promoted)];
    next.push(this.newPolicy(promoted + 1));
    await this.write(table, [...foreign, ...next]);
    const policyId = sasPolicyId(promoted);
    this.remember(table.tableName, policyId);
    return {
      table: table.tableName,
      policyId,
      ...(current ? { revokedPolicyId: current.identifier.id } : {}),
    };
  }

  private async loadOrCreate(table: TableClient): Promise<string> {
    const { ours, foreign } = await this.read(table);
    const current = ours[0];
    let policyId: string;
    if (current && ours.length >= 2) {
      policyId = current.identifier.id;
    } else {
      // First use (or someone deleted the next generation): make sure current and next exist.
      const generation = current?.generation ?? 1;
      const policies = [
        current?.identifier ?? this.newPolicy(generation),
        this.newPolicy(generation + 1),
      ];
      await this.write(table, [...foreign, ...policies]);
      policyId = sasPolicyId(generation);
    }
    this.remember(table.tableName, policyId);
    return policyId;
  }

  private remember(tableName: string, policyId: string): void {
    this.cache.set(tableName, { policyId, until: Date.now() + this.options.cacheMs });
  }

  private newPolicy(generation: number): SignedIdentifier {
    if (!this.options.emulator) {
      return { id: sasPolicyId(generation), accessPolicy: { permission: TABLE_SAS_PERMISSION } };
    }
    const now = this.options.now().getTime();
    return {
      id: sasPolicyId(generation),
      accessPolicy: {
        permission: TABLE_SAS_PERMISSION,
        start: new Date(now - CLOCK_SKEW_MS),
        expiry: new Date(now + EMULATOR_POLICY_MS),
      },
    };
  }

  private async read(table: TableClient): Promise<{
    ours: { generation: number; identifier: SignedIdentifier }[];
    foreign: SignedIdentifier[];
  }> {
    let identifiers: SignedIdentifier[];
    try {
      identifiers = await table.getAccessPolicy();
    } catch (error) {
      throw toDomainError(error, tableMissing(table));
    }
    const ours: { generation: number; identifier: SignedIdentifier }[] = [];
    const foreign: SignedIdentifier[] = [];
    for (const identifier of identifiers) {
      const generation = parseSasPolicyId(identifier.id);
      if (generation === undefined) foreign.push(identifier);
      else ours.push({ generation, identifier });
    }
    ours.sort((a, b) => a.generation - b.generation);
    return { ours, foreign };
  }

  private async write(table: TableClient, identifiers: SignedIdentifier[]): Promise<void> {
    if (identifiers.length > MAX_SIGNED_IDENTIFIERS) {
      throw sasPolicyLimit(table.tableName, identifiers.length, MAX_SIGNED_IDENTIFIERS);
    }
    try {
      await table.setAccessPolicy(identifiers);
    } catch (error) {
      throw toDomainError(error, tableMissing(table));
    }
  }
}

/** A 404 on a table's access policy: the table does not exist. */
function tableMissing(table: TableClient): StorageErrorContext {
  return {
    notFound: { code: 'TableNotFound', message: `Table ${table.tableName} does not exist.` },
  };
}
