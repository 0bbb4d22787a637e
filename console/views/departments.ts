/**
 * The departments a caller may open. An admin pages through `GET /departments` (each row with the
 * employee count its listing carries: eventually consistent, as of `countAsOf`) and may create a
 * department; anyone else sees the departments their roles open (one `GET /departments/{dept}`
 * each: exact counts), never one the API would refuse them.
 */
import { api, apiVersioned, ConsoleError } from '../api';
import { actionForm, app, field, h, input, link, loading, plural, seg, showError } from '../dom';
import { href } from '../routes';
import {
  may,
  openableDepartments,
  state,
  type Abilities,
  type Department,
  type Page,
} from '../session';
import { settled } from '../settle';
import { allDepartments } from './departmentNames';
import { heading } from './shell';

/** Departments per page of the admin's list. */
const PAGE_SIZE = 50;

/** A department row as `GET /departments` lists it (or as `GET /departments/{dept}` reads it). */
interface DepartmentRow {
  name: string;
  description: string;
  employeeCount: number;
  /** When a listed count was read (the list's counts follow changes within seconds). */
  countAsOf?: string;
}

function departmentTable(): { table: HTMLTableElement; add(rows: DepartmentRow[]): void } {
  const body = h('tbody');
  const table = h(
    'table',
    { id: 'departments-table', class: 'list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Department'),
        h('th', { scope: 'col', class: 'num' }, 'Employees'),
        h('th', { scope: 'col', class: 'wide-only' }, 'Description'),
      ),
    ),
    body,
  );
  const add = (rows: DepartmentRow[]): void => {
    body.append(
      ...rows.map((d) =>
        h(
          'tr',
          {},
          h(
            'th',
            { scope: 'row' },
            link(href({ view: 'department', department: d.name }), d.name, {
              'data-department': d.name,
            }),
            d.description ? h('div', { class: 'muted narrow-only' }, d.description) : null,
          ),
          h(
            'td',
            d.countAsOf
              ? { class: 'num', title: `Counted ${new Date(d.countAsOf).toLocaleString('en')}` }
              : { class: 'num' },
            d.employeeCount.toLocaleString('en'),
          ),
          h('td', { class: 'wide-only' }, d.description),
        ),
      ),
    );
  };
  return { table, add };
}

/** The admin's form that creates a department, then opens it. */
function createDepartmentForm(): HTMLElement {
  const name = input('name', {
    id: 'new-department-name',
    required: true,
    maxlength: '64',
    pattern: '[A-Za-z0-9 _\\-]+',
    autocomplete: 'off',
  });
  const description = input('description', { id: 'new-department-description', maxlength: '1000' });
  const form = actionForm(
    { id: 'create-department', 'aria-label': 'New department', class: 'stack' },
    [
      field('Name', name, 'Letters, digits, spaces, - and _; up to 64.'),
      field('Description', description),
    ],
    'Create department',
    async () => {
      const department = name.value.trim();
      // PUT would update an existing department: a create form must not. (The list, not a read
      // of the department, which would leave a 404 in the browser's console.)
      if ((await allDepartments()).includes(department))
        throw new ConsoleError(`There is already a department called ${department}.`);
      await apiVersioned<Department>(state.session, 'PUT', `/departments/${seg(department)}`, {
        description: description.value,
      });
      settled(`Created ${department}.`, { view: 'department', department });
    },
  );
  return h('details', { class: 'panel-form' }, h('summary', {}, 'New department'), form);
}

/**
 * The departments the caller's roles open, read one by one (exact counts); one that cannot be
 * read shows as not found in the directory rather than failing the list.
 */
async function renderOpenableDepartments(body: HTMLElement, abilities: Abilities): Promise<void> {
  const names = openableDepartments(abilities);
  const rows = await loading(body, 'your departments', () =>
    Promise.all(
      names.map((d) =>
        api<Department>(state.session, 'GET', `/departments/${seg(d)}`).then(
          (found) => found,
          () => ({
            name: d,
            description: 'Not found in the directory.',
            employeeCount: 0,
            manager: null,
          }),
        ),
      ),
    ),
  );
  if (!rows) return;
  if (rows.length === 0) {
    body.replaceChildren(h('p', {}, 'Your sign-in opens no department of the directory.'));
    return;
  }
  const { table, add } = departmentTable();
  add(rows);
  body.replaceChildren(
    h(
      'p',
      { class: 'muted', id: 'departments-count' },
      `The ${plural(rows.length, 'department')} your roles open.`,
    ),
    table,
  );
}

/**
 * The admin's list of every department, {@link PAGE_SIZE} at a time: `pages` pages at once, then
 * one more per "Show more departments" (the count shown kept in the URL).
 */
async function renderAllDepartments(body: HTMLElement, pages: number): Promise<void> {
  const { table, add } = departmentTable();
  const summary = h('p', { class: 'muted', id: 'departments-count' });
  const more = h(
    'button',
    { type: 'button', id: 'departments-more', class: 'secondary' },
    'Show more departments',
  );
  let shown = 0;
  let loaded = 0;
  let token: string | null = null;
  const load = async (): Promise<boolean> => {
    const query = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
    if (token) query.set('continuationToken', token);
    const page = await api<Page<DepartmentRow>>(
      state.session,
      'GET',
      `/departments?${query.toString()}`,
    );
    add(page.items);
    shown += page.items.length;
    loaded += 1;
    token = page.continuationToken;
    // The list's counts follow changes within seconds; a department's own page counts exactly.
    summary.textContent = token
      ? `The first ${plural(shown, 'department')}; more to show.`
      : `${plural(shown, 'department')}.`;
    summary.title =
      'Employee counts here follow changes within seconds; a department page is exact.';
    more.hidden = !token;
    return true;
  };
  more.addEventListener('click', () => {
    more.disabled = true;
    void load()
      // In the URL: a reload or Back shows as many departments again.
      .then(() => history.replaceState(null, '', href({ view: 'departments', pages: loaded })))
      .catch(showError)
      .finally(() => (more.disabled = false));
  });
  const read = await loading(body, 'the departments', async () => {
    await load();
    while (token && loaded < pages) await load();
    return true;
  });
  if (!read) return;
  body.replaceChildren(
    summary,
    shown === 0 ? h('p', {}, 'No departments yet: create the first one above.') : table,
    more,
  );
}

/** Renders the departments view, the admin's list showing `pages` pages. */
export async function renderDepartments(pages = 1): Promise<void> {
  const abilities = may();
  const body = h('div');
  const section = h('section', { id: 'departments' }, body);
  app.replaceChildren(heading(abilities.admin ? 'Departments' : 'My departments'), section);
  if (!abilities.admin) return renderOpenableDepartments(body, abilities);
  section.before(createDepartmentForm());
  return renderAllDepartments(body, pages);
}
