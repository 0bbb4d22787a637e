/**
 * Calls an HTTP adapter the way the Functions host does — an `HttpRequest` of `@azure/functions`
 * and an `InvocationContext` — without a server, for integration tests of the adapters.
 */
import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import type { HttpHandler } from '../../functions/shared/http';
import { adminPrincipal, PRINCIPAL_HEADER } from './principals';

/** An adapter's response with its JSON body typed loosely for assertions. */
export type JsonResponse = Omit<HttpResponseInit, 'jsonBody'> & {
  jsonBody?: {
    items?: Record<string, unknown>[];
    continuationToken?: string | null;
    error?: { code: string; message: string };
  } & Record<string, unknown>;
};

/** Options of {@link invokeHttp}. */
export interface InvokeOptions {
  /** JSON text of the body. */
  body?: string;
  query?: Record<string, string>;
  /**
   * The `x-ms-client-principal` header value (test/support/principals.ts); default the admin
   * principal, `null` sends none.
   */
  principal?: string | null;
}

/**
 * Invokes `handler` with route `params`, an optional JSON text `body`, `query` parameters and a
 * caller (default `DirectoryAdmin`).
 */
export async function invokeHttp(
  handler: HttpHandler,
  method: string,
  params: Record<string, string>,
  options: InvokeOptions = {},
): Promise<JsonResponse> {
  const principal = options.principal === undefined ? adminPrincipal : options.principal;
  const url = new URL('http://localhost/api/x');
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const request = new HttpRequest({
    method,
    url: url.toString(),
    params,
    headers: {
      'content-type': 'application/json',
      ...(principal === null ? {} : { [PRINCIPAL_HEADER]: principal }),
    },
    ...(options.body === undefined ? {} : { body: { string: options.body } }),
  });
  return (await handler(request, new InvocationContext())) as JsonResponse;
}
