import { chainsOf, planChunks } from '../../../../src/directory/bulkImport/importPlan';

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

  it('keeps a name that fits in one chunk whole: the next chunk starts with it', () => {
    // 8 names of 5 rows: 11 operations each; 8 × 11 + 1 = 89 fits, a 9th name (100) does not.
    const rows = Array.from({ length: 45 }, (_, i) => row(`n${Math.floor(i / 5)}`));
    const chunks = planChunks(rows, () => 100);
    expect(chunks.map((c) => c.length)).toEqual([40, 5]);
    expect(chunks[1]!.every((r) => r.lastName === 'n8')).toBe(true);
  });

  it('chains the chunks a name spans, and nothing else', () => {
    const rows = [
      ...Array.from({ length: 10 }, () => row('a')),
      ...Array.from({ length: 120 }, () => row('b')),
      ...Array.from({ length: 40 }, (_, i) => row(`c${String(i).padStart(2, '0')}`)),
    ];
    const chunks = planChunks(rows, () => 100);
    const chains = chainsOf(chunks);
    // b spans three chunks: a + 37 b (98 operations), 48 b, 35 b + 8 c names (96); the other c
    // names make a chain of their own.
    expect(chains[0]!.map((c) => c.length)).toEqual([47, 48, 43]);
    expect(chains.slice(1).every((chain) => chain.length === 1)).toBe(true);
    expect(chains.flat().flat()).toHaveLength(rows.length);
    for (const [i, chain] of chains.entries())
      for (const other of chains.slice(i + 1)) {
        const names = new Set(chain.flat().map((r) => r.lastName));
        expect(other.flat().some((r) => names.has(r.lastName))).toBe(false);
      }
  });

  it('returns no chunk for no rows', () => {
    expect(planChunks([], () => 0)).toEqual([]);
  });
});
