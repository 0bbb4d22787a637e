/**
 * `GET /api/health`: anonymous liveness and storage reachability (API.md "Health").
 */
import { app } from '@azure/functions';
import { checkHealth } from '../src/health/health';
import { getStorageClients } from '../src/storage/clients';
import { handleErrors, json } from './shared/http';

app.http('health', {
  route: 'health',
  methods: ['GET'],
  authLevel: 'anonymous',
  handler: handleErrors(async () => {
    const report = await checkHealth(getStorageClients());
    return json(report.storage === 'ok' ? 200 : 503, report, { 'cache-control': 'no-store' });
  }),
});
