/**
 * `GET /api/health`: anonymous liveness and storage reachability (API.md "Health"). In Azure
 * without App Service authentication it also says `"auth":"missing"`: every protected route then
 * answers 401, and this is where an operator sees why.
 */
import { checkHealth } from '../src/health/health';
import { getStorageClients } from '../src/storage/clients';
import { json } from './shared/http';
import { currentPrincipalTrust, publicRoute } from './shared/route';

publicRoute('health', {
  route: 'health',
  methods: ['GET'],
  handler: async () => {
    const report = await checkHealth(getStorageClients());
    const auth = currentPrincipalTrust().trusted ? {} : { auth: 'missing' };
    return json(
      report.storage === 'ok' ? 200 : 503,
      { ...report, ...auth },
      { 'cache-control': 'no-store' },
    );
  },
});
