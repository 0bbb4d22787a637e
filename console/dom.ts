/**
 * The console's page and DOM helpers: the fixed elements of index.html, building elements (text
 * is always set as text, never as HTML), the alert box and loading states.
 */
import { ConsoleError } from './api';

/** Where the views render. */
export const app = document.getElementById('app')!;
const errorBox = document.getElementById('error')!;
/** Who is signed in (header). */
export const who = document.getElementById('who')!;
/** The sign-out button (header). */
export const signOut = document.getElementById('sign-out') as HTMLButtonElement;

/** What {@link h} accepts as children (falsy ones are skipped). */
export type Child = Node | string | null | undefined | false;

/** An element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** Shows an error in the alert box. */
export function showError(error: unknown): void {
  const message =
    error instanceof ConsoleError
      ? error.message
      : error instanceof Error
        ? `Something went wrong: ${error.message}`
        : 'Something went wrong.';
  errorBox.textContent = message;
  errorBox.hidden = false;
}

/** Empties the alert box. */
export function clearError(): void {
  errorBox.hidden = true;
  errorBox.textContent = '';
}

/** Runs `work` while `target` shows a loading state; errors land in the alert box. */
export async function loading<T>(
  target: HTMLElement,
  what: string,
  work: () => Promise<T>,
): Promise<T | undefined> {
  target.setAttribute('aria-busy', 'true');
  target.replaceChildren(h('p', { class: 'loading' }, `Loading ${what}…`));
  try {
    return await work();
  } catch (error) {
    target.replaceChildren(h('p', { class: 'muted' }, `Could not load ${what}.`));
    showError(error);
    return undefined;
  } finally {
    target.removeAttribute('aria-busy');
  }
}

/** One URL path segment. */
export const seg = encodeURIComponent;
