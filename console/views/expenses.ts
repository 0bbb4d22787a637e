/**
 * The employee's expense claims, newest first, read by the browser straight from the table
 * endpoint with an expenses SAS (log tail + valet key), ten at a time following storage's own
 * continuation; and a form that adds a claim through the API.
 */
import {
  api,
  ConsoleError,
  readExpenses,
  type ExpenseRow,
  type SasGrant,
  type TableContinuation,
} from '../api';
import { actionForm, field, h, input, loading, seg, showError, stackRows } from '../dom';
import { state } from '../session';
import { settled } from '../settle';

/** Claims per page. */
const TOP = 10;

/** Currencies offered first (any ISO 4217 code is accepted by the API). */
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'PLN', 'JPY', 'INR', 'CNY', 'BRL', 'NGN'];

function money(row: ExpenseRow): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: row.currency }).format(
      row.amount,
    );
  } catch {
    return `${row.amount.toFixed(2)} ${row.currency}`;
  }
}

function when(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? ''
    : at.toLocaleString('en-GB', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'UTC',
      });
}

/** How the rows were read: the pattern, for whoever wants to know (not the main text). */
function howRead(grant: SasGrant): HTMLElement {
  return h(
    'details',
    { class: 'how' },
    h('summary', {}, 'How this was read'),
    h(
      'p',
      {},
      'Your browser read these rows straight from table storage (',
      h('code', {}, new URL(grant.url).host),
      `) with a read-only key for your partition only, valid until ${when(grant.expiresOn)} UTC. ` +
        'The app handed out the key; the rows never passed through it. Newest first: the row key is ' +
        'inverted time, so storage returns them in that order.',
    ),
  );
}

function expensesTable(): { table: HTMLTableElement; tbody: HTMLTableSectionElement } {
  const tbody = h('tbody');
  const table = h(
    'table',
    { id: 'expenses-table', class: 'list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Submitted (UTC)'),
        h('th', { scope: 'col' }, 'Description'),
        h('th', { scope: 'col', class: 'num' }, 'Amount'),
      ),
    ),
    tbody,
  );
  return { table, tbody };
}

/**
 * Shows the claims in `body`, {@link TOP} at a time: the first page at once, the next one per
 * "Show older claims", each read from storage with a SAS asked for again near its end.
 */
async function renderClaims(body: HTMLElement, sasPath: string): Promise<void> {
  const { table, tbody } = expensesTable();
  const older = h(
    'button',
    { type: 'button', class: 'secondary', id: 'expenses-older', hidden: true },
    'Show older claims',
  );
  let grant: SasGrant | undefined;
  let next: TableContinuation | undefined;
  const page = async (): Promise<number> => {
    // A token lives 15 minutes: ask again when it is near its end.
    if (!grant || Date.parse(grant.expiresOn) - Date.now() < 60_000)
      grant = await api<SasGrant>(state.session, 'POST', sasPath, {});
    const result = await readExpenses(grant, TOP, next);
    next = result.next;
    tbody.append(
      ...result.rows.map((r) =>
        h(
          'tr',
          {},
          h('td', { class: 'when' }, when(r.submittedAt)),
          h('td', {}, r.description),
          h('td', { class: 'num' }, money(r)),
        ),
      ),
    );
    stackRows(table);
    older.hidden = !next;
    return result.rows.length;
  };
  const first = async (): Promise<void> => {
    tbody.replaceChildren();
    next = undefined;
    let rows: number;
    try {
      rows = await page();
    } catch (error) {
      // Storage has no expenses table before the first claim of all: nothing to show yet.
      if (!(error instanceof ConsoleError) || error.code !== 'TableNotFound') throw error;
      body.replaceChildren(h('p', { class: 'muted' }, 'No expense claims yet.'));
      return;
    }
    body.replaceChildren(
      rows === 0 ? h('p', { class: 'muted' }, 'No expense claims yet.') : table,
      older,
      howRead(grant!),
    );
  };
  older.addEventListener('click', () => {
    older.disabled = true;
    void page()
      .catch(showError)
      .finally(() => (older.disabled = false));
  });
  await loading(body, 'the expenses', first);
}

/** The form that adds a claim of the employee through the API. */
function addExpenseForm(department: string, employeeId: string): HTMLElement {
  const amount = input('amount', {
    id: 'expense-amount',
    type: 'number',
    min: '0.01',
    step: '0.01',
    required: true,
    inputmode: 'decimal',
  });
  const currency = h(
    'select',
    { name: 'currency', id: 'expense-currency' },
    ...CURRENCIES.map((c) => h('option', { value: c }, c)),
  );
  const description = input('description', {
    id: 'expense-description',
    required: true,
    maxlength: '1000',
  });
  const date = input('submittedAt', { id: 'expense-date', type: 'date' });
  const form = actionForm(
    { id: 'add-expense', 'aria-label': 'Add an expense', class: 'grid-form' },
    [
      field('Amount', amount),
      field('Currency', currency),
      field('Description', description),
      field('Date (optional, default now)', date),
    ],
    'Add expense',
    async () => {
      const claim: Record<string, unknown> = {
        amount: Number(amount.value),
        currency: currency.value,
        description: description.value,
      };
      if (date.value) claim.submittedAt = new Date(`${date.value}T12:00:00Z`).toISOString();
      await api(
        state.session,
        'POST',
        `/departments/${seg(department)}/employees/${seg(employeeId)}/expenses`,
        claim,
      );
      settled('Added the expense.');
    },
  );
  return h('details', { class: 'panel-form' }, h('summary', {}, 'Add an expense'), form);
}

/** Renders the expenses and the form that adds one. */
export async function renderExpenses(
  section: HTMLElement,
  department: string,
  employeeId: string,
): Promise<void> {
  const body = h('div');
  section.append(body);
  await renderClaims(body, `/sas/expenses/${seg(department)}/${seg(employeeId)}`);
  section.append(addExpenseForm(department, employeeId));
}
