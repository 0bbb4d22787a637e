import { localRedirect } from '../../../../tools/easyauth/redirects';

describe('post-login redirects', () => {
  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/api/console/', '/api/console/'],
    ['/api/console/?view=x#top', '/api/console/?view=x#top'],
    ['/a/../b', '/b'],
    // Encoded CR/LF stay encoded: harmless in a Location header.
    ['/%0d%0aSet-Cookie:x', '/%0d%0aSet-Cookie:x'],
  ])('%j → %j', (value, expected) => {
    expect(localRedirect(value)).toBe(expected);
  });

  it.each([
    'https://evil.example/',
    '//evil.example/',
    '/\\evil.example/',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/a\nb',
    '/ a',
    'evil.example',
  ])('refuses %j', (value) => {
    expect(localRedirect(value)).toBeUndefined();
  });
});
