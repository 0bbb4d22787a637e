import { decodeKeyText, encodeKeyText } from '../../../../src/storage/keys/text';
import { emailRowKey, parseEmailRowKey } from '../../../../src/storage/keys/tables/employees';
import { invertedTicksRowKey, parseInvertedTicksRowKey } from '../../../../src/storage/keys/time';

describe('key text encoding', () => {
  it.each(["o'brien@x.com", 'a/b\\c#d?e%f', 'Ωμέγα 😀', 'tab\there\u0000'])(
    'round-trips %j and leaves no forbidden character',
    (text) => {
      const encoded = encodeKeyText(text);
      // eslint-disable-next-line no-control-regex
      expect(encoded).not.toMatch(/[/\\#?\u0000-\u001f\u007f-\u009f]/);
      expect(decodeKeyText(encoded)).toBe(text);
    },
  );

  it('normalises emails in keys but keeps them reversible', () => {
    expect(parseEmailRowKey(emailRowKey('Jones.J@Contoso.com'))).toBe('jones.j@contoso.com');
  });

  it('sorts newer instants first in log-tail keys and decodes them back', () => {
    const older = new Date('2026-11-22T10:00:00.000Z');
    const newer = new Date('2026-11-22T10:00:00.001Z');
    expect(invertedTicksRowKey(newer, 'a') < invertedTicksRowKey(older, 'a')).toBe(true);
    expect(parseInvertedTicksRowKey(invertedTicksRowKey(older, 'x1'))).toEqual({
      at: older,
      uniqueSuffix: 'x1',
    });
  });
});
