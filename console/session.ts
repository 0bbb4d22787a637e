/**
 * Who is signed in and how the console calls the API for them, kept for the browser tab
 * (sessionStorage), shared by every view, with what the caller may open (abilities.ts).
 */
import type { Session } from './api';
import { abilitiesOf, type Abilities, type Identity } from './abilities';

export {
  canEdit,
  canRead,
  isSelf,
  openableDepartments,
  type Abilities,
  type Identity,
} from './abilities';

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

/** The signed-in caller's abilities. */
export const may = (): Abilities => abilitiesOf(state.identity);
