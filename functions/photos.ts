/**
 * Photos (large entity), API.md "Photos": `PUT .../photo` stores the raw image in blob storage
 * under a new version and points the employee at it (or, with a JSON body `{"blobName"}`, adopts a
 * version the client uploaded through a write SAS); `GET .../photo` redirects to a short-lived read
 * SAS; `DELETE .../photo` removes it.
 */
import { z } from 'zod';
import { TooLargeError } from '../src/errors';
import {
  adoptUploadedPhoto,
  deletePhoto,
  MAX_PHOTO_BYTES,
  photoReadUrl,
  uploadPhoto,
} from '../src/photos/photos';
import { photoDependencies } from './shared/consistency';
import { employeeRoute } from './shared/input';
import { json, readBody, readJson, readParams } from './shared/http';
import { anyOf, departmentEditor, departmentReader, self } from '../src/identity/access';
import { protectedRoute } from './shared/route';

const adoptBody = z.strictObject({ blobName: z.string().min(1).max(1024) });

const route = 'departments/{dept}/employees/{id}/photo';

/** `PUT .../photo` → 200 `{"photoUrl"}`. */
export const putPhoto = protectedRoute('putEmployeePhoto', {
  route,
  methods: ['PUT'],
  access: anyOf(self, departmentEditor),
  handler: async (request) => {
    const { dept, id } = readParams(request, employeeRoute);
    const contentType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (contentType === 'application/json') {
      const { blobName } = await readJson(request, adoptBody);
      const result = await adoptUploadedPhoto(photoDependencies(), dept, id, blobName);
      return json(200, { photoUrl: result.photoUrl });
    }
    const bytes = await readBody(
      request,
      MAX_PHOTO_BYTES,
      () => new TooLargeError(`A photo may be at most ${MAX_PHOTO_BYTES} bytes.`, 'PhotoTooLarge'),
    );
    const result = await uploadPhoto(photoDependencies(), dept, id, bytes, contentType);
    return json(200, { photoUrl: result.photoUrl });
  },
});

/** `GET .../photo` → 302 to a read SAS URL. */
export const getPhoto = protectedRoute('getEmployeePhoto', {
  route,
  methods: ['GET'],
  access: anyOf(self, departmentReader),
  handler: async (request) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { url } = await photoReadUrl(photoDependencies(), dept, id);
    return { status: 302, headers: { location: url, 'cache-control': 'no-store' } };
  },
});

/** `DELETE .../photo` → 204. */
export const removePhoto = protectedRoute('deleteEmployeePhoto', {
  route,
  methods: ['DELETE'],
  access: departmentEditor,
  handler: async (request) => {
    const { dept, id } = readParams(request, employeeRoute);
    await deletePhoto(photoDependencies(), dept, id);
    return { status: 204 };
  },
});
