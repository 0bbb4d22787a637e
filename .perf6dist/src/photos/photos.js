"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_PHOTO_BYTES = void 0;
exports.uploadPhoto = uploadPhoto;
exports.adoptUploadedPhoto = adoptUploadedPhoto;
exports.photoReadUrl = photoReadUrl;
exports.deletePhoto = deletePhoto;
exports.sweepPhotos = sweepPhotos;
exports.removePhotosOfGoneEmployee = removePhotosOfGoneEmployee;
/**
 * Employee photos (guide: "Large entities pattern"). An entity holds at most 1 MiB, so the bytes
 * live in the `photos` container and the employee entity names them: `PhotoBlob` (the blob name,
 * the contract SAS issuance reads, see docs/sas.md) and `PhotoUrl` (its URL, in the API JSON).
 *
 * Every upload goes to a NEW versioned blob (`<dept>/<id>/<version>`), written first; only then
 * does the entity point at it (ETag-conditional). A failure between the two leaves an unreferenced
 * blob, never a URL to nothing. After the entity points at the new version, the versions it no
 * longer references are deleted; versions younger than a grace period are spared, because a
 * client may be uploading one through a write SAS (`POST /sas/photos/...`) to adopt it next.
 *
 * Archiving keeps the blob (the archived entity keeps `PhotoBlob`); deleting an employee removes
 * its blobs (the index worker calls {@link removePhotosOfGoneEmployee} once the employee is gone).
 */
const node_crypto_1 = require("node:crypto");
const storage_blob_1 = require("@azure/storage-blob");
const directoryErrors_1 = require("../directory/directoryErrors");
const employeeState_1 = require("../directory/employeeState");
const state_1 = require("../directory/state");
const errors_1 = require("../errors");
const lastNameBlobStore_1 = require("../indexing/lastNameBlobStore");
const lifetime_1 = require("../sas/lifetime");
const photoLocator_1 = require("../sas/photoLocator");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
/** Largest photo accepted (16 MiB). */
exports.MAX_PHOTO_BYTES = 16 * 1024 * 1024;
const IMAGE_TYPE = /^image\/[a-z0-9.+-]{1,64}$/i;
/** A fresh, time-ordered version name. */
function newVersion(now) {
    return `${String(now.getTime()).padStart(16, '0')}-${(0, node_crypto_1.randomBytes)(6).toString('hex')}`;
}
/**
 * Stores a new photo for an employee and points the employee at it.
 *
 * @returns the photo URL now stored on the employee.
 * @throws {ValidationError} `UnsupportedPhotoType` when the content type is not `image/*`; for an empty body.
 * @throws {TooLargeError} `PhotoTooLarge` over {@link MAX_PHOTO_BYTES}.
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {DomainError} for storage faults (the new blob may stay behind; a later sweep removes it).
 */
async function uploadPhoto(deps, department, employeeId, bytes, contentType) {
    if (!IMAGE_TYPE.test(contentType)) {
        throw new errors_1.ValidationError(`A photo must be sent with content-type image/*, got "${contentType}".`, 'content-type', 'UnsupportedPhotoType');
    }
    if (bytes.length === 0)
        throw new errors_1.ValidationError('The photo is empty.', 'body', 'EmptyPhoto');
    if (bytes.length > exports.MAX_PHOTO_BYTES) {
        throw new errors_1.TooLargeError(`A photo may be at most ${exports.MAX_PHOTO_BYTES} bytes.`, 'PhotoTooLarge');
    }
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    if (!(await (0, employeeState_1.readEmployeeState)(deps.employees, partitionKey, employeeId))) {
        throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
    }
    await (0, lastNameBlobStore_1.ensureContainer)(deps.photos);
    const blobName = (0, keys_1.photoBlobName)(department, employeeId, newVersion(now(deps)));
    // 1. The bytes first, under a name nobody references yet.
    await (0, errors_2.withStorageErrors)(() => deps.photos.getBlockBlobClient(blobName).uploadData(bytes, {
        blobHTTPHeaders: { blobContentType: contentType },
    }));
    // 2. Then the entity.
    return adopt(deps, department, employeeId, blobName);
}
/**
 * Points the employee at a version blob the client uploaded itself through a write SAS.
 *
 * @throws {ValidationError} `InvalidPhotoBlob` for a name that is not a photo version of this employee,
 *   `UnsupportedPhotoType` when the blob is not an image.
 * @throws {NotFoundError} `PhotoBlobNotFound` when nothing was uploaded there; `EmployeeNotFound`.
 * @throws {DomainError} for storage faults.
 */
