/**
 * Signing and SAS issuance (valet key, docs/sas.md): one signing per account — its key, or user
 * delegation — shared by SAS issuance and the photo feature, so each process holds one key and
 * one blob signer per account. With data accounts a token is issued by the account that holds
 * what it grants (src/accounts/routing/spreadSas.ts).
 */
import type { StorageAccount } from '../../../src/accounts/accounts';
import { PerAccount } from '../../../src/accounts/routing/perAccount';
import { spreadSas, type SasIssuer } from '../../../src/accounts/routing/spreadSas';
import { SasService } from '../../../src/sas/service';
import { createSasSigning, type SasSigning } from '../../../src/sas/signingKey';
import { lazy, type Foundation } from './foundation';

/** SAS issuance as the adapters use it. */
export interface SasServices {
  /** SAS issuance (valet key), by the account that holds what each token grants. */
  sas(): SasIssuer;
}

/** Signing as the other builders use it. */
export interface Signing extends SasServices {
  /** The signing of `account` (default: the home account's). */
  signingOf(account?: StorageAccount): SasSigning;
}

/** Builds signing and SAS issuance over the foundation. */
export function signingServices(base: Foundation): Signing {
  const { config, clients, connect } = base;
  const homeSigning = lazy(() =>
    createSasSigning({ clients: clients(), config: config(), connect }),
  );
  // One signing per data account: its key, or user delegation (docs/accounts.md "SAS").
  const signings = lazy(
    () =>
      new PerAccount(base.accounts()!.accounts, (account) =>
        account.name === base.accounts()!.accounts.home.name
          ? homeSigning()
          : createSasSigning({
              clients: account.clients,
              config: {
                sas: {
                  // Read when a key-signed SAS needs it: while this account's key is unusable,
                  // only its key-signed SAS answer 503 (home's key plays no part here).
                  get accountKey() {
                    return config().accounts.data.find((d) => d.name === account.name)?.accountKey;
                  },
                  accountName: undefined,
                  get maxMinutes() {
                    return config().sas.maxMinutes;
                  },
                },
              },
              connect,
            }),
      ),
  );
  const signingOf = (account?: StorageAccount): SasSigning =>
    account ? signings().of(account) : homeSigning();
  return {
    signingOf,
    sas: lazy((): SasIssuer => {
      const spread = base.accounts();
      if (!spread) {
        return new SasService({ clients: clients(), config: config(), signing: homeSigning() });
      }
      // The photo a token is for is named by the entity wherever the department lives.
      const perAccount = new PerAccount(
        spread.accounts,
        (account) =>
          new SasService({
            clients: account.clients,
            config: config(),
            signing: signingOf(account),
          }),
      );
      return spreadSas(spread.placement, perAccount);
    }),
  };
}
