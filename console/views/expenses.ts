/** The employee's newest expenses, read directly from the table endpoint with an expenses SAS. */
import { api, readExpenses, type SasGrant } from '../api';
import { h, loading, seg } from '../dom';
import { state } from '../session';

/** Renders the newest expenses of one employee. */
export async function renderExpenses(
  section: HTMLElement,
  department: string,
  employeeId: string,
): Promise<void> {
  const body = h('div');
  section.append(body);
  const result = await loading(body, 'the expenses', async () => {
    const grant = await api<SasGrant>(
      state.session,
      'POST',
      `/sas/expenses/${seg(department)}/${seg(employeeId)}`,
      {},
    );
    return { grant, rows: await readExpenses(grant, 10) };
  });
  if (!result) return;
  const { grant, rows } = result;
  const endpoint = new URL(grant.url);
  body.replaceChildren(
    rows.length === 0
      ? h('p', { class: 'muted' }, 'No expense claims yet.')
      : h(
          'table',
          { id: 'expenses-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'Submitted'),
              h('th', {}, 'Description'),
              h('th', {}, 'Amount'),
            ),
          ),
          h(
            'tbody',
            {},
            ...rows.map((r) =>
              h(
                'tr',
                {},
                h('td', {}, r.submittedAt.slice(0, 16).replace('T', ' ')),
                h('td', {}, r.description),
                h('td', { class: 'num' }, `${r.amount.toFixed(2)} ${r.currency}`),
              ),
            ),
          ),
        ),
    h(
      'p',
      { class: 'source' },
      `Read from the table endpoint ${endpoint.host} with a SAS valid until ${grant.expiresOn}.`,
    ),
  );
}
