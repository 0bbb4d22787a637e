/**
 * The SAS capability's errors, phrased once.
 */
import {
  ConflictError,
  ForbiddenError,
  NotConfiguredError,
  NotFoundError,
  ValidationError,
} from '../domainErrors';

/** 400: a token lifetime that is not a whole number of at least 1 minute. */
export function invalidSasLifetime(minutes: number): ValidationError {
  return new ValidationError(
    `minutes must be a whole number of at least 1, got ${minutes}.`,
    'body.minutes',
    'InvalidSasLifetime',
  );
}

/** 400: a token lifetime over the cap (refused, never shortened). */
export function sasLifetimeTooLong(minutes: number, maxMinutes: number): ValidationError {
  return new ValidationError(
    `A SAS may live at most ${maxMinutes} minutes; ${minutes} were requested.`,
    'body.minutes',
    'SasLifetimeTooLong',
  );
}

/** 403: the caller may not read that employee's expenses. */
export function expensesSasForbidden(department: string, employeeId: string): ForbiddenError {
  return new ForbiddenError(
    `Only employee ${employeeId} of "${department}" or a DirectoryAdmin may read these expenses.`,
  );
}

/** 403: the caller may not read the department (`readerRole`: the role that would let it). */
export function departmentSasForbidden(department: string, readerRole: string): ForbiddenError {
  return new ForbiddenError(
    `Reading department ${department} needs the DirectoryAdmin or ${readerRole} role.`,
  );
}

/** 403: the caller may not upload that employee's photo. */
export function photoUploadForbidden(department: string, employeeId: string): ForbiddenError {
  return new ForbiddenError(
    `Only employee ${employeeId} of "${department}", its department's editor or a DirectoryAdmin may upload this photo.`,
  );
}

/** 403: the caller may not read that employee's photo. */
export function photoReadForbidden(employeeId: string, readerRole: string): ForbiddenError {
  return new ForbiddenError(
    `Reading this photo needs to be employee ${employeeId}, a DirectoryAdmin or ${readerRole}.`,
  );
}

/** 403: only the admin role (`adminRole`) may do `what`. */
export function adminOnly(adminRole: string, what: string): ForbiddenError {
  return new ForbiddenError(`Only a ${adminRole} may ${what}.`);
}

/** Not configured: table SAS are not bound to stored access policies here. */
export function sasPolicyNotUsed(): NotConfiguredError {
  return new NotConfiguredError(
    'Table SAS are not bound to stored access policies here (SAS_TABLE_POLICY=none); ' +
      'revoke them by rotating the account key.',
    'SasPolicyNotUsed',
  );
}

/** 404: a table SAS are not issued for (`tables`: those they are). */
export function sasTableNotFound(table: string, tables: readonly string[]): NotFoundError {
  return new NotFoundError(
    'SasTableNotFound',
    `SAS are issued for tables ${tables.join(' and ')} only, not "${table}".`,
  );
}

/** Not configured: an account key without a known account name. */
export function sasAccountNameUnknown(): NotConfiguredError {
  return new NotConfiguredError(
    'STORAGE_ACCOUNT_KEY is set but the account name is unknown: set STORAGE_ACCOUNT_NAME.',
  );
}

/** Not configured: `feature` needs the storage account key, and none is configured. */
export function sasKeyNotConfigured(feature: string): NotConfiguredError {
  return new NotConfiguredError(
    `${feature} needs the storage account key (Table storage has no user delegation SAS): ` +
      'set STORAGE_ACCOUNT_KEY (a Key Vault reference in Azure) and STORAGE_ACCOUNT_NAME.',
    'SasKeyNotConfigured',
  );
}

/** 409: the table's stored access policies leave no room for the two SAS issuance needs. */
export function sasPolicyLimit(
  tableName: string,
  identifiers: number,
  maxIdentifiers: number,
): ConflictError {
  return new ConflictError(
    'SasPolicyLimit',
    `Table ${tableName} already has ${identifiers - 2} other stored access policies; ` +
      `a table holds at most ${maxIdentifiers}, and SAS issuance needs two.`,
  );
}
