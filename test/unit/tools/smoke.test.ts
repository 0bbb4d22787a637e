/**
 * The pure parts of the smoke check: which API base a base URL means, which console files a page
 * references, the command line, and the line format.
 */
import { parseSmokeArgs } from '../../../tools/smoke';
import { formatSmokeResult } from '../../../tools/smoke/checks';
import { apiBaseUrl, consoleAssetUrls } from '../../../tools/smoke/urls';

describe('apiBaseUrl', () => {
  it.each([
    ['https://func-api-x.azurewebsites.net', 'https://func-api-x.azurewebsites.net/api'],
    ['https://func-api-x.azurewebsites.net/', 'https://func-api-x.azurewebsites.net/api'],
    ['http://127.0.0.1:7071/api', 'http://127.0.0.1:7071/api'],
    ['http://127.0.0.1:7071/api/?x=1#y', 'http://127.0.0.1:7071/api'],
    ['https://gateway.contoso.com/directory/api', 'https://gateway.contoso.com/directory/api'],
  ])('reads %s as the API base %s', (given, expected) => {
    expect(apiBaseUrl(given)).toBe(expected);
  });

  it('refuses what is not an http(s) URL', () => {
    expect(() => apiBaseUrl('ftp://example.org')).toThrow(/http or https/);
    expect(() => apiBaseUrl('func-api-x.azurewebsites.net')).toThrow(/http or https/);
  });
});

describe('consoleAssetUrls', () => {
  const page = 'https://app.example/api/console/';

  it('finds the scripts and stylesheets, resolved against the page, each once', () => {
    const html = `<!doctype html><head>
      <link rel="stylesheet" href="styles.css" />
      <link rel="icon" href="favicon.ico">
      <script defer src="app.js"></script>
      <script src='/api/console/app.js'></script>
      <script>inline()</script>
      <LINK REL="preload stylesheet" HREF=theme.css>
    </head>`;
    expect(consoleAssetUrls(html, page)).toEqual([
      'https://app.example/api/console/app.js',
      'https://app.example/api/console/styles.css',
      'https://app.example/api/console/theme.css',
    ]);
  });

  it('leaves out files of other origins and finds nothing in a page without any', () => {
    const html = '<script src="https://cdn.example/x.js"></script><p>hello</p>';
    expect(consoleAssetUrls(html, page)).toEqual([]);
  });
});

describe('parseSmokeArgs', () => {
  it('takes the base URL, the token and key from options or SMOKE_* variables, and the timings', () => {
    expect(
      parseSmokeArgs(['--base-url', 'https://a.example', '--timeout-seconds', '5'], {
        SMOKE_TOKEN: 'jwt',
        SMOKE_FUNCTION_KEY: 'key',
      }),
    ).toEqual({
      baseUrl: 'https://a.example',
      token: 'jwt',
      functionKey: 'key',
      timeoutMs: 5000,
      waitMs: 0,
    });
    expect(
      parseSmokeArgs(['--base-url', 'http://h/api', '--token', 't', '--wait-seconds', '120'], {
        SMOKE_TOKEN: 'other',
        SMOKE_FUNCTION_KEY: '',
      }),
    ).toEqual({ baseUrl: 'http://h/api', token: 't', timeoutMs: 30_000, waitMs: 120_000 });
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'not a url'], /must be an http\(s\) URL/],
    [['--base-url', 'https://a.example', '--timeout-seconds', 'soon'], /--timeout-seconds/],
    [['--base-url', 'https://a.example', '--verbose'], /Unknown option/],
  ])('refuses %j', (args, message) => {
    expect(() => parseSmokeArgs(args as string[])).toThrow(message);
  });
});

describe('formatSmokeResult', () => {
  it('starts each line with ok, FAIL or skip, then the check', () => {
    expect(formatSmokeResult({ check: 'health', status: 'FAIL', detail: 'why' })).toBe(
      'FAIL health: why',
    );
    expect(formatSmokeResult({ check: 'me', status: 'skip', detail: 'no token' })).toBe(
      'skip me: no token',
    );
  });
});
