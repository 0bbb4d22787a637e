/**
 * Storage failures become domain errors in one place: what each status and code turns into, what
 * the caller's context adds, and what is deliberately left alone.
 */
import { createHttpHeaders, createPipelineRequest, RestError } from '@azure/core-rest-pipeline';
import {
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  ThrottledError,
  UnavailableError,
  ValidationError,
} from '../../../src/domainErrors';
import {
  isAlreadyExists,
  isAlreadyGone,
  isConditionNotMet,
  isNotFound,
  isPreconditionFailed,
  storageCode,
  storageStatus,
  toDomainError,
  tookEffect,
  withStorageErrors,
} from '../../../src/storage/storageFaults';

/** A RestError as the SDKs throw it: status, the response's headers, and the parsed error code. */
function storageError(
  statusCode: number | undefined,
  errorCode?: string,
  headers: Record<string, string> = {},
): RestError {
  const request = createPipelineRequest({
    url: 'http://127.0.0.1:10002/devstoreaccount1/Employees',
  });
  const error = new RestError(`Storage said ${statusCode ?? 'nothing'}`, {
    statusCode,
    code: statusCode === undefined ? errorCode : undefined,
    request,
    response:
      statusCode === undefined
        ? undefined
        : { status: statusCode, headers: createHttpHeaders(headers), request, bodyAsText: '' },
  });
  if (statusCode !== undefined && errorCode) error.details = { errorCode };
  return error;
}

describe('reading storage errors', () => {
  it('finds the status and the service error code wherever the SDK put them', () => {
    expect(storageStatus(storageError(404, 'EntityNotFound'))).toBe(404);
    expect(storageCode(storageError(404, 'EntityNotFound'))).toBe('EntityNotFound');
    expect(storageCode({ details: { odataError: { code: 'TableNotFound' } } })).toBe(
      'TableNotFound',
    );
    expect(storageCode(storageError(undefined, 'ECONNRESET'))).toBe('ECONNRESET');
    expect(storageStatus({ statusCode: 409 })).toBe(409);
    expect(storageStatus(new Error('plain'))).toBeUndefined();
    expect(storageStatus(null)).toBeUndefined();
  });

  it('answers the three questions callers ask', () => {
    expect(isNotFound(storageError(404, 'ResourceNotFound'))).toBe(true);
    expect(isNotFound(storageError(undefined, 'BlobNotFound'))).toBe(true);
    expect(isNotFound(storageError(409, 'EntityAlreadyExists'))).toBe(false);
    expect(isAlreadyExists(storageError(409, 'TableAlreadyExists'))).toBe(true);
    expect(isAlreadyExists(storageError(412))).toBe(false);
    expect(isPreconditionFailed(storageError(412, 'UpdateConditionNotSatisfied'))).toBe(true);
    expect(isPreconditionFailed(undefined)).toBe(false);
  });

  it('takes only "not there" for already gone and only a failed condition for written since', () => {
    expect(isAlreadyGone(storageError(404, 'BlobNotFound'))).toBe(true);
    expect(isAlreadyGone(storageError(404, 'ContainerNotFound'))).toBe(true);
    expect(isAlreadyGone(storageError(409, 'ContainerBeingDeleted'))).toBe(true);
    // Refusals: the blob is there and stays.
    expect(isAlreadyGone(storageError(409, 'SnapshotsPresent'))).toBe(false);
    expect(isAlreadyGone(storageError(409))).toBe(false);
    expect(isAlreadyGone(storageError(412, 'LeaseIdMissing'))).toBe(false);
    expect(isConditionNotMet(storageError(412, 'ConditionNotMet'))).toBe(true);
    expect(isConditionNotMet(storageError(412, 'UpdateConditionNotSatisfied'))).toBe(true);
    expect(isConditionNotMet(storageError(412, 'LeaseIdMissing'))).toBe(false);
    expect(isConditionNotMet(storageError(412, 'LeaseIdMismatchWithBlobOperation'))).toBe(false);
    expect(isConditionNotMet(storageError(412))).toBe(false);
  });
});

