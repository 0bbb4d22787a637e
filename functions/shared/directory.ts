/**
 * The process-wide directory services for the HTTP adapters, built from the configuration and
 * the shared storage clients, and the input shapes the directory routes share.
 */
import { z } from 'zod';
import { getConfig } from '../../src/config';
import { createDirectory, type Directory } from '../../src/directory/directory';
import { MAX_PAGE_SIZE } from '../../src/directory/validation';
import { withAnnouncements } from '../../src/indexing/announcingEmployees';
import { queueChangeSink } from '../../src/indexing/queueChangeSink';
import { getStorageClients } from '../../src/storage/clients';
import { isDepartmentName, isEmployeeId } from '../../src/storage/keys';

let directory: Directory | undefined;

/**
 * The directory over the configured `Employees` table (created on first use).
 *
 * @throws {ConfigError} when the storage connection is not configured.
 */
export function directoryServices(): Directory {
  if (!directory) {
    const config = getConfig();
    // Every committed employee change goes to `index-updates` (asynchronous indexes, docs/queues.md).
    const changes = queueChangeSink(getStorageClients().queue(config.queues.indexUpdates), {
      announceDelaySeconds: config.directory.indexAnnounceDelaySeconds,
    });
    const services = createDirectory({
      employees: getStorageClients().table(config.tables.employees),
      departmentCacheTtlMs: config.directory.departmentCacheTtlMs,
      changes,
    });
    directory = { ...services, employees: withAnnouncements(services.employees, changes) };
  }
  return directory;
}

/** `{dept}` of `/departments/{dept}/...`. */
export const departmentRoute = z.object({
  dept: z.string().refine(isDepartmentName, 'use 1-64 letters, digits, spaces, "-" or "_"'),
});

/** `{dept}` and `{id}` of `/departments/{dept}/employees/{id}/...`. */
export const employeeRoute = departmentRoute.extend({
  id: z.string().refine(isEmployeeId, 'use exactly six digits, e.g. 000223'),
});

/** `pageSize`: a whole number 1-1000. */
export const pageSizeParam = z
  .string()
  .regex(/^\d{1,4}$/, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`);

/** `select=a,b`: field names (the service checks they exist). */
export const selectParam = z
  .string()
  .max(200)
  .transform((text) => text.split(',').map((f) => f.trim()))
  .refine(
    (fields) => fields.every((f) => /^[A-Za-z]{1,40}$/.test(f)),
    'must be a comma-separated list of field names',
  );

/** Paging and projection parameters every list route accepts. */
export const listParams = {
  pageSize: pageSizeParam.optional(),
  continuationToken: z.string().min(1).max(4096).optional(),
  select: selectParam.optional(),
};
