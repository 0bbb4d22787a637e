/**
 * Realistic last names: a real organisation of 20,000 has thousands of distinct names, a few
 * common ones, and every name is one the directory accepts.
 */
import { NAME_RANKS, realisticSurname, surnameOfRank } from '../../../../bench/scale/surnames';
import { importCalls, SHARED_LAST_NAME } from '../../../../bench/scale/workload';
import { personNameSchema } from '../../../../src/directory/validation';

describe('realistic last names', () => {
  const people = importCalls(20_000)
    .flat()
    .filter((e) => e.lastName !== SHARED_LAST_NAME);
  const counts = new Map<string, number>();
  for (const { lastName } of people) counts.set(lastName, (counts.get(lastName) ?? 0) + 1);

  it('gives 15,000 people thousands of distinct names, none held by more than 2%', () => {
    expect(people).toHaveLength(15_000);
    expect(counts.size).toBeGreaterThan(8_000);
    expect(Math.max(...counts.values())).toBeLessThan(15_000 * 0.02);
    // The long tail: most names belong to one person.
    expect([...counts.values()].filter((c) => c === 1).length).toBeGreaterThan(counts.size / 2);
  });

  it('draws the same names on every run', () => {
    expect(realisticSurname(12_345)).toBe(realisticSurname(12_345));
    expect(importCalls(10).flat()[0]!.lastName).toBe(realisticSurname(1));
  });

  it('names every rank distinctly, each a valid last name, never the shared one', () => {
    const sample = [0, 1, 39, 40, 41, 1_000, NAME_RANKS - 1].map(surnameOfRank);
    expect(new Set(sample).size).toBe(sample.length);
    for (const name of [...sample, ...counts.keys()]) {
      expect(personNameSchema.safeParse(name).success).toBe(true);
      expect(name.toLowerCase()).not.toBe(SHARED_LAST_NAME.toLowerCase());
    }
  });
});
