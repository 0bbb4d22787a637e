/**
 * Every encode/decode pair of keys.ts with awkward input: characters the service forbids, escape
 * look-alikes, Unicode that normalises differently, boundary lengths and dates, and keys of other
 * entity types that a parser must skip rather than misread.
 */
import { ContainerClient } from '@azure/storage-blob';
import { ValidationError } from '../../../../src/domainErrors';
import * as textKeys from '../../../../src/storage/keys/text';
import * as identifiersKeys from '../../../../src/storage/keys/identifiers';
import * as timeKeys from '../../../../src/storage/keys/time';
import * as continuationKeys from '../../../../src/storage/keys/continuation';
import * as queuesKeys from '../../../../src/storage/keys/queues';
import * as employeesKeys from '../../../../src/storage/keys/tables/employees';
import * as employeeIndexKeys from '../../../../src/storage/keys/tables/employeeIndex';
import * as employeePartitionsKeys from '../../../../src/storage/keys/tables/employeePartitions';
import * as outboxKeys from '../../../../src/storage/keys/tables/outbox';
import * as archiveKeys from '../../../../src/storage/keys/tables/archive';
import * as loginsKeys from '../../../../src/storage/keys/tables/logins';
import * as messageStatsKeys from '../../../../src/storage/keys/tables/messageStats';
import * as sasPoliciesKeys from '../../../../src/storage/keys/tables/sasPolicies';
import * as placementKeys from '../../../../src/storage/keys/tables/placement';
import * as timerRunsKeys from '../../../../src/storage/keys/tables/timerRuns';
import * as logBlobsKeys from '../../../../src/storage/keys/blobs/logBlobs';
import * as photoBlobsKeys from '../../../../src/storage/keys/blobs/photoBlobs';

/** The key families this test reads, under one name. */
const keys = {
  ...textKeys,
  ...identifiersKeys,
  ...timeKeys,
  ...continuationKeys,
  ...queuesKeys,
  ...employeesKeys,
  ...employeeIndexKeys,
  ...employeePartitionsKeys,
  ...outboxKeys,
  ...archiveKeys,
  ...loginsKeys,
  ...messageStatsKeys,
  ...sasPoliciesKeys,
  ...placementKeys,
  ...timerRunsKeys,
  ...logBlobsKeys,
  ...photoBlobsKeys,
};

// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_KEYS = /[/\\#?\u0000-\u001f\u007f-\u009f]/;
const between = (key: string, range: { ge: string; lt: string }): boolean =>
  key >= range.ge && key < range.lt;

describe('free text in keys', () => {
  const awkward = [
    '',
    '%',
    '%%41',
    '%2F',
    '100% sure',
    'a/b\\c#d?e',
    '\u0000\u001f\u007f\u0080\u009f',
    '\u00a0non-breaking',
    'Ωμέγα',
    'עברית',
    '😀👩‍👩‍👧',
    'e\u0301',
    '\ud800 lone surrogate',
    ' leading and trailing ',
    '.',
    '..',
  ];

  it.each(awkward)('round-trips %j and leaves no forbidden character', (text) => {
    const encoded = keys.encodeKeyText(text);
    expect(encoded).not.toMatch(FORBIDDEN_IN_KEYS);
    expect(keys.decodeKeyText(encoded)).toBe(text);
  });

  it('escapes every forbidden ASCII and Latin-1 character, and only those and %', () => {
    for (let code = 0; code < 256; code += 1) {
      const c = String.fromCharCode(code);
      const encoded = keys.encodeKeyText(c);
      const mustEscape = FORBIDDEN_IN_KEYS.test(c) || c === '%';
      expect(encoded).toBe(mustEscape ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : c);
    }
  });

  it.each(['%', '%4', '%g0', '%2f', '%41', 'a/b'])(
    'refuses %j, which no text encodes to',
    (encoded) => {
      expect(() => keys.decodeKeyText(encoded)).toThrow();
    },
  );

  it('gives one key for an email however its case, spacing and Unicode form differ', () => {
    const composed = keys.emailRowKey('  Ren\u00e9@Contoso.COM ');
    expect(keys.emailRowKey('rene\u0301@contoso.com')).toBe(composed);
    expect(keys.parseEmailRowKey(composed)).toBe('ren\u00e9@contoso.com');
  });

  it('round-trips emails whose local part holds characters keys forbid', () => {
    for (const email of ['a/b@x.com', 'x#y?z@x.com', 'o%27brien@x.com', '"quoted\\"@x.com']) {
      const key = keys.emailRowKey(email);
      expect(key).not.toMatch(FORBIDDEN_IN_KEYS);
      expect(keys.parseEmailRowKey(key)).toBe(email);
      expect(keys.parseEmailIndexRowKey(keys.emailIndexRowKey(email))).toBe(email);
    }
  });

  it("keeps the index partitions' drain fence apart from every id and email entry", () => {
    expect(keys.isIndexFenceRowKey(keys.INDEX_FENCE_ROW_KEY)).toBe(true);
    for (const email of ['~fence@x.com', '~FENCE@X.COM', 'a@~fence', ' ~fence@x ']) {
      const rowKey = keys.emailIndexRowKey(email);
      expect(keys.isIndexFenceRowKey(rowKey)).toBe(false);
      expect(keys.parseEmailIndexRowKey(rowKey)).toBe(keys.normalizeEmail(email));
    }
    expect(keys.isIndexFenceRowKey(keys.idIndexRowKey('000001'))).toBe(false);
    expect(() => keys.idIndexRowKey(keys.INDEX_FENCE_ROW_KEY)).toThrow(ValidationError);
  });

  it("keeps each department's drain lease in a partition of its own, outside every index range", () => {
    for (const department of ['Sales', 'R and D', 'a', 'x'.repeat(64)]) {
      const partitionKey = keys.drainLeasePartitionKey(department);
      expect(partitionKey).not.toMatch(FORBIDDEN_IN_KEYS);
      expect(keys.parseDrainLeasePartitionKey(partitionKey)).toBe(department);
      expect(partitionKey).not.toBe(keys.idIndexPartitionKey(department));
      expect(partitionKey).not.toBe(keys.emailIndexPartitionKey(department));
      expect(keys.parseIndexPartitionKey(partitionKey)).toBeUndefined();
      expect(between(partitionKey, keys.orgLastNameGroupKeyRange())).toBe(false);
    }
    expect(keys.parseDrainLeasePartitionKey(keys.idIndexPartitionKey('Sales'))).toBeUndefined();
    expect(keys.parseDrainLeasePartitionKey('~drain_')).toBeUndefined();
    expect(() => keys.drainLeasePartitionKey('a/b')).toThrow(ValidationError);
  });

  it('bounds email copies by address range, and nothing else in the partition', () => {
    const range = keys.emailRowKeyRange('b', 'd');
    expect(between(keys.emailRowKey('b@x.com'), range)).toBe(true);
    expect(between(keys.emailRowKey('czz@x.com'), range)).toBe(true);
    expect(between(keys.emailRowKey('d@x.com'), range)).toBe(false);
    const all = keys.emailRowKeyRange();
    expect(between(keys.emailRowKey('\u{1f600}@x.com'), all)).toBe(true);
    expect(between(keys.employeeRowKey('000001'), all)).toBe(false);
    expect(between(keys.lastNameRowKey('email'), all)).toBe(false);
  });

  it.each(["O'Brien", 'van der Berg', 'Núñez', 'Smith/Jones', '50%', '李'])(
    'round-trips last name %j through row key, org partition key and blob name',
    (lastName) => {
      const normalised = keys.normalizeLastName(lastName);
      expect(keys.parseLastNameRowKey(keys.lastNameRowKey(lastName))).toBe(normalised);
      for (const shard of [0, 999]) {
        const rowKey = keys.orgLastNameShardRowKey(lastName, shard);
        expect(keys.parseOrgLastNameRowKey(rowKey)).toEqual({ lastName: normalised, shard });
        expect(between(rowKey, keys.orgLastNameRowRange(lastName))).toBe(true);
      }
      const fence = keys.orgLastNameFenceRowKey(lastName);
      expect(keys.parseOrgLastNameRowKey(fence)).toEqual({ lastName: normalised });
      expect(between(fence, keys.orgLastNameRowRange(lastName))).toBe(true);
      const group = keys.orgLastNameGroupKey(lastName);
      expect(group).not.toMatch(FORBIDDEN_IN_KEYS);
      expect(between(group, keys.orgLastNameGroupKeyRange())).toBe(true);
      const blobName = keys.lastNameBlobName(lastName);
      // A "/" would create a virtual folder; the blob name must stay flat.
      expect(blobName).not.toContain('/');
      expect(keys.parseLastNameBlobName(blobName)).toBe(normalised);
    },
  );

  it('keeps a last name that itself ends in .json', () => {
    expect(keys.parseLastNameBlobName(keys.lastNameBlobName('x.json'))).toBe('x.json');
    expect(keys.parseLastNameBlobName('jones.txt')).toBeUndefined();
    expect(keys.parseLastNameBlobName('%zz.json')).toBeUndefined();
  });

  it('refuses an empty prefix range', () => {
    expect(() => keys.prefixRange('')).toThrow();
    expect(keys.prefixRange('a_')).toEqual({ ge: 'a_', lt: 'a`' });
  });
});

