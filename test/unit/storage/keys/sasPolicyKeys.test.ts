import { parseSasPolicyId, sasPolicyId } from '../../../../src/storage/keys/tables/sasPolicies';

describe('stored access policy ids', () => {
  it('round-trips generations', () => {
    for (const generation of [1, 2, 9, 10, 123456, Number.MAX_SAFE_INTEGER]) {
      expect(parseSasPolicyId(sasPolicyId(generation))).toBe(generation);
    }
    expect(sasPolicyId(7)).toBe('directory-sas-v7');
    expect(sasPolicyId(Number.MAX_SAFE_INTEGER).length).toBeLessThanOrEqual(64);
  });

  it('refuses generations that are not positive integers', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => sasPolicyId(bad)).toThrow();
    }
  });

  it('leaves identifiers created by others alone', () => {
    for (const other of [
      '',
      'policy1',
      'directory-sas-v',
      'directory-sas-v0',
      'directory-sas-v01',
      'Directory-sas-v1',
      'directory-sas-v1 ',
      'directory-sas-v1x',
      'directory-sas-v12345678901234567',
      'directory-sas-v9007199254740992',
    ]) {
      expect(parseSasPolicyId(other)).toBeUndefined();
    }
  });
});
