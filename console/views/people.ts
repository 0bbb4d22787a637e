/**
 * A list of employees that pages through continuation tokens: "100 of 150 employees" (when the
 * total is known, from the department's count) and a button that shows the next page, until the
 * API says there is no more. How many pages show is the URL's (`pages=`), so a reload or Back
 * shows as many again.
 */
import { h, link, plural, showError } from '../dom';
import { href } from '../routes';
import type { Employee, Page } from '../session';

/** What the list needs: how to read a page, and the total when one is known. */
export interface PeopleSource {
  /** Reads the page after `token` (`null`: the first). */
  page(token: string | null): Promise<Page<Employee>>;
  /** The number of employees in all (a department's count); unknown for a search. */
  total?: number;
  /** Shows each employee's department (a search across departments). */
  showDepartment?: boolean;
  /** What the list is of, in the count line ("employees", "results"). */
  noun?: [string, string];
  /** Pages to show at once (the URL's `pages=`: "Show more" survives a reload and Back). */
  pages?: number;
  /** Told how many pages show after each "Show more" (to keep it in the URL). */
  onPages?: (pages: number) => void;
}

/**
 * Builds the list and loads its first page.
 *
 * @throws {ConsoleError} when the first page cannot be read (later pages report in the alert box).
 */
export async function peopleList(id: string, source: PeopleSource): Promise<HTMLElement> {
  const [one, many] = source.noun ?? ['employee', 'employees'];
  const body = h('tbody');
  const columns = [
    h('th', { scope: 'col' }, 'Name'),
    h('th', { scope: 'col' }, 'Id'),
    source.showDepartment ? h('th', { scope: 'col' }, 'Department') : null,
    h('th', { scope: 'col', class: 'wide-only' }, 'Email'),
  ];
  const table = h('table', { id, class: 'list' }, h('thead', {}, h('tr', {}, ...columns)), body);
  const count = h('p', { class: 'count', id: `${id}-count`, 'aria-live': 'polite' });
  const more = h('button', { type: 'button', class: 'secondary', id: `${id}-more` });
  let shown = 0;
  let pages = 0;
  let token: string | null = null;
  const load = async (): Promise<void> => {
    const page = await source.page(token);
    body.append(
      ...page.items.map((e) =>
        h(
          'tr',
          {},
          h(
            'th',
            { scope: 'row' },
            link(
              href({ view: 'employee', department: e.department, employeeId: e.employeeId }),
              `${e.firstName} ${e.lastName}`,
            ),
            h('div', { class: 'muted narrow-only email' }, e.email),
          ),
          h('td', { class: 'id' }, e.employeeId),
          source.showDepartment ? h('td', {}, e.department) : null,
          h('td', { class: 'wide-only email' }, e.email),
        ),
      ),
    );
    shown += page.items.length;
    pages += 1;
    token = page.continuationToken;
    const total = source.total !== undefined ? Math.max(source.total, shown) : undefined;
    count.textContent =
      total !== undefined
        ? `${shown.toLocaleString('en')} of ${plural(total, one, many)}`
        : `${plural(shown, one, many)}${token ? ' so far' : ''}`;
    const left = total !== undefined ? total - shown : undefined;
    more.textContent =
      left !== undefined && left > 0
        ? `Show more (${left.toLocaleString('en')} left)`
        : 'Show more';
    more.hidden = !token;
    table.hidden = shown === 0;
  };
  more.addEventListener('click', () => {
    more.disabled = true;
    void load()
      .then(() => source.onPages?.(pages))
      .catch(showError)
      .finally(() => {
        more.disabled = false;
      });
  });
  await load();
  while (token && pages < (source.pages ?? 1)) await load();
  return h('div', { class: 'people' }, count, table, more);
}
