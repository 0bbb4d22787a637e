/**
 * Organisation-wide last-name index, option 3: index entities in `EmployeeIndex`. The names that
 * start with the same character share a partition (`lastnames_j`; keys: employeeIndex.ts in
 * src/storage/keys/tables); a name's member list (a JSON array of `Dept/000223`) is in one or
 * more shard rows `jones%~part_000`, `part_001`, ..., with its drain fence `jones%~~fence` once a
 * write has changed the name (`change`, `add`, `remove`: each holds it); a range query reads them.
 * A drain round's names are read and written together (`snapshots`, `changes`:
 * lastNameEntityBatch.ts), one query and one transaction per partition rather than per name.
 *
 * Size limit: a string property holds at most 64 KiB (32 K UTF-16 characters) and an entity 1 MiB.
 * A shard is kept under `maxShardChars` (default 30,000 characters); an addition that would pass it
 * goes into the first shard with room, or a new shard. Up to 1,000 shards per name (~ 400,000
 * members) — far beyond any real last name; a change touching more than 99 shards is written in
 * chained transactions (lastNameEntityShards.ts); reads see the old layout (legacyLastNames.ts).
 */
import type { TableClient } from '@azure/data-tables';
import type { LastNameStore } from './lastNameStore';
import { addMember, changeList, removeMember, snapshotList } from './lastNameEntityChange';
import { changeLists, snapshotLists } from './lastNameEntityBatch';
import { allMembers, listMembers, membershipsPage, membersSlice } from './lastNameEntityReads';
import type { LegacyCheckOptions } from './legacyLastNames';

export { LAST_NAME_SHARD_TYPE, MAX_TRANSACTION_OPERATIONS } from './lastNameEntityShards';

/** Default characters of member list per shard (a string property holds 32 K characters). */
export const DEFAULT_MAX_SHARD_CHARS = 30_000;

/** Options of {@link entityLastNameStore}. */
export interface EntityLastNameStoreOptions {
  /** Most characters of one shard's member list (tests use a small value to force sharding). */
  maxShardChars?: number;
  /** How its reads learn whether old per-name partitions remain (tests: a short TTL, a clock). */
  legacyCheck?: LegacyCheckOptions;
}

/** Builds the option-3 store over the `EmployeeIndex` table client. */
export function entityLastNameStore(
  table: TableClient,
  options: EntityLastNameStoreOptions = {},
): LastNameStore {
  const maxChars = options.maxShardChars ?? DEFAULT_MAX_SHARD_CHARS;
  const legacy = options.legacyCheck ?? {};
  return {
    snapshot: (lastName) => snapshotList(table, lastName),
    change: (snapshot, add, remove) => changeList(table, maxChars, snapshot, add, remove),
    snapshots: (names) => snapshotLists(table, names),
    changes: (changes) => changeLists(table, maxChars, changes),
    add: (lastName, member) => addMember(table, maxChars, lastName, member),
    remove: (lastName, member) => removeMember(table, lastName, member),
    members: (lastName) => listMembers(table, lastName, legacy),
    membersPage: (lastName, after, limit) => membersSlice(table, lastName, after, limit, legacy),
    listPage: (after, limit) => membershipsPage(table, after, limit),
    all: () => allMembers(table),
  };
}
