/**
 * The web console: sign-in, departments and their employees, last-name search, an employee card
 * (photo through its read SAS), the employee's newest expenses read directly from the table
 * endpoint (expenses SAS), the 24-hour message chart (uPlot), the year heat map and, for an admin,
 * a log window read directly from blob storage (logs SAS). docs/console.md says which storage
 * pattern each view shows.
 */
import uPlot from 'uplot';
import { directoryReaderRole } from '../src/identity/roles';
import {
  api,
  ConsoleError,
  readExpenses,
  readLogHour,
  hourPrefix,
  type SasGrant,
  type Session,
} from './api';
import { operationsPage } from './views/operations';

/** What the signed-in caller is, as far as the console needs to know (the API decides). */
interface Identity {
  label: string;
  admin: boolean;
  readerOf?: string;
  employee?: { department: string; employeeId: string };
}

interface Employee {
  department: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  age?: number | null;
  photoUrl?: string;
}

const app = document.getElementById('app')!;
const errorBox = document.getElementById('error')!;
const who = document.getElementById('who')!;
const signOut = document.getElementById('sign-out') as HTMLButtonElement;

const SESSION_KEY = 'directory-console-session';

let session: Session = {};
let identity: Identity | undefined;

// ---------------------------------------------------------------------------------------------
// DOM helpers (text is always set as text, never as HTML).

type Child = Node | string | null | undefined | false;

