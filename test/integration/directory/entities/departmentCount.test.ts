/**
 * The department's employee count spread over shard entities (no hot entity): concurrent creates in
 * ONE department all succeed with an exact count, whether they share a process (and its version
 * cache) or not; the count reads as one storage request; departments written before shards keep
 * their stored count as the base.
 */
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import type { TableClient } from '@azure/data-tables';
import { EntityTypes } from '../../../../src/directory/entities/entityTypes';
import {
  createDirectoryFixture,
  employeeBody,
  partitionEntities,
  type DirectoryFixture,
} from '../fixture';

let fx: DirectoryFixture;
beforeAll(() => {
  fx = createDirectoryFixture();
});
afterAll(() => fx.cleanup());

/** Counts the requests `table` sends from now on. */
function countRequests(table: TableClient): { requests: PipelineRequest[] } {
  const seen = { requests: [] as PipelineRequest[] };
  table.pipeline.addPolicy({
    name: `countRequests-${Math.random().toString(36).slice(2)}`,
    sendRequest(request, next) {
      seen.requests.push(request);
      return next(request);
    },
  });
  return seen;
}

describe('the department count spread over shards', () => {
  it('16 concurrent creates in one department (one process) all succeed and count exactly', async () => {
    await fx.directory.departments.put('Hot', {});
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) =>
        fx.directory.employees.create('Hot', employeeBody(i + 1, { lastName: `Name${i}` })),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await fx.directory.departments.get('Hot')).value.employeeCount).toBe(16);
    const shards = (await partitionEntities(fx.table, 'Hot')).filter(
      (e) => e.EntityType === EntityTypes.departmentCountShard,
    );
    expect(shards.reduce((sum, e) => sum + Number(e.Count), 0)).toBe(16);
  });

  it('16 concurrent writers in separate processes (own caches), 64 creates and 16 deletes, count exact', async () => {
    await fx.directory.departments.put('Hot2', {});
    const writers = Array.from({ length: 16 }, () => fx.another());
    await Promise.all(
      writers.map(async (directory, w) => {
        for (let k = 0; k < 4; k++)
          await directory.employees.create(
            'Hot2',
            employeeBody(w * 4 + k + 1, { lastName: `W${w}` }),
          );
      }),
    );
    expect((await fx.directory.departments.get('Hot2')).value.employeeCount).toBe(64);
    await Promise.all(
      writers.map((directory, w) =>
        directory.employees.delete('Hot2', employeeBody(w * 4 + 1).employeeId as string),
      ),
    );
    expect((await fx.another().departments.get('Hot2')).value.employeeCount).toBe(48);
  });

  it('reads the department with its count in one storage request', async () => {
    const reader = fx.another();
    await reader.departments.get('Hot'); // creates the table client's table once
    const seen = countRequests(fx.table);
    const department = await reader.departments.get('Hot');
    expect(department.value.employeeCount).toBe(16);
    expect(seen.requests).toHaveLength(1);
    expect(seen.requests[0]!.method).toBe('GET');
  });

  it('keeps the stored count of a department written before shards as the base', async () => {
    await fx.table.createEntity({
      partitionKey: 'Legacy',
      rowKey: 'department',
      EntityType: EntityTypes.department,
      Name: 'Legacy',
      Description: '',
      EmployeeCount: 5,
      ListingVersion: 1,
      ManagerEmployeeId: '',
    });
    expect((await fx.directory.departments.get('Legacy')).value.employeeCount).toBe(5);
    await fx.directory.employees.create('Legacy', employeeBody(900));
    expect((await fx.another().departments.get('Legacy')).value.employeeCount).toBe(6);
    await fx.directory.employees.delete('Legacy', '000900');
    expect((await fx.another().departments.get('Legacy')).value.employeeCount).toBe(5);
  });

  it('counts exactly without the version cache too (every write reads the shards first)', async () => {
    const uncached = fx.another({ cacheVersions: false });
    await uncached.departments.put('NoCache', {});
    for (let i = 1; i <= 40; i++) await uncached.employees.create('NoCache', employeeBody(i));
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        uncached.employees.create('NoCache', employeeBody(100 + i, { lastName: `C${i}` })),
      ),
    );
    await uncached.employees.delete('NoCache', '000001');
    expect((await uncached.departments.get('NoCache')).value.employeeCount).toBe(47);
  });

  it('still answers 404 for a create in a department that does not exist', async () => {
    await expect(fx.directory.employees.create('Nowhere', employeeBody(1))).rejects.toMatchObject({
      code: 'DepartmentNotFound',
    });
  });
});
