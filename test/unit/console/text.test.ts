/**
 * Untrusted text in the console: a log message's control characters are shown, never followed
 * (no forged lines), and a `mailto:` link has exactly the one recipient it shows.
 */
import { inPeoplesWords, mailtoHref, visibleControls } from '../../../console/text';

describe('visibleControls', () => {
  it('shows a newline as ␊, so a message cannot draw a line of its own', () => {
    const forged = 'user signed in\n07:59:18.639  Critical    FORGED: admin disabled MFA';
    expect(visibleControls(forged)).toBe(
      'user signed in␊07:59:18.639  Critical    FORGED: admin disabled MFA',
    );
  });

  it.each([
    ['\r\n', '␍␊'],
    ['\t', '␉'],
    ['\u0000', '␀'],
    ['\u001b[31m', '␛[31m'],
    ['\u007f', '␡'],
    ['\u0085', '\\u{85}'],
    ['\u2028', '\\u{2028}'],
    ['\u202e', '\\u{202E}'],
    ['\u2066', '\\u{2066}'],
  ])('shows %j as %j', (control, shown) => {
    expect(visibleControls(`a${control}b`)).toBe(`a${shown}b`);
  });

  it('leaves printable text of any script alone', () => {
    const text = `Zoë "Z" O'Neil — 山田 😀 ␊ \\n`;
    expect(visibleControls(text)).toBe(text);
  });
});

describe('mailtoHref', () => {
  it('keeps an ordinary address readable', () => {
    expect(mailtoHref('ada.lovelace@contoso.com')).toBe('mailto:ada.lovelace@contoso.com');
  });

  it('gives a stored address with a query or a second address one recipient and no headers', () => {
    const href = mailtoHref('ada%40contoso.com?bcc=attacker@evil.example');
    expect(href).toBe('mailto:ada%2540contoso.com%3Fbcc%3Dattacker@evil.example');
    const url = new URL(href);
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    expect(href.slice('mailto:'.length)).not.toMatch(/[?,&#]/);
  });

  it('encodes the characters a mailto: URL gives a meaning to', () => {
    expect(mailtoHref("o'brien+x&y=z#1,b@ex.com")).toBe(
      "mailto:o'brien%2Bx%26y%3Dz%231%2Cb@ex.com",
    );
  });
});

describe('inPeoplesWords', () => {
  const labels: Record<string, string> = { firstName: 'First name', age: 'Age (empty: not given)' };
  const labelOf = (name: string): string | undefined => labels[name];

  it("names the field by its label, not the API's path", () => {
    expect(
      inPeoplesWords(
        'Body.firstName: must not be blank.',
        [{ field: 'body.firstName', problem: 'must not be blank' }],
        labelOf,
      ),
    ).toBe('First name must not be blank.');
    expect(
      inPeoplesWords(
        'Body.firstName: must not be blank. body.age: must be at most 150.',
        [
          { field: 'body.firstName', problem: 'must not be blank' },
          { field: 'body.age', problem: 'must be at most 150' },
        ],
        labelOf,
      ),
    ).toBe('First name must not be blank. Age must be at most 150.');
  });

  it('takes the path off a message whose field the form does not have, and keeps any other', () => {
    expect(
      inPeoplesWords(
        'Body.employeeId: must be six digits.',
        [{ field: 'body.employeeId', problem: '' }],
        labelOf,
      ),
    ).toBe('Must be six digits.');
    expect(inPeoplesWords('Query.age: must be a number.', [], labelOf)).toBe(
      'Age must be a number.',
    );
    expect(inPeoplesWords('Someone changed it meanwhile.', [], labelOf)).toBe(
      'Someone changed it meanwhile.',
    );
  });
});
