/**
 * What every orchestration start answers (API.md "Orchestrations"): 202 `{"id", "statusUri"}`
 * with `Location` and `Retry-After`, the status URI being `/api/orchestrations/{id}` — never a
 * Durable management URL.
 */
import { z } from 'zod';
import type { RouteSchemas } from './route';

/** The headers of every start's 202. */
export const startedHeaders = {
  location: { description: 'The status URI.' },
  'retry-after': { description: 'Seconds to wait before asking for the status.' },
};

/** What every start answers. */
export const started: RouteSchemas['responses'] = {
  202: {
    description: 'Started: poll `statusUri`.',
    body: z.strictObject({ id: z.string(), statusUri: z.string() }),
    headers: startedHeaders,
  },
};

/** Seconds a client should wait before asking for the status again. */
export const RETRY_AFTER_SECONDS = '1';

/** `/api/orchestrations/{id}`: where the status of an instance is read. */
export function statusUriOf(instanceId: string): string {
  return `/api/orchestrations/${encodeURIComponent(instanceId)}`;
}
