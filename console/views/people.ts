/** Departments, their employees and the organisation-wide last-name search. */
import { api } from '../api';
import { clearError, h, loading, seg } from '../dom';
import { state, type Employee } from '../session';
import { renderEmployee } from './employee';

/** Lists the departments (each opens its employees) and the last-name search form. */
export async function renderDepartments(
  section: HTMLElement,
  people: HTMLElement,
  card: HTMLElement,
): Promise<void> {
  const body = h('div');
  section.append(body);
  const list = await loading(body, 'departments', () =>
    api<{ items: { name: string; employeeCount?: number; description?: string }[] }>(
      state.session,
      'GET',
      '/departments?pageSize=100',
    ),
  );
  if (!list) return;
  if (list.items.length === 0) {
    body.replaceChildren(h('p', { class: 'muted' }, 'No departments yet.'));
    return;
  }
  body.replaceChildren(
    h(
      'ul',
      { class: 'plain' },
      ...list.items.map((d) => {
        const button = h(
          'button',
          { type: 'button', class: 'link', 'data-department': d.name },
          d.name,
        );
        button.addEventListener('click', () => void renderPeople(people, card, d.name));
        return h(
          'li',
          {},
          button,
          d.description ? h('span', { class: 'muted' }, ` — ${d.description}`) : null,
        );
      }),
    ),
  );
  const search = h('input', { id: 'last-name', name: 'lastName', required: true });
  const form = h(
    'form',
    { class: 'row', 'aria-label': 'Last-name search' },
    h('label', {}, 'Last name', search),
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void renderSearch(people, card, search.value.trim());
  });
  section.append(h('h2', {}, 'Search the organisation'), form);
}

function peopleTable(items: Employee[], card: HTMLElement): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, 'Nobody here.');
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, h('th', {}, 'Id'), h('th', {}, 'Name'), h('th', {}, 'Department'))),
    h(
      'tbody',
      {},
      ...items.map((e) => {
        const open = h('button', { type: 'button', class: 'link' }, `${e.firstName} ${e.lastName}`);
        open.addEventListener('click', () => void renderEmployee(card, e.department, e.employeeId));
        return h('tr', {}, h('td', {}, e.employeeId), h('td', {}, open), h('td', {}, e.department));
      }),
    ),
  );
}

/** Lists the employees of one department. */
export async function renderPeople(
  section: HTMLElement,
  card: HTMLElement,
  department: string,
): Promise<void> {
  clearError();
  const body = h('div');
  section.replaceChildren(h('h2', {}, `Employees of ${department}`), body);
  const list = await loading(body, `the employees of ${department}`, () =>
    api<{ items: Employee[] }>(
      state.session,
      'GET',
      `/departments/${seg(department)}/employees?pageSize=100`,
    ),
  );
  if (list) body.replaceChildren(peopleTable(list.items, card));
}

async function renderSearch(
  section: HTMLElement,
  card: HTMLElement,
  lastName: string,
): Promise<void> {
  clearError();
  const body = h('div');
  section.replaceChildren(h('h2', {}, `Last name “${lastName}”`), body);
  const list = await loading(body, 'the search results', () =>
    api<{ items: Employee[] }>(
      state.session,
      'GET',
      `/employees?lastName=${seg(lastName)}&pageSize=100`,
    ),
  );
  if (list) body.replaceChildren(peopleTable(list.items, card));
}
