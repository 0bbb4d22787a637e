/**
 * Identifiers from the API (department names, employee ids) and the checks every key builder runs
 * on them.
 */
import { invalidDepartment, invalidEmployeeId } from './keyErrors';

const DEPARTMENT = /^[A-Za-z0-9 _-]{1,64}$/;
const EMPLOYEE_ID = /^\d{6}$/;

/** True for a valid department name: 1–64 letters, digits, space, `-`, `_`. */
export function isDepartmentName(value: string): boolean {
  return DEPARTMENT.test(value);
}

/** True for a valid employee id: exactly six digits. */
export function isEmployeeId(value: string): boolean {
  return EMPLOYEE_ID.test(value);
}

/** @throws {ValidationError} for an invalid department name (key builders of this folder). */
export function assertDepartment(department: string): void {
  if (!isDepartmentName(department)) {
    throw invalidDepartment(department);
  }
}

/** @throws {ValidationError} for an invalid employee id (key builders of this folder). */
export function assertEmployeeId(employeeId: string): void {
  if (!isEmployeeId(employeeId)) {
    throw invalidEmployeeId(employeeId);
  }
}
