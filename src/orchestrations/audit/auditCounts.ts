/**
 * The audit's report: how many index entries were checked, how many the primary entities imply
 * but storage lacks (`missing`), how many storage holds that are wrong or orphaned (`stale`), and
 * how many of those were fixed (`repaired`).
 */

/** Counts of one index, one department, or the whole run. */
export interface AuditCounts {
  checked: number;
  missing: number;
  stale: number;
  repaired: number;
}

/** The indexes the audit covers. */
export type IndexKind =
  | 'emailCopies'
  | 'lastNameEntities'
  | 'employeeIndexById'
  | 'employeeIndexByEmail'
  | 'orgLastNames'
  | 'departmentListing'
  | 'managerCopy'
  | 'orphanReviews';

/** Counts per index kind. */
export type CountsByIndex = Partial<Record<IndexKind, AuditCounts>>;

/** All zero. */
export function noCounts(): AuditCounts {
  return { checked: 0, missing: 0, stale: 0, repaired: 0 };
}

/** The sum of some counts (pure). */
export function addCounts(...all: AuditCounts[]): AuditCounts {
  const sum = noCounts();
  for (const c of all) {
    sum.checked += c.checked;
    sum.missing += c.missing;
    sum.stale += c.stale;
    sum.repaired += c.repaired;
  }
  return sum;
}

/** Per-index sums of several per-index reports (pure). */
export function mergeByIndex(...reports: CountsByIndex[]): CountsByIndex {
  const merged: CountsByIndex = {};
  for (const report of reports) {
    for (const [kind, counts] of Object.entries(report) as [IndexKind, AuditCounts][]) {
      merged[kind] = addCounts(merged[kind] ?? noCounts(), counts);
    }
  }
  return merged;
}

/** The total over every index of a per-index report (pure). */
export function totalOf(report: CountsByIndex): AuditCounts {
  return addCounts(...Object.values(report));
}
