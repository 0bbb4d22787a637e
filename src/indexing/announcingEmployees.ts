/**
 * The directory's employee service with announcements: before each write, the employees it is
 * about to change are announced to the `index-updates` queue as delayed messages (see
 * queueChangeSink.ts), so the indexes converge even if the process dies between the directory's
 * commit and its post-commit message. Off by default (`INDEX_ANNOUNCE_DELAY_SECONDS=0`: announce
 * is then a no-op): the index outbox row in each write's own transaction already guarantees that.
 */
import type { EmployeeService } from '../directory';
import { isDepartmentName, isEmployeeId } from '../storage/keys';
import type { ChangeQueue } from './queueChangeSink';

function idOf(body: unknown): string | undefined {
  const id = (body as { employeeId?: unknown } | null)?.employeeId;
  return typeof id === 'string' && isEmployeeId(id) ? id : undefined;
}

/**
 * Wraps `employees` so create, import, patch, setPhotoUrl and delete announce first. Reads are
 * untouched. Invalid input is not announced (the write will refuse it anyway).
 */
export function withAnnouncements(employees: EmployeeService, queue: ChangeQueue): EmployeeService {
  const announce = async (department: string, ids: (string | undefined)[]): Promise<void> => {
    const valid = [...new Set(ids.filter((id): id is string => id !== undefined))];
    if (!isDepartmentName(department) || valid.length === 0) return;
    await queue.announce(valid.map((employeeId) => ({ department, employeeId })));
  };
  // The wrapper inherits every method from the wrapped instance and overrides the writes.
  const wrapped = Object.create(employees) as EmployeeService;
  Object.assign(wrapped, {
    create: async (department: string, body: unknown) => {
      await announce(department, [idOf(body)]);
      return employees.create(department, body);
    },
    import: async (department: string, rows: readonly unknown[]) => {
      await announce(department, rows.map(idOf));
      return employees.import(department, rows);
    },
    patch: async (...args: Parameters<EmployeeService['patch']>) => {
      await announce(args[0], [isEmployeeId(args[1]) ? args[1] : undefined]);
      return employees.patch(...args);
    },
    setPhotoUrl: async (...args: Parameters<EmployeeService['setPhotoUrl']>) => {
      await announce(args[0], [isEmployeeId(args[1]) ? args[1] : undefined]);
      return employees.setPhotoUrl(...args);
    },
    delete: async (...args: Parameters<EmployeeService['delete']>) => {
      // A caller whose own durable message re-runs the delete opts out (DeleteEmployeeOptions).
      if (args[2]?.announce !== false) {
        await announce(args[0], [isEmployeeId(args[1]) ? args[1] : undefined]);
      }
      return employees.delete(...args);
    },
  });
  return wrapped;
}
