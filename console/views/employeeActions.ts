/**
 * What may be done to an employee from the card, each as a labelled form: edit the details (PATCH
 * conditional on the version shown), upload a photo, make them the department's manager (not
 * offered to the manager), move them to another department (an orchestration, followed to its
 * end) and archive them (a queue message; the page waits until the directory no longer has them).
 * Each ends through settle.ts: the card drawn again from the API, where the employee now lives.
 */
import { api, apiVersioned, ConsoleError } from '../api';
import { actionForm, emailInput, field, h, input, seg } from '../dom';
import { state, type Employee, type Page } from '../session';
import { settled } from '../settle';
import { allDepartments } from './departmentNames';
import { photoUploadForm } from './photo';
import { watchOrchestration } from './progress';

/** Who is looking, as the actions need it. */
export interface Viewer {
  mayEdit: boolean;
  self: boolean;
  admin: boolean;
  /** May list the department's employees (the archive is awaited through that list). */
  mayList: boolean;
  /** The employee manages their department (no "Make manager" then). */
  isManager: boolean;
}

function panel(summary: string, id: string, ...content: HTMLElement[]): HTMLElement {
  return h('details', { class: 'panel-form', id }, h('summary', {}, summary), ...content);
}

function editForm(employee: Employee, etag: string | undefined, path: string): HTMLElement {
  let version = etag;
  const firstName = input('firstName', {
    id: 'edit-first-name',
    required: true,
    value: employee.firstName,
  });
  const lastName = input('lastName', {
    id: 'edit-last-name',
    required: true,
    value: employee.lastName,
  });
  const email = emailInput({
    id: 'edit-email',
    required: true,
    value: employee.email,
  });
  const age = input('age', {
    id: 'edit-age',
    type: 'number',
    min: '0',
    max: '150',
    value: typeof employee.age === 'number' ? String(employee.age) : '',
  });
  return actionForm(
    { id: 'edit-employee', 'aria-label': 'Edit the employee', class: 'grid-form' },
    [
      field('First name', firstName),
      field('Last name', lastName),
      field('Email', email),
      field('Age (empty: not given)', age),
    ],
    'Save changes',
    async () => {
      const patch: Record<string, unknown> = {};
      if (firstName.value !== employee.firstName) patch.firstName = firstName.value;
      if (lastName.value !== employee.lastName) patch.lastName = lastName.value;
      if (email.value.trim() !== employee.email) patch.email = email.value.trim();
      const newAge = age.value === '' ? null : Number(age.value);
      if (newAge !== (employee.age ?? null)) patch.age = newAge;
      if (Object.keys(patch).length === 0) return 'Nothing changed.';
      let saved;
      try {
        saved = await apiVersioned<Employee>(state.session, 'PATCH', path, patch, version);
      } catch (error) {
        if (!(error instanceof ConsoleError && error.status === 412)) throw error;
        // Show what is stored now (the one mechanism after every action), and say so.
        settled(
          'Someone changed this employee meanwhile: this is what is stored now. Your changes ' +
            'were not saved; make them again if they still apply.',
        );
        return;
      }
      version = saved.etag;
      settled(`Saved the details of ${saved.value.firstName} ${saved.value.lastName}.`);
    },
  );
}

function managerForm(employee: Employee): HTMLElement {
  return actionForm(
    { id: 'make-manager', 'aria-label': 'Make manager', class: 'stack' },
    [
      h(
        'p',
        {},
        `Make ${employee.firstName} ${employee.lastName} the manager of ${employee.department}.`,
      ),
    ],
    'Make manager',
    async () => {
      await api(state.session, 'PUT', `/departments/${seg(employee.department)}/manager`, {
        employeeId: employee.employeeId,
      });
      settled(`${employee.firstName} ${employee.lastName} now manages ${employee.department}.`);
    },
  );
}

