/** The errors of placement and relocation (docs/accounts.md), phrased once. */
import { ConflictError, NotFoundError, ThrottledError, ValidationError } from '../domainErrors';

/** Seconds a refused write should wait: about one placement cache period (the switch's length). */
export const RELOCATING_RETRY_AFTER_SECONDS = 2;

/** 400: an account name that is not configured (`home` or a name of `DATA_ACCOUNTS`). */
export function unknownAccount(name: string, known: readonly string[]): ValidationError {
  return new ValidationError(
    `Account "${name}" is not configured; the accounts are ${known.map((n) => `"${n}"`).join(', ')}.`,
    'body.account',
    'UnknownAccount',
  );
}

/** 409: a relocation to the account that already holds the department. */
export function alreadyThere(department: string, account: string): ConflictError {
  return new ConflictError(
    'AlreadyThere',
    `Department "${department}" already lives in account "${account}".`,
  );
}

/** 409: another relocation of the department is under way; names it and where it is. */
export class RelocationRunningError extends ConflictError {
  constructor(
    message: string,
    /** The relocation's orchestration id. */
    readonly relocation: string,
    /** Where it is: a placement phase, or `rollingBack` (failed before its switch). */
    readonly phase: string,
    /** Its orchestration's runtime status, when known. */
    readonly runtimeStatus?: string,
  ) {
    super('RelocationRunning', message);
  }
}

/** 409: another relocation of the department is under way (or failed and awaits its resume). */
export function relocationRunning(
  department: string,
  instanceId: string,
  phase = 'unknown',
  runtimeStatus?: string,
): RelocationRunningError {
  const failed = runtimeStatus === 'Failed' || runtimeStatus === 'Terminated';
  return new RelocationRunningError(
    failed
      ? `The relocation of department "${department}" (orchestration ${instanceId}) stopped at ${phase}; resume it with the same account.`
      : `Department "${department}" is being relocated already (orchestration ${instanceId}, ${phase}); wait for it to finish.`,
    instanceId,
    phase,
    runtimeStatus,
  );
}

/** 404: a relocation of a department that has no data anywhere (it was never written). */
export function departmentNotPlaced(department: string): NotFoundError {
  return new NotFoundError('DepartmentNotFound', `Department "${department}" does not exist.`);
}

/** 409: a relocation step found the placement changed by something else (a bug or a hand edit). */
export function relocationLost(department: string, relocation: string): ConflictError {
  return new ConflictError(
    'RelocationLost',
    `The placement of department "${department}" no longer belongs to relocation ${relocation}.`,
  );
}

/**
 * 503 with Retry-After: the department is switching accounts; the write was not applied (nothing
 * was stored), and the same request succeeds after the switch.
 */
export function relocating(department: string): ThrottledError {
  return new ThrottledError(
    `Department "${department}" is moving to another storage account; nothing was written. Retry in a few seconds.`,
    RELOCATING_RETRY_AFTER_SECONDS,
    { code: 'Relocating' },
  );
}

/** 503: the fence of a partition kept changing under a writer (a relocation stepping fast). */
export function fenceContended(department: string, attempts: number): ThrottledError {
  return new ThrottledError(
    `The placement of department "${department}" kept changing over ${attempts} attempts; nothing was written. Retry in a few seconds.`,
    RELOCATING_RETRY_AFTER_SECONDS,
    { code: 'Relocating' },
  );
}

/** No account has a weight above 0 (the configuration forbids it: a bug if reached). */
export function noWeightedAccount(): RangeError {
  return new RangeError('Rendezvous hashing needs an account with a weight above 0.');
}

/** A stored placement row this code cannot read (a bug or a hand edit). */
export function unreadablePlacement(department: string): RangeError {
  return new RangeError(`The placement row of department "${department}" is not readable.`);
}
