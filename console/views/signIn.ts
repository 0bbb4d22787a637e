/**
 * Sign-in: a developer principal where the host believes one (local), a function key and App
 * Service's own sign-in in Azure (then `GET /api/me` says who the caller is).
 */
import { directoryReaderRole } from '../../src/identity/roles';
import { api, ConsoleError } from '../api';
import { app, h, seg, showError, signOut, who } from '../dom';
import { saveSession, state, type Identity } from '../session';
import { renderHome } from './home';

/** Renders the sign-in form of `mode`. */
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

export function renderSignIn(mode: 'developer' | 'appService'): void {
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
      state.session = { ...(key.value ? { functionKey: key.value } : {}) };
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
    state.session = { principal: chosen.principal };
    state.identity = chosen.identity;
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
export async function startAzureSession(quiet = false): Promise<void> {
  let me: {
    userId?: string;
    name?: string;
    roles: string[];
    employee?: { department: string; employeeId: string };
  };
  try {
    me = await api(state.session, 'GET', '/me');
  } catch (error) {
    if (quiet) return;
    if (error instanceof ConsoleError && error.status === 401) {
      showError(new ConsoleError('You are not signed in yet: use "Sign in with Microsoft" first.'));
    } else showError(error);
    return;
  }
  const reader = me.roles.find((r) => r.startsWith('DirectoryReader:'));
  state.identity = {
    label: me.name ?? me.userId ?? 'Signed in',
    admin: me.roles.includes('DirectoryAdmin'),
    ...(reader ? { readerOf: decodeURIComponent(reader.slice('DirectoryReader:'.length)) } : {}),
    ...(me.employee ? { employee: me.employee } : {}),
  };
  saveSession();
  await renderHome();
}
