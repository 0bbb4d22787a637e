/**
 * The console's page and DOM helpers: the fixed elements of index.html, building elements (text
 * is always set as text, never as HTML), the alert box, loading states, and labelled form fields
 * whose submission shows its progress and its error next to the form.
 */
import { ConsoleError } from './api';
import { EMAIL_RULE, isDirectoryEmail } from '../src/directory/emailRule';
import { inPeoplesWords } from './text';

export { plural } from './figures';

/** Where the views render. */
export const app = document.getElementById('app')!;
const errorBox = document.getElementById('error')!;
const noticeBox = document.getElementById('notice')!;
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

/** Shows what the last action did above the view (none: hides the line). */
export function showNotice(text: string | undefined): void {
  noticeBox.textContent = text ?? '';
  noticeBox.hidden = !text;
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

/** The visible label of `form`'s control named `name`, if it has one. */
function labelOf(form: HTMLFormElement, name: string): string | undefined {
  const control = form.querySelector(`[name="${CSS.escape(name)}"]`);
  if (!control?.id) return undefined;
  return form.querySelector(`label[for="${CSS.escape(control.id)}"]`)?.textContent ?? undefined;
}

/** An error of `form`'s work in a person's words, the fields it names marked invalid. */
function formMessage(form: HTMLFormElement, error: unknown): string {
  if (!(error instanceof ConsoleError)) return messageOf(error);
  for (const problem of error.problems) {
    const name = /^(?:body|query)\.([A-Za-z0-9_]+)/i.exec(problem.field)?.[1];
    const control = name ? form.querySelector(`[name="${CSS.escape(name)}"]`) : null;
    control?.setAttribute('aria-invalid', 'true');
  }
  return inPeoplesWords(error.message, error.problems, (name) => labelOf(form, name));
}

/**
 * A form that runs `work` on submit: its submit button is disabled meanwhile, and what it says
 * (done, or the API's error in the form's own words) appears in its own status line
 * (`role="status"`, errors as `role="alert"`), next to the fields, instead of the page's alert
 * box. An error goes as soon as the person changes a field (or the browser finds another problem):
 * it would no longer be about what the form holds.
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
  const clearProblem = (): void => {
    if (!status.classList.contains('bad')) return;
    status.className = 'form-status';
    status.setAttribute('role', 'status');
    status.textContent = '';
    for (const marked of form.querySelectorAll('[aria-invalid]'))
      marked.removeAttribute('aria-invalid');
  };
  form.addEventListener('input', clearProblem);
  form.addEventListener('change', clearProblem);
  // `invalid` does not bubble: caught on its way down instead.
  form.addEventListener('invalid', clearProblem, true);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearError();
    clearProblem();
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
        status.textContent = formMessage(form, error);
        button.disabled = false;
      },
    );
  });
  return form;
}

/**
 * Names each body cell of `table` after its column, so a narrow screen can stack a row's cells
 * under their names (`table.stack` in styles.css) instead of scrolling sideways. Call it again
 * after adding rows.
 */
export function stackRows(table: HTMLTableElement): void {
  table.classList.add('stack');
  const names = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, i) => {
      if (cell.tagName === 'TD' && names[i]) cell.setAttribute('data-label', names[i]);
    });
  }
}

/** A link inside the console (a route's fragment). */
export function link(
  href: string,
  text: string,
  attributes: Record<string, string> = {},
): HTMLAnchorElement {
  return h('a', { href, ...attributes }, text);
}
