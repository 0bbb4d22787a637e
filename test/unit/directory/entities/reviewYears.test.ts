import {
  DATA_ETAG_PROPERTY,
  employeeReviewYearsMerge,
  encodeReviewYears,
  normaliseYears,
  parseReviewYears,
  REVIEW_YEARS_PROPERTY,
  withoutReviewYears,
  withReviewYears,
} from '../../../../src/directory/entities/reviewYears';

describe('review years on the employee', () => {
  it('encodes ascending, unique, four digits each, and parses back', () => {
    expect(encodeReviewYears([2024, 1999, 2024, 9999, 1900])).toBe('1900199920249999');
    expect(encodeReviewYears([])).toBe('');
    expect(parseReviewYears('1900199920249999')).toEqual([1900, 1999, 2024, 9999]);
    expect(parseReviewYears('')).toEqual([]);
  });

  it('the longest list fits a string property (64 KiB = 32,768 UTF-16 characters)', () => {
    const all = Array.from({ length: 8100 }, (_, i) => 1900 + i);
    const encoded = encodeReviewYears(all);
    expect(encoded.length).toBe(32_400);
    expect(parseReviewYears(encoded)).toEqual(all);
  });

  it('treats an absent or unreadable list as unknown (legacy data)', () => {
    expect(parseReviewYears(undefined)).toBeUndefined();
    expect(parseReviewYears(2024)).toBeUndefined();
    expect(parseReviewYears('202')).toBeUndefined();
    expect(parseReviewYears('2024,2025')).toBeUndefined();
    expect(parseReviewYears('18992024')).toBeUndefined();
  });

  it('adds and removes years', () => {
    expect(withReviewYears([2020, 2022], [2021, 2020])).toEqual([2020, 2021, 2022]);
    expect(withoutReviewYears([2020, 2021, 2022], [2021, 1999])).toEqual([2020, 2022]);
  });

  it('refuses years outside 1900-9999', () => {
    expect(() => normaliseYears([1899])).toThrow(RangeError);
    expect(() => normaliseYears([10000])).toThrow(RangeError);
    expect(() => normaliseYears([2020.5])).toThrow(RangeError);
  });

  it('builds the Merge that records the years and keeps the data ETag', () => {
    expect(employeeReviewYearsMerge('Sales', '000223', [2024, 2020], 'W/"1"')).toEqual({
      partitionKey: 'Sales',
      rowKey: 'empid_000223',
      [REVIEW_YEARS_PROPERTY]: '20202024',
      [DATA_ETAG_PROPERTY]: 'W/"1"',
    });
  });
});
