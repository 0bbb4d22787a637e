/**
 * The SAS case's comparison through the built host over HTTP (bench/cases/sas.ts): all functions
 * run as deployed, so the host's own queue polling shows in the counts beside issuance.
 */
import { startBuiltHost } from '../builtHost';
import { asPrincipal, employeePrincipal } from '../principals';
import type { BenchEnv, Comparison } from '../types';
import { CLAIMS, DEPT, EMPLOYEE, timedLoop } from './sasSetUp';

async function expectStatus(response: Response, status: number): Promise<void> {
  await response.arrayBuffer();
  if (response.status !== status) throw new Error(`${response.url} answered ${response.status}.`);
}

/** The employee submits {@link CLAIMS} claims of its own through the host. */
async function submitClaims(base: string, principal: string): Promise<void> {
  for (let i = 0; i < CLAIMS; i++) {
    await expectStatus(
      await fetch(
        `${base}/expenses`,
        asPrincipal(principal, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            amount: 10 + i,
            currency: 'EUR',
            description: `Train ticket ${i}`,
          }),
        }),
      ),
      201,
    );
  }
}

/**
 * Through the local host over HTTP: `POST /api/sas/expenses/...` (the client then reads storage
 * itself) vs `GET /api/departments/.../expenses?top=20` (the app reads storage for the client).
 */
export async function measureThroughHost(
  env: BenchEnv,
  settings: Record<string, string>,
): Promise<Comparison> {
  // All functions, as deployed (so the host's own queue polling shows in the counts).
  const host = await startBuiltHost(env, 'dist/functions/*.js', settings);
  try {
    const base = `${host.baseUrl}/departments/${DEPT}/employees/${EMPLOYEE}`;
    // The employee submits, reads and asks for a token on its own expenses.
    const principal = employeePrincipal(DEPT, EMPLOYEE);
    await submitClaims(base, principal);
    const issue = (): Promise<void> =>
      fetch(
        `${host.baseUrl}/sas/expenses/${DEPT}/${EMPLOYEE}`,
        asPrincipal(principal, { method: 'POST' }),
      ).then((response) => expectStatus(response, 200));
    const proxyRead = (): Promise<void> =>
      fetch(`${base}/expenses?top=${CLAIMS}`, asPrincipal(principal)).then((response) =>
        expectStatus(response, 200),
      );
    await issue();
    await proxyRead();

    const requests = env.size(1_000);
    let issueLatency = { p50Ms: 0, p95Ms: 0 };
    const pattern = await env.measure('POST /api/sas/expenses (host, HTTP)', requests, async () => {
      issueLatency = await timedLoop(requests, issue);
    });
    let readLatency = { p50Ms: 0, p95Ms: 0 };
    const baseline = await env.measure(
      'GET /api/.../expenses?top=20 (host, HTTP)',
      requests,
      async () => {
        readLatency = await timedLoop(requests, proxyRead);
      },
    );
    return {
      name: 'valet key over HTTP: issue a token vs proxy the read through the app',
      pattern: { ...pattern, ...issueLatency },
      baseline: { ...baseline, ...readLatency },
      notes:
        `Both through the local Functions host; storage requests counted by the proxy. The client ` +
        `then reads ${CLAIMS} claims with the token, directly from storage, for as long as it lives. ` +
        'A few requests on the pattern side are the host’s own queue polling, not issuance.',
    };
  } finally {
    await host.stop();
  }
}
