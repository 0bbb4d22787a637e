import {
  fromSdkContinuationToken,
  toSdkContinuationToken,
} from '../../../../src/storage/keys/continuation';
import {
  invertedTicksRowKey,
  MAX_STORABLE_DATE,
  MIN_STORABLE_DATE,
  parseInvertedTicksRowKey,
  parseTicksRowKey,
  ticksRowKey,
  ticksRowKeyRange,
} from '../../../../src/storage/keys/time';
import {
  loginAttemptPartitionKey,
  loginTableName,
  parseLoginAttemptPartitionKey,
  parseLoginTableName,
} from '../../../../src/storage/keys/tables/logins';
import { ValidationError } from '../../../../src/domainErrors';

describe('log-tail and time-ordered row keys', () => {
  it.each([
    MIN_STORABLE_DATE,
    MAX_STORABLE_DATE,
    new Date('2028-02-29T23:59:59.999Z'),
    new Date('2026-12-31T23:59:59.999Z'),
    new Date('2027-01-01T00:00:00.000Z'),
  ])('round-trips %p through inverted ticks and ticks', (at) => {
    const inverted = invertedTicksRowKey(at, 'ab12cd34');
    expect(inverted).toMatch(/^\d{19}_ab12cd34$/);
    expect(parseInvertedTicksRowKey(inverted)).toEqual({ at, uniqueSuffix: 'ab12cd34' });
    expect(parseTicksRowKey(ticksRowKey(at, 'x'))).toEqual({ at, uniqueSuffix: 'x' });
  });

  it('uses .NET tick values: DateTime.MaxValue.Ticks minus the ticks of the instant', () => {
    // 2026-01-01T00:00:00Z is 639028224000000000 ticks in .NET (621355968000000000 at the Unix epoch).
    expect(invertedTicksRowKey(new Date('2026-01-01T00:00:00Z'), 'a')).toBe(
      `${(3155378975999999999n - 639028224000000000n).toString().padStart(19, '0')}_a`,
    );
  });

  it('sorts one millisecond later before, whatever the suffix', () => {
    const earlier = invertedTicksRowKey(new Date('2026-05-01T12:00:00.000Z'), 'ffffffff');
    const later = invertedTicksRowKey(new Date('2026-05-01T12:00:00.001Z'), '00000000');
    expect(later < earlier).toBe(true);
  });

  it('refuses instants storage cannot hold', () => {
    expect(() => invertedTicksRowKey(new Date('1600-12-31T23:59:59.999Z'), 'a')).toThrow(
      ValidationError,
    );
    expect(() => ticksRowKey(new Date(NaN), 'a')).toThrow(ValidationError);
  });

  it('bounds a window [from, to) so that keys at from are in and keys at to are out', () => {
    const from = new Date('2026-03-01T00:00:00Z');
    const to = new Date('2026-03-02T00:00:00Z');
    const range = ticksRowKeyRange(from, to);
    expect(ticksRowKey(from, 'a') >= range.ge).toBe(true);
    expect(ticksRowKey(new Date(to.getTime() - 1), 'zz') < range.lt).toBe(true);
    expect(ticksRowKey(to, '0') < range.lt).toBe(false);
  });
});

describe('login day tables and user partitions', () => {
  it('names the UTC day table and parses back only exact names of real dates', () => {
    const at = new Date('2026-03-01T23:59:59.999-05:00'); // 2026-03-02 04:59 UTC
    expect(loginTableName('LoginAttempts', at)).toBe('LoginAttempts20260302');
    expect(parseLoginTableName('LoginAttempts', 'LoginAttempts20260302')).toEqual(
      new Date('2026-03-02T00:00:00Z'),
    );
    for (const other of [
      'LoginAttemptsArchive',
      'LoginAttemptsToday',
      'loginattempts20260302',
      'LoginAttempts2026030',
      'LoginAttempts20260230',
      'LoginAttempts202603021',
      'XLoginAttempts20260302',
    ]) {
      expect(parseLoginTableName('LoginAttempts', other)).toBeUndefined();
    }
  });

  it.each(['alice', 'o/brien#1?', 'dom\\user', '100%', 'Ωμέγα 😀', ' spaced ', 'tab\there'])(
    'round-trips user id %j exactly through a key-safe PartitionKey',
    (userId) => {
      const key = loginAttemptPartitionKey(userId);
      // eslint-disable-next-line no-control-regex
      expect(key).not.toMatch(/[/\\#?\u0000-\u001f\u007f-\u009f]/);
      expect(parseLoginAttemptPartitionKey(key)).toBe(userId);
    },
  );

  it('refuses an empty or over-long user id', () => {
    expect(() => loginAttemptPartitionKey('')).toThrow(ValidationError);
    expect(() => loginAttemptPartitionKey('u'.repeat(257))).toThrow(ValidationError);
    expect(loginAttemptPartitionKey('%'.repeat(256))).toHaveLength(768);
  });
});

describe('SDK continuation tokens', () => {
  it.each([
    { nextPartitionKey: 'Sales_000223', nextRowKey: '0638000000000000000_ab' },
    { nextPartitionKey: 'Sales_000223' },
    { nextPartitionKey: 'Ωμέγα', nextRowKey: 'é😀' },
  ])('round-trips %j and matches how the SDK itself decodes tokens', (position) => {
    const token = toSdkContinuationToken(position);
    expect(fromSdkContinuationToken(token)).toEqual(position);
    // The SDK decodes byte by byte (Latin-1) before JSON.parse; escaping keeps that exact.
    const sdkView = JSON.parse(Buffer.from(token, 'base64').toString('latin1')) as unknown;
    expect(sdkView).toEqual(position);
  });
});
