/**
 * The answers the fault proxy gives in place of storage: shaped like the real service's errors so
 * that the SDKs parse them as they would parse Azure's (XML `<Error>` for Blob and Queue, an OData
 * JSON error for Table, the code in `x-ms-error-code` for all three).
 */
import { randomUUID } from 'node:crypto';
import type { StorageService } from './faultPlan';

/** A complete HTTP answer. */
export interface SyntheticResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The storage error codes the proxy can answer with. */
export const SYNTHETIC_ERRORS = {
  500: {
    code: 'InternalError',
    message: 'The server encountered an internal error. Please retry the request.',
  },
  503: {
    code: 'ServerBusy',
    message: 'The server is currently unable to receive requests. Please retry your request.',
  },
  502: {
    code: 'BadGateway',
    message: 'The fault proxy could not reach the storage emulator.',
  },
} as const;

/** A status the fault proxy can answer in storage's own error format. */
export type SyntheticStatus = keyof typeof SYNTHETIC_ERRORS;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A storage-style error answer for `service`.
 *
 * @param options.retryAfterSeconds - adds `Retry-After` (the fault plan's `503-retry-after`).
 * @param options.message - the message in place of the status's usual one (Azure's throttling
 *   messages name the scope: "Operations per second is over the account limit.").
 */
export function storageErrorResponse(
  service: StorageService,
  status: SyntheticStatus,
  options: { retryAfterSeconds?: number; now?: Date; requestId?: string; message?: string } = {},
): SyntheticResponse {
  const { code } = SYNTHETIC_ERRORS[status];
  const message = options.message ?? SYNTHETIC_ERRORS[status].message;
  const requestId = options.requestId ?? randomUUID();
  const now = options.now ?? new Date();
  // Azure appends the request id and time to every error message.
  const fullMessage = `${message}\nRequestId:${requestId}\nTime:${now.toISOString()}`;
  const body =
    service === 'table'
      ? JSON.stringify({ 'odata.error': { code, message: { lang: 'en-US', value: fullMessage } } })
      : `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${escapeXml(fullMessage)}</Message></Error>`;
  const headers: Record<string, string> = {
    'content-type':
      service === 'table'
        ? 'application/json;odata=minimalmetadata;streaming=true;charset=utf-8'
        : 'application/xml',
    'content-length': String(Buffer.byteLength(body)),
    'x-ms-error-code': code,
    'x-ms-request-id': requestId,
    'x-ms-version': '2025-01-05',
    date: now.toUTCString(),
  };
  if (options.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(options.retryAfterSeconds);
  return { status, headers, body };
}
