/** The home view: departments, their employees, the employee card and, for an admin, the logs. */
import { app, clearError, h, showError, signOut, who } from '../dom';
import { state } from '../session';
import { renderEmployee } from './employee';
import { logWindow } from './logs';
import { operationsPage } from './operations';
import { renderDepartments, renderPeople } from './people';

/** Renders the home view for the signed-in caller. */
export async function renderHome(): Promise<void> {
  clearError();
  who.textContent = state.identity?.label ?? '';
  signOut.hidden = false;
  const departments = h('section', { id: 'departments' }, h('h2', {}, 'Departments'));
  const people = h('section', { id: 'people' }, h('h2', {}, 'Employees'));
  const card = h('section', { id: 'card', class: 'wide' }, h('h2', {}, 'Employee'));
  app.replaceChildren(departments, people, card);
  if (state.identity?.admin) {
    app.append(logWindow(), operationsPage({ session: state.session, showError }));
  }
  void renderDepartments(departments, people, card);
  if (state.identity?.employee) {
    void renderEmployee(
      card,
      state.identity.employee.department,
      state.identity.employee.employeeId,
    );
  } else {
    card.append(h('p', { class: 'muted' }, 'Pick an employee to see the card.'));
  }
  if (state.identity?.readerOf && !state.identity.admin)
    void renderPeople(people, card, state.identity.readerOf);
  else people.append(h('p', { class: 'muted' }, 'Pick a department.'));
}
