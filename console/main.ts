/**
 * The web console: sign-in, departments and their employees, last-name search, an employee card
 * (photo through its read SAS), the employee's newest expenses read directly from the table
 * endpoint (expenses SAS), the 24-hour message chart (uPlot), the year heat map and, for an admin,
 * a log window read directly from blob storage (logs SAS). docs/console.md says which storage
 * pattern each view shows.
 *
 * This file only routes: it starts the console on the sign-in or the home view; each view is a
 * module of console/views/, over the page helpers (dom.ts), the session (session.ts) and the API
 * client (api.ts).
 */
import { api } from './api';
import { clearError, showError, signOut } from './dom';
import { forgetSession, savedSession, state } from './session';
import { renderHome } from './views/home';
import { renderSignIn, startAzureSession } from './views/signIn';

signOut.addEventListener('click', () => {
  forgetSession();
  void start();
});

/** Starts (or restarts, after sign-out) the console: the saved session's home, or sign-in. */
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
  const saved = savedSession();
  // A developer principal is never replayed where the host does not believe it.
  if (saved && (mode === 'developer' || !saved.session.principal)) {
    state.session = saved.session;
    state.identity = saved.identity;
    if (state.identity) return renderHome();
  }
  renderSignIn(mode);
  // Back from App Service's sign-in: the session cookie already says who the caller is.
  if (mode === 'appService') await startAzureSession(true);
}

void start();