async function adoptUploadedPhoto(deps, department, employeeId, blobName) {
    const owner = (0, keys_1.parsePhotoBlobName)(blobName);
    if (!owner || owner.department !== department || owner.employeeId !== employeeId) {
        throw new errors_1.ValidationError(`"${blobName}" is not a photo version of employee ${employeeId} in "${department}".`, 'blobName', 'InvalidPhotoBlob');
    }
    let contentType;
    try {
        contentType = (await deps.photos.getBlockBlobClient(blobName).getProperties()).contentType;
    }
    catch (error) {
        if ((0, errors_2.isNotFound)(error)) {
            throw new errors_1.NotFoundError('PhotoBlobNotFound', `Nothing was uploaded to "${blobName}".`);
        }
        throw (0, errors_2.toDomainError)(error);
    }
    if (!contentType || !IMAGE_TYPE.test(contentType)) {
        throw new errors_1.ValidationError(`The uploaded blob must have content-type image/*, got "${contentType ?? 'none'}".`, 'blobName', 'UnsupportedPhotoType');
    }
    return adopt(deps, department, employeeId, blobName);
}
const MAX_ROUNDS = 10;
async function adopt(deps, department, employeeId, blobName) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const rowKey = (0, keys_1.employeeRowKey)(employeeId);
    const photoUrl = deps.photos.getBlockBlobClient(blobName).url;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
        const state = await (0, employeeState_1.readEmployeeState)(deps.employees, partitionKey, employeeId);
        if (!state) {
            await deleteBlobIfExists(deps.photos, blobName);
            throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
        }
        // Name the blob on the entity (conditional), then rewrite the URL on the employee and its
        // email copy in one transaction; the directory carries `PhotoBlob` over as it stands.
        let merged;
        try {
            merged = await deps.employees.updateEntity({ partitionKey, rowKey, [photoLocator_1.PHOTO_BLOB_PROPERTY]: blobName }, 'Merge', { etag: state.etag });
        }
        catch (error) {
            if ((0, errors_2.isPreconditionFailed)(error) || (0, errors_2.isNotFound)(error))
                continue;
            throw (0, errors_2.toDomainError)(error);
        }
        try {
            await deps.directory.setPhotoUrl(department, employeeId, photoUrl, { ifMatch: merged.etag });
        }
        catch (error) {
            if (error instanceof errors_1.PreconditionFailedError)
                continue;
            throw error;
        }
        // The replaced version goes at once; other unreferenced ones once past the grace period.
        const previous = state.entity[photoLocator_1.PHOTO_BLOB_PROPERTY];
        if (typeof previous === 'string' && previous !== '' && previous !== blobName) {
            await deleteBlobIfExists(deps.photos, previous);
        }
        await sweepPhotos(deps, department, employeeId, [blobName]);
        return { photoUrl, blobName };
    }
    throw new errors_1.ThrottledError(`Employee ${employeeId} kept changing while its photo was set.`, 5);
}
/**
 * A short-lived read URL (SAS) for the employee's current photo.
 *
 * @throws {NotFoundError} `PhotoNotFound` when the employee (or its photo) does not exist.
 * @throws {DomainError} for storage faults (user delegation key).
 */
