/**
 * Last-name search across the organisation (`GET /employees?lastName=`, through the last-name index
 * entities), limited by the API to the departments the caller may read; the query is in the URL,
 * so a search can be linked and Back returns to it.
 */
import { api } from '../api';
import { app, field, h, input, loading } from '../dom';
import { href } from '../routes';
import { may, state, type Employee, type Page } from '../session';
import { peopleList } from './people';
import { heading } from './shell';

/** Renders the search view for `lastName` (empty: the form alone), `pages` pages of results. */
export async function renderSearch(lastName: string, pages?: number): Promise<void> {
  const box = input('lastName', {
    id: 'last-name',
    required: true,
    value: lastName,
    type: 'search',
    autocomplete: 'off',
  });
  const form = h(
    'form',
    { class: 'row', role: 'search', 'aria-label': 'Last-name search' },
    field('Last name', box),
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = href({ view: 'search', lastName: box.value.trim() });
  });
  const results = h('section', { id: 'results', 'aria-label': 'Results' });
  const abilities = may();
  const scope = abilities.admin
    ? 'the whole organisation'
    : `the departments you may read (${abilities.reads.join(', ') || 'none'})`;
  app.replaceChildren(
    heading(
      lastName ? `“${lastName}”` : 'Search',
      lastName ? [{ text: 'Search', route: { view: 'search', lastName: '' } }] : [],
    ),
    form,
    h(
      'p',
      { class: 'muted' },
      `Finds employees by their whole last name (any case), not by its first letters, in ${scope}.`,
    ),
    results,
  );
  if (!lastName) {
    box.focus();
    return;
  }
  await loading(results, 'the results', async () => {
    const list = await peopleList('results-list', {
      showDepartment: true,
      noun: ['person', 'people'],
      ...(pages ? { pages } : {}),
      onPages: (shown) =>
        history.replaceState(null, '', href({ view: 'search', lastName, pages: shown })),
      page: (token) => {
        const query = new URLSearchParams({ lastName, pageSize: '50' });
        if (token) query.set('continuationToken', token);
        return api<Page<Employee>>(state.session, 'GET', `/employees?${query.toString()}`);
      },
    });
    results.replaceChildren(
      list.querySelector('tbody tr') ? list : h('p', {}, `Nobody called ${lastName} in ${scope}.`),
    );
  });
}