describe('translating storage errors', () => {
  it('turns a 404 into NotFound phrased by the caller, keeping the storage error as cause', () => {
    const cause = storageError(404, 'ResourceNotFound');
    const error = toDomainError(cause, {
      notFound: { code: 'EmployeeNotFound', message: 'Employee 000223 does not exist in Sales.' },
    });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      code: 'EmployeeNotFound',
      message: 'Employee 000223 does not exist in Sales.',
      cause,
    });
  });

  it('turns a 404 without context into NotFound with the service code', () => {
    expect(toDomainError(storageError(404, 'TableNotFound'))).toMatchObject({
      kind: 'notFound',
      code: 'TableNotFound',
    });
    expect(toDomainError(storageError(404))).toMatchObject({ kind: 'notFound', code: 'NotFound' });
  });

  it('turns a 409 into Conflict only when the caller says what conflicts', () => {
    const cause = storageError(409, 'EntityAlreadyExists');
    expect(
      toDomainError(cause, {
        conflict: { code: 'EmailTaken', message: 'jones@contoso.com is already used in Sales.' },
      }),
    ).toEqual(new ConflictError('EmailTaken', 'jones@contoso.com is already used in Sales.'));
    // Without context a 409 is unexpected here: it surfaces as the storage error it is.
    expect(toDomainError(cause)).toBe(cause);
  });

  it('turns a 412 into PreconditionFailed, with the caller message or a default', () => {
    const cause = storageError(412, 'UpdateConditionNotSatisfied');
    expect(
      toDomainError(cause, { preconditionFailed: 'Employee 000223 changed since you read it.' }),
    ).toMatchObject({
      kind: 'preconditionFailed',
      message: 'Employee 000223 changed since you read it.',
    });
    expect(toDomainError(cause)).toBeInstanceOf(PreconditionFailedError);
  });

  it.each([
    [503, 'ServerBusy', { 'retry-after': '7' }, 7],
    [503, 'ServerBusy', { 'retry-after': '1.2' }, 2],
    [503, 'ServerBusy', {}, 5],
    [503, 'ServerBusy', { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }, 5],
    [500, 'InternalError', {}, 5],
    [429, undefined, { 'retry-after': '3' }, 3],
  ] as const)(
    'turns a %i %s into Throttled with a retry hint (%j → %i s)',
    (status, code, headers, seconds) => {
      const error = toDomainError(storageError(status, code, headers));
      expect(error).toBeInstanceOf(ThrottledError);
      expect((error as ThrottledError).retryAfterSeconds).toBe(seconds);
      expect((error as ThrottledError).message).toContain(code ?? String(status));
    },
  );

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'REQUEST_SEND_ERROR'])(
    'turns a connection failure (%s) into Unavailable',
    (code) => {
      const error = toDomainError(storageError(undefined, code));
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as UnavailableError).message).toContain(code);
    },
  );

  it('leaves domain errors and bugs alone', () => {
    const domain = new ValidationError('bad', 'body.email');
    expect(toDomainError(domain, { notFound: { code: 'X', message: 'x' } })).toBe(domain);
    const bug = new TypeError('cannot read properties of undefined');
    expect(toDomainError(bug)).toBe(bug);
    const badRequest = storageError(400, 'InvalidInput');
    expect(toDomainError(badRequest)).toBe(badRequest);
  });
});

describe('withStorageErrors', () => {
  it('returns the result of a call that succeeds', async () => {
    await expect(withStorageErrors(async () => 42)).resolves.toBe(42);
  });

  it('rethrows a failed call as the domain error', async () => {
    await expect(
      withStorageErrors(
        async () => {
          throw storageError(404, 'ResourceNotFound');
        },
        { notFound: { code: 'DepartmentNotFound', message: 'Department Sales does not exist.' } },
      ),
    ).rejects.toEqual(new NotFoundError('DepartmentNotFound', 'Department Sales does not exist.'));
  });
});

describe('tookEffect', () => {
  it('says a conditional write that succeeded took effect', async () => {
    await expect(tookEffect(async () => ({ etag: 'W/"1"' }))).resolves.toBe(true);
  });

  it.each([
    [412, 'UpdateConditionNotSatisfied'],
    [409, 'EntityAlreadyExists'],
    [404, 'ResourceNotFound'],
  ])('says a write that lost a race (%i %s) did not take effect', async (status, code) => {
    await expect(
      tookEffect(async () => {
        throw storageError(status, code);
      }),
    ).resolves.toBe(false);
  });

  it('rethrows other faults as domain errors', async () => {
    await expect(
      tookEffect(async () => {
        throw storageError(503, 'ServerBusy');
      }),
    ).rejects.toBeInstanceOf(ThrottledError);
  });
});
