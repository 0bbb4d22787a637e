import { assertValidClaim } from '../../../src/expenses/expenseClaims';
import { ValidationError } from '../../../src/domainErrors';

describe('expense claim rules', () => {
  const valid = { amount: 12.5, currency: 'EUR', description: 'Taxi' };

  it.each([0.01, 1, 12.34, 1_000_000, 0.07])('accepts amount %p', (amount) => {
    expect(() => assertValidClaim({ ...valid, amount })).not.toThrow();
  });

  it.each([0, -1, 1.005, 0.001, 1_000_000.01, NaN, Infinity, 1e-7])(
    'refuses amount %p',
    (amount) => {
      expect(() => assertValidClaim({ ...valid, amount })).toThrow(ValidationError);
    },
  );

  it.each(['eur', 'EU', 'EURO', 'E1R', ''])('refuses currency %j', (currency) => {
    expect(() => assertValidClaim({ ...valid, currency })).toThrow(ValidationError);
  });

  it('refuses blank or over-long descriptions and unstorable times', () => {
    expect(() => assertValidClaim({ ...valid, description: '  ' })).toThrow(ValidationError);
    expect(() => assertValidClaim({ ...valid, description: 'x'.repeat(1001) })).toThrow(
      ValidationError,
    );
    expect(() => assertValidClaim({ ...valid, description: 'x'.repeat(1000) })).not.toThrow();
    expect(() =>
      assertValidClaim({ ...valid, submittedAt: new Date('1500-01-01T00:00:00Z') }),
    ).toThrow(ValidationError);
  });
});