async function photoReadUrl(deps, department, employeeId) {
    const entity = await (0, state_1.readEntity)(deps.employees, (0, keys_1.departmentPartitionKey)(department), (0, keys_1.employeeRowKey)(employeeId), [photoLocator_1.PHOTO_BLOB_PROPERTY]);
    const blobName = entity?.[photoLocator_1.PHOTO_BLOB_PROPERTY];
    const owner = typeof blobName === 'string' ? (0, keys_1.parsePhotoBlobName)(blobName) : undefined;
    if (typeof blobName !== 'string' ||
        owner?.department !== department ||
        owner.employeeId !== employeeId) {
        throw new errors_1.NotFoundError('PhotoNotFound', `Employee ${employeeId} in "${department}" has no photo.`);
    }
    const at = now(deps).getTime();
    const expiresOn = new Date(Math.floor((at + (deps.readSasSeconds ?? 300) * 1000) / 1000) * 1000);
    const sas = await deps.signer.sign({
        containerName: deps.photos.containerName,
        blobName,
        permissions: storage_blob_1.BlobSASPermissions.parse('r'),
        startsOn: new Date(at - lifetime_1.CLOCK_SKEW_MS),
        expiresOn,
        protocol: deps.allowHttp ? storage_blob_1.SASProtocol.HttpsAndHttp : storage_blob_1.SASProtocol.Https,
    });
    return { url: `${deps.photos.getBlockBlobClient(blobName).url}?${sas}`, expiresOn };
}
/**
 * Removes the employee's photo: the entity stops naming it, then the blobs go.
 *
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {DomainError} for storage faults.
 */
async function deletePhoto(deps, department, employeeId) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const rowKey = (0, keys_1.employeeRowKey)(employeeId);
    for (let round = 1; round <= MAX_ROUNDS; round++) {
        const state = await (0, employeeState_1.readEmployeeState)(deps.employees, partitionKey, employeeId);
        if (!state)
            throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
        try {
            const merged = await deps.employees.updateEntity({ partitionKey, rowKey, [photoLocator_1.PHOTO_BLOB_PROPERTY]: '' }, 'Merge', { etag: state.etag });
            await deps.directory.setPhotoUrl(department, employeeId, null, { ifMatch: merged.etag });
        }
        catch (error) {
            if (error instanceof errors_1.PreconditionFailedError || (0, errors_2.isPreconditionFailed)(error))
                continue;
            throw (0, errors_2.toDomainError)(error);
        }
        await sweepPhotos(deps, department, employeeId, [], 0);
        return;
    }
    throw new errors_1.ThrottledError(`Employee ${employeeId} kept changing while its photo was removed.`, 5);
}
/**
 * Deletes the photo versions of an employee that are not `keep`, not referenced by the employee
 * or its archived copy, and older than the grace period.
 *
 * @returns the names deleted.
 * @throws {DomainError} for storage faults.
 */
async function sweepPhotos(deps, department, employeeId, keep, graceMs = deps.sweepGraceMs ?? 15 * 60_000) {
    await (0, lastNameBlobStore_1.ensureContainer)(deps.photos);
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const rowKey = (0, keys_1.employeeRowKey)(employeeId);
    const referenced = new Set(keep);
    for (const table of [deps.employees, deps.archive]) {
        const entity = await (0, state_1.readEntity)(table, partitionKey, rowKey, [photoLocator_1.PHOTO_BLOB_PROPERTY]).catch((error) => {
            if ((0, errors_2.isNotFound)(error) || error.code === 'TableNotFound')
                return undefined;
            throw error;
        });
        const name = entity?.[photoLocator_1.PHOTO_BLOB_PROPERTY];
        if (typeof name === 'string' && name !== '')
            referenced.add(name);
    }
    const cutoff = now(deps).getTime() - graceMs;
    const deleted = [];
    const candidates = [];
    await (0, errors_2.withStorageErrors)(async () => {
        for await (const blob of deps.photos.listBlobsFlat({
            prefix: (0, keys_1.photoBlobPrefix)(department, employeeId),
        })) {
            const created = blob.properties.createdOn ?? blob.properties.lastModified;
            if (!referenced.has(blob.name) && created.getTime() <= cutoff)
                candidates.push(blob.name);
        }
    });
    for (const name of candidates) {
        if (await deleteBlobIfExists(deps.photos, name))
            deleted.push(name);
    }
    return deleted;
}
/**
 * After the employee left the directory (deleted or archived): removes every photo version the
 * archived copy does not name.
 *
 * @throws {DomainError} for storage faults.
 */
async function removePhotosOfGoneEmployee(deps, department, employeeId) {
    return sweepPhotos(deps, department, employeeId, [], 0);
}
async function deleteBlobIfExists(container, blobName) {
    const response = await (0, errors_2.withStorageErrors)(() => container.getBlockBlobClient(blobName).deleteIfExists());
    return response.succeeded;
}
function now(deps) {
    return deps.now?.() ?? new Date();
}
//# sourceMappingURL=photos.js.map