import type { IncomingMessage } from 'node:http';
import { withForwardedHeaders } from '../../../../../tools/host/http/forwarded';
import { httpResponseLimit, HostStartupError } from '../../../../../tools/host/host';

function request(
  headers: Record<string, string[]>,
  remoteAddress: string,
  remotePort = 50123,
): IncomingMessage {
  return {
    headersDistinct: headers,
    url: '/api/x?y=1',
    socket: { remoteAddress, remotePort },
  } as unknown as IncomingMessage;
}

describe('withForwardedHeaders', () => {
  it('says http, whatever the client claimed, and keeps the other headers', () => {
    const headers = withForwardedHeaders(
      request({ 'x-forwarded-proto': ['https'], accept: ['*/*'] }, '127.0.0.1'),
    );
    expect(headers).toEqual({
      accept: ['*/*'],
      'x-forwarded-proto': ['http'],
      'x-forwarded-for': ['127.0.0.1:50123'],
      'x-original-url': ['/api/x?y=1'],
      'x-client-ip': ['127.0.0.1'],
      'x-client-port': ['50123'],
    });
  });

  it('appends the client to an earlier proxy list, with brackets for IPv6', () => {
    const headers = withForwardedHeaders(request({ 'x-forwarded-for': ['203.0.113.9'] }, '::1'));
    expect(headers['x-forwarded-for']).toEqual(['203.0.113.9, [::1]:50123']);
  });
});

describe('httpResponseLimit', () => {
  it("defaults to Azure's 230 s and takes a positive whole number of milliseconds", () => {
    expect(httpResponseLimit(undefined)).toBe(230_000);
    expect(httpResponseLimit(' ')).toBe(230_000);
    expect(httpResponseLimit('500')).toBe(500);
  });

  it.each(['0', '-1', '1.5', 'soon'])('refuses %p', (value) => {
    expect(() => httpResponseLimit(value)).toThrow(HostStartupError);
  });
});
