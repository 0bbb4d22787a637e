/**
 * Archive (eventually consistent transaction through a queue), API.md "Archive":
 * `POST /departments/{dept}/employees/{id}/archive` → 202 and an `archive-requests` message;
 * the queue trigger moves the employee (src/archive/archiveEmployee.ts);
 * `GET /archive/departments/{dept}/employees/{id}` reads the archived copy.
 * A message whose processing keeps failing lands in `archive-requests-poison` after
 * `maxDequeueCount` (host.json).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app, type InvocationContext } from '@azure/functions';
import { z } from 'zod';
import { archiveEmployee } from '../src/archive/archiveEmployee';
import { parseArchiveRequest, requestedIncarnation } from '../src/archive/archiveRequests';
import { settingOrDefault } from '../src/config';
import { withServices } from './shared/services';
import { employeeRoute } from './shared/input';
import { json, readParams, versionedJson } from './shared/http';
import { departmentEditor, departmentReader } from '../src/identity/access';
import { employeeBody, ETAG_HEADER } from './shared/output';
import { protectedRoute } from './shared/route';
import { dequeueCount, inMessageTrace } from './shared/queuePayload';

const archiveQueued = {
  description: 'The archive request is queued.',
  body: z.strictObject({ status: z.literal('queued') }),
  headers: { location: { description: 'Where the archived employee will be read.' } },
};

/** `POST /departments/{dept}/employees/{id}/archive` → 202 `{"status":"queued"}` + `Location`. */
export const requestEmployeeArchive = protectedRoute('requestEmployeeArchive', {
  route: 'departments/{dept}/employees/{id}/archive',
  methods: ['POST'],
  access: departmentEditor,
  schemas: {
    params: employeeRoute,
    responses: { 202: archiveQueued },
  },
  uses: (s) => s.archiveRequests(),
  handler: async ({ request, use: archiveRequests }) => {
    const { dept, id } = readParams(request, employeeRoute);
    await archiveRequests.request(dept, id);
    return json(
      202,
      { status: 'queued' },
      {
        location: `/api/archive/departments/${encodeURIComponent(dept)}/employees/${id}`,
      },
    );
  },
});

/** `GET /archive/departments/{dept}/employees/{id}` → the archived employee, or 404. */
export const getArchived = protectedRoute('getArchivedEmployee', {
  route: 'archive/departments/{dept}/employees/{id}',
  methods: ['GET'],
  access: departmentReader,
  schemas: {
    params: employeeRoute,
    responses: {
      200: { description: 'The archived employee.', body: employeeBody, headers: ETAG_HEADER },
    },
  },
  uses: (s) => s.archiveRequests(),
  handler: async ({ request, use: archiveRequests }) => {
    const { dept, id } = readParams(request, employeeRoute);
    return versionedJson(200, await archiveRequests.archived(dept, id));
  },
});

/**
 * Queue trigger on `archive-requests`: runs the archive sequence; throwing makes the host retry.
 *
 * @throws for a malformed message or a failure of any step (the host retries, then poisons).
 */
export const archiveWorker = withServices(
  (s) => ({ queueName: s.config().queues.archive, archive: s.archive() }),
  async (
    { queueName, archive },
    queueEntry: unknown,
    context: InvocationContext,
  ): Promise<void> => {
    const { message, incarnation, result } = await inMessageTrace(
      queueName,
      queueEntry,
      async (payload) => {
        const message = parseArchiveRequest(payload);
        const incarnation = requestedIncarnation(message);
        const archiveOptions = { incarnation };
        const result = await archiveEmployee(
          archive,
          message.department,
          message.employeeId,
          archiveOptions,
        );
        return { message, incarnation, result };
      },
    );
    // `superseded`: the employee the request was accepted for is gone (or was created again with
    // the id since); nothing was touched and the message completes.
    context.log(
      `Archive ${message.department}/${message.employeeId} incarnation ${incarnation} (delivery ${dequeueCount(context)}): ${result.outcome}.`,
    );
  },
);

app.storageQueue('archiveEmployee', {
  queueName: settingOrDefault((config) => config.queues.archive),
  connection: 'AzureWebJobsStorage',
  handler: archiveWorker,
});
