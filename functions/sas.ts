/**
 * SAS endpoints (API.md "SAS"): the valet key. Each route names who may ask for its token; the SAS
 * service then checks the finer rule (read or write of a photo) and signs a token no wider than
 * what the caller may do through the API. Tokens are returned uncached.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import {
  admin,
  anyOf,
  departmentEditor,
  departmentReader,
  self,
  type AccessRule,
} from '../src/identity/access';
import type { BlobSasGrant, TableSasGrant } from '../src/sas/service';
import type { SasIssuer } from '../src/accounts/routing/spreadSas';
import type { PolicyRotation } from '../src/sas/tablePolicy';
import type { DirectoryMetrics } from '../src/telemetry/metrics';
import { json, readJson, readParams } from './shared/http';
import { isoInstant } from './shared/output';
import { protectedRoute, type AuthorizedHandler, type RouteSchemas } from './shared/route';

/** Tokens are secrets with an expiry: never let a proxy or browser keep them. */
const NO_STORE = { 'cache-control': 'no-store' };

const lifetimeBody = z.object({ minutes: z.number().int().min(1).optional() });
const photoBody = lifetimeBody.extend({ access: z.enum(['read', 'write']) });

/** What every grant has (src/sas/service.ts). */
const grantFields = {
  url: z.string(),
  sas: z.string(),
  startsOn: isoInstant,
  expiresOn: isoInstant,
  permissions: z.string(),
  signedWith: z.enum(['accountKey', 'userDelegationKey']),
};
const tableGrant = z.strictObject({
  ...grantFields,
  table: z.string(),
  partitionKey: z.string(),
  rowKeyStart: z.string().optional(),
  rowKeyEnd: z.string().optional(),
  policyId: z.string().optional(),
}) satisfies z.ZodType<TableSasGrant>;
const blobGrant = z.strictObject({
  ...grantFields,
  container: z.string(),
  blobName: z.string().optional(),
  accounts: z
    .array(z.strictObject({ account: z.string(), url: z.string(), sas: z.string() }))
    .optional(),
  headers: z
    .strictObject({ 'x-ms-blob-type': z.literal('BlockBlob') })
    .optional()
    .describe('Write grants: send these headers with the upload (PUT <url>) besides content-type.'),
}) satisfies z.ZodType<BlobSasGrant>;
const granted = (body: z.ZodType): RouteSchemas['responses'] => ({
  200: { description: 'The grant (never cached).', body },
});
/** 501 where the deployment lacks what a token is signed with (src/sas/signingKey.ts). */
const NOT_CONFIGURED = [501];
/** What a token route takes and answers: its parameters, the request body and the grant. */
const tokenSchemas = (
  params: z.ZodType | undefined,
  body: z.ZodType,
  grant: z.ZodType,
): RouteSchemas => ({
  ...(params ? { params } : {}),
  body,
  responses: granted(grant),
  errors: NOT_CONFIGURED,
});

const departmentParams = z.object({ dept: z.string() });
const employeeParams = z.object({ dept: z.string(), id: z.string() });
const tableParams = z.object({ table: z.string() });

/** What the SAS routes use: the issuer, and the metrics that count what it issued. */
export interface SasUse {
  issuer: SasIssuer;
  metrics: Pick<DirectoryMetrics, 'recordSasIssued'>;
}

/** One SAS route: where it lives, who may call it, what it does. */
export interface SasRoute {
  name: string;
  route: string;
  access: AccessRule;
  schemas: RouteSchemas;
  handler: AuthorizedHandler<SasUse>;
}

type SasRouteKey = 'expenses' | 'department' | 'photo' | 'logs' | 'rotatePolicy';

/** Answers a grant once it is issued, counting it by kind. */
async function answer(use: SasUse, kind: string, grant: Promise<unknown>) {
  const body = await grant;
  use.metrics.recordSasIssued(kind);
  return json(200, body, NO_STORE);
}

/** The SAS routes (registered below over the process's issuer; tests pass their own). */
export function sasRoutes(): Record<SasRouteKey, SasRoute> {
  return {
    expenses: {
      name: 'sasExpenses',
      route: 'sas/expenses/{dept}/{id}',
      access: anyOf(self),
      schemas: tokenSchemas(employeeParams, lifetimeBody, tableGrant),
      handler: async ({ request, principal, use }) => {
        const { dept, id } = readParams(request, employeeParams);
        const { minutes } = await readJson(request, lifetimeBody);
        return answer(use, 'expenses', use.issuer.expensesSas(principal, dept, id, minutes));
      },
    },
    department: {
      name: 'sasDepartment',
      route: 'sas/departments/{dept}',
      access: departmentReader,
      schemas: tokenSchemas(departmentParams, lifetimeBody, tableGrant),
      handler: async ({ request, principal, use }) => {
        const { dept } = readParams(request, departmentParams);
        const { minutes } = await readJson(request, lifetimeBody);
        return answer(use, 'department', use.issuer.departmentSas(principal, dept, minutes));
      },
    },
    photo: {
      name: 'sasPhoto',
      // Read: the employee or its department's readers; write: the employee or its editors.
      route: 'sas/photos/{dept}/{id}',
      access: anyOf(self, departmentReader, departmentEditor),
      schemas: tokenSchemas(employeeParams, photoBody, blobGrant),
      handler: async ({ request, principal, use }) => {
        const { dept, id } = readParams(request, employeeParams);
        const { access, minutes } = await readJson(request, photoBody);
        return answer(
          use,
          `photo-${access}`,
          use.issuer.photoSas(principal, dept, id, access, minutes),
        );
      },
    },
    logs: {
      name: 'sasLogs',
      route: 'sas/logs',
      access: admin,
      schemas: tokenSchemas(undefined, lifetimeBody, blobGrant),
      handler: async ({ request, principal, use }) => {
        const { minutes } = await readJson(request, lifetimeBody);
        return answer(use, 'logs', use.issuer.logsSas(principal, minutes));
      },
    },
    rotatePolicy: {
      name: 'sasPolicyRotate',
      // Not `admin/...`: the Functions host reserves that prefix for its own API.
      route: 'sas/policies/{table}/rotate',
      access: admin,
      schemas: {
        params: tableParams,
        responses: granted(
          z.strictObject({
            table: z.string(),
            policyId: z.string(),
            revokedPolicyId: z.string().optional(),
          }) satisfies z.ZodType<PolicyRotation>,
        ),
        // 409: another rotation changed the policy meanwhile (src/sas/tablePolicy.ts).
        errors: [...NOT_CONFIGURED, 409],
      },
      handler: async ({ request, principal, use }) => {
        const { table } = readParams(request, tableParams);
        return json(200, await use.issuer.rotateSasPolicy(principal, table), NO_STORE);
      },
    },
  };
}

for (const { name, route, access, schemas, handler } of Object.values(sasRoutes())) {
  protectedRoute(name, {
    route,
    methods: ['POST'],
    access,
    schemas,
    uses: (s) => ({ issuer: s.sas(), metrics: s.metrics() }),
    handler,
  });
}
