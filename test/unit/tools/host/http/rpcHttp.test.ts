/**
 * HTTP data crossing the host/worker boundary: the request the host builds for the library, and
 * the response it writes from the library's output.
 */
import {
  formatSetCookie,
  fromRpcHttpResponse,
  queryValues,
  toRpcHttpRequest,
  typedDataToBuffer,
} from '../../../../../tools/host/http/rpcHttp';

describe('requests', () => {
  test('headers are lower-cased and repeated values joined; the body travels as bytes', () => {
    const body = Buffer.from([0, 1, 2, 255]);
    const data = toRpcHttpRequest({
      method: 'post',
      url: 'http://localhost:7071/api/x?a=1',
      headers: {
        'x-multi': ['a', 'b'],
        accept: ['*/*'],
        'content-length': ['4'],
        missing: undefined,
      },
      params: { id: '7' },
      body,
    });
    expect(data).toEqual({
      method: 'POST',
      url: 'http://localhost:7071/api/x?a=1',
      nullableHeaders: {
        'x-multi': { value: 'a,b' },
        accept: { value: '*/*' },
        'content-length': { value: '4' },
      },
      nullableQuery: { a: { value: '1' } },
      nullableParams: { id: { value: '7' } },
      body: { bytes: body },
    });
  });

  test('an empty body is left out, as the host sends none', () => {
    const data = toRpcHttpRequest({
      method: 'GET',
      url: 'http://h/api',
      headers: {},
      params: {},
      body: Buffer.alloc(0),
    });
    expect(data.body).toBeUndefined();
  });

  test('a body sent without Content-Length (chunked) is not passed, as the Functions host does', () => {
    const data = toRpcHttpRequest({
      method: 'POST',
      url: 'http://h/api/x',
      headers: { 'transfer-encoding': ['chunked'] },
      params: {},
      body: Buffer.from('{"a":1}'),
    });
    expect(data.body).toBeUndefined();
    expect(data.nullableHeaders).toEqual({ 'transfer-encoding': { value: 'chunked' } });
  });

  test('query values are decoded, repeated keys joined with commas, empty values kept', () => {
    expect(queryValues('http://h/?q=a+b&q=%26&empty=&flag')).toEqual({
      q: 'a b,&',
      empty: '',
      flag: '',
    });
  });
});

describe('responses', () => {
  test('no output at all is a 200 with an empty body', () => {
    expect(fromRpcHttpResponse(undefined)).toEqual({
      status: 200,
      headers: [],
      body: Buffer.alloc(0),
    });
  });

  test('status, headers, cookies and body bytes are kept; framing headers are dropped', () => {
    const response = fromRpcHttpResponse({
      http: {
        statusCode: '201',
        headers: {
          'content-type': 'text/plain',
          'content-length': '999',
          'transfer-encoding': 'chunked',
          etag: '"1"',
        },
        cookies: [{ name: 'a', value: 'b' }],
        body: { bytes: Buffer.from('hi') },
      },
    });
    expect(response).toEqual({
      status: 201,
      headers: [
        ['content-type', 'text/plain'],
        ['etag', '"1"'],
        ['set-cookie', 'a=b'],
      ],
      body: Buffer.from('hi'),
    });
  });

  test('an invalid status code is an error (the function is at fault)', () => {
    expect(() => fromRpcHttpResponse({ http: { statusCode: '99' } })).toThrow(
      /invalid HTTP status code "99"/,
    );
    expect(() => fromRpcHttpResponse({ http: { statusCode: 'abc' } })).toThrow(
      /invalid HTTP status code/,
    );
  });

  test('every typed-data kind becomes bytes', () => {
    expect(typedDataToBuffer({ string: 'é' })).toEqual(Buffer.from('é'));
    expect(typedDataToBuffer({ json: '{"a":1}' })).toEqual(Buffer.from('{"a":1}'));
    expect(typedDataToBuffer({ int: 5 })).toEqual(Buffer.from('5'));
    expect(typedDataToBuffer({ double: 1.5 })).toEqual(Buffer.from('1.5'));
    expect(typedDataToBuffer(null)).toEqual(Buffer.alloc(0));
  });
});

describe('cookies', () => {
  test('all attributes, in ASP.NET order and spelling, with the value escaped', () => {
    expect(
      formatSetCookie({
        name: 'session',
        value: 'a b;c=d',
        expires: { value: { seconds: Date.UTC(2030, 0, 2, 3, 4, 5) / 1000 } },
        maxAge: { value: 3600.7 },
        domain: { value: 'contoso.com' },
        path: { value: '/api' },
        secure: { value: true },
        sameSite: 'strict',
        httpOnly: { value: true },
      }),
    ).toBe(
      'session=a%20b%3Bc%3Dd; expires=Wed, 02 Jan 2030 03:04:05 GMT; max-age=3600; domain=contoso.com; path=/api; secure; samesite=strict; httponly',
    );
  });

  test("SameSite 'none' means unspecified; 'explicitNone' is SameSite=None", () => {
    expect(formatSetCookie({ name: 'a', value: '1', sameSite: 'none' })).toBe('a=1');
    expect(
      formatSetCookie({ name: 'a', value: '1', sameSite: 'explicitNone', secure: { value: true } }),
    ).toBe('a=1; secure; samesite=none');
  });
});
