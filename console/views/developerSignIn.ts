/**
 * The developer sign-in (local only): a principal picked from the directory itself (a department
 * from the list, an employee of it), sent the way App Service authentication would send it. Apart
 * from `signIn.ts` because it is another way in, with its own lookups of the directory (as a
 * developer admin principal the local host believes).
 */
import { directoryEditorRole, directoryReaderRole } from '../../src/identity/roles';
import { api, type Session } from '../api';
import { app, field, h, seg, showError } from '../dom';
import { saveSession, state, type Employee, type Identity, type Page } from '../session';
import { heading } from './shell';

/** The principal header a developer sign-in sends (the shape App Service authentication sends). */
function principalHeader(claims: { typ: string; val: string }[]): string {
  const body = JSON.stringify({ auth_typ: 'aad', name_typ: 'name', role_typ: 'roles', claims });
  const bytes = new TextEncoder().encode(body);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

type Kind = 'admin' | 'reader' | 'editor' | 'employee';

/** The identity and principal header of a developer sign-in. */
function developerIdentity(
  kind: Kind,
  department: string,
  employee: { employeeId: string; name: string } | undefined,
): { identity: Identity; principal: string } {
  const claims = (oid: string, name: string, more: { typ: string; val: string }[]) =>
    principalHeader([{ typ: 'oid', val: oid }, { typ: 'name', val: name }, ...more]);
  switch (kind) {
    case 'admin':
      return {
        identity: { label: 'Directory admin', roles: ['DirectoryAdmin'] },
        principal: claims('console-admin', 'Directory admin', [
          { typ: 'roles', val: 'DirectoryAdmin' },
        ]),
      };
    case 'reader':
    case 'editor': {
      // An editor who could not list what they edit would be odd: editors read their department too.
      const roles = [
        directoryReaderRole(department),
        ...(kind === 'editor' ? [directoryEditorRole(department)] : []),
      ];
      const label = `${kind === 'editor' ? 'Editor' : 'Reader'} of ${department}`;
      return {
        identity: { label, roles },
        principal: claims(
          `console-${kind}-${department}`,
          label,
          roles.map((val) => ({ typ: 'roles', val })),
        ),
      };
    }
    case 'employee': {
      const employeeId = employee?.employeeId ?? '';
      const label = `${employee?.name ?? `Employee ${employeeId}`} · ${department}`;
      return {
        identity: { label, roles: [], employee: { department, employeeId } },
        principal: claims(`console-employee-${department}-${employeeId}`, employee?.name ?? label, [
          { typ: 'department', val: department },
          { typ: 'employeeId', val: employeeId },
        ]),
      };
    }
  }
}

/**
 * Who reads the directory for the sign-in form's lists: a developer admin principal, sent only
 * where the host believes hand-sent principals anyway (the developer sign-in's condition).
 */
const lookup: Session = {
  principal: principalHeader([
    { typ: 'oid', val: 'console-sign-in' },
    { typ: 'name', val: 'Console sign-in' },
    { typ: 'roles', val: 'DirectoryAdmin' },
  ]),
};

/** Every department's name, for the department picker. */
async function departmentNames(): Promise<string[]> {
  const names: string[] = [];
  let token: string | null = null;
  do {
    const query = new URLSearchParams({ pageSize: '1000' });
    if (token) query.set('continuationToken', token);
    const page: Page<{ name: string }> = await api(
      lookup,
      'GET',
      `/departments?${query.toString()}`,
    );
    names.push(...page.items.map((d) => d.name));
    token = page.continuationToken;
  } while (token && names.length < 10_000);
  return names;
}

function option(value: string, text: string): HTMLOptionElement {
  return h('option', { value }, text);
}

/** The sign-in form's pickers: who to sign in as, of which department, which employee. */
interface Picker {
  kind: HTMLSelectElement;
  department: HTMLSelectElement;
  employee: HTMLSelectElement;
  departmentLabel: HTMLElement;
  employeeLabel: HTMLElement;
  /** Shows and requires the pickers the chosen kind needs. */
  sync(): void;
  /** Lists the chosen department's employees (the first 1,000) in the employee picker. */
  loadEmployees(): Promise<void>;
}

function picker(): Picker {
  const kind = h(
    'select',
    { id: 'kind', name: 'kind' },
    option('employee', 'An employee'),
    option('reader', 'A reader of a department'),
    option('editor', 'An editor of a department'),
    option('admin', 'DirectoryAdmin (everything)'),
  );
  const department = h(
    'select',
    { id: 'department', name: 'department', required: true },
    option('', 'Loading…'),
  );
  const employee = h('select', { id: 'employee-id', name: 'employeeId', required: true });
  const employeeNote = h('small', { class: 'hint' });
  const employeeLabel = field('Employee', employee);
  employeeLabel.append(employeeNote);
  const departmentLabel = field('Department', department);
  const sync = (): void => {
    employeeLabel.hidden = kind.value !== 'employee';
    departmentLabel.hidden = kind.value === 'admin';
    department.required = kind.value !== 'admin';
    employee.required = kind.value === 'employee';
  };
  const loadEmployees = async (): Promise<void> => {
    employee.replaceChildren();
    employeeNote.textContent = '';
    if (!department.value) return;
    employee.append(option('', 'Loading…'));
    const page = await api<Page<Employee>>(
      lookup,
      'GET',
      `/departments/${seg(department.value)}/employees?pageSize=1000&select=firstName,lastName`,
    );
    employee.replaceChildren(
      ...page.items.map((e) =>
        option(e.employeeId, `${e.firstName} ${e.lastName} (${e.employeeId})`),
      ),
    );
    if (page.items.length === 0) employee.append(option('', 'Nobody works here yet'));
    if (page.continuationToken) employeeNote.textContent = 'The first 1,000 employees.';
  };
  kind.addEventListener('change', sync);
  department.addEventListener('change', () => void loadEmployees().catch(showError));
  sync();
  return { kind, department, employee, departmentLabel, employeeLabel, sync, loadEmployees };
}

/** Signs in as whom the pickers name, for the rest of the browser session. */
function signInAs(pick: Picker): void {
  const chosen = pick.employee.selectedOptions[0];
  const picked = developerIdentity(
    pick.kind.value as Kind,
    pick.department.value,
    chosen && chosen.value
      ? { employeeId: chosen.value, name: chosen.text.replace(/ \(\d{6}\)$/, '') }
      : undefined,
  );
  state.session = { principal: picked.principal };
  state.identity = picked.identity;
  saveSession();
}

/**
 * Fills the department picker with the directory's departments; an empty directory shows `empty`
 * and picks DirectoryAdmin, the one sign-in that can fill it.
 */
function fillDepartments(pick: Picker, empty: HTMLElement): void {
  void departmentNames().then(
    async (names) => {
      pick.department.replaceChildren(...names.map((n) => option(n, n)));
      empty.hidden = names.length > 0;
      if (names.length === 0) {
        pick.kind.value = 'admin';
        pick.sync();
      }
      await pick.loadEmployees();
    },
    (error: unknown) => {
      pick.department.replaceChildren(option('', 'Could not list the departments'));
      showError(error);
    },
  );
}

/** Renders the developer sign-in; `onSignedIn` runs once somebody is. */
export function renderDeveloperSignIn(onSignedIn: () => void): void {
  const pick = picker();
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Developer sign-in', id: 'developer-sign-in' },
    field('Sign in as', pick.kind),
    pick.departmentLabel,
    pick.employeeLabel,
    h('div', { class: 'actions' }, h('button', { type: 'submit', id: 'sign-in' }, 'Sign in')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    signInAs(pick);
    onSignedIn();
  });
  const empty = h(
    'p',
    { class: 'muted', hidden: true, id: 'empty-directory' },
    'The directory is empty: sign in as DirectoryAdmin and create a department, or fill it with sample data (npm run seed).',
  );
  app.replaceChildren(
    heading('Sign in'),
    h(
      'section',
      { class: 'narrow' },
      form,
      empty,
      h(
        'p',
        { class: 'muted' },
        'Developer sign-in (local only): the console sends the principal you pick the way App Service authentication would, and this host believes it because it runs on your machine. In Azure, Microsoft Entra ID signs you in instead.',
      ),
    ),
  );
  fillDepartments(pick, empty);
  pick.kind.focus();
}
