/**
 * Reading employees: point queries by id (`empid_…`) or by email (`email_…`, the
 * intra-partition secondary index), partition-scoped RowKey range queries by id range, email range
 * or email prefix, and the last-name lookup through the same-partition index entity (one read of
 * the index entity, then either one range read or a batch of parallel point reads).
 */
import { createHash } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import {
  departmentPartitionKey,
  emailRowKey,
  emailRowKeyRange,
  employeeRowKey,
  employeeRowKeyRange,
  lastNameRowKey,
} from '../../storage/keys/tables/employees';
import { normalizeEmail, normalizeLastName } from '../../storage/keys/text';
import type { DirectoryContext } from '../context';
import {
  blankLastName,
  blankRangeBound,
  emailNotFound,
  emailRangeReversed,
  employeeNotFound,
  idRangeReversed,
  invalidEmailLookup,
  mixedRanges,
} from '../directoryErrors';
import {
  employeeSelectProperties,
  projectEmployee,
  parseEmployeeSelect,
  storedToEmployee,
  type Employee,
  type EmployeeField,
} from '../entities/employeeEntity';
import { EntityTypes, isEntityOfType } from '../entities/entityTypes';
import { requireDepartment } from './existence';
import { readLastNameIndex } from '../entities/partitionLastNameIndex';
import { lookupTextSchema, MAX_PAGE_SIZE, pageSizeOf, validateInput } from '../validation';
import type { Versioned } from '../entities/versionCache';
import { type StoredEntity, readEntity } from '../../storage/tables/entities';
import {
  codePointPrefixRange,
  readRangePage,
  resumeAfter,
  tokenAfter,
  type KeyRange,
  type Page,
} from '../../storage/tables/rangePages';

/** Paging and projection of a list query. */
export interface ListOptions {
  /** 1-1000, default 100. */
  pageSize?: number;
  continuationToken?: string;
  /**
   * API field names; all fields when omitted. The keys (`department`, `employeeId`) always come
   * back.
   */
  select?: readonly string[];
}

/**
 * The department's partition, page size and fields of a listing, each checked.
 *
 * @throws {ValidationError} for an invalid department, page size or select.
 */
function pageRequest(
  department: string,
  options: ListOptions,
): { partitionKey: string; pageSize: number; fields: EmployeeField[] | undefined } {
  return {
    partitionKey: departmentPartitionKey(department),
    pageSize: pageSizeOf(options.pageSize),
    fields: parseEmployeeSelect(options.select),
  };
}

/** Which employees of a department to list (one kind at a time; none = every employee by id). */
export interface EmployeeRange {
  /** Inclusive id bounds. */
  fromId?: string;
  toId?: string;
  /** Email bounds `[emailFrom, emailTo)`, compared case-insensitively. */
  emailFrom?: string;
  emailTo?: string;
  /** Emails starting with this text (case-insensitive). */
  emailPrefix?: string;
}

/** A stored employee with its ETag. */
export interface EmployeeRecord extends Versioned<Employee> {
  /** The stored primary entity (for callers that copy it elsewhere, e.g. the archive). */
  entity: StoredEntity;
}

function toJson(
  entity: StoredEntity,
  fields: EmployeeField[] | undefined,
): Record<string, unknown> | undefined {
  return fields
    ? projectEmployee(entity, fields)
    : (storedToEmployee(entity) as Record<string, unknown> | undefined);
}

/**
 * One employee by id (point query), with its ETag and stored entity.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `EmployeeNotFound`.
 */
export async function getEmployee(
  context: DirectoryContext,
  department: string,
  employeeId: string,
): Promise<EmployeeRecord> {
  const entity = await readEntity(
    await context.table(),
    departmentPartitionKey(department),
    employeeRowKey(employeeId),
  );
  const employee =
    entity && isEntityOfType(entity, EntityTypes.employee) ? storedToEmployee(entity) : undefined;
  if (!entity || !employee) throw employeeNotFound(department, employeeId);
  return { value: employee, etag: entity.etag, entity };
}

/**
 * One employee by email (point query on the email copy). The ETag is the copy's; it is accepted
 * as `If-Match` by updates and deletes just like the employee entity's own.
 *
 * @throws {ValidationError} for an invalid department or email.
 * @throws {NotFoundError} `EmployeeNotFound`.
 */
