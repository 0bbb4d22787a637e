/**
 * SAS issuance over several accounts (docs/accounts.md "SAS"): a token is issued by and for the
 * account that holds what it grants — a department's partition, an employee's expenses or photo —
 * so its URL names that account and its signature is that account's (its key, or a user
 * delegation key from it). Logs are spread over every account: the logs token carries one grant
 * per account.
 */
import type { Principal } from '../../identity/principal';
import type { BlobSasGrant, SasService } from '../../sas/service';
import type { Placement } from '../placement';
import { forDepartment, type PerAccount } from './perAccount';

/** What the SAS routes call (src/sas/service.ts `SasService`, or the spread one below). */
export type SasIssuer = Pick<
  SasService,
  'expensesSas' | 'departmentSas' | 'photoSas' | 'logsSas' | 'rotateSasPolicy'
>;

/** The SAS issuer over every account's {@link SasService}. */
export function spreadSas(placement: Placement, services: PerAccount<SasService>): SasIssuer {
  const of = (department: string): Promise<SasService> =>
    forDepartment(placement, services, department);
  return {
    expensesSas: async (principal, department, employeeId, minutes) =>
      (await of(department)).expensesSas(principal, department, employeeId, minutes),
    departmentSas: async (principal, department, minutes) =>
      (await of(department)).departmentSas(principal, department, minutes),
    photoSas: async (principal, department, employeeId, access, minutes) =>
      (await of(department)).photoSas(principal, department, employeeId, access, minutes),
    async logsSas(principal: Principal, minutes?: number): Promise<BlobSasGrant> {
      const all = services.all();
      // The home account's first: it refuses a caller that is not an admin before any other.
      const home = await all[0]!.instance.logsSas(principal, minutes);
      const others = await Promise.all(
        all.slice(1).map(async ({ account, instance }) => ({
          account: account.name,
          grant: await instance.logsSas(principal, minutes),
        })),
      );
      return {
        ...home,
        accounts: [
          { account: all[0]!.account.name, url: home.url, sas: home.sas },
          ...others.map(({ account, grant }) => ({ account, url: grant.url, sas: grant.sas })),
        ],
      };
    },
    async rotateSasPolicy(principal, table) {
      // Each account keeps its own stored policy: rotate all, report the home account's.
      const all = services.all();
      const home = await all[0]!.instance.rotateSasPolicy(principal, table);
      await Promise.all(
        all.slice(1).map(({ instance }) => instance.rotateSasPolicy(principal, table)),
      );
      return home;
    },
  };
}
