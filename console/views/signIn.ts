/**
 * Sign-in: a developer principal where the host believes one (local, `developerSignIn.ts`), picked
 * from the directory itself (a department from the list, an employee of it), or App Service's own
 * sign-in in Azure (then `GET /api/me` says who the caller is) with a function key where the API
 * wants one.
 */
import { api, ConsoleError } from '../api';
import { app, field, h, seg, showError, signOut, who, nav } from '../dom';
import { saveSession, state } from '../session';
import { renderDeveloperSignIn } from './developerSignIn';
import { heading } from './shell';

/** Renders the sign-in of `mode`; `onSignedIn` runs once somebody is. */
export function renderSignIn(mode: 'developer' | 'appService', onSignedIn: () => void): void {
  who.textContent = '';
  signOut.hidden = true;
  nav.replaceChildren();
  nav.hidden = true;
  if (mode === 'developer') return renderDeveloperSignIn(onSignedIn);
  const key = h('input', { id: 'function-key', type: 'password', autocomplete: 'off' });
  const form = h(
    'form',
    { class: 'row', 'aria-label': 'Sign in' },
    field('Function key (if the API asks for one)', key),
    h('button', { type: 'submit' }, 'Continue'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    state.session = { ...(key.value ? { functionKey: key.value } : {}) };
    void startAzureSession(onSignedIn);
  });
  app.replaceChildren(
    heading('Sign in'),
    h(
      'section',
      { class: 'narrow' },
      h(
        'p',
        {},
        'Sign in with your work account. ',
        h(
          'a',
          {
            href: `/.auth/login/aad?post_login_redirect_uri=${seg(location.pathname)}`,
            class: 'button',
          },
          'Sign in with Microsoft',
        ),
      ),
      form,
    ),
  );
}

/**
 * In Azure: who the app believes the caller is (`GET /api/me`). App Service's own `/.auth/me`
 * answers only with the token store on, which the infra keeps off; the app's answer is also the
 * one its authorization decides by. `quiet`: not signed in yet is no error (the first visit).
 */
export async function startAzureSession(onSignedIn: () => void, quiet = false): Promise<void> {
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
  state.identity = {
    label: me.name ?? me.userId ?? 'Signed in',
    roles: me.roles,
    ...(me.employee ? { employee: me.employee } : {}),
  };
  saveSession();
  onSignedIn();
}