function moveForm(employee: Employee): HTMLElement {
  const target = h(
    'select',
    { name: 'toDepartment', id: 'move-to', required: true },
    h('option', { value: '' }, 'Loading departments…'),
  );
  void allDepartments().then(
    (names) =>
      target.replaceChildren(
        h('option', { value: '' }, 'Choose a department'),
        ...names.filter((n) => n !== employee.department).map((n) => h('option', { value: n }, n)),
      ),
    () => target.replaceChildren(h('option', { value: '' }, 'Could not list the departments')),
  );
  const progress = h('div');
  const form = actionForm(
    { id: 'move-employee', 'aria-label': 'Move to another department', class: 'stack' },
    [field('Move to', target, 'The employee id must be free there.'), progress],
    'Move employee',
    async (say) => {
      const toDepartment = target.value;
      if (!toDepartment) throw new ConsoleError('Choose the department to move to.');
      const started = await api<{ id: string }>(
        state.session,
        'POST',
        `/departments/${seg(employee.department)}/employees/${seg(employee.employeeId)}/move`,
        { toDepartment },
      );
      const steps = ['validate', 'copy', 'remove', 'done'];
      const watch = watchOrchestration(started.id, (status) => {
        if (status.runtimeStatus === 'Failed')
          return { text: status.failure ?? 'the move failed.' };
        const step = (status.progress as { step?: string } | undefined)?.step;
        const index =
          status.runtimeStatus === 'Completed' ? steps.length : steps.indexOf(step ?? '') + 1;
        return {
          text:
            status.runtimeStatus === 'Completed'
              ? `moved to ${toDepartment}.`
              : `step ${Math.max(index, 1)} of ${steps.length - 1}${step ? ` (${step})` : ''}.`,
          fraction: index / steps.length,
        };
      });
      progress.replaceChildren(watch.element);
      say('Moving…');
      const end = await watch.done;
      if (end?.runtimeStatus !== 'Completed') return '';
      // The card where the employee now lives: the old one is gone from the directory.
      settled(`Moved ${employee.firstName} ${employee.lastName} to ${toDepartment}.`, {
        view: 'employee',
        department: toDepartment,
        employeeId: employee.employeeId,
      });
    },
  );
  return form;
}

/**
 * Whether the directory still has the employee. A department's reader asks the id range (an
 * answer either way, no 404 in the browser's console); anyone else reads the employee.
 */
async function stillListed(employee: Employee, mayList: boolean): Promise<boolean> {
  const department = `/departments/${seg(employee.department)}/employees`;
  if (mayList) {
    const id = employee.employeeId;
    const query = new URLSearchParams({ fromId: id, toId: id, pageSize: '1' });
    const page = await api<Page<Employee>>(
      state.session,
      'GET',
      `${department}?${query.toString()}`,
    );
    return page.items.length > 0;
  }
  try {
    await api(state.session, 'GET', `${department}/${seg(employee.employeeId)}`);
    return true;
  } catch (error) {
    if (error instanceof ConsoleError && error.status === 404) return false;
    throw error;
  }
}

function archiveForm(employee: Employee, path: string, mayList: boolean): HTMLElement {
  const name = `${employee.firstName} ${employee.lastName}`;
  const sure = input('confirm', {
    id: 'archive-employee-confirm',
    type: 'checkbox',
    required: true,
  });
  return actionForm(
    { id: 'archive-employee', 'aria-label': 'Archive the employee', class: 'stack' },
    [
      h(
        'p',
        {},
        `Archiving moves ${name} out of the directory into the archive (through a queue, within seconds).`,
      ),
      h('label', { class: 'check' }, sure, `Yes, archive ${name}`),
    ],
    'Archive employee',
    async (say) => {
      if (!sure.checked) throw new ConsoleError('Tick the box to confirm.');
      await api(state.session, 'POST', `${path}/archive`, {});
      say('Queued; waiting for the archive to have them…');
      for (let attempt = 0; attempt < 60; attempt++) {
        if (!(await stillListed(employee, mayList))) {
          // The card has nothing left to show: the department, without them, is where they were.
          settled(`${name} is archived and no longer in the directory.`, {
            view: 'department',
            department: employee.department,
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      return 'Queued: the archive has not taken them yet; look again in a minute.';
    },
  );
}

/** The actions the viewer may take on the employee. */
export function employeeActions(
  employee: Employee,
  etag: string | undefined,
  viewer: Viewer,
): HTMLElement {
  const path = `/departments/${seg(employee.department)}/employees/${seg(employee.employeeId)}`;
  const parts: HTMLElement[] = [];
  if (viewer.mayEdit)
    parts.push(panel('Edit details', 'edit-panel', editForm(employee, etag, path)));
  if (viewer.mayEdit || viewer.self)
    parts.push(panel('Upload a photo', 'photo-panel', photoUploadForm(employee)));
  if (viewer.mayEdit && !viewer.isManager)
    parts.push(panel('Make manager', 'manager-panel', managerForm(employee)));
  if (viewer.admin)
    parts.push(panel('Move to another department', 'move-panel', moveForm(employee)));
  if (viewer.mayEdit)
    parts.push(panel('Archive', 'archive-panel', archiveForm(employee, path, viewer.mayList)));
  return h('div', { class: 'actions-list' }, ...parts);
}