function h<K extends keyof HTMLElementTagNameMap>(
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

function showError(error: unknown): void {
  const message =
    error instanceof ConsoleError
      ? error.message
      : error instanceof Error
        ? `Something went wrong: ${error.message}`
        : 'Something went wrong.';
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function clearError(): void {
  errorBox.hidden = true;
  errorBox.textContent = '';
}

/** Runs `work` while `target` shows a loading state; errors land in the alert box. */
async function loading<T>(
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

const seg = encodeURIComponent;

// ---------------------------------------------------------------------------------------------
// Sign-in.

/** The principal header a developer sign-in sends (the shape App Service authentication sends). */
function principalHeader(claims: { typ: string; val: string }[]): string {
  const body = JSON.stringify({ auth_typ: 'aad', name_typ: 'name', role_typ: 'roles', claims });
  const bytes = new TextEncoder().encode(body);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function developerIdentity(
  kind: string,
  department: string,
  employeeId: string,
): { identity: Identity; principal: string } {
  if (kind === 'admin') {
    return {
      identity: { label: 'Developer: DirectoryAdmin', admin: true },
      principal: principalHeader([
        { typ: 'oid', val: 'console-admin' },
        { typ: 'name', val: 'Console admin' },
        { typ: 'roles', val: 'DirectoryAdmin' },
      ]),
    };
  }
  if (kind === 'reader') {
    return {
      identity: { label: `Developer: reader of ${department}`, admin: false, readerOf: department },
      principal: principalHeader([
        { typ: 'oid', val: `console-reader-${department}` },
        { typ: 'name', val: `Reader of ${department}` },
        { typ: 'roles', val: directoryReaderRole(department) },
      ]),
    };
  }
  return {
    identity: {
      label: `Developer: employee ${employeeId} of ${department}`,
      admin: false,
      employee: { department, employeeId },
    },
    principal: principalHeader([
      { typ: 'oid', val: `console-employee-${department}-${employeeId}` },
      { typ: 'name', val: `Employee ${employeeId}` },
      { typ: 'department', val: department },
      { typ: 'employeeId', val: employeeId },
    ]),
  };
}

function saveSession(): void {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify({ session, identity }));
}

function renderSignIn(mode: 'developer' | 'appService'): void {
  who.textContent = '';
  signOut.hidden = true;
  if (mode === 'appService') {
    const key = h('input', { id: 'function-key', type: 'password', autocomplete: 'off' });
    const form = h(
      'form',
      { class: 'row', 'aria-label': 'Sign in' },
      h('label', {}, 'Function key (if the API asks for one)', key),
      h('button', { type: 'submit' }, 'Continue'),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      session = { ...(key.value ? { functionKey: key.value } : {}) };
      void startAzureSession();
    });
    app.replaceChildren(
      h(
        'section',
        { class: 'wide' },
        h('h2', {}, 'Sign in'),
        h(
          'p',
          {},
          'This console signs you in with Microsoft Entra ID through App Service authentication. ',
          h(
            'a',
            { href: `/.auth/login/aad?post_login_redirect_uri=${seg(location.pathname)}` },
            'Sign in with Microsoft',
          ),
          ', then continue.',
        ),
        form,
      ),
    );
    return;
  }
  const kind = h(
    'select',
    { id: 'kind', name: 'kind' },
    h('option', { value: 'employee' }, 'An employee'),
    h('option', { value: 'reader' }, 'A reader of a department'),
    h('option', { value: 'admin' }, 'DirectoryAdmin'),
  );
  const department = h('input', {
    id: 'department',
    name: 'department',
    value: '',
    required: true,
  });
  const employeeId = h('input', {
    id: 'employee-id',
    name: 'employeeId',
    value: '000001',
    pattern: '\\d{6}',
    inputmode: 'numeric',
  });
  const employeeLabel = h('label', {}, 'Employee id', employeeId);
  const departmentLabel = h('label', {}, 'Department', department);
  const sync = (): void => {
    employeeLabel.hidden = kind.value !== 'employee';
    departmentLabel.hidden = kind.value === 'admin';
    department.required = kind.value !== 'admin';
  };
  kind.addEventListener('change', sync);
  sync();
  const form = h(
    'form',
    { class: 'row', 'aria-label': 'Developer sign-in' },
    h('label', {}, 'Sign in as', kind),
    departmentLabel,
    employeeLabel,
    h('button', { type: 'submit', id: 'sign-in' }, 'Sign in'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = developerIdentity(kind.value, department.value.trim(), employeeId.value.trim());
    session = { principal: chosen.principal };
    identity = chosen.identity;
    saveSession();
    void renderHome();
  });
  app.replaceChildren(
    h(
      'section',
      { class: 'wide' },
      h('h2', {}, 'Developer sign-in'),
      h(
        'p',
        { class: 'muted' },
        'Local only: the console sends the principal you pick as the x-ms-client-principal header, ' +
          'which this host believes because TRUST_LOCAL_PRINCIPAL_HEADER is on. In Azure this form ' +
          'is replaced by App Service authentication.',
      ),
      form,
    ),
  );
  kind.focus();
}

/**
 * In Azure: who the app believes the caller is (`GET /api/me`). App Service's own `/.auth/me`
 * answers only with the token store on, which the infra keeps off; the app's answer is also the
 * one its authorization decides by.
 */
async function startAzureSession(quiet = false): Promise<void> {
  let me: {
    userId?: string;
    name?: string;
    roles: string[];
    employee?: { department: string; employeeId: string };
  };
  try {
    me = await api(session, 'GET', '/me');
  } catch (error) {
    if (quiet) return;
    if (error instanceof ConsoleError && error.status === 401) {
      showError(new ConsoleError('You are not signed in yet: use "Sign in with Microsoft" first.'));
    } else showError(error);
    return;
  }
  const reader = me.roles.find((r) => r.startsWith('DirectoryReader:'));
  identity = {
    label: me.name ?? me.userId ?? 'Signed in',
    admin: me.roles.includes('DirectoryAdmin'),
    ...(reader ? { readerOf: decodeURIComponent(reader.slice('DirectoryReader:'.length)) } : {}),
    ...(me.employee ? { employee: me.employee } : {}),
  };
  saveSession();
  await renderHome();
}

// ---------------------------------------------------------------------------------------------
// Views.

async function renderHome(): Promise<void> {
  clearError();
  who.textContent = identity?.label ?? '';
  signOut.hidden = false;
  const departments = h('section', { id: 'departments' }, h('h2', {}, 'Departments'));
  const people = h('section', { id: 'people' }, h('h2', {}, 'Employees'));
  const card = h('section', { id: 'card', class: 'wide' }, h('h2', {}, 'Employee'));
  app.replaceChildren(departments, people, card);
  if (identity?.admin) app.append(logWindow(), operationsPage({ session, showError }));
  void renderDepartments(departments, people, card);
  if (identity?.employee) {
    void renderEmployee(card, identity.employee.department, identity.employee.employeeId);
  } else {
    card.append(h('p', { class: 'muted' }, 'Pick an employee to see the card.'));
  }
  if (identity?.readerOf && !identity.admin) void renderPeople(people, card, identity.readerOf);
  else people.append(h('p', { class: 'muted' }, 'Pick a department.'));
}

async function renderDepartments(
  section: HTMLElement,
  people: HTMLElement,
  card: HTMLElement,
): Promise<void> {
  const body = h('div');
  section.append(body);
  const list = await loading(body, 'departments', () =>
    api<{ items: { name: string; employeeCount?: number; description?: string }[] }>(
      session,
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

async function renderPeople(
  section: HTMLElement,
  card: HTMLElement,
  department: string,
): Promise<void> {
  clearError();
  const body = h('div');
  section.replaceChildren(h('h2', {}, `Employees of ${department}`), body);
  const list = await loading(body, `the employees of ${department}`, () =>
    api<{ items: Employee[] }>(
      session,
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
    api<{ items: Employee[] }>(session, 'GET', `/employees?lastName=${seg(lastName)}&pageSize=100`),
  );
  if (list) body.replaceChildren(peopleTable(list.items, card));
}

async function renderEmployee(
  section: HTMLElement,
  department: string,
  employeeId: string,
): Promise<void> {
  clearError();
  const body = h('div');
  section.replaceChildren(h('h2', {}, 'Employee'), body);
  const path = `/departments/${seg(department)}/employees/${seg(employeeId)}`;
  const employee = await loading(body, 'the employee', () => api<Employee>(session, 'GET', path));
  if (!employee) return;
  const photo = h('div', { class: 'nophoto' }, 'No photo');
  body.replaceChildren(
    h(
      'div',
      { class: 'card' },
      photo,
      h(
        'div',
        {},
        h('p', {}, h('strong', {}, `${employee.firstName} ${employee.lastName}`)),
        h('p', {}, `${employee.email}`),
        h(
          'p',
          { class: 'muted' },
          `${employee.department} · ${employee.employeeId}${typeof employee.age === 'number' ? ` · age ${employee.age}` : ''}`,
        ),
      ),
    ),
  );
  if (employee.photoUrl) void showPhoto(photo, department, employeeId);
  const mine =
    identity?.admin ||
    (identity?.employee?.department === department && identity.employee.employeeId === employeeId);
  if (!mine) return;
  const expenses = h('section', { id: 'expenses' }, h('h2', {}, 'Newest expenses'));
  const chart = h('section', { id: 'chart' }, h('h2', {}, 'Messages in the last 24 hours'));
  const heat = h(
    'section',
    { id: 'heat', class: 'wide' },
    h('h2', {}, `Messages in ${new Date().getUTCFullYear()}`),
  );
  section.after(expenses, chart, heat);
  for (const old of app.querySelectorAll('section[data-for]')) old.remove();
  for (const s of [expenses, chart, heat])
    s.setAttribute('data-for', `${department}/${employeeId}`);
  void renderExpenses(expenses, department, employeeId);
  void renderHourly(chart, path);
  void renderYear(heat, path);
}

async function showPhoto(
  target: HTMLElement,
  department: string,
  employeeId: string,
): Promise<void> {
  try {
    const grant = await api<SasGrant>(
      session,
      'POST',
      `/sas/photos/${seg(department)}/${seg(employeeId)}`,
      { access: 'read' },
    );
    const img = h('img', {
      src: grant.url,
      alt: 'Photo of the employee',
      width: '96',
      height: '96',
    });
    target.replaceWith(img);
  } catch (error) {
    target.textContent =
      error instanceof ConsoleError && error.status === 404 ? 'No photo' : 'Photo unavailable';
  }
}

async function renderExpenses(
  section: HTMLElement,
  department: string,
  employeeId: string,
): Promise<void> {
  const body = h('div');
  section.append(body);
  const result = await loading(body, 'the expenses', async () => {
    const grant = await api<SasGrant>(
      session,
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

async function renderHourly(section: HTMLElement, path: string): Promise<void> {
  const body = h('div', { id: 'hourly' });
  section.append(body);
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const days = await loading(body, 'the message counts', () =>
    Promise.all(
      [yesterday, today].map((day) =>
        api<{ day: string; hours: number[] }>(session, 'GET', `${path}/messages/hourly?day=${day}`),
      ),
    ),
  );
  if (!days) return;
  // The 24 hours up to now: the tail of yesterday, then today.
  const hour = now.getUTCHours();
  const series = [...days[0]!.hours.slice(hour + 1), ...days[1]!.hours.slice(0, hour + 1)];
  const start =
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour) / 1000 - 23 * 3600;
  const xs = series.map((_, i) => start + i * 3600);
  body.replaceChildren();
  const width = Math.max(280, Math.min(section.clientWidth - 32, 640));
  new uPlot(
    {
      width,
      height: 200,
      scales: { x: { time: true } },
      series: [
        {},
        {
          label: 'Messages',
          stroke: '#0b5cad',
          fill: 'rgba(11,92,173,0.15)',
          paths: uPlot.paths.bars!({ size: [0.8] }),
        },
      ],
      axes: [{}, { label: 'per hour' }],
      legend: { show: true },
    },
    [xs, series],
    body,
  );
  body.setAttribute(
    'aria-label',
    `Messages per hour over the last 24 hours: ${series.reduce((a, b) => a + b, 0)} in all.`,
  );
  body.setAttribute('role', 'img');
}

async function renderYear(section: HTMLElement, path: string): Promise<void> {
  const body = h('div');
  section.append(body);
  const year = new Date().getUTCFullYear();
  const data = await loading(body, 'the year', () =>
    api<{ year: number; days: number[] }>(session, 'GET', `${path}/messages/daily?year=${year}`),
  );
  if (!data) return;
  const max = Math.max(1, ...data.days);
  const first = new Date(Date.UTC(year, 0, 1)).getUTCDay();
  const cells: HTMLElement[] = [];
  for (let i = 0; i < first; i++) cells.push(h('span', { 'aria-hidden': 'true', class: 'pad' }));
  data.days.forEach((count, i) => {
    const level = count === 0 ? 0 : Math.min(4, Math.ceil((count / max) * 4));
    const date = new Date(Date.UTC(year, 0, 1 + i)).toISOString().slice(0, 10);
    cells.push(h('span', { class: `l${level}`, title: `${date}: ${count} messages` }));
  });
  const total = data.days.reduce((a, b) => a + b, 0);
  body.replaceChildren(
    h(
      'div',
      {
        class: 'heat',
        role: 'img',
        'aria-label': `${total} messages in ${year}, busiest day ${max}.`,
      },
      ...cells,
    ),
    h('p', { class: 'muted' }, `${total} messages in ${year}; the busiest day had ${max}.`),
  );
}

function logWindow(): HTMLElement {
  const section = h('section', { id: 'logs', class: 'wide' }, h('h2', {}, 'Log window'));
  const source = h('input', { id: 'log-source', name: 'source', value: 'web', required: true });
  const now = new Date();
  const hour = h('input', {
    id: 'log-hour',
    name: 'hour',
    type: 'datetime-local',
    step: '3600',
    value: `${now.toISOString().slice(0, 13)}:00`,
  });
  const body = h('div');
  const form = h(
    'form',
    { class: 'row', 'aria-label': 'Log window' },
    h('label', {}, 'Source', source),
    h('label', {}, 'Hour (UTC)', hour),
    h('button', { type: 'submit', id: 'read-logs' }, 'Read the hour'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearError();
    const at = new Date(`${hour.value.slice(0, 13)}:00:00Z`);
    void loading(body, 'the log window', async () => {
      const grant = await api<SasGrant>(session, 'POST', '/sas/logs', {});
      const { blobs, lines } = await readLogHour(grant, source.value.trim(), at);
      const endpoint = new URL(grant.url).host;
      body.replaceChildren(
        h(
          'p',
          { class: 'muted' },
          `${lines.length} line${lines.length === 1 ? '' : 's'} in ${blobs.length} blob${blobs.length === 1 ? '' : 's'} under ${hourPrefix(source.value.trim(), at)}`,
        ),
        h(
          'pre',
          { class: 'log', id: 'log-lines', tabindex: '0' },
          lines
            .map(
              (l) => `${l.entry.at.toISOString()} ${l.entry.level.padEnd(11)} ${l.entry.message}`,
            )
            .join('\n') || '(no lines)',
        ),
        h(
          'p',
          { class: 'source' },
          `Read from the blob endpoint ${endpoint} with a read+list SAS.`,
        ),
      );
    });
  });
  section.append(form, body);
  return section;
}

// ---------------------------------------------------------------------------------------------
// Start.

signOut.addEventListener('click', () => {
  sessionStorage.removeItem(SESSION_KEY);
  session = {};
  identity = undefined;
  void start();
});

async function start(): Promise<void> {
  clearError();
  let mode: 'developer' | 'appService' = 'appService';
  try {
    const config = await api<{ signIn: 'developer' | 'appService' }>(
      {},
      'GET',
      '/console/config.json',
    );
    mode = config.signIn;
  } catch (error) {
    showError(error);
  }
  const saved = sessionStorage.getItem(SESSION_KEY);
  if (saved) {
    const parsed = JSON.parse(saved) as { session: Session; identity?: Identity };
    // A developer principal is never replayed where the host does not believe it.
    if (mode === 'developer' || !parsed.session.principal) {
      session = parsed.session;
      identity = parsed.identity;
      if (identity) return renderHome();
    }
  }
  renderSignIn(mode);
  // Back from App Service's sign-in: the session cookie already says who the caller is.
  if (mode === 'appService') await startAzureSession(true);
}

void start();
