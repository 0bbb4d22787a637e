/**
 * One employee: the card (one point read, with the department's for its manager; the photo through
 * its read SAS), then what this caller may see and do about them — edit, photo upload, manager,
 * move, archive, reviews, expenses and message statistics. Each part is its own module; this one
 * lays them out. An employee the directory no longer has gets a card that says so, with no action.
 */
import { api, apiVersioned, ConsoleError } from '../api';
import { app, h, link, seg, showError } from '../dom';
import { href } from '../routes';
import { canEdit, canRead, isSelf, may, state, type Department, type Employee } from '../session';
import { mailtoHref } from '../text';
import { employeeActions } from './employeeActions';
import { renderExpenses } from './expenses';
import { renderHourly, renderYear } from './messages';
import { photoFrame } from './photo';
import { renderReviews } from './reviews';
import { heading } from './shell';

function card(employee: Employee, photo: HTMLElement, manages: boolean): HTMLElement {
  return h(
    'div',
    { class: 'card', id: 'employee-card' },
    photo,
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Email'),
      // Encoded: a stored address from before the email rule may carry `?bcc=` or `%40`.
      h('dd', { class: 'email' }, h('a', { href: mailtoHref(employee.email) }, employee.email)),
      h('dt', {}, 'Department'),
      h('dd', {}, employee.department),
      h('dt', {}, 'Employee id'),
      h('dd', {}, employee.employeeId),
      typeof employee.age === 'number' ? h('dt', {}, 'Age') : null,
      typeof employee.age === 'number' ? h('dd', {}, String(employee.age)) : null,
      manages ? h('dt', {}, 'Role') : null,
      manages ? h('dd', { id: 'employee-role' }, `Manager of ${employee.department}`) : null,
    ),
  );
}

/** What the card shows when the employee cannot be read: gone (404), or the error. */
function notThere(department: string, employeeId: string, error: unknown): HTMLElement[] {
  if (!(error instanceof ConsoleError) || error.status !== 404) {
    showError(error);
    return [h('p', { class: 'muted' }, 'Could not load the employee.')];
  }
  const title = app.querySelector('#view-title');
  if (title) title.textContent = 'Not in the directory';
  return [
    h(
      'p',
      { id: 'employee-gone' },
      `${department} has no employee ${employeeId}: they may have moved to another department or been archived.`,
    ),
    h('p', {}, link(href({ view: 'department', department }), `Open ${department}`)),
  ];
}

/** Renders the employee view. */
export async function renderEmployee(department: string, employeeId: string): Promise<void> {
  const abilities = may();
  const self = isSelf(abilities, department, employeeId);
  const trail =
    canRead(abilities, department) || canEdit(abilities, department)
      ? [
          ...(abilities.admin
            ? [{ text: 'Departments', route: { view: 'departments' } as const }]
            : []),
          { text: department, route: { view: 'department', department } as const },
        ]
      : [];
  const top = h('section', { id: 'card' });
  app.replaceChildren(heading(self ? 'My card' : 'Employee', trail), top);
  const path = `/departments/${seg(department)}/employees/${seg(employeeId)}`;
  top.setAttribute('aria-busy', 'true');
  top.replaceChildren(h('p', { class: 'loading' }, 'Loading the employee…'));
  let read: { value: Employee; etag: string | undefined };
  let departmentRead: Department | undefined;
  try {
    [read, departmentRead] = await Promise.all([
      apiVersioned<Employee>(state.session, 'GET', path),
      // Only for its manager: the card stands without it.
      api<Department>(state.session, 'GET', `/departments/${seg(department)}`).catch(
        () => undefined,
      ),
    ]);
  } catch (error) {
    if (top.isConnected) top.replaceChildren(...notThere(department, employeeId, error));
    return;
  } finally {
    top.removeAttribute('aria-busy');
  }
  // Another view drawn meanwhile (the person went on): this one adds nothing to it.
  if (!top.isConnected) return;
  const employee = read.value;
  const manages = departmentRead?.manager?.employeeId === employee.employeeId;
  const title = app.querySelector('#view-title');
  if (title) title.textContent = `${employee.firstName} ${employee.lastName}`;
  document.title = `${employee.firstName} ${employee.lastName} · Directory console`;
  top.replaceChildren(card(employee, photoFrame(employee), manages));
  const mayEdit = canEdit(abilities, department);
  if (mayEdit || self || abilities.admin) {
    top.append(
      employeeActions(employee, read.etag, {
        mayEdit,
        self,
        admin: abilities.admin,
        mayList: canRead(abilities, department),
        isManager: manages,
      }),
    );
  }
  // Reviews: the employee or the department's editors; expenses and messages: the employee (and
  // admins, who may do everything).
  const sections: HTMLElement[] = [];
  if (self || mayEdit) {
    const reviews = h('section', { id: 'reviews' }, h('h3', {}, 'Reviews'));
    sections.push(reviews);
    void renderReviews(reviews, path, mayEdit);
  }
  if (self || abilities.admin) {
    const expenses = h('section', { id: 'expenses' }, h('h3', {}, 'Expenses'));
    const chart = h('section', { id: 'chart' }, h('h3', {}, 'Messages in the last 24 hours'));
    const heat = h(
      'section',
      { id: 'heat' },
      h('h3', {}, `Messages in ${new Date().getUTCFullYear()}`),
    );
    sections.push(expenses, chart, heat);
    void renderExpenses(expenses, department, employeeId);
    void renderHourly(chart, path);
    void renderYear(heat, path);
  }
  app.append(...sections);
}
