/**
 * Who is signed in and how the console calls the API for them, kept for the browser tab
 * (sessionStorage), shared by every view; and what the caller may open, derived from the roles
 * the way the API decides (src/identity/roles.ts), so the console offers only what will work.
 * The API still decides every request.
 */
import type { Session } from './api';
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

/** An employee as the API returns it. */
export interface Employee {
  department: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  age?: number | null;
  photoUrl?: string;
}

/** A department as `GET /departments/{dept}` returns it. */
export interface Department {
  name: string;
  description: string;
  employeeCount: number;
  manager: { employeeId: string; firstName: string; lastName: string; email: string } | null;
}

/** A page of a list (API.md "Lists"). */
export interface Page<T> {
  items: T[];
  continuationToken: string | null;
}

const SESSION_KEY = 'directory-console-session';

/** The session and identity of this tab (views read them; sign-in and sign-out set them). */
export const state: { session: Session; identity: Identity | undefined } = {
  session: {},
  identity: undefined,
};

/** Keeps the session for the tab (a reload stays signed in). */
export function saveSession(): void {
  sessionStorage.setItem(
    SESSION_KEY,
    JSON.stringify({ session: state.session, identity: state.identity }),
  );
}

/** The session kept for the tab, if any (one saved by an older console, without roles, is not). */
export function savedSession(): { session: Session; identity?: Identity } | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as {
      session: Session;
      identity?: Identity;
    } | null;
    if (!saved || (saved.identity && !Array.isArray(saved.identity.roles))) return undefined;
    return saved;
  } catch {
    return undefined;
  }
}

/** Forgets the session (sign-out). */
export function forgetSession(): void {
  sessionStorage.removeItem(SESSION_KEY);
  state.session = {};
  state.identity = undefined;
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

/** The signed-in caller's abilities. */
export const may = (): Abilities => abilitiesOf(state.identity);

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