describe('departments and employees', () => {
  const badDepartments = [
    '',
    ' '.repeat(0),
    'x'.repeat(65),
    'Sales/EU',
    'R&D',
    'Sales#1',
    'Vérités',
    '.departments',
    'a\tb',
  ];

  it.each(badDepartments)('refuses department %j with a validation error', (department) => {
    expect(() => keys.departmentPartitionKey(department)).toThrow(ValidationError);
    expect(() => keys.departmentListRowKey(department)).toThrow(ValidationError);
    expect(() => keys.idIndexPartitionKey(department)).toThrow(ValidationError);
    expect(keys.parseDepartmentPartitionKey(department)).toBeUndefined();
  });

  it.each(['A', 'Human Resources', 'R_D', 'x'.repeat(64), '2026', '-_-'])(
    'round-trips department %j through every key that holds it',
    (department) => {
      expect(keys.parseDepartmentPartitionKey(keys.departmentPartitionKey(department))).toBe(
        department,
      );
      expect(keys.parseDepartmentListRowKey(keys.departmentListRowKey(department))).toBe(
        department,
      );
      expect(keys.parseIndexPartitionKey(keys.idIndexPartitionKey(department))).toEqual({
        index: 'id',
        department,
      });
      expect(keys.parseIndexPartitionKey(keys.emailIndexPartitionKey(department))).toEqual({
        index: 'email',
        department,
      });
    },
  );

  it('never mistakes the department listing partition for a department', () => {
    expect(keys.parseDepartmentPartitionKey(keys.DEPARTMENT_LIST_PARTITION_KEY)).toBeUndefined();
    expect(keys.parseDepartmentListRowKey(keys.DEPARTMENT_ROW_KEY)).toBe('department');
  });

  it.each(['223', '0002230', '00022a', '٠٠٠٢٢٣', ' 00022', '-00001', '0x00ff'])(
    'refuses employee id %j',
    (id) => {
      expect(() => keys.employeeRowKey(id)).toThrow(ValidationError);
      expect(() => keys.idIndexRowKey(id)).toThrow(ValidationError);
      expect(keys.parseEmployeeRowKey(`empid_${id}`)).toBeUndefined();
    },
  );

  it('parses only its own row keys in a heterogeneous partition', () => {
    const others = [
      keys.DEPARTMENT_ROW_KEY,
      keys.emailRowKey('empid_000001@x.com'),
      keys.lastNameRowKey('empid'),
      keys.reviewRowKey('000001', 2024),
      'EMPID_000001',
      'empid_000001 ',
    ];
    for (const other of others) expect(keys.parseEmployeeRowKey(other)).toBeUndefined();
    for (const other of [keys.employeeRowKey('000001'), keys.DEPARTMENT_ROW_KEY]) {
      expect(keys.parseEmailRowKey(other)).toBeUndefined();
      expect(keys.parseLastNameRowKey(other)).toBeUndefined();
      expect(keys.parseReviewRowKey(other)).toBeUndefined();
    }
  });

  it('includes both ends of an employee id range and nothing after it', () => {
    const range = keys.employeeRowKeyRange('000100', '000199');
    expect(between(keys.employeeRowKey('000100'), range)).toBe(true);
    expect(between(keys.employeeRowKey('000199'), range)).toBe(true);
    expect(between(keys.employeeRowKey('000200'), range)).toBe(false);
    expect(between(keys.employeeRowKey('000099'), range)).toBe(false);
    expect(between(keys.emailRowKey('a@x.com'), keys.employeeRowKeyRange())).toBe(false);
  });

  it('round-trips reviews at the edges of the allowed years and refuses the rest', () => {
    for (const year of [1900, 2024, 9999]) {
      expect(keys.parseReviewRowKey(keys.reviewRowKey('000223', year))).toEqual({
        employeeId: '000223',
        year,
      });
    }
    for (const year of [1899, 10000, 2024.5, Number.NaN]) {
      expect(() => keys.reviewRowKey('000223', year)).toThrow(ValidationError);
    }
    const range = keys.reviewRowKeyRange('000223');
    expect(between(keys.reviewRowKey('000223', 1900), range)).toBe(true);
    expect(between(keys.reviewRowKey('000224', 1900), range)).toBe(false);
    expect(keys.parseReviewRowKey('review_000223_02024')).toBeUndefined();
    const all = keys.reviewsRowKeyRange();
    expect(between(keys.reviewRowKey('000001', 1900), all)).toBe(true);
    expect(between(keys.reviewRowKey('999999', 9999), all)).toBe(true);
    expect(between(keys.employeeRowKey('000001'), all)).toBe(false);
    expect(between(keys.lastNameRowKey('review'), all)).toBe(false);
  });

  it('splits per-employee partition keys even when the department holds _ and digits', () => {
    for (const department of ['R_D', 'Team_123456', '_', 'a_000001']) {
      const key = keys.employeePartitionKey(department, '000042');
      expect(keys.parseEmployeePartitionKey(key)).toEqual({ department, employeeId: '000042' });
    }
    expect(keys.parseEmployeePartitionKey('Sales_42')).toBeUndefined();
    expect(keys.parseEmployeePartitionKey('_000042')).toBeUndefined();
    expect(keys.parseEmployeePartitionKey('Sales/EU_000042')).toBeUndefined();
  });

  it('tells the two inter-partition index partitions apart and skips anything else', () => {
    for (const other of [
      'empid_',
      'email_',
      'lastname_jones',
      'Sales',
      'empid_Sales/EU',
      'EMPID_Sales',
    ]) {
      expect(keys.parseIndexPartitionKey(other)).toBeUndefined();
    }
  });
});

