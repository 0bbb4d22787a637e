/**
 * Deterministic employee bodies shared by the benchmark cases: ids 000001.., 200 last names (so
 * last-name index entities hold many ids), unique emails.
 */

/** The API body of employee number `n`. */
export interface BenchEmployee {
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  age: number;
}

/** Employee number `n` (1-based), the same in every case and run. */
export function benchEmployee(n: number): BenchEmployee {
  const employeeId = String(n).padStart(6, '0');
  return {
    employeeId,
    firstName: `First${n % 500}`,
    lastName: `Surname${String(n % 200).padStart(3, '0')}`,
    email: `employee.${employeeId}@contoso.com`,
    age: 20 + (n % 45),
  };
}
