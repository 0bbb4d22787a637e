/**
 * Who is signed in and how the console calls the API for them, kept for the browser tab
 * (sessionStorage), shared by every view.
 */
import type { Session } from './api';

/** What the signed-in caller is, as far as the console needs to know (the API decides). */
export interface Identity {
  label: string;
  admin: boolean;
  readerOf?: string;
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

/** The session kept for the tab, if any. */
export function savedSession(): { session: Session; identity?: Identity } | undefined {
  const saved = sessionStorage.getItem(SESSION_KEY);
  return saved ? (JSON.parse(saved) as { session: Session; identity?: Identity }) : undefined;
}

/** Forgets the session (sign-out). */
export function forgetSession(): void {
  sessionStorage.removeItem(SESSION_KEY);
  state.session = {};
  state.identity = undefined;
}
