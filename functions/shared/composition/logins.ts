/**
 * Logins (docs/time-and-volume.md): per-day tables and the attempts written into them. With data
 * accounts a user's new attempts go to the one account placement names for the user; readers ask
 * every account and merge, and the retention timer drops expired day tables in each.
 */
import { PerAccount } from '../../../src/accounts/routing/perAccount';
import { LoginAttempts } from '../../../src/logins/loginAttempts';
import { LoginDayTables } from '../../../src/logins/loginDayTables';
import { lazy, type Foundation } from './foundation';

/** The login feature: the day tables and the attempts written into them. */
export interface LoginServices {
  /** The home account's day tables. */
  tables: LoginDayTables;
  /** Every account's day tables (the retention timer drops expired ones in each). */
  allTables: LoginDayTables[];
  attempts: LoginAttempts;
}

/** Builds the login feature over the foundation. */
export function loginServices(base: Foundation): { logins(): LoginServices } {
  return {
    logins: lazy((): LoginServices => {
      const current = base.config();
      const prefix = current.tables.loginAttemptsPrefix;
      const tables = new LoginDayTables(base.clients(), prefix);
      const spread = base.accounts();
      if (!spread) {
        return {
          tables,
          allTables: [tables],
          attempts: new LoginAttempts(tables, current.logins.retentionDays),
        };
      }
      const byAccount = new PerAccount(spread.accounts, (account) =>
        account.name === spread.accounts.home.name
          ? tables
          : new LoginDayTables(account.clients, prefix),
      );
      const allTables = byAccount.all().map(({ instance }) => instance);
      return {
        tables,
        allTables,
        attempts: new LoginAttempts(tables, current.logins.retentionDays, undefined, {
          all: allTables,
          forUser: (userId) => byAccount.of(spread.placement.forKey('login', userId)),
        }),
      };
    }),
  };
}
