/**
 * Photos (large entity), API.md "Photos": `PUT .../photo` stores the raw image in blob storage
 * under a new version and points the employee at it (or, with a JSON body `{"blobName"}`, adopts a
 * version the client uploaded through a write SAS); `GET .../photo` redirects to a short-lived read
 * SAS; `DELETE .../photo` removes it. The timer `sweepUnadoptedPhotos` deletes, daily, the uploaded
 * versions nobody adopted and the versions of employees that are gone.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app, type InvocationContext, type Timer } from '@azure/functions';
import { z } from 'zod';
import { settingOrDefault } from '../src/config';
import { TooLargeError } from '../src/domainErrors';
import {
  deletePhoto,
  MAX_PHOTO_BYTES,
  photoReadUrl,
  setEmployeePhoto,
  type PhotoSource,
} from '../src/photos/photos';
import { sweepUnadoptedPhotos } from '../src/photos/sweepUnadopted';
import { withServices, type Services } from './shared/services';
import { recordingRuns, unfinishedRun } from './shared/timerRuns';
import { employeeRoute } from './shared/input';
import { json, readBody, readJson, readParams } from './shared/http';
import { anyOf, departmentEditor, departmentReader, self } from '../src/identity/access';
import { ETAG_HEADER } from './shared/output';
import { protectedRoute, type RouteSchemas } from './shared/route';

const adoptBody = z.strictObject({ blobName: z.string().min(1).max(1024) });

/** What every photo route shares: its path. */
const photoRoute = { route: 'departments/{dept}/employees/{id}/photo' } as const;

/**
 * What every photo route declares besides its own: the employee in the path, and 501 where an
 * account key is configured but no account name can be found (src/sas/signingKey.ts).
 */
const photoSchemas = (own: Omit<RouteSchemas, 'params'>): RouteSchemas => ({
  params: employeeRoute,
  ...own,
  errors: [501, ...(own.errors ?? [])],
});
/**
 * What the photo routes use: the photo feature of the account that holds a department, looked up
 * once the handler has validated the department's name (placement, docs/accounts.md).
 */
const photosOfDepartment = (s: Services) => (department: string) => s.photosFor(department);

const photoTooLarge = () =>
  new TooLargeError(`A photo may be at most ${MAX_PHOTO_BYTES} bytes.`, 'PhotoTooLarge');

const photoUrlJson = z.strictObject({ photoUrl: z.string() });
const redirectToSas = {
  description: 'Redirect to a short-lived read SAS URL of the photo.',
  headers: { location: { description: 'The read SAS URL.' } },
};

/** `PUT .../photo` → 200 `{"photoUrl"}` + the employee's new `ETag`. */
export const putPhoto = protectedRoute('putEmployeePhoto', {
  ...photoRoute,
  methods: ['PUT'],
  access: anyOf(self, departmentEditor),
  schemas: photoSchemas({
    body: adoptBody,
    rawBodies: ['image/*'],
    responses: {
      200: {
        description:
          "Stored (or adopted): the URL the employee now names, and the employee's ETag.",
        body: photoUrlJson,
        headers: ETAG_HEADER,
      },
    },
  }),
  uses: photosOfDepartment,
  handler: async ({ request, use: photosFor }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const contentType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim();
    // JSON names a version the client uploaded through a write SAS; an image body is the photo.
    const source: PhotoSource =
      contentType === 'application/json'
        ? await readJson(request, adoptBody)
        : { bytes: await readBody(request, MAX_PHOTO_BYTES, photoTooLarge), contentType };
    const result = await setEmployeePhoto(await photosFor(dept), dept, id, source);
    return json(200, { photoUrl: result.photoUrl }, { etag: result.etag });
  },
});

/** `GET .../photo` → 302 to a read SAS URL. */
export const getPhoto = protectedRoute('getEmployeePhoto', {
  ...photoRoute,
  methods: ['GET'],
  access: anyOf(self, departmentReader),
  schemas: photoSchemas({ responses: { 302: redirectToSas } }),
  uses: photosOfDepartment,
  handler: async ({ request, use: photosFor }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { url } = await photoReadUrl(await photosFor(dept), dept, id);
    return { status: 302, headers: { location: url, 'cache-control': 'no-store' } };
  },
});

/** `DELETE .../photo` → 204. */
export const removePhoto = protectedRoute('deleteEmployeePhoto', {
  ...photoRoute,
  methods: ['DELETE'],
  access: departmentEditor,
  // 409 PhotoVersionNotDeleted: storage refused to delete a version (a lease...).
  schemas: photoSchemas({ responses: { 204: { description: 'Deleted.' } }, errors: [409] }),
  uses: photosOfDepartment,
  handler: async ({ request, use: photosFor }) => {
    const { dept, id } = readParams(request, employeeRoute);
    await deletePhoto(await photosFor(dept), dept, id);
    return { status: 204 };
  },
});

/** Most deleted names the sweep's log line spells out. */
const LOGGED_NAMES = 20;

/**
 * Timer: sweeps the photo versions nobody adopted (and those of employees that are gone), then
 * logs one line with what it deleted. Fails the invocation when some employee could not be swept
 * (the next run tries again).
 */
export const runUnadoptedPhotoSweep = withServices(
  (s) => {
    // Throws while PHOTO_SWEEP_SCHEDULE is malformed: the timer fired on the default schedule.
    void s.config().photos.sweepSchedule;
    // Each account's photos container is swept on its own (docs/accounts.md).
    return s.allPhotos();
  },
  async (allPhotos, _timer: Timer, context: InvocationContext): Promise<void> => {
    const reports = [];
    for (const deps of allPhotos) reports.push(await sweepUnadoptedPhotos(deps));
    const report = {
      listed: reports.reduce((n, r) => n + r.listed, 0),
      employees: reports.reduce((n, r) => n + r.employees, 0),
      deleted: reports.flatMap((r) => r.deleted),
      ignored: reports.reduce((n, r) => n + r.ignored, 0),
      failed: reports.flatMap((r) => r.failed),
    };
    const shown = report.deleted.slice(0, LOGGED_NAMES);
    const more = report.deleted.length - shown.length;
    context.log(
      `sweepUnadoptedPhotos: deleted ${report.deleted.length} unadopted photo version(s)` +
        (shown.length > 0 ? ` (${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''})` : '') +
        `; listed ${report.listed} blob(s), swept ${report.employees} employee(s), ` +
        `${report.ignored} not photo versions, ${report.failed.length} failed.`,
    );
    if (report.failed.length > 0) {
      for (const { department, employeeId, error } of report.failed) {
        context.error(`sweepUnadoptedPhotos: ${department}/${employeeId} failed`, error);
      }
      throw unfinishedRun(
        `sweepUnadoptedPhotos could not sweep ${report.failed.length} employee(s); the next run retries.`,
        report.failed,
      );
    }
  },
);

app.timer('sweepUnadoptedPhotos', {
  // A malformed schedule registers the default one; the handler then refuses to run.
  schedule: settingOrDefault((config) => config.photos.sweepSchedule),
  handler: recordingRuns('sweepUnadoptedPhotos', runUnadoptedPhotoSweep),
});
