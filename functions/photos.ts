/**
 * Photos (large entity), API.md "Photos": `PUT .../photo` stores the raw image in blob storage
 * under a new version and points the employee at it (or, with a JSON body `{"blobName"}`, adopts a
 * version the client uploaded through a write SAS); `GET .../photo` redirects to a short-lived read
 * SAS; `DELETE .../photo` removes it.
 */
import { app } from '@azure/functions';
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
import { handleErrors, json, readJson, readParams, type HttpHandler } from './shared/http';

const adoptBody = z.strictObject({ blobName: z.string().min(1).max(1024) });

/** `PUT .../photo` → 200 `{"photoUrl"}`. */
export const putPhoto: HttpHandler = handleErrors(async (request) => {
  const { dept, id } = readParams(request, employeeRoute);
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (contentType === 'application/json') {
    const { blobName } = await readJson(request, adoptBody);
    const result = await adoptUploadedPhoto(photoDependencies(), dept, id, blobName);
    return json(200, { photoUrl: result.photoUrl });
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_PHOTO_BYTES) {
    throw new TooLargeError(`A photo may be at most ${MAX_PHOTO_BYTES} bytes.`, 'PhotoTooLarge');
  }
  const bytes = Buffer.from(await request.arrayBuffer());
  const result = await uploadPhoto(photoDependencies(), dept, id, bytes, contentType);
  return json(200, { photoUrl: result.photoUrl });
});

/** `GET .../photo` → 302 to a read SAS URL. */
export const getPhoto: HttpHandler = handleErrors(async (request) => {
  const { dept, id } = readParams(request, employeeRoute);
  const { url } = await photoReadUrl(photoDependencies(), dept, id);
  return { status: 302, headers: { location: url, 'cache-control': 'no-store' } };
});

/** `DELETE .../photo` → 204. */
export const removePhoto: HttpHandler = handleErrors(async (request) => {
  const { dept, id } = readParams(request, employeeRoute);
  await deletePhoto(photoDependencies(), dept, id);
  return { status: 204 };
});

const route = 'departments/{dept}/employees/{id}/photo';
app.http('putEmployeePhoto', { route, methods: ['PUT'], authLevel: 'function', handler: putPhoto });
app.http('getEmployeePhoto', { route, methods: ['GET'], authLevel: 'function', handler: getPhoto });
app.http('deleteEmployeePhoto', {
  route,
  methods: ['DELETE'],
  authLevel: 'function',
  handler: removePhoto,
});
