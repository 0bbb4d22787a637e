/**
 * The console's page and DOM helpers: the fixed elements of index.html, building elements (text
 * is always set as text, never as HTML), the alert box, loading states, and labelled form fields
 * whose submission shows its progress and its error next to the form.
 */
import { ConsoleError } from './api';
import { EMAIL_RULE, isDirectoryEmail } from '../src/directory/emailRule';

export { plural } from './figures';

/** Where the views render. */
export const app = document.getElementById('app')!;
const errorBox = document.getElementById('error')!;
/** Who is signed in (header). */
export const who = document.getElementById('who')!;
/** The main navigation (header). */
export const nav = document.getElementById('nav')!;
/** The sign-out button (header). */
export const signOut = document.getElementById('sign-out') as HTMLButtonElement;

/** What {@link h} accepts as children (falsy ones are skipped). */
export type Child = Node | string | null | undefined | false;

/** An element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** The sentence an error shows to a person. */
export function messageOf(error: unknown): string {
  return error instanceof ConsoleError
    ? error.message
    : error instanceof Error
      ? `Something went wrong: ${error.message}`
      : 'Something went wrong.';
}

/** Shows an error in the alert box. */
export function showError(error: unknown): void {
  errorBox.textContent = messageOf(error);
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

let fieldIds = 0;

/**
 * A control with its visible label (`<label for>`) and, below it, an optional hint the control
 * is described by (so a screen reader reads the label as its name, then the hint).
 */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  if (!control.id) control.id = `field-${++fieldIds}`;
  const hintElement = hint ? h('small', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: control.id, class: 'label' }, label),
    control,
    hintElement,
  );
}

/** A text input (`attributes` as in {@link h}). */
export function input(
  name: string,
  attributes: Record<string, string | boolean | undefined> = {},
): HTMLInputElement {
  return h('input', { name, ...attributes });
}

/**
 * An email input held to the API's one rule (src/directory/emailRule.ts), not the browser's
 * looser `type="email"` one: a value the API would refuse is refused before it is sent, with the
 * rule in words. A value it was given (a row stored under the looser rule before) is not judged
 * until it is edited.
 */
export function emailInput(
  attributes: Record<string, string | boolean | undefined> = {},
): HTMLInputElement {
  const email = input('email', {
    type: 'text',
    inputmode: 'email',
    spellcheck: 'false',
    autocapitalize: 'off',
    ...attributes,
  });
  email.addEventListener('input', () => {
    const value = email.value.trim();
    email.setCustomValidity(value === '' || isDirectoryEmail(value) ? '' : `Email ${EMAIL_RULE}.`);
  });
  return email;
}

/**
 * A form that runs `work` on submit: its submit button is disabled meanwhile, and what it says
 * (done, or the API's error) appears in its own status line (`role="status"`, errors as
 * `role="alert"`), next to the fields, instead of the page's alert box.
 */
export function actionForm(
  attributes: Record<string, string>,
  fields: Child[],
  submit: string,
  work: (status: (text: string) => void) => Promise<string | void>,
): HTMLFormElement {
  const button = h('button', { type: 'submit' }, submit);
  const status = h('p', { class: 'form-status', role: 'status' });
  const form = h('form', attributes, ...fields, h('div', { class: 'actions' }, button), status);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearError();
    button.disabled = true;
    status.className = 'form-status';
    status.setAttribute('role', 'status');
    status.textContent = 'Working…';
    work((text) => (status.textContent = text)).then(
      (done) => {
        status.textContent = done ?? '';
        button.disabled = false;
      },
      (error: unknown) => {
        status.className = 'form-status bad';
        status.setAttribute('role', 'alert');
        status.textContent = messageOf(error);
        button.disabled = false;
      },
    );
  });
  return form;
}

/** A link inside the console (a route's fragment). */
export function link(
  href: string,
  text: string,
  attributes: Record<string, string> = {},
): HTMLAnchorElement {
  return h('a', { href, ...attributes }, text);
}
