/**
 * An unexpected error is logged redacted: a Durable client call that fails carries its URL (with
 * the host key as `code=`) in the error the adapter logs.
 */
import type { InvocationContext } from '@azure/functions';
import { errorResponse } from '../../../functions/shared/http';

it('logs an unexpected error with its message and stack, without the secrets its URL carried', () => {
  const logged: unknown[][] = [];
  const context = {
    error: (...args: unknown[]) => logged.push(args),
  } as unknown as InvocationContext;
  const url =
    'http://127.0.0.1:7071/runtime/webhooks/durabletask/instances/abc?taskHub=Hub&connection=Storage&code=HOST-KEY-123';
  const error = Object.assign(new Error(`Request failed: GET ${url}`), {
    config: { url, headers: { authorization: 'Bearer eyJhbGciOi.secret-token' } },
  });

  expect(errorResponse(error, context).status).toBe(500);

  const text = logged.map((args) => args.map(String).join(' ')).join('\n');
  expect(text).toContain('Unhandled error');
  expect(text).toContain('Request failed');
  expect(text).toContain('code=redacted');
  expect(text).not.toContain('HOST-KEY-123');
  expect(text).not.toContain('secret-token');
});