describe('time in keys', () => {
  it('refuses invalid dates and suffixes that are not [A-Za-z0-9-]{1,64}', () => {
    expect(() => keys.invertedTicksRowKey(new Date(Number.NaN), 'a')).toThrow(ValidationError);
    expect(() => keys.ticksRowKey(new Date(Number.NaN), 'a')).toThrow(ValidationError);
    for (const suffix of ['', 'a_b', 'a/b', 'x'.repeat(65), 'é']) {
      expect(() => keys.invertedTicksRowKey(new Date(), suffix)).toThrow();
      expect(() => keys.ticksRowKey(new Date(), suffix)).toThrow();
    }
    expect(
      keys.parseTicksRowKey(keys.ticksRowKey(new Date(0), 'x'.repeat(64)))?.uniqueSuffix,
    ).toHaveLength(64);
  });

  it('selects exactly the time-ordered keys of [from, to)', () => {
    const from = new Date('2026-11-22T10:00:00.000Z');
    const to = new Date('2026-11-22T11:00:00.000Z');
    const range = keys.ticksRowKeyRange(from, to);
    expect(between(keys.ticksRowKey(from, 'a'), range)).toBe(true);
    expect(between(keys.ticksRowKey(new Date(to.getTime() - 1), 'zzz'), range)).toBe(true);
    expect(between(keys.ticksRowKey(to, '0'), range)).toBe(false);
  });

  it('round-trips ticks at the representable extremes', () => {
    for (const at of [keys.MIN_STORABLE_DATE, keys.MAX_STORABLE_DATE, new Date(0)]) {
      expect(keys.fromTicks(keys.toTicks(at))).toEqual(at);
    }
  });

  it.each([
    ['20240229', '2024-02-29T00:00:00.000Z'],
    ['00010101', '0001-01-01T00:00:00.000Z'],
    ['00991231', '0099-12-31T00:00:00.000Z'],
  ])('parses day stamp %s as %s', (stamp, iso) => {
    expect(keys.parseUtcDayStamp(stamp)?.toISOString()).toBe(iso);
  });

  it.each(['20230229', '20241301', '20240100', '20240431', '2024022', '202402290', '2024-2-9', ''])(
    'refuses day stamp %j',
    (stamp) => {
      expect(keys.parseUtcDayStamp(stamp)).toBeUndefined();
    },
  );

  it('stamps the UTC day, not the local one, at the edges of a day', () => {
    expect(keys.utcDayStamp(new Date('2026-11-22T23:59:59.999Z'))).toBe('20261122');
    expect(keys.utcDayStamp(new Date('2026-11-23T00:00:00.000Z'))).toBe('20261123');
  });
});

