/**
 * Incarnation ids, and the `EmployeesArchive` row keys that keep one archive record per
 * incarnation of an employee (docs/queues.md "Incarnations").
 *
 * An archived entity keeps the row key it had in `Employees`, suffixed with `.` and the
 * incarnation it belonged to; an entity of a legacy employee (written before employees carried an
 * incarnation) keeps its row key unchanged, so archive records written before incarnations existed
 * still read as that legacy incarnation's. Employee ids are exactly six digits, so the range from
 * `empid_<id>` up to `empid_<id>/` holds exactly that id's records, one per incarnation.
 */
import { invalidIncarnation } from '../keyErrors';
import { employeeRowKey } from './employees';

/** The incarnation of an employee entity that carries none (written before incarnations). */
export const LEGACY_INCARNATION = 'legacy';

const INCARNATION = /^[0-9a-f]{32}$/;
const SEPARATOR = '.';

/** True for an incarnation id: 32 lowercase hex digits, or {@link LEGACY_INCARNATION}. */
export function isIncarnation(value: string): boolean {
  return value === LEGACY_INCARNATION || INCARNATION.test(value);
}

function assertIncarnation(incarnation: string): void {
  if (!isIncarnation(incarnation)) {
    throw invalidIncarnation(incarnation);
  }
}

/**
 * The archive row key of an entity of one incarnation: its `Employees` row key, unchanged for the
 * legacy incarnation, else suffixed with `.<incarnation>`.
 *
 * @throws {ValidationError} for an invalid incarnation.
 */
export function archiveRowKey(rowKey: string, incarnation: string): string {
  assertIncarnation(incarnation);
  return incarnation === LEGACY_INCARNATION ? rowKey : `${rowKey}${SEPARATOR}${incarnation}`;
}

/** Reverses {@link archiveRowKey}. */
export function parseArchiveRowKey(archived: string): { rowKey: string; incarnation: string } {
  const at = archived.lastIndexOf(SEPARATOR);
  const incarnation = at === -1 ? '' : archived.slice(at + 1);
  if (!INCARNATION.test(incarnation)) return { rowKey: archived, incarnation: LEGACY_INCARNATION };
  return { rowKey: archived.slice(0, at), incarnation };
}

/**
 * Bounds of every archive record of one employee entity, whatever its incarnation.
 *
 * @throws {ValidationError} for an invalid employee id.
 */
export function archivedEmployeeRowKeyRange(employeeId: string): { ge: string; lt: string } {
  const rowKey = employeeRowKey(employeeId);
  // `/` follows `.` and cannot appear in a key: the bound no record reaches.
  return { ge: rowKey, lt: `${rowKey}/` };
}

/**
 * RowKey, in the department's partition of `Employees`, of the receipt an archive leaves when it
 * removes one incarnation of an employee: written in the removal's own entity group transaction,
 * so it exists exactly when that removal committed (src/archive/archiveEmployee.ts).
 * `archived_000223.<incarnation>`.
 *
 * @throws {ValidationError} for an invalid employee id or incarnation.
 */
export function archiveReceiptRowKey(employeeId: string, incarnation: string): string {
  assertIncarnation(incarnation);
  return `archived_${employeeRowKey(employeeId).slice('empid_'.length)}${SEPARATOR}${incarnation}`;
}
