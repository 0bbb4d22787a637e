/** The employee card (photo through its read SAS) and, for the employee or an admin, its data views. */
import { api, ConsoleError, type SasGrant } from '../api';
import { app, clearError, h, loading, seg } from '../dom';
import { state, type Employee } from '../session';
import { renderExpenses } from './expenses';
import { renderHourly, renderYear } from './messages';

/** Renders one employee's card, then their expenses and message views when the caller may see them. */
export async function renderEmployee(
  section: HTMLElement,
  department: string,
  employeeId: string,
): Promise<void> {
  clearError();
  const body = h('div');
  section.replaceChildren(h('h2', {}, 'Employee'), body);
  const path = `/departments/${seg(department)}/employees/${seg(employeeId)}`;
  const employee = await loading(body, 'the employee', () =>
    api<Employee>(state.session, 'GET', path),
  );
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
    state.identity?.admin ||
    (state.identity?.employee?.department === department &&
      state.identity.employee.employeeId === employeeId);
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
      state.session,
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
