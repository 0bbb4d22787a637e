/**
 * The frame around every view: who is signed in, the navigation (only what this caller may open),
 * the page's title, and the view's own heading with its breadcrumb.
 */
import { h, link, nav, signOut, who } from '../dom';
import { href, type Route } from '../routes';
import { may, openableDepartments, state } from '../session';

/** A navigation entry: its text, where it goes, and the views it stands for. */
interface NavEntry {
  text: string;
  route: Route;
  views: Route['view'][];
}

/** What the navigation offers the signed-in caller. */
function entries(): NavEntry[] {
  const abilities = may();
  const list: NavEntry[] = [];
  if (abilities.employee) {
    const { department, employeeId } = abilities.employee;
    list.push({ text: 'My card', route: { view: 'employee', department, employeeId }, views: [] });
  }
  const openable = openableDepartments(abilities);
  if (abilities.admin || openable.length > 0) {
    list.push({
      text: abilities.admin
        ? 'Departments'
        : openable.length === 1
          ? 'My department'
          : 'My departments',
      route:
        !abilities.admin && openable.length === 1
          ? { view: 'department', department: openable[0]! }
          : { view: 'departments' },
      views: ['departments', 'department', 'employee'],
    });
  }
  if (abilities.admin || abilities.reads.length > 0) {
    list.push({ text: 'Search', route: { view: 'search', lastName: '' }, views: ['search'] });
  }
  if (abilities.admin) {
    list.push({ text: 'Logs', route: { view: 'logs' }, views: ['logs'] });
    list.push({ text: 'Operations', route: { view: 'operations' }, views: ['operations'] });
  }
  return list;
}

/** Draws the header for `route`: who is signed in and the navigation, the current entry marked. */
export function renderShell(route: Route): void {
  who.textContent = state.identity?.label ?? '';
  signOut.hidden = !state.identity;
  const current = href(route);
  const items = state.identity ? entries() : [];
  // The most specific entry wins: "My card" over "Departments" on one's own card.
  const active =
    items.find((e) => href(e.route) === current) ?? items.find((e) => e.views.includes(route.view));
  nav.replaceChildren(
    ...items.map((e) =>
      link(href(e.route), e.text, e === active ? { 'aria-current': 'page' } : {}),
    ),
  );
  nav.hidden = items.length === 0;
}

/** A view's heading, with the path back to where it belongs (links) before it. */
export function heading(title: string, trail: { text: string; route: Route }[] = []): HTMLElement {
  document.title = `${title} · Directory console`;
  return h(
    'div',
    { class: 'view-head' },
    trail.length === 0
      ? null
      : h(
          'nav',
          { class: 'crumbs', 'aria-label': 'Breadcrumb' },
          ...trail.flatMap((step) => [
            link(href(step.route), step.text),
            h('span', { 'aria-hidden': 'true' }, ' › '),
          ]),
        ),
    h('h2', { id: 'view-title', tabindex: '-1' }, title),
  );
}
