import { planChunks } from '../../../../src/directory/bulkImport/importPlan';

const row = (lastName: string, bytes = 1000): { lastName: string; bytes: number } => ({
  lastName,
  bytes,
});

// The default budget: 98 operations (100, less the 2 the relocation fence may add).
describe('import chunk planning', () => {
  it('fits 48 employees of one last name in a chunk: 96 + 1 index + 1 department = 98 operations', () => {
    const chunks = planChunks(
      Array.from({ length: 100 }, () => row('jones')),
      () => 100,
    );
    expect(chunks.map((c) => c.length)).toEqual([48, 48, 4]);
  });

  it('counts one index operation per distinct last name in a chunk', () => {
    // 32 distinct names: 32 × 3 + 1 = 97 operations (33 would be 100).
    const chunks = planChunks(
      Array.from({ length: 40 }, (_, i) => row(`n${String(i).padStart(2, '0')}`)),
      () => 100,
    );
    expect(chunks.map((c) => c.length)).toEqual([32, 8]);
    for (const chunk of chunks) {
      expect(1 + chunk.length * 2 + new Set(chunk.map((r) => r.lastName)).size).toBeLessThanOrEqual(
        98,
      );
    }
  });

  it('starts a new chunk before the byte budget is exceeded (large index entities)', () => {
    const chunks = planChunks([row('a'), row('b'), row('c')], () => 1_500_000, {
      maxBytes: 3_500_000,
    });
    expect(chunks.map((c) => c.map((r) => r.lastName))).toEqual([['a', 'b'], ['c']]);
  });

  it('returns no chunk for no rows', () => {
    expect(planChunks([], () => 0)).toEqual([]);
  });
});
