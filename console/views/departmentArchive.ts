/**
 * Archiving a whole department (admins): the department archive orchestration moves every
 * employee to the archive in chunks. The page asks for the department's name as confirmation,
 * starts it (`POST /departments/{dept}/archive`) and shows its progress from
 * `GET /orchestrations/{id}` until it ends; then the department is drawn again from the API.
 */
import { api, ConsoleError } from '../api';
import { actionForm, field, h, input, plural, seg } from '../dom';
import { state, type Department } from '../session';
import { settled } from '../settle';
import { watchOrchestration } from './progress';

/** The orchestration's progress and output (src/orchestrations/archive). */
interface ArchiveCounts {
  archived?: number;
  notFound?: number;
}

/** The "Archive department" panel of an admin. */
export function archiveDepartmentPanel(department: Department): HTMLElement {
  const name = department.name;
  const confirmName = input('confirm', {
    id: 'archive-department-confirm',
    autocomplete: 'off',
    required: true,
  });
  const progress = h('div', { id: 'archive-department-progress' });
  const form = actionForm(
    { id: 'archive-department', 'aria-label': 'Archive the department', class: 'stack' },
    [
      h(
        'p',
        {},
        `Archiving moves all ${plural(department.employeeCount, 'employee')} of ${name} to the archive: ` +
          'they leave the directory and its search. The department itself stays, empty.',
      ),
      field(`Type “${name}” to confirm`, confirmName),
    ],
    'Archive department',
    async (say) => {
      if (confirmName.value.trim() !== name)
        throw new ConsoleError(`Type the department's name, ${name}, exactly to confirm.`);
      const started = await api<{ id: string }>(
        state.session,
        'POST',
        `/departments/${seg(name)}/archive`,
        {},
      );
      const total = department.employeeCount;
      const watch = watchOrchestration(started.id, (status) => {
        const counts = (status.output ?? status.progress ?? {}) as ArchiveCounts;
        const archived = counts.archived ?? 0;
        return {
          text:
            status.runtimeStatus === 'Failed'
              ? (status.failure ?? 'the archive failed.')
              : `${archived.toLocaleString('en')} of ${plural(total, 'employee')} archived.`,
          ...(total > 0 ? { fraction: archived / total } : {}),
        };
      });
      progress.replaceChildren(watch.element);
      say('Archiving…');
      const end = await watch.done;
      if (end?.runtimeStatus !== 'Completed') return '';
      const archived = (end.output as ArchiveCounts | undefined)?.archived ?? 0;
      settled(`Archived ${plural(archived, 'employee')} of ${name}: they are in the archive now.`);
    },
  );
  return h(
    'details',
    { class: 'panel-form danger-zone' },
    h('summary', {}, 'Archive department'),
    form,
    progress,
  );
}
