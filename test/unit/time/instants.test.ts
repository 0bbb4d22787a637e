import {
  addUtcDays,
  daysInYear,
  formatUtcDay,
  isStorableInstant,
  parseUtcDay,
  startOfUtcDay,
  utcDayOfYear,
} from '../../../src/time/instants';

describe('UTC calendar arithmetic', () => {
  it('finds the UTC day of instants given with offsets', () => {
    expect(startOfUtcDay(new Date('2026-06-01T03:00:00+05:30'))).toEqual(
      new Date('2026-05-31T00:00:00Z'),
    );
    expect(startOfUtcDay(new Date('2026-06-01T23:59:59.999Z'))).toEqual(
      new Date('2026-06-01T00:00:00Z'),
    );
    expect(startOfUtcDay(new Date('2026-06-02T00:00:00.000Z'))).toEqual(
      new Date('2026-06-02T00:00:00Z'),
    );
  });

  it('numbers days of the year across leap days and year ends', () => {
    expect(utcDayOfYear(new Date('2028-01-01T00:00:00Z'))).toBe(1);
    expect(utcDayOfYear(new Date('2028-02-29T12:00:00Z'))).toBe(60);
    expect(utcDayOfYear(new Date('2028-03-01T00:00:00Z'))).toBe(61);
    expect(utcDayOfYear(new Date('2028-12-31T23:59:59.999Z'))).toBe(366);
    expect(utcDayOfYear(new Date('2027-12-31T23:59:59.999Z'))).toBe(365);
    expect(utcDayOfYear(new Date('1601-01-01T00:00:00Z'))).toBe(1);
    expect(daysInYear(2028)).toBe(366);
    expect(daysInYear(2100)).toBe(365);
    expect(daysInYear(2000)).toBe(366);
  });

  it('parses only real calendar dates in the storable range', () => {
    expect(parseUtcDay('2028-02-29')).toEqual(new Date('2028-02-29T00:00:00Z'));
    expect(parseUtcDay('2027-02-29')).toBeUndefined();
    expect(parseUtcDay('2026-13-01')).toBeUndefined();
    expect(parseUtcDay('2026-1-01')).toBeUndefined();
    expect(parseUtcDay('1600-12-31')).toBeUndefined();
    expect(parseUtcDay('1601-01-01')).toEqual(new Date('1601-01-01T00:00:00Z'));
    expect(formatUtcDay(addUtcDays(new Date('2028-02-28T00:00:00Z'), 1))).toBe('2028-02-29');
  });

  it('knows which instants can be stored', () => {
    expect(isStorableInstant(new Date('1601-01-01T00:00:00Z'))).toBe(true);
    expect(isStorableInstant(new Date('1600-12-31T23:59:59.999Z'))).toBe(false);
    expect(isStorableInstant(new Date('9999-12-31T23:59:59.999Z'))).toBe(true);
    expect(isStorableInstant(new Date(NaN))).toBe(false);
  });
});
