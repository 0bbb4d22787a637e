import {
  counterValue,
  dayProperty,
  daysOfPart,
  hourProperty,
  yearPartOf,
} from '../../../src/stats/counterProperties';

describe('message counter properties', () => {
  it('names 24 hour counters and 366 day counters', () => {
    expect(hourProperty(0)).toBe('H00');
    expect(hourProperty(23)).toBe('H23');
    expect(() => hourProperty(24)).toThrow();
    expect(dayProperty(1)).toBe('D001');
    expect(dayProperty(366)).toBe('D366');
    expect(() => dayProperty(0)).toThrow();
  });

  it('splits a year over two entities, each well under 252 properties', () => {
    const part1 = daysOfPart(1);
    const part2 = daysOfPart(2);
    expect([...part1, ...part2]).toEqual(Array.from({ length: 366 }, (_, i) => i + 1));
    // Counters + EntityType (+ the LastOperation of older entities) must stay <= 252 properties.
    expect(part1.length + 2).toBeLessThanOrEqual(252);
    expect(part2.length + 2).toBeLessThanOrEqual(252);
    expect(part1.every((d) => yearPartOf(d) === 1)).toBe(true);
    expect(part2.every((d) => yearPartOf(d) === 2)).toBe(true);
  });

  it('reads Int64 counters (bigint) and treats absent ones as zero', () => {
    expect(counterValue(5n)).toBe(5);
    expect(counterValue(7)).toBe(7);
    expect(counterValue(undefined)).toBe(0);
  });
});
