"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.removePhoto = exports.getPhoto = exports.putPhoto = void 0;
/**
 * Photos (large entity), API.md "Photos": `PUT .../photo` stores the raw image in blob storage
 * under a new version and points the employee at it (or, with a JSON body `{"blobName"}`, adopts a
 * version the client uploaded through a write SAS); `GET .../photo` redirects to a short-lived read
 * SAS; `DELETE .../photo` removes it.
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const errors_1 = require("../src/errors");
const photos_1 = require("../src/photos/photos");
const consistency_1 = require("./shared/consistency");
const input_1 = require("./shared/input");
const http_1 = require("./shared/http");
const adoptBody = zod_1.z.strictObject({ blobName: zod_1.z.string().min(1).max(1024) });
/** `PUT .../photo` → 200 `{"photoUrl"}`. */
exports.putPhoto = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const contentType = (request.headers.get('content-type') ?? '').split(';')[0].trim();
    if (contentType === 'application/json') {
        const { blobName } = await (0, http_1.readJson)(request, adoptBody);
        const result = await (0, photos_1.adoptUploadedPhoto)((0, consistency_1.photoDependencies)(), dept, id, blobName);
        return (0, http_1.json)(200, { photoUrl: result.photoUrl });
    }
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > photos_1.MAX_PHOTO_BYTES) {
        throw new errors_1.TooLargeError(`A photo may be at most ${photos_1.MAX_PHOTO_BYTES} bytes.`, 'PhotoTooLarge');
    }
    const bytes = Buffer.from(await request.arrayBuffer());
    const result = await (0, photos_1.uploadPhoto)((0, consistency_1.photoDependencies)(), dept, id, bytes, contentType);
    return (0, http_1.json)(200, { photoUrl: result.photoUrl });
});
/** `GET .../photo` → 302 to a read SAS URL. */
exports.getPhoto = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const { url } = await (0, photos_1.photoReadUrl)((0, consistency_1.photoDependencies)(), dept, id);
    return { status: 302, headers: { location: url, 'cache-control': 'no-store' } };
});
/** `DELETE .../photo` → 204. */
exports.removePhoto = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    await (0, photos_1.deletePhoto)((0, consistency_1.photoDependencies)(), dept, id);
    return { status: 204 };
});
const route = 'departments/{dept}/employees/{id}/photo';
functions_1.app.http('putEmployeePhoto', { route, methods: ['PUT'], authLevel: 'function', handler: exports.putPhoto });
functions_1.app.http('getEmployeePhoto', { route, methods: ['GET'], authLevel: 'function', handler: exports.getPhoto });
functions_1.app.http('deleteEmployeePhoto', {
    route,
    methods: ['DELETE'],
    authLevel: 'function',
    handler: exports.removePhoto,
});
//# sourceMappingURL=photos.js.map