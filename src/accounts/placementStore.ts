/**
 * The placement table (home account): one row per department saying which account holds it, at
 * which version, and whether a relocation is copying or has frozen it. Every change is conditional
 * on the row's ETag, so two relocations (or a relocation and a first placement) never both win.
 * Glossary: "placement" (docs/glossary.md).
 */
import type { TableClient } from '@azure/data-tables';
import { ensureTable } from '../storage/createOnce';
import { readEntity, type StoredEntity } from '../storage/tables/entities';
import { isAlreadyExists, isPreconditionFailed, toDomainError } from '../storage/storageFaults';
import {
  PLACEMENT_PARTITION_KEY,
  parsePlacementRowKey,
  placementRowKey,
} from '../storage/keys/tables/placement';
import { readWholeRange } from '../storage/tables/rangePages';
import { unreadablePlacement } from './accountErrors';

const ENTITY_TYPE = 'Placement.v1';

/**
 * Where a department is in its life across accounts: `stable` (writes go to `account`),
 * `copying` (a relocation copies it to `target`; writes still go to `account` and record what they
 * touched), `frozen` (the relocation's last sync: writes are refused with 503 `Relocating`),
 * `deleting` (switched: writes go to `account` as when stable, while the relocation still deletes
 * the source; the department stays its until then, so no other relocation starts).
 */
export type PlacementPhase = 'stable' | 'copying' | 'frozen' | 'deleting';

/** A department's placement as stored (or, `stored: false`, as assumed for an unplaced one). */
export interface DepartmentPlacement {
  department: string;
  /** The account holding the department now: every read and write goes there. */
  account: string;
  /**
   * Raised by every change but a relocation's release (`deleting` → `stable`, where nothing moves);
   * the fence rows of the department's partitions carry it.
   */
  version: number;
  phase: PlacementPhase;
  /** Where a relocation is moving the department (`copying`, `frozen`). */
  target?: string;
  /** The relocation's orchestration id (`copying`, `frozen`, `deleting`). */
  relocation?: string;
  /** False when no row exists (an unplaced department answered from home, version 0). */
  stored: boolean;
  /** ETag of the stored row. */
  etag?: string;
}

/** What a placement row holds besides its key. */
export type PlacementFields = Pick<
  DepartmentPlacement,
  'account' | 'version' | 'phase' | 'target' | 'relocation'
>;

function toEntity(department: string, fields: PlacementFields) {
  return {
    partitionKey: PLACEMENT_PARTITION_KEY,
    rowKey: placementRowKey(department),
    EntityType: ENTITY_TYPE,
    Account: fields.account,
    Version: fields.version,
    Phase: fields.phase,
    Target: fields.target ?? '',
    Relocation: fields.relocation ?? '',
  };
}

/**
 * The placement a stored row says.
 *
 * @throws {RangeError} for a row this code cannot read.
 */
export function fromEntity(entity: StoredEntity): DepartmentPlacement {
  const department = parsePlacementRowKey(entity.rowKey);
  const { Account, Version, Phase, Target, Relocation } = entity;
  if (
    department === undefined ||
    typeof Account !== 'string' ||
    typeof Version !== 'number' ||
    (Phase !== 'stable' && Phase !== 'copying' && Phase !== 'frozen' && Phase !== 'deleting')
  ) {
    throw unreadablePlacement(entity.rowKey);
  }
  return {
    department,
    account: Account,
    version: Version,
    phase: Phase,
    ...(typeof Target === 'string' && Target !== '' ? { target: Target } : {}),
    ...(typeof Relocation === 'string' && Relocation !== '' ? { relocation: Relocation } : {}),
    stored: true,
    etag: entity.etag,
  };
}

/** The placement rows of the home account's placement table. */
export class PlacementStore {
  constructor(private readonly table: TableClient) {}

  /**
   * The stored placement of a department, or `undefined` when it has none.
   *
   * @throws {DomainError} for storage faults.
   */
  async read(department: string): Promise<DepartmentPlacement | undefined> {
    await ensureTable(this.table);
    const entity = await readEntity(
      this.table,
      PLACEMENT_PARTITION_KEY,
      placementRowKey(department),
    );
    return entity && fromEntity(entity);
  }

  /**
   * Stores a first placement; when another writer stored one first, that one is returned.
   *
   * @throws {DomainError} for storage faults.
   */
  async place(department: string, fields: PlacementFields): Promise<DepartmentPlacement> {
    await ensureTable(this.table);
    try {
      const response = await this.table.createEntity(toEntity(department, fields));
      return { department, ...fields, stored: true, etag: response.etag };
    } catch (error) {
      if (!isAlreadyExists(error)) throw toDomainError(error);
      const stored = await this.read(department);
      if (!stored) throw toDomainError(error);
      return stored;
    }
  }

  /**
   * Replaces `current` with `next` if the row is still exactly `current` (its ETag).
   *
   * @returns the new placement, or `undefined` when the row changed since it was read.
   * @throws {DomainError} for storage faults.
   */
  async replace(
    current: DepartmentPlacement,
    next: PlacementFields,
  ): Promise<DepartmentPlacement | undefined> {
    try {
      const response = await this.table.updateEntity(
        toEntity(current.department, next),
        'Replace',
        { etag: current.etag ?? '*' },
      );
      return { department: current.department, ...next, stored: true, etag: response.etag };
    } catch (error) {
      if (isPreconditionFailed(error)) return undefined;
      throw toDomainError(error);
    }
  }

  /**
   * Every stored placement (one partition query, paged).
   *
   * @throws {DomainError} for storage faults.
   */
  async all(): Promise<DepartmentPlacement[]> {
    await ensureTable(this.table);
    const rows = await readWholeRange(this.table, {
      partitionKey: PLACEMENT_PARTITION_KEY,
      ge: ' ',
      lt: '~',
    });
    return rows.map(fromEntity);
  }
}