describe('login tables and message statistics', () => {
  it('recognises only tables named exactly <prefix>YYYYMMDD', () => {
    const day = new Date('2026-11-22T15:00:00Z');
    expect(
      keys.parseLoginTableName('LoginAttempts', keys.loginTableName('LoginAttempts', day)),
    ).toEqual(new Date('2026-11-22T00:00:00Z'));
    for (const other of [
      'loginattempts20261122',
      'LoginAttempts2026112',
      'LoginAttempts20261322',
      'LoginAttemptsArchive',
      'Employees',
    ]) {
      expect(keys.parseLoginTableName('LoginAttempts', other)).toBeUndefined();
    }
  });

  it('round-trips user ids at the length limit, even when every character is escaped', () => {
    const worst = '/'.repeat(keys.MAX_LOGIN_USER_ID_LENGTH);
    const key = keys.loginAttemptPartitionKey(worst);
    expect(key.length).toBeLessThanOrEqual(keys.MAX_KEY_LENGTH);
    expect(keys.parseLoginAttemptPartitionKey(key)).toBe(worst);
    expect(keys.parseLoginAttemptPartitionKey('')).toBeUndefined();
    expect(keys.parseLoginAttemptPartitionKey('%2f')).toBeUndefined();
  });

  it('round-trips daily and yearly statistics keys and refuses years outside 1601-9999', () => {
    expect(
      keys.parseHourlyStatsRowKey(keys.hourlyStatsRowKey(new Date('2024-02-29T23:00:00Z'))),
    ).toEqual(new Date('2024-02-29T00:00:00Z'));
    expect(keys.parseHourlyStatsRowKey('day_20230229')).toBeUndefined();
    expect(keys.parseHourlyStatsRowKey('year_2024_1')).toBeUndefined();
    const [first, second] = keys.yearlyStatsRowKeys(1601);
    expect(keys.parseYearlyStatsRowKey(first)).toEqual({ year: 1601, part: 1 });
    expect(keys.parseYearlyStatsRowKey(second)).toEqual({ year: 1601, part: 2 });
    expect(keys.parseYearlyStatsRowKey('year_2024_3')).toBeUndefined();
    expect(keys.parseYearlyStatsRowKey('day_20240101')).toBeUndefined();
    for (const year of [1600, 10000, 2024.5])
      expect(() => keys.yearlyStatsRowKeys(year)).toThrow(ValidationError);
  });
});

