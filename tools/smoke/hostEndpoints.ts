/**
 * The smoke's `host-endpoints` check (checks.ts): the host's own endpoints — the Durable webhooks
 * and the admin API, which list, start, terminate and purge any orchestration, or run any
 * function, with no identity — want the system or master key, not a signed-in caller. With the
 * token (and the function key, if given: it is neither key) each must still be refused. Skipped
 * without a token: App Service authentication answers first then, which asks nothing of them.
 */
import { get } from './http';

/** The paths asked: the webhooks' instance list and the admin API's host status (both GET). */
export const HOST_ENDPOINT_PATHS = [
  '/runtime/webhooks/durabletask/instances/',
  '/admin/host/status',
];

/**
 * Asks each host endpoint as the signed-in caller.
 *
 * @param run.apiBase - the API base (`<origin>/api`); the endpoints are on its origin.
 * @param headers - more headers to send (the function key).
 * @returns `ok` when every one refused (401/403), `FAIL` naming those that answered, `skip`
 *   without a token.
 * @throws {Error} when a request gets no answer in time.
 */
export async function hostEndpointsRefused(
  run: { apiBase: string; timeoutMs: number; token?: string },
  headers: Record<string, string>,
): Promise<{ status: 'ok' | 'FAIL' | 'skip'; detail: string }> {
  if (!run.token) {
    return {
      status: 'skip',
      detail: 'no token given: the host endpoints not checked against a signed-in caller',
    };
  }
  const origin = new URL(run.apiBase).origin;
  const open: string[] = [];
  for (const path of HOST_ENDPOINT_PATHS) {
    const answer = await get(
      `${origin}${path}`,
      { ...headers, authorization: `Bearer ${run.token}` },
      run.timeoutMs,
    );
    if (answer.status !== 401 && answer.status !== 403) open.push(`${path} ${answer.status}`);
  }
  if (open.length > 0) {
    return {
      status: 'FAIL',
      detail:
        `a signed-in caller without the system or master key reached the host's own endpoints ` +
        `(${open.join(', ')}): anyone who can sign in can drive every orchestration and function`,
    };
  }
  return {
    status: 'ok',
    detail: `GET ${HOST_ENDPOINT_PATHS.join(' and ')} with the token but no system or master key: refused`,
  };
}
