/**
 * The web console: a small single-page app over the directory API and, with the SAS the API hands
 * out, storage itself (valet key). docs/console.md says which storage pattern each view shows.
 *
 * This file only routes: every view has its URL in the page's fragment (console/routes.ts), so
 * Back, links and reloads work; a view is a module of console/views/, over the page helpers
 * (dom.ts), the session (session.ts) and the API client (api.ts).
 */
import { api } from './api';
import { app, clearError, h, link, showError, showNotice, signOut } from './dom';
import { href, parseRoute, type Route } from './routes';
import { forgetSession, may, openableDepartments, savedSession, state } from './session';
import { onRedraw, takeNotice } from './settle';
import { renderDepartment } from './views/department';
import { renderDepartments } from './views/departments';
import { renderEmployee } from './views/employee';
import { renderLogs } from './views/logs';
import { operationsPage } from './views/operations';
import { renderSearch } from './views/search';
import { heading, renderShell } from './views/shell';
import { renderSignIn, startAzureSession } from './views/signIn';

let mode: 'developer' | 'appService' = 'appService';

/** Where "home" is for this caller: their own card, their department, or the department list. */
function home(): Route {
  const abilities = may();
  if (abilities.admin) return { view: 'departments' };
  const openable = openableDepartments(abilities);
  if (openable.length === 1) return { view: 'department', department: openable[0]! };
  if (openable.length > 1) return { view: 'departments' };
  if (abilities.employee) return { view: 'employee', ...abilities.employee };
  return { view: 'departments' };
}

function refused(text: string): void {
  app.replaceChildren(
    heading('Not available'),
    h('p', {}, text),
    h('p', {}, link(href({ view: 'home' }), 'Go to the start page')),
  );
}

/** Shows the view of the current URL (or the sign-in when nobody is signed in). */
async function show(): Promise<void> {
  clearError();
  showNotice(takeNotice());
  if (!state.identity) {
    renderSignIn(mode, () => void show());
    return;
  }
  let route = parseRoute(location.hash);
  if (route.view === 'home') {
    route = home();
    history.replaceState(null, '', href(route));
  }
  renderShell(route);
  const abilities = may();
  window.scrollTo(0, 0);
  switch (route.view) {
    case 'departments':
      return renderDepartments(route.pages);
    case 'department':
      return renderDepartment(route.department, route.pages);
    case 'employee':
      return renderEmployee(route.department, route.employeeId);
    case 'search':
      return renderSearch(route.lastName, route.pages);
    case 'logs':
      if (!abilities.admin)
        return refused('The logs are for directory admins (the role DirectoryAdmin).');
      return renderLogs(route.source, route.hour);
    case 'operations':
      if (!abilities.admin)
        return refused('Operations are for directory admins (the role DirectoryAdmin).');
      app.replaceChildren(
        heading('Operations'),
        operationsPage({ session: state.session, showError }),
      );
      return;
    default:
      return refused('There is no such page in the console.');
  }
}

signOut.addEventListener('click', () => {
  forgetSession();
  history.replaceState(null, '', href({ view: 'home' }));
  void show();
});
window.addEventListener('hashchange', () => void show());
onRedraw(() => void show());

/** Starts the console: the saved session's view, or sign-in. */
async function start(): Promise<void> {
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
  if (saved?.identity && (mode === 'developer' || !saved.session.principal)) {
    state.session = saved.session;
    state.identity = saved.identity;
  }
  await show();
  // Back from App Service's sign-in: the session cookie already says who the caller is.
  if (!state.identity && mode === 'appService') await startAzureSession(() => void show(), true);
}

void start();
