/**
 * The rows of an import as the request gives them, screened (importEmployees.ts): each validated,
 * duplicates within the import refused, each refusal placed where it was in the request.
 */
import { normalizeEmail, normalizeLastName } from '../../storage/keys/text';
import { describeIssues, newEmployeeSchema, plainWords, type NewEmployee } from '../validation';

/** One row that was not imported. */
export interface ImportFailure {
  employeeId: string | null;
  error: { code: string; message: string };
}

/** A valid row of an import, with what planning its chunk needs. */
export interface Row extends NewEmployee {
  /** Position in the request, to report failures in request order. */
  position: number;
  /** Normalised last name. */
  lastName: string;
  displayLastName: string;
  bytes: number;
}

/** A refused row and where it was in the request. */
export type PlacedFailure = ImportFailure & { position: number };

export function failure(
  position: number,
  employeeId: unknown,
  code: string,
  message: string,
): PlacedFailure {
  return {
    position,
    employeeId: typeof employeeId === 'string' ? employeeId : null,
    error: { code, message },
  };
}

/** Validates rows and drops duplicates within the import, reporting each refused row. */
export function screenRows(rows: readonly unknown[], failed: PlacedFailure[]): Row[] {
  const valid: Row[] = [];
  const ids = new Set<string>();
  const emails = new Set<string>();
  rows.forEach((raw, i) => {
    // Parsed without the error map first: passing one per call takes zod off its fast path
    // (~4× the time a row); only a refused row is parsed again for its messages.
    const parsed = newEmployeeSchema.safeParse(raw);
    if (!parsed.success) {
      const { error } = newEmployeeSchema.safeParse(raw, { error: plainWords });
      const id = (raw as { employeeId?: unknown } | null)?.employeeId;
      failed.push(
        failure(
          i,
          id,
          'InvalidInput',
          describeIssues((error ?? parsed.error).issues, `employees[${i}]`).message,
        ),
      );
      return;
    }
    const row = parsed.data;
    const email = normalizeEmail(row.email);
    if (ids.has(row.employeeId)) {
      failed.push(
        failure(
          i,
          row.employeeId,
          'DuplicateEmployeeId',
          `employees[${i}]: employee ${row.employeeId} appears more than once in this import.`,
        ),
      );
    } else if (emails.has(email)) {
      failed.push(
        failure(
          i,
          row.employeeId,
          'DuplicateEmail',
          `employees[${i}]: email ${JSON.stringify(row.email)} appears more than once in this import.`,
        ),
      );
    } else {
      ids.add(row.employeeId);
      emails.add(email);
      // Built field by field: a spread of zod's output costs ~50× as much per row.
      valid.push({
        employeeId: row.employeeId,
        firstName: row.firstName,
        email: row.email,
        age: row.age,
        position: i,
        lastName: normalizeLastName(row.lastName),
        displayLastName: row.lastName,
        // Two entities, UTF-16 strings at 2 bytes a character plus property names and framing.
        bytes: 2 * (600 + 2 * (row.firstName.length + row.lastName.length + row.email.length)),
      });
    }
  });
  return valid.sort((a, b) =>
    a.lastName < b.lastName
      ? -1
      : a.lastName > b.lastName
        ? 1
        : a.employeeId < b.employeeId
          ? -1
          : 1,
  );
}
