/**
 * What a caller may open and change in the console, derived from its roles the way the API decides
 * (src/identity/roles.ts), so the console offers only what will work; the API still decides every
 * request. Pure: no DOM (unit-tested in test/unit/console/).
 */
import {
  DIRECTORY_ADMIN,
  parseDirectoryEditorRole,
  parseDirectoryReaderRole,
} from '../src/identity/roles';

/** What the signed-in caller is, as far as the console needs to know. */
export interface Identity {
  /** A name to show ("Ada Admin", "Employee 000042 of Sales"). */
  label: string;
  /** The `roles` claims, as `GET /me` lists them. */
  roles: string[];
  /** The employee the caller is (its `department` and `employeeId` claims). */
  employee?: { department: string; employeeId: string };
}

/** What the caller may open and change, as the API's rules decide it (pure). */
export interface Abilities {
  admin: boolean;
  /** Departments whose directory the caller may read (`DirectoryReader:{dept}`). */
  reads: string[];
  /** Departments the caller may write (`DirectoryEditor:{dept}`). */
  edits: string[];
  employee?: { department: string; employeeId: string };
}

/** The abilities of an identity (none when nobody is signed in). */
export function abilitiesOf(identity: Identity | undefined): Abilities {
  const roles = identity?.roles ?? [];
  const reads = roles.map(parseDirectoryReaderRole).filter((d): d is string => d !== undefined);
  const edits = roles.map(parseDirectoryEditorRole).filter((d): d is string => d !== undefined);
  return {
    admin: roles.includes(DIRECTORY_ADMIN),
    reads: [...new Set(reads)].sort(),
    edits: [...new Set(edits)].sort(),
    ...(identity?.employee ? { employee: identity.employee } : {}),
  };
}

/** May list the department's employees and open their cards. */
export function canRead(abilities: Abilities, department: string): boolean {
  return abilities.admin || abilities.reads.includes(department);
}

/** May change the department, its employees, their photos and reviews. */
export function canEdit(abilities: Abilities, department: string): boolean {
  return abilities.admin || abilities.edits.includes(department);
}

/** Is that employee. */
export function isSelf(abilities: Abilities, department: string, employeeId: string): boolean {
  return (
    abilities.employee?.department === department && abilities.employee.employeeId === employeeId
  );
}

/** The departments the caller may open (admins: all of them, listed by the API instead). */
export function openableDepartments(abilities: Abilities): string[] {
  return [...new Set([...abilities.reads, ...abilities.edits])].sort();
}
