/**
 * Timer trigger: drains the index outbox of the departments marked pending and of those the
 * hourly walk finds (src/indexing/drain/outboxSweep.ts), picking up changes whose post-commit
 * nudge never reached `index-updates` or whose drain failed. Schedule:
 * `INDEX_OUTBOX_SWEEP_SCHEDULE` (default every 5 minutes). It also moves what an upgrade left in
 * the old per-name last-name layout (src/indexing/lastNames/legacyLastNameMigration.ts).
 * Glossary: "sweep" (docs/glossary.md).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app, type InvocationContext, type Timer } from '@azure/functions';
import { settingOrDefault } from '../src/config';
import { migrateLegacyLastNames, sweepOutboxes } from '../src/indexing';
import { withServices } from './shared/services';
import { recordingRuns, unfinishedRun } from './shared/timerRuns';

/**
 * Runs one sweep.
 *
 * @throws when a department's outbox could not be drained, or an account could not be swept
 *   (logged, after every other department was drained; the next run retries).
 */
export const runOutboxSweep = withServices(
  (s) => ({
    drains: s.indexDrains(),
    samplePoisonQueues: s.samplePoisonQueues(),
    // Data spread over several accounts: each account's own client, so that one that cannot be
    // reached costs only its departments (docs/accounts.md).
    accounts: s.accounts()?.accounts.all.map((account) => ({
      name: account.name,
      employees: account.clients.table(s.config().tables.employees),
    })),
    // The old per-name last-name partitions an upgrade left (entity index): each account's own.
    legacyLastNames:
      s.config().directory.lastNameIndexMode === 'entity'
        ? {
            indexes: (s.accounts()?.accounts.all.map((a) => a.clients) ?? [s.clients()]).map(
              (clients) => clients.table(s.config().tables.employeeIndex),
            ),
            employees: s.indexStores().employees,
            maxShardChars: s.config().directory.lastNameShardChars,
          }
        : undefined,
  }),
  async (
    { drains, samplePoisonQueues, accounts, legacyLastNames },
    _timer: Timer,
    context: InvocationContext,
  ): Promise<void> => {
    const report = await sweepOutboxes(drains, accounts ? { accounts } : {});
    context.log(
      `Swept ${report.departments} department outboxes (${report.marked} marked, ` +
        `${report.cleared} cleared${report.discovered ? ', walk step' : ''}), ` +
        `${report.rows} rows drained.`,
    );
    // A step of the upgrade from the per-name layout, until this process finds none left (then
    // only in the hourly walk's runs, so an idle sweep stays one query): docs/queues.md.
    if (legacyLastNames) {
      const { indexes, employees, maxShardChars } = legacyLastNames;
      for (const index of indexes) {
        await migrateLegacyLastNames(index, employees, {
          maxShardChars,
          recheck: report.discovered,
        })
          .then(({ names, moved, dropped, remaining }) => {
            if (names === 0) return;
            context.log(
              `Moved ${names} old last-name partitions (${moved} members, ${dropped} stale ` +
                `dropped)${remaining ? '; more remain' : ''}.`,
            );
          })
          .catch((error: unknown) =>
            context.warn('Old last-name partitions not moved (the next sweep retries)', error),
          );
      }
    }
    // The poison queues' lengths, sampled here (a few reads every run), never per request.
    await samplePoisonQueues().catch((error: unknown) =>
      context.warn('Poison queue lengths not sampled', error),
    );
    for (const { account, error } of report.failedAccounts) {
      context.error(`sweepIndexOutboxes: account ${account} could not be swept`, error);
    }
    for (const { department, error } of report.failed) {
      context.error(`sweepIndexOutboxes: ${department} failed`, error);
    }
    if (report.failed.length > 0 || report.failedAccounts.length > 0) {
      const accounts = report.failedAccounts.map(({ account }) => account).join(', ');
      throw unfinishedRun(
        `sweepIndexOutboxes could not drain ${report.failed.length} department(s)` +
          (accounts ? ` nor sweep account(s) ${accounts}` : '') +
          '; every other department was drained, and the next run retries.',
        [...report.failed, ...report.failedAccounts],
      );
    }
  },
);

app.timer('sweepIndexOutboxes', {
  // A malformed schedule registers the default one.
  schedule: settingOrDefault((config) => config.directory.outboxSweepSchedule),
  handler: recordingRuns('sweepIndexOutboxes', runOutboxSweep),
});