export async function getEmployeeByEmail(
  context: DirectoryContext,
  department: string,
  email: string,
): Promise<Versioned<Employee>> {
  const partitionKey = departmentPartitionKey(department);
  if (email.length === 0 || email.length > 254) {
    throw invalidEmailLookup();
  }
  const entity = await readEntity(await context.table(), partitionKey, emailRowKey(email));
  const employee =
    entity && isEntityOfType(entity, EntityTypes.employeeEmail)
      ? storedToEmployee(entity)
      : undefined;
  if (!entity || !employee) throw emailNotFound(department, email);
  return { value: employee, etag: entity.etag };
}

function rangeOf(partitionKey: string, range: EmployeeRange): { kind: string; keys: KeyRange } {
  const byId = range.fromId !== undefined || range.toId !== undefined;
  const byEmail = range.emailFrom !== undefined || range.emailTo !== undefined;
  const byPrefix = range.emailPrefix !== undefined;
  if (Number(byId) + Number(byEmail) + Number(byPrefix) > 1) {
    throw mixedRanges();
  }
  if (byEmail || byPrefix) {
    for (const [name, value] of Object.entries({
      emailFrom: range.emailFrom,
      emailTo: range.emailTo,
      emailPrefix: range.emailPrefix,
    })) {
      if (value !== undefined) validateInput(lookupTextSchema, value, `query.${name}`);
      if (value !== undefined && normalizeEmail(value) === '') {
        throw blankRangeBound(name);
      }
    }
    if (byPrefix) {
      return {
        kind: 'employees-by-email',
        keys: { partitionKey, ...codePointPrefixRange(emailRowKey(range.emailPrefix!)) },
      };
    }
    const keys = { partitionKey, ...emailRowKeyRange(range.emailFrom, range.emailTo) };
    if (keys.ge > keys.lt) {
      throw emailRangeReversed();
    }
    return { kind: 'employees-by-email', keys };
  }
  if (range.fromId !== undefined && range.toId !== undefined && range.fromId > range.toId) {
    throw idRangeReversed();
  }
  return {
    kind: 'employees-by-id',
    keys: { partitionKey, ...employeeRowKeyRange(range.fromId, range.toId) },
  };
}

/**
 * A page of a department's employees by id range (ordered by id), email range or email prefix
 * (ordered by normalised email); every employee when no range is given. One partition range query
 * per page, with server-side projection for `select`; an empty first page costs one point read
 * more, to tell an unknown department (404).
 *
 * @throws {ValidationError} for invalid bounds, page size, select or continuation token.
 * @throws {NotFoundError} `DepartmentNotFound` when the department does not exist.
 */
export async function listEmployees(
  context: DirectoryContext,
  department: string,
  range: EmployeeRange = {},
  options: ListOptions = {},
): Promise<Page<Record<string, unknown>>> {
  const { partitionKey, pageSize, fields } = pageRequest(department, options);
  const { kind, keys } = rangeOf(partitionKey, range);
  const page = await readRangePage(await context.table(), kind, keys, {
    pageSize,
    continuationToken: options.continuationToken,
    select: fields ? employeeSelectProperties(fields) : undefined,
  });
  const items = page.entities
    .map((e) => toJson(e, fields))
    .filter((e): e is Record<string, unknown> => e !== undefined);
  if (items.length === 0) await requireFirstPageDepartment(context, department, options);
  return { items, continuationToken: page.continuationToken };
}

/**
 * An empty first page of an unknown department is its 404 (existence.ts): one point read, only
 * when there is nothing to show. Later pages were reached from a first page that checked it.
 */
async function requireFirstPageDepartment(
  context: DirectoryContext,
  department: string,
  options: ListOptions,
): Promise<void> {
  if (options.continuationToken === undefined) await requireDepartment(context, department);
}

/**
 * A page of a department's primary employee entities in id order (for workers that copy or audit
 * them: archive, index audit).
 *
 * @throws {ValidationError} for an invalid page size or continuation token.
 */
export async function listEmployeeEntities(
  context: DirectoryContext,
  department: string,
  options: { pageSize?: number; continuationToken?: string } = {},
): Promise<{ entities: StoredEntity[]; continuationToken: string | null }> {
  const partitionKey = departmentPartitionKey(department);
  const page = await readRangePage(
    await context.table(),
    'employees-by-id',
    { partitionKey, ...employeeRowKeyRange() },
    { pageSize: pageSizeOf(options.pageSize), continuationToken: options.continuationToken },
  );
  return {
    entities: page.entities.filter((e) => isEntityOfType(e, EntityTypes.employee)),
    continuationToken: page.continuationToken,
  };
}

/** Parallel point reads, at most `concurrency` at a time, results in input order. */
async function pointReads(
  table: TableClient,
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
