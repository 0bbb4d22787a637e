/**
 * The versions of an import's last-name index entities, which every chunk's transaction is
 * conditional on: known ones from the version cache, else (in a large department) one point read
 * per name, never a range (it would grow with the department). Why: docs/directory.md "Import".
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { departmentPartitionKey, lastNameRowKey } from '../../storage/keys/tables/employees';
import { mapBounded } from '../../storage/parallel';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';
import type { DirectoryContext } from '../context';
import { readLastNameIndex, type LastNameIndex } from '../entities/partitionLastNameIndex';
import type { Versioned } from '../entities/versionCache';
import { lastNameKey } from '../entities/versionCache';

/**
 * Point reads of an import's last-name index entities at once: enough to hide the round trips,
 * few enough not to flood the account's connections.
 */
export const INDEX_READS_IN_FLIGHT = 16;

/**
 * Up to this many employees in the department, the index entities of names this process does not
 * know are taken to be absent (created, not read): no name can hold more ids than the department
 * has, so the chunk's size stays bounded, and a name that exists fails its chunk's create, which
 * then reads it. Larger departments read them first (docs/directory.md "Import").
 */
export const ASSUME_ABSENT_UP_TO = 5_000;

/**
 * The versions of last-name index entities read one point read per name: a range between the
 * first and last name would return every other name of the department in between, and grow with
 * it (docs/directory.md, "Import"). Names without an entity are absent from the map.
 */
export function indexVersionsOf(
  entities: readonly (StoredEntity | undefined)[],
): Map<string, Versioned<LastNameIndex>> {
  const found = new Map<string, Versioned<LastNameIndex>>();
  for (const entity of entities) {
    const index = entity && readLastNameIndex(entity);
    if (entity && index) found.set(index.lastName, { value: index, etag: entity.etag });
  }
  return found;
}

/** The index entities of `names` in the department, `INDEX_READS_IN_FLIGHT` point reads at once. */
export async function readIndexVersions(
  table: TableAccess,
  partitionKey: string,
  names: readonly string[],
): Promise<Map<string, Versioned<LastNameIndex>>> {
  return indexVersionsOf(
    await mapBounded(names, INDEX_READS_IN_FLIGHT, (name) =>
      readEntity(table, partitionKey, lastNameRowKey(name)),
    ),
  );
}

/**
 * The transactions an import's plan takes when the names in `unread` are planned at the
 * department's bound (each may already hold as many ids as the department has employees) and the
 * others at the sizes `known` gives.
 */
export type PlannedTransactions = (
  known: ReadonlyMap<string, Versioned<LastNameIndex>>,
  unread: ReadonlySet<string>,
) => number;

/**
 * The versions of the import's last-name index entities: from the version cache when this
 * process knows them (a stale one fails its chunk's condition, which then reads it). The others
 * are taken to be absent and planned at the department's bound in a department of at most
 * {@link ASSUME_ABSENT_UP_TO} employees; in a larger one, when this process has kept the
 * department's names since it was that small (`lastNamesKept`) and `plan` says that bound costs
 * fewer transactions than reading them would add requests (one point read per name, only the names
 * the rows bring, however large the department); else they are read. Requests per row are the
 * currency (docs/directory.md "Import"). `unread`: the names neither known nor read.
 */
export async function indexVersions(
  context: DirectoryContext,
  table: TableAccess,
  department: string,
  names: readonly string[],
  employeeCount: number,
  plan?: PlannedTransactions,
): Promise<{ known: Map<string, Versioned<LastNameIndex>>; unread: Set<string> }> {
  const known = new Map<string, Versioned<LastNameIndex>>();
  const unknown: string[] = [];
  for (const name of names) {
    const cached = context.cacheVersions
      ? context.lastNameVersions.get(lastNameKey(department, name))
      : undefined;
    if (cached) known.set(name, cached);
    else unknown.push(name);
  }
  if (employeeCount <= ASSUME_ABSENT_UP_TO) {
    if (context.cacheVersions) context.lastNamesKept.set(department, true);
    return { known, unread: new Set(unknown) };
  }
  // Only where this process kept the department's names since it was small is a name it does
  // not know most likely new; elsewhere most would exist, and each would cost a refused chunk.
  const kept = context.cacheVersions && context.lastNamesKept.get(department) === true;
  if (kept && plan && cheaperUnread(plan, known, unknown)) {
    return { known, unread: new Set(unknown) };
  }
  const read = await readIndexVersions(table, departmentPartitionKey(department), unknown);
  for (const [name, version] of read) known.set(name, version);
  return { known, unread: new Set() };
}

/**
 * Whether planning `unknown` at the department's bound costs no more requests than reading them:
 * the extra transactions of the bounded plan against one point read per name (the read plan is
 * taken at its smallest, every unknown name absent, so a tie goes to not reading).
 */
function cheaperUnread(
  plan: PlannedTransactions,
  known: ReadonlyMap<string, Versioned<LastNameIndex>>,
  unknown: readonly string[],
): boolean {
  if (unknown.length === 0) return false;
  return plan(known, new Set(unknown)) <= plan(known, new Set()) + unknown.length;
}
