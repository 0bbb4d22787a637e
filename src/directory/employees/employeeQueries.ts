/**
 * Reading employees: point queries by id (`empid_…`) or by email (`email_…`, the
 * intra-partition secondary index), and partition-scoped RowKey range queries by id range, email
 * range or email prefix. The last-name lookup through the same-partition index entity is
 * lastNameLookup.ts's; both page and project alike (`pageRequest`, `toJson` here).
 */
import {
  departmentPartitionKey,
  emailRowKey,
  emailRowKeyRange,
  employeeRowKey,
  employeeRowKeyRange,
} from '../../storage/keys/tables/employees';
import { normalizeEmail } from '../../storage/keys/text';
import type { DirectoryContext } from '../context';
import {
  blankRangeBound,
  emailNotFound,
  emailRangeReversed,
  employeeNotFound,
  idRangeReversed,
  invalidEmailLookup,
  mixedRanges,
} from '../directoryErrors';
import { storedToEmployee, type Employee } from '../entities/employeeEntity';
import {
  employeeSelectProperties,
  projectEmployee,
  parseEmployeeSelect,
  type EmployeeField,
} from '../entities/employeeSelect';
import { EntityTypes, isEntityOfType } from '../entities/entityTypes';
import { requireDepartment } from './existence';
import { lookupTextSchema, pageSizeOf, validateInput } from '../validation';
import type { Versioned } from '../entities/versionCache';
import { type StoredEntity, readEntity } from '../../storage/tables/entities';
import {
  codePointPrefixRange,
  readRangePage,
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
export function pageRequest(
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

/** A stored employee as API JSON: projected onto `fields`, or whole when none are selected. */
export function toJson(
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
export async function requireFirstPageDepartment(
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
