/**
 * Records kept per employee outside the directory (docs/time-and-volume.md): access events,
 * expense claims and message counters, each in its own table, routed by department like the
 * directory's. An empty read asks the directory whether the employee exists (404 for an unknown
 * one; one point read, only when nothing was found).
 */
import { AccessLog } from '../../../src/access/accessLog';
import { ExpenseClaimLog } from '../../../src/expenses/expenseClaims';
import { DEFAULT_MAX_INCREMENT_ATTEMPTS, MessageStats } from '../../../src/stats/messageStats';
import { systemClock } from '../../../src/time/clock';
import type { DirectoryParts } from './directory';
import { lazy, type Foundation } from './foundation';

/** The per-employee records as the adapters use them. */
export interface EmployeeRecordServices {
  accessLog(): AccessLog;
  expenseClaims(): ExpenseClaimLog;
  messageStats(): MessageStats;
}

/** Builds the per-employee records over the foundation and the directory. */
export function employeeRecordServices(
  base: Foundation,
  directory: DirectoryParts,
): EmployeeRecordServices {
  const { table } = base;
  return {
    accessLog: lazy(
      () =>
        new AccessLog(
          table((c) => c.tables.accessLog),
          systemClock,
          directory.requireEmployee(),
        ),
    ),
    expenseClaims: lazy(
      () =>
        new ExpenseClaimLog(
          table((c) => c.tables.expenses),
          systemClock,
          directory.requireEmployee(),
        ),
    ),
    messageStats: lazy(
      () =>
        new MessageStats(
          table((c) => c.tables.messageStats),
          systemClock,
          DEFAULT_MAX_INCREMENT_ATTEMPTS,
          directory.requireEmployee(),
        ),
    ),
  };
}