describe('blob names', () => {
  const hour = new Date('2026-11-22T15:42:10.123Z');

  it('names log blobs by UTC hour and sequence and parses them back to the hour', () => {
    for (const sequence of [0, 999_999]) {
      expect(keys.parseLogBlobName(keys.logBlobName('web-1', hour, sequence))).toEqual({
        source: 'web-1',
        hour: new Date('2026-11-22T15:00:00Z'),
        sequence,
      });
    }
    expect(keys.logBlobName('web', hour, 7).startsWith(keys.logHourPrefix('web', hour))).toBe(true);
  });

  it('refuses bad sources and sequences, and skips blobs that are not log blobs', () => {
    for (const source of ['', 'Web', '-web', 'web/api', 'x'.repeat(64)]) {
      expect(() => keys.logHourPrefix(source, hour)).toThrow(ValidationError);
    }
    for (const sequence of [-1, 1_000_000, 1.5])
      expect(() => keys.logBlobName('web', hour, sequence)).toThrow();
    for (const other of [
      'web/2026/02/30/0100/000000.log',
      'web/2026/11/22/2400/000000.log',
      'web/2026/11/22/1530/000000.log',
      'web/2026/11/22/1500/000000.txt',
      'web/2026/11/22/1500/00000.log',
      '$logs/blob/2026/11/22/1500/000000.log',
    ]) {
      expect(keys.parseLogBlobName(other)).toBeUndefined();
    }
  });

  it('round-trips photo blob names, spaces in the department included', () => {
    const name = keys.photoBlobName('Human Resources', '000223', 'v2-abc');
    expect(name.startsWith(keys.photoBlobPrefix('Human Resources', '000223'))).toBe(true);
    expect(keys.parsePhotoBlobName(name)).toEqual({
      department: 'Human Resources',
      employeeId: '000223',
      version: 'v2-abc',
    });
    expect(() => keys.photoBlobName('Sales', '000223', 'v_2')).toThrow();
    expect(keys.parsePhotoBlobName('Sales/000223/v2/extra')).toBeUndefined();
    expect(keys.parsePhotoBlobName('Sales/223/v2')).toBeUndefined();
  });

  it('builds a blob URL the way the Blob SDK escapes its segments', () => {
    const containerUrl = 'http://127.0.0.1:10000/devstoreaccount1/photos';
    const name = keys.photoBlobName('Human Resources', '000223', 'v2-abc');
    const sdkUrl = new ContainerClient(containerUrl).getBlockBlobClient(name).url;
    expect(keys.blobUrl(containerUrl, name)).toBe(sdkUrl);
    expect(keys.blobUrl(containerUrl, name)).toBe(
      `${containerUrl}/Human%20Resources/000223/v2-abc`,
    );
  });
});

describe('queues, stored access policies and continuation tokens', () => {
  it('round-trips poison queue names, including a queue whose own name ends in -poison', () => {
    expect(keys.poisonQueueName('archive-requests')).toBe('archive-requests-poison');
    expect(keys.parsePoisonQueueName(keys.poisonQueueName('x-poison'))).toBe('x-poison');
    expect(keys.parsePoisonQueueName('archive-requests')).toBeUndefined();
  });

  it('round-trips stored access policy generations and skips ids made by others', () => {
    expect(keys.parseSasPolicyId(keys.sasPolicyId(1))).toBe(1);
    expect(keys.parseSasPolicyId('directory-sas-v0')).toBeUndefined();
  });

  it('round-trips API continuation tokens with Unicode keys and an absent row key', () => {
    const scope = 'Ωμέγα|id|000100|000199';
    for (const position of [
      { nextPartitionKey: 'Sales', nextRowKey: 'email_ren\u00e9%2F@x.com' },
      { nextPartitionKey: '😀' },
      { nextPartitionKey: '', nextRowKey: '' },
    ]) {
      const token = keys.encodeContinuationToken(scope, position);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(keys.decodeContinuationToken(scope, token)).toEqual(position);
    }
  });

  it('refuses tokens that were tampered with, padded, or issued for another query', () => {
    const token = keys.encodeContinuationToken('Sales|id', {
      nextPartitionKey: 'Sales',
      nextRowKey: 'empid_000100',
    });
    const tampered = (token[5] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const [scope, bad] of [
      ['Sales|id', tampered],
      ['Sales|id', `${token}=`],
      ['Sales|id', `${token} `],
      ['Sales|email', token],
      ['Sales|id', ''],
      ['Sales|id', 'x'.repeat(5000)],
      ['Sales|id', Buffer.from('{"v":2,"s":"Sales|id","pk":"Sales"}').toString('base64url')],
      ['Sales|id', Buffer.from('[]').toString('base64url')],
    ] as const) {
      expect(() => keys.decodeContinuationToken(scope, bad)).toThrow(ValidationError);
    }
  });

  it('round-trips SDK continuation tokens with Unicode and refuses a foreign shape', () => {
    const position = { nextPartitionKey: 'Ωμέγα', nextRowKey: 'lastname_李' };
    expect(keys.fromSdkContinuationToken(keys.toSdkContinuationToken(position))).toEqual(position);
    expect(() =>
      keys.fromSdkContinuationToken(Buffer.from('{"pk":"x"}').toString('base64')),
    ).toThrow();
  });
});
