/**
 * One department: its description, manager and count (one `GET /departments/{dept}`), its
 * employees a page at a time ("Show more" kept in the URL), and — for whoever may change it — forms
 * to edit the description, set the manager and add an employee; an admin may also archive the
 * whole department while it has anyone to archive. Every action ends through settle.ts.
 */
import { api, apiVersioned } from '../api';
import { actionForm, app, emailInput, field, h, input, link, loading, seg } from '../dom';
import { href } from '../routes';
import {
  canEdit,
  canRead,
  may,
  state,
  type Department,
  type Employee,
  type Page,
} from '../session';
import { settled } from '../settle';
import { archiveDepartmentPanel } from './departmentArchive';
import { peopleList } from './people';
import { heading } from './shell';

/** Employees per page (the API's default). */
const PAGE_SIZE = 100;

function facts(department: Department): HTMLElement {
  const manager = department.manager;
  return h(
    'dl',
    { class: 'facts', id: 'department-facts' },
    h('dt', {}, 'Employees'),
    h('dd', { id: 'department-count' }, department.employeeCount.toLocaleString('en')),
    h('dt', {}, 'Manager'),
    h(
      'dd',
      {},
      manager
        ? link(
            href({ view: 'employee', department: department.name, employeeId: manager.employeeId }),
            `${manager.firstName} ${manager.lastName}`,
          )
        : 'None yet',
    ),
    h('dt', {}, 'Description'),
    h('dd', {}, department.description || '—'),
  );
}

function editForms(department: Department, etag: string | undefined): HTMLElement {
  const path = `/departments/${seg(department.name)}`;
  const description = h(
    'textarea',
    { name: 'description', id: 'department-description', rows: '2', maxlength: '1000' },
    department.description,
  );
  const edit = actionForm(
    { id: 'edit-department', 'aria-label': 'Edit the department', class: 'stack' },
    [field('Description', description)],
    'Save description',
    async () => {
      await apiVersioned(state.session, 'PUT', path, { description: description.value }, etag);
      settled(`Saved the description of ${department.name}.`);
    },
  );
  const managerId = input('employeeId', {
    id: 'manager-id',
    required: true,
    pattern: '\\d{6}',
    inputmode: 'numeric',
    value: department.manager?.employeeId ?? '',
    autocomplete: 'off',
  });
  const manager = actionForm(
    { id: 'set-manager', 'aria-label': 'Set the manager', class: 'stack' },
    [
      field(
        'Manager’s employee id',
        managerId,
        'Six digits, e.g. 000042: an employee of this department.',
      ),
    ],
    'Set manager',
    async () => {
      const { value } = await apiVersioned<Department>(state.session, 'PUT', `${path}/manager`, {
        employeeId: managerId.value.trim(),
      });
      const manager = value.manager;
      settled(
        manager
          ? `${manager.firstName} ${manager.lastName} now manages ${department.name}.`
          : 'Manager set.',
      );
    },
  );
  return h('details', { class: 'panel-form' }, h('summary', {}, 'Edit department'), edit, manager);
}

function addEmployeeForm(department: string): HTMLElement {
  const employeeId = input('employeeId', {
    id: 'new-employee-id',
    required: true,
    pattern: '\\d{6}',
    inputmode: 'numeric',
    autocomplete: 'off',
    placeholder: '000123',
  });
  const firstName = input('firstName', {
    id: 'new-first-name',
    required: true,
    autocomplete: 'off',
  });
  const lastName = input('lastName', { id: 'new-last-name', required: true, autocomplete: 'off' });
  const email = emailInput({
    id: 'new-email',
    required: true,
    autocomplete: 'off',
  });
  const age = input('age', {
    id: 'new-age',
    type: 'number',
    min: '0',
    max: '150',
    inputmode: 'numeric',
  });
  const form = actionForm(
    { id: 'add-employee', 'aria-label': 'Add an employee', class: 'grid-form' },
    [
      field('Employee id', employeeId, 'Six digits.'),
      field('First name', firstName),
      field('Last name', lastName),
      field('Email', email),
      field('Age (optional)', age),
    ],
    'Add employee',
    async () => {
      const body: Record<string, unknown> = {
        employeeId: employeeId.value.trim(),
        firstName: firstName.value,
        lastName: lastName.value,
        email: email.value.trim(),
      };
      if (age.value !== '') body.age = Number(age.value);
      const { value } = await apiVersioned<Employee>(
        state.session,
        'POST',
        `/departments/${seg(department)}/employees`,
        body,
      );
      settled(`Added ${value.firstName} ${value.lastName} to ${department}.`, {
        view: 'employee',
        department,
        employeeId: value.employeeId,
      });
    },
  );
  return h('details', { class: 'panel-form' }, h('summary', {}, 'Add an employee'), form);
}

/** Renders the department view, its list showing `pages` pages. */
export async function renderDepartment(name: string, pages?: number): Promise<void> {
  const abilities = may();
  const head = heading(
    name,
    abilities.admin || abilities.reads.length + abilities.edits.length > 1
      ? [{ text: 'Departments', route: { view: 'departments' } }]
      : [],
  );
  const top = h('section', { id: 'department' });
  const people = h('section', { id: 'people', 'aria-labelledby': 'people-title' });
  // The employees' section comes once the department is read: no empty card under "Loading…".
  app.replaceChildren(head, top);
  const read = await loading(top, name, () =>
    apiVersioned<Department>(state.session, 'GET', `/departments/${seg(name)}`),
  );
  // Another view drawn meanwhile (the person went on): this one adds nothing to it.
  if (!read || !top.isConnected) return;
  app.append(people);
  const department = read.value;
  top.replaceChildren(facts(department));
  const editable = canEdit(abilities, name);
  if (editable) top.append(editForms(department, read.etag), addEmployeeForm(name));
  // An archived (emptied) department has nobody left to archive.
  if (abilities.admin && department.employeeCount > 0)
    top.append(archiveDepartmentPanel(department));
  people.append(h('h3', { id: 'people-title' }, 'Employees'));
  if (!canRead(abilities, name)) {
    people.append(
      h(
        'p',
        { class: 'muted' },
        `Listing the employees of ${name} needs the role DirectoryReader:${name}, which your sign-in does not have.`,
      ),
    );
    return;
  }
  const body = h('div');
  people.append(body);
  await loading(body, `the employees of ${name}`, async () => {
    const list = await peopleList('employees', {
      total: department.employeeCount,
      ...(pages ? { pages } : {}),
      onPages: (shown) =>
        history.replaceState(
          null,
          '',
          href({ view: 'department', department: name, pages: shown }),
        ),
      page: (token) => {
        const query = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
        if (token) query.set('continuationToken', token);
        return api<Page<Employee>>(
          state.session,
          'GET',
          `/departments/${seg(name)}/employees?${query.toString()}`,
        );
      },
    });
    body.replaceChildren(
      department.employeeCount === 0 && !list.querySelector('tbody tr')
        ? h('p', { class: 'muted' }, `Nobody works in ${name} yet.`)
        : list,
    );
  });
}
