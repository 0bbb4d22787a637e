/**
 * The employee entity, its same-partition email copy (intra-partition secondary index), and the
 * JSON the API returns for them.
 *
 * The email copy is a full copy of the employee's data under `email_<address>`, so a lookup by
 * email is one point query that returns everything. Both are written in the same entity group
 * transaction; every data change rewrites both, which also makes the copy's ETag change exactly
 * when the employee's data does. What a `select` query returns of them: employeeSelect.ts.
 * Glossary: "incarnation" (docs/glossary.md).
 */
import type { TableEntity } from '@azure/data-tables';
import {
  SYSTEM_PROPERTIES,
  type StoredEntity,
  type StoredProperties,
} from '../../storage/tables/entities';
import { randomUUID } from 'node:crypto';
import {
  emailRowKey,
  employeeRowKey,
  parseDepartmentPartitionKey,
} from '../../storage/keys/tables/employees';
import { LEGACY_INCARNATION } from '../../storage/keys/tables/archive';
import { isEmployeeId } from '../../storage/keys/identifiers';
import { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from './entityTypes';
import {
  DATA_ETAG_PROPERTY,
  encodeReviewYears,
  parseReviewYears,
  REVIEW_YEARS_PROPERTY,
} from './reviewYears';

/** An employee as the API shows it. */
export interface Employee {
  department: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  age: number | null;
  photoUrl?: string;
}

/** The data an employee entity holds (everything but the department). */
export interface EmployeeData {
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  age?: number;
  photoUrl?: string;
}

/** API field name → entity property name (the `select` projection's too, employeeSelect.ts). */
export const FIELD_PROPERTIES = {
  employeeId: 'EmployeeId',
  firstName: 'FirstName',
  lastName: 'LastName',
  email: 'Email',
  age: 'Age',
  photoUrl: 'PhotoUrl',
} as const;

/**
 * The immutable incarnation id of an employee entity (docs/queues.md "Incarnations"): set when the
 * employee is created or imported, kept by every update, carried by a move. Absent on entities
 * written before incarnations: {@link LEGACY_INCARNATION}.
 */
export const INCARNATION_PROPERTY = 'Incarnation';

/** A new incarnation id (32 random hex digits) for a newly created or imported employee. */
export function newIncarnation(): string {
  return randomUUID().replaceAll('-', '');
}

/** The incarnation of a stored employee entity ({@link LEGACY_INCARNATION} when it has none). */
export function incarnationOf(entity: StoredProperties): string {
  const incarnation = entity[INCARNATION_PROPERTY];
  return typeof incarnation === 'string' && incarnation !== '' ? incarnation : LEGACY_INCARNATION;
}

/** Properties this version writes itself; any other stored property is carried over untouched. */
const OWN_PROPERTIES = new Set<string>([
  ENTITY_TYPE_PROPERTY,
  ...Object.values(FIELD_PROPERTIES),
  'IsManager',
  'WriteId',
  INCARNATION_PROPERTY,
  REVIEW_YEARS_PROPERTY,
  DATA_ETAG_PROPERTY,
]);

/** Bookkeeping stored on the employee entity beside its data. */
export interface EmployeeMeta {
  /** True while the employee is the department's manager (name/email changes update the copy). */
  isManager: boolean;
  /** Random id of the write that produced this version, to recognise our own commit on a retry. */
  writeId: string;
  /**
   * The employee's incarnation ({@link INCARNATION_PROPERTY}); `undefined` for a legacy employee
   * (the property is then not written, so it stays legacy).
   */
  incarnation?: string;
  /**
   * The years of the employee's reviews (reviewYears.ts): every review it has is listed, so a
   * delete takes exactly these. `undefined` for an employee written before employees carried the
   * list (its reviews are unknown; the property is then not written).
   */
  reviewYears?: readonly number[];
  /** Properties of a newer version of the app found on the stored entity, kept as they were. */
  preserved?: StoredProperties;
  /**
   * The ETag of the employee's last data write, kept ({@link DATA_ETAG_PROPERTY}) by a write that
   * changes no field a PATCH writes (the photo URL); `undefined` for a data write.
   */
  dataEtag?: string;
}

/** Properties of the stored entity that this version does not own (a newer version's). */
export function foreignProperties(entity: StoredProperties): StoredProperties {
  const kept: StoredProperties = {};
  for (const [name, value] of Object.entries(entity)) {
    if (!OWN_PROPERTIES.has(name) && !SYSTEM_PROPERTIES.has(name)) kept[name] = value;
  }
  return kept;
}

/**
 * The primary employee entity, `empid_<id>` in the department's partition.
 *
 * @throws {ValidationError} for an invalid department or employee id.
 */
export function employeeEntity(
  partitionKey: string,
  data: EmployeeData,
  meta: EmployeeMeta,
): TableEntity<StoredProperties> {
  return {
    ...meta.preserved,
    partitionKey,
    rowKey: employeeRowKey(data.employeeId),
    [ENTITY_TYPE_PROPERTY]: EntityTypes.employee,
    ...employeeDataProperties(data),
    IsManager: meta.isManager,
    WriteId: meta.writeId,
    ...(meta.incarnation === undefined ? {} : { [INCARNATION_PROPERTY]: meta.incarnation }),
    ...(meta.reviewYears === undefined
      ? {}
      : { [REVIEW_YEARS_PROPERTY]: encodeReviewYears(meta.reviewYears) }),
    ...(meta.dataEtag === undefined ? {} : { [DATA_ETAG_PROPERTY]: meta.dataEtag }),
  };
}

/**
 * The stored properties of employee data (the inverse of {@link readEmployeeFields}), for every
 * entity that carries a copy of it: the primary, its email copy, index entries elsewhere.
 */
export function employeeDataProperties(data: EmployeeData): StoredProperties {
  const properties: StoredProperties = {
    EmployeeId: data.employeeId,
    FirstName: data.firstName,
    LastName: data.lastName,
    Email: data.email,
  };
  if (data.age !== undefined) properties.Age = data.age;
  if (data.photoUrl !== undefined) properties.PhotoUrl = data.photoUrl;
  return properties;
}

/**
 * The email copy of a primary employee entity: same data under `email_<normalised address>`,
 * without the primary's bookkeeping (manager flag, write id, incarnation, review years, data
 * ETag).
 */
export function emailCopyEntity(
  primary: TableEntity<StoredProperties>,
): TableEntity<StoredProperties> {
  const {
    IsManager: _isManager,
    WriteId: _writeId,
    [INCARNATION_PROPERTY]: _incarnation,
    [REVIEW_YEARS_PROPERTY]: _reviewYears,
    [DATA_ETAG_PROPERTY]: _dataEtag,
    ...data
  } = primary;
  return {
    ...data,
    partitionKey: primary.partitionKey,
    rowKey: emailRowKey(String(primary.Email)),
    [ENTITY_TYPE_PROPERTY]: EntityTypes.employeeEmail,
  };
}

/** The data of a stored employee or email copy; `undefined` for another type or a malformed one. */
export function readEmployeeData(entity: StoredProperties): EmployeeData | undefined {
  if (
    !isEntityOfType(entity, EntityTypes.employee) &&
    !isEntityOfType(entity, EntityTypes.employeeEmail)
  ) {
    return undefined;
  }
  return readEmployeeFields(entity);
}

/**
 * The employee fields of any entity that carries a copy of them (primary, email copy, or an
 * index entry elsewhere), whatever its `EntityType`; `undefined` when one is missing or malformed.
 */
export function readEmployeeFields(entity: StoredProperties): EmployeeData | undefined {
  const { EmployeeId, FirstName, LastName, Email, Age, PhotoUrl } = entity;
  if (
    typeof EmployeeId !== 'string' ||
    !isEmployeeId(EmployeeId) ||
    typeof FirstName !== 'string' ||
    typeof LastName !== 'string' ||
    typeof Email !== 'string'
  ) {
    return undefined;
  }
  const data: EmployeeData = {
    employeeId: EmployeeId,
    firstName: FirstName,
    lastName: LastName,
    email: Email,
  };
  if (typeof Age === 'number') data.age = Age;
  if (typeof PhotoUrl === 'string') data.photoUrl = PhotoUrl;
  return data;
}

/** The bookkeeping of a stored primary employee entity, as read. */
export interface StoredEmployeeMeta extends Omit<EmployeeMeta, 'writeId'> {
  writeId?: string;
  /**
   * The ETag of the employee's last data write when only bookkeeping (its review years, the
   * manager flag, the photo) changed since; `undefined` when the entity's own ETag is that version.
   */
  dataEtag?: string;
}

/** The bookkeeping of a stored primary employee entity. */
export function readEmployeeMeta(entity: StoredProperties): StoredEmployeeMeta {
  const dataEtag = entity[DATA_ETAG_PROPERTY];
  const incarnation = incarnationOf(entity);
  return {
    isManager: entity.IsManager === true,
    writeId: typeof entity.WriteId === 'string' ? entity.WriteId : undefined,
    ...(incarnation === LEGACY_INCARNATION ? {} : { incarnation }),
    reviewYears: parseReviewYears(entity[REVIEW_YEARS_PROPERTY]),
    ...(typeof dataEtag === 'string' && dataEtag !== '' ? { dataEtag } : {}),
    preserved: foreignProperties(entity),
  };
}

/** The API JSON of employee data in a department. */
export function toEmployee(department: string, data: EmployeeData): Employee {
  const employee: Employee = {
    department,
    employeeId: data.employeeId,
    firstName: data.firstName,
    lastName: data.lastName,
    email: data.email,
    age: data.age ?? null,
  };
  if (data.photoUrl !== undefined) employee.photoUrl = data.photoUrl;
  return employee;
}

/** A stored employee (or email copy) as API JSON; `undefined` for another entity type. */
export function storedToEmployee(entity: StoredEntity): Employee | undefined {
  const department = parseDepartmentPartitionKey(entity.partitionKey);
  const data = readEmployeeData(entity);
  return department !== undefined && data ? toEmployee(department, data) : undefined;
}

/** True when a stored entity is a readable primary employee (used by workers that scan pages). */
export function isPrimaryEmployee(entity: StoredEntity): boolean {
  return isEntityOfType(entity, EntityTypes.employee) && readEmployeeData(entity) !== undefined;
}
