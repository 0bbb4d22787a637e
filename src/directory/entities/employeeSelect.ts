/**
 * The `select` projection of employees: which fields a query may name, which entity properties
 * it asks the service for (server-side projection), and the API JSON of a projected entity. The
 * same words serve the directory's reads and the org-wide index's (src/indexing).
 */
import { parseDepartmentPartitionKey } from '../../storage/keys/tables/employees';
import type { StoredEntity } from '../../storage/tables/entities';
import { unknownSelectField } from '../directoryErrors';
import { FIELD_PROPERTIES } from './employeeEntity';
import { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from './entityTypes';

/** A field of the employee JSON that `select` may name. */
export type EmployeeField = keyof typeof FIELD_PROPERTIES | 'department';

/** Every field `select` accepts for employees. */
export const EMPLOYEE_FIELDS: readonly EmployeeField[] = [
  'department',
  ...Object.keys(FIELD_PROPERTIES),
] as EmployeeField[];

/** Entity properties to ask the service for when the caller selects `fields` (keys always). */
export function employeeSelectProperties(fields: readonly EmployeeField[]): string[] {
  const properties = new Set<string>([
    'PartitionKey',
    'RowKey',
    ENTITY_TYPE_PROPERTY,
    'EmployeeId',
  ]);
  for (const field of fields) if (field !== 'department') properties.add(FIELD_PROPERTIES[field]);
  return [...properties];
}

/**
 * `json` with each of `fields` added that has a value (`valueOf` gives it; `undefined` leaves the
 * field out): the projection of a `select` query onto API JSON.
 */
export function withFields<F extends string>(
  json: Record<string, unknown>,
  fields: readonly F[],
  valueOf: (field: F) => unknown,
): Record<string, unknown> {
  for (const field of fields) {
    const value = valueOf(field);
    if (value !== undefined) json[field] = value;
  }
  return json;
}

/**
 * A projected stored employee as API JSON: the keys (`department`, `employeeId`) plus the
 * selected fields that the entity has; `undefined` for another entity type.
 */
export function projectEmployee(
  entity: StoredEntity,
  fields: readonly EmployeeField[],
): Record<string, unknown> | undefined {
  const department = parseDepartmentPartitionKey(entity.partitionKey);
  if (
    department === undefined ||
    (!isEntityOfType(entity, EntityTypes.employee) &&
      !isEntityOfType(entity, EntityTypes.employeeEmail)) ||
    typeof entity.EmployeeId !== 'string'
  ) {
    return undefined;
  }
  const json: Record<string, unknown> = { department, employeeId: entity.EmployeeId };
  for (const field of fields) {
    if (field === 'department' || field === 'employeeId') continue;
    const value = entity[FIELD_PROPERTIES[field]];
    if (field === 'age') json.age = typeof value === 'number' ? value : null;
    else if (value !== undefined) json[field] = value;
  }
  return json;
}

/**
 * The `select` fields, validated.
 *
 * @throws {ValidationError} `InvalidSelect` naming an unknown field.
 */
export function parseEmployeeSelect(select?: readonly string[]): EmployeeField[] | undefined {
  if (select === undefined) return undefined;
  for (const field of select) {
    if (!(EMPLOYEE_FIELDS as readonly string[]).includes(field)) {
      throw unknownSelectField(field, EMPLOYEE_FIELDS);
    }
  }
  return select as EmployeeField[];
}
