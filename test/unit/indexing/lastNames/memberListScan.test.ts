import { firstMemberAfter, scanMembers } from '../../../../src/indexing/lastNames/memberListScan';

const blob = Buffer.from(
  '{"lastName":"o\\"b, [x]","members":["A/000001","B b/000002","C/000003"]}',
);
const arrayStart = blob.indexOf('"members":[') + '"members":'.length;

describe('member list scans', () => {
  it('find the whole members of a range with the offset past each', () => {
    const scan = scanMembers(blob, arrayStart);
    expect(scan.members.map((m) => m.text)).toEqual(['A/000001', 'B b/000002', 'C/000003']);
    expect(blob.toString('utf8', scan.members[0]!.end - 1, scan.members[0]!.end + 1)).toBe('",');
    expect(scan.closed).toBe(true);
  });

  it('stop at a member cut by the end of the range, and report where it starts', () => {
    const cut = blob.indexOf('B b') + 2;
    const scan = scanMembers(blob.subarray(arrayStart, cut), 0, arrayStart);
    expect(scan.members.map((m) => m.text)).toEqual(['A/000001']);
    expect(scan).toMatchObject({ resume: blob.indexOf('"B b'), closed: false });
  });

  it('give the first whole member after an offset, from a probe in the middle of another', () => {
    const mid = blob.indexOf('000001');
    const found = firstMemberAfter(blob.subarray(mid), 0, mid);
    expect(found).toEqual({
      text: 'B b/000002',
      start: blob.indexOf('"B b'),
      end: blob.indexOf('"B b') + '"B b/000002"'.length,
    });
    const last = blob.indexOf('000003');
    expect(firstMemberAfter(blob.subarray(last), 0, last)).toBeUndefined();
  });
});
