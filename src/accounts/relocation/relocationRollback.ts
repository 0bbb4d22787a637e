/**
 * Rolling back a relocation that failed before its switch (docs/accounts.md "A relocation that
 * fails"): the department goes back to `stable` in its source at once (writes resume), still
 * naming the relocation, whose cleanup then brings every source partition's fence up to that
 * version (a process still copying is refused there) and removes the change markers written while
 * copying; the last chunk releases the department. The target's partial copy stays: the next copy
 * into that account removes what the source lacks and overwrites the rest.
 */
import type { TableClient } from '@azure/data-tables';
import { registeredPartitions } from '../departmentData';
import { advanceFence } from '../fenceEpoch';
import type { DepartmentPlacement } from '../placement';
import { tookEffect } from '../../storage/storageFaults';
import { submitEntityGroupTransaction } from '../../storage/tables/entityGroupTransaction';
import { fenceChangeRowKeyRange } from '../../storage/keys/tables/placement';
import { readWholeRange } from '../../storage/tables/rangePages';
import { mapBounded } from '../../storage/parallel';
import { relocationSources } from './relocationRows';
import {
  account,
  type ChunkResult,
  type RelocationDeps,
  type RelocationPlan,
} from './relocationSteps';

/**
 * A rollback chunk's outcome; `switched` when the relocation had switched (it goes forward),
 * `lost` when the placement is no longer this relocation's (nothing to roll back).
 */
export interface RollbackResult extends ChunkResult {
  switched?: boolean;
  lost?: boolean;
}

/** The version a rolled-back department is `stable` at: above every version of the relocation. */
export function rolledBackVersion(plan: RelocationPlan): number {
  return plan.version + 3;
}

/** Where the placement is for a rollback of `plan`. */
type RollbackState = 'before' | 'rolledBack' | 'switched' | 'gone';

function stateOf(placement: DepartmentPlacement, plan: RelocationPlan): RollbackState {
  if (placement.relocation !== plan.relocation) return 'gone';
  if (placement.version === plan.version + 2 && placement.account === plan.to) return 'switched';
  if (placement.phase === 'stable' && placement.version === rolledBackVersion(plan)) {
    return 'rolledBack';
  }
  const before =
    (placement.phase === 'copying' && placement.version === plan.version) ||
    (placement.phase === 'frozen' && placement.version === plan.version + 1);
  return before ? 'before' : 'gone';
}

/**
 * Gives the department back to its source: `copying` (v+1) or `frozen` (v+2) becomes `stable` at
 * v+4 in the source, still naming the relocation until its cleanup is done. Conditional on the
 * row's ETag, so it never undoes a switch that won the race.
 *
 * @returns `'rolledBack'`, `'switched'` (the switch won: go forward) or `'gone'` (released, or
 *   another relocation's).
 * @throws {DomainError} for storage faults of the placement table.
 */
export async function rollBackPlacement(
  deps: RelocationDeps,
  plan: RelocationPlan,
): Promise<RollbackState> {
  for (;;) {
    const current = await deps.placement.ofDepartment(plan.department, { fresh: true });
    const state = stateOf(current, plan);
    if (state !== 'before') return state;
    const changed = await deps.placement.change(current, {
      account: plan.from,
      version: rolledBackVersion(plan),
      phase: 'stable',
      relocation: plan.relocation,
    });
    if (changed) return 'rolledBack';
  }
}

/** Removes every change marker of `version` in one partition (97 per transaction). */
async function removeMarkers(table: TableClient, partitionKey: string, version: number) {
  const markers = await readWholeRange(
    table,
    { partitionKey, ...fenceChangeRowKeyRange(version) },
    ['RowKey'],
  );
  for (let i = 0; i < markers.length; i += 97) {
    const batch = markers.slice(i, i + 97);
    await tookEffect(() =>
      submitEntityGroupTransaction(
        table,
        batch.map((m) => ['delete', { partitionKey, rowKey: m.rowKey }] as const),
      ),
    );
  }
  return markers.length;
}

/**
 * One bounded chunk of the rollback: the first rolls the placement back; each fixed partition of
 * the source, then the registered per-employee ones (a page per chunk), is brought up to the
 * rolled-back version and loses its change markers; the last releases the department.
 *
 * @throws {DomainError} for storage faults (the activity is retried; running again is harmless).
 */
export async function rollbackChunk(
  deps: RelocationDeps,
  plan: RelocationPlan,
  cursor: { source: number; token?: string } = { source: 0 },
): Promise<RollbackResult> {
  const state = await rollBackPlacement(deps, plan);
  if (state === 'switched') return { next: undefined, rows: 0, switched: true };
  if (state === 'gone') return { next: undefined, rows: 0, lost: true };
  const source = account(deps, plan.from).clients;
  const open = { version: rolledBackVersion(plan), open: true };
  const clean = async (table: string, partitionKey: string): Promise<number> => {
    // Up first: a process still copying is refused from here on, so no marker follows.
    await advanceFence(source.table(table), partitionKey, open, plan.department);
    return removeMarkers(source.table(table), partitionKey, plan.version);
  };
  const fixed = relocationSources(deps.tables, plan.department).filter(
    (s): s is Extract<typeof s, { kind: 'partition' }> => s.kind === 'partition',
  );
  const partition = fixed[cursor.source];
  if (partition) {
    const rows = await clean(partition.table, partition.partitionKey);
    return { next: { source: cursor.source + 1 }, rows };
  }
  const employees = source.table(deps.tables.employees);
  const registry = await registeredPartitions(deps.tables, employees, plan.department);
  // Registered partitions, a chunk's worth at a time (their order is the registry's).
  const start = Number(cursor.token ?? '0');
  const page = registry.slice(start, start + deps.chunkRows);
  const counts = await mapBounded(page, 8, (p) => clean(p.table, p.partitionKey));
  const rows = counts.reduce((n, c) => n + c, 0);
  if (start + page.length < registry.length) {
    return { next: { source: cursor.source, token: String(start + page.length) }, rows };
  }
  await release(deps, plan);
  return { next: undefined, rows };
}

/** The rolled-back department no longer names the relocation (same version: nothing moves). */
async function release(deps: RelocationDeps, plan: RelocationPlan): Promise<void> {
  const current = await deps.placement.ofDepartment(plan.department, { fresh: true });
  if (stateOf(current, plan) !== 'rolledBack') return;
  await deps.placement.change(current, {
    account: current.account,
    version: current.version,
    phase: 'stable',
  });
}
