/**
 * The last-name lookup of one department: through the same-partition last-name index entity (one
 * read of it), then one range read when the page's ids are dense, or parallel point reads. Paged
 * and projected as the other reads of employees (employeeQueries.ts).
 */
import { createHash } from 'node:crypto';
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  employeeRowKey,
  employeeRowKeyRange,
  lastNameRowKey,
} from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import type { DirectoryContext } from '../context';
import { blankLastName } from '../directoryErrors';
import { employeeSelectProperties, projectEmployee } from '../entities/employeeSelect';
import { EntityTypes, isEntityOfType } from '../entities/entityTypes';
import { readLastNameIndex } from '../entities/partitionLastNameIndex';
import { lookupTextSchema, MAX_PAGE_SIZE, validateInput } from '../validation';
import { type StoredEntity, readEntity } from '../../storage/tables/entities';
import {
  readRangePage,
  resumeAfter,
  tokenAfter,
  type KeyRange,
  type Page,
} from '../../storage/tables/rangePages';
import {
  pageRequest,
  requireFirstPageDepartment,
  toJson,
  type ListOptions,
} from './employeeQueries';

/** Parallel point reads, at most `concurrency` at a time, results in input order. */
async function pointReads(
  table: TableAccess,
  partitionKey: string,
  ids: string[],
  select: string[] | undefined,
  concurrency = 16,
): Promise<(StoredEntity | undefined)[]> {
  const results: (StoredEntity | undefined)[] = new Array(ids.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, ids.length) }, async () => {
      while (next < ids.length) {
        const i = next++;
        results[i] = await readEntity(table, partitionKey, employeeRowKey(ids[i]!), select);
      }
    }),
  );
  return results;
}

/**
 * Employees of one department with a given last name (case-insensitive), through the
 * same-partition last-name index entity, in id order and paged over the id list: one read of the
 * index entity, then one range read when the page's ids are dense, or parallel point reads. No one
 * of that name: one point read more, to tell an unknown department (404).
 *
 * @throws {ValidationError} for an invalid department, last name, page size, select or token.
 * @throws {NotFoundError} `DepartmentNotFound` when the department does not exist.
 */
export async function findByLastName(
  context: DirectoryContext,
  department: string,
  lastName: string,
  options: ListOptions = {},
): Promise<Page<Record<string, unknown>>> {
  const page = await lookUpLastName(context, department, lastName, options);
  if (page.items.length === 0) await requireFirstPageDepartment(context, department, options);
  return page;
}

async function lookUpLastName(
  context: DirectoryContext,
  department: string,
  lastName: string,
  options: ListOptions,
): Promise<Page<Record<string, unknown>>> {
  const { partitionKey, pageSize, fields } = pageRequest(department, options);
  validateInput(lookupTextSchema, lastName, 'query.lastName');
  const name = normalizeLastName(lastName);
  if (name === '') throw blankLastName();
  // The token is bound to this last name (through the scope's hash) as well as to the partition.
  const kind = `employees-by-lastname:${createHash('sha256').update(name).digest('base64url').slice(0, 16)}`;
  const keys: KeyRange = { partitionKey, ...employeeRowKeyRange() };
  const after =
    options.continuationToken === undefined
      ? undefined
      : resumeAfter(kind, keys, options.continuationToken);

  const table = await context.table();
  const indexEntity = await readEntity(table, partitionKey, lastNameRowKey(name));
  const index = indexEntity && readLastNameIndex(indexEntity);
  if (!index) return { items: [], continuationToken: null };
  const remaining =
    after === undefined ? index.ids : index.ids.filter((id) => employeeRowKey(id) > after);
  const ids = remaining.slice(0, pageSize);
  if (ids.length === 0) return { items: [], continuationToken: null };

  // Projection: the last name is needed to check each employee still matches the index.
  const select = fields
    ? [...new Set([...employeeSelectProperties(fields), 'LastName'])]
    : undefined;
  const first = ids[0]!;
  const last = ids[ids.length - 1]!;
  const span = Number(last) - Number(first) + 1;
  let entities: (StoredEntity | undefined)[];
  if (ids.length > 1 && span <= Math.min(ids.length * 2, MAX_PAGE_SIZE)) {
    const wanted = new Set(ids);
    const page = await readRangePage(
      table,
      'employees-by-id',
      { partitionKey, ...employeeRowKeyRange(first, last) },
      { pageSize: span, select },
    );
    entities = page.entities.filter(
      (e) => typeof e.EmployeeId === 'string' && wanted.has(e.EmployeeId),
    );
  } else {
    entities = await pointReads(table, partitionKey, ids, select);
  }
  const items = entities
    .filter((e): e is StoredEntity => e !== undefined && isEntityOfType(e, EntityTypes.employee))
    .filter((e) => typeof e.LastName === 'string' && normalizeLastName(e.LastName) === name)
    .map((e) => (fields ? projectEmployee(e, fields) : toJson(e, undefined)))
    .filter((e): e is Record<string, unknown> => e !== undefined);
  return {
    items,
    continuationToken:
      remaining.length > ids.length ? tokenAfter(kind, keys, employeeRowKey(last)) : null,
  };
}
