import { storageErrorResponse } from '../../../../tools/faultProxy/errorResponses';
import {
  entitiesInTableAnswer,
  requestHeadBytes,
  responseHeadBytes,
  toRawHeaders,
  TrafficCounter,
} from '../../../../tools/faultProxy/trafficCounter';

const at = new Date('2026-11-22T10:00:00.000Z');

describe('synthetic storage errors', () => {
  it('answers a table request with an OData JSON error and the code in x-ms-error-code', () => {
    const response = storageErrorResponse('table', 503, { now: at, requestId: 'r-1' });
    expect(response.status).toBe(503);
    expect(response.headers['x-ms-error-code']).toBe('ServerBusy');
    expect(response.headers['content-type']).toMatch(/^application\/json;odata=minimalmetadata/);
    const body = JSON.parse(response.body) as {
      'odata.error': { code: string; message: { value: string } };
    };
    expect(body['odata.error'].code).toBe('ServerBusy');
    expect(body['odata.error'].message.value).toContain('RequestId:r-1');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body)));
  });

  it.each(['blob', 'queue'] as const)('answers a %s request with an XML <Error>', (service) => {
    const response = storageErrorResponse(service, 500, { now: at });
    expect(response.headers['x-ms-error-code']).toBe('InternalError');
    expect(response.headers['content-type']).toBe('application/xml');
    expect(response.body).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?><Error><Code>InternalError<\/Code><Message>/,
    );
  });

  it('adds Retry-After only when asked', () => {
    expect(storageErrorResponse('blob', 503).headers['retry-after']).toBeUndefined();
    expect(storageErrorResponse('blob', 503, { retryAfterSeconds: 1 }).headers['retry-after']).toBe(
      '1',
    );
  });
});

describe('traffic counter', () => {
  it('counts requests per service and method, bytes, faults and statuses', () => {
    const counter = new TrafficCounter();
    counter.request('table', 'post', 100);
    counter.request('table', 'POST', 50);
    counter.request('blob', 'PUT', 10);
    counter.sent(5);
    counter.received(7);
    counter.status(201);
    counter.status(201);
    counter.fault('503');
    expect(counter.snapshot()).toEqual({
      requests: 3,
      byKind: { 'table:POST': 2, 'blob:PUT': 1 },
      bytesSent: 165,
      bytesReceived: 7,
      entitiesRead: 0,
      faultsInjected: 1,
      byFault: { '503': 1 },
      byStatus: { '201': 2 },
    });
  });

  it('hands out copies and starts again from zero after a reset', () => {
    const counter = new TrafficCounter();
    counter.request('queue', 'GET', 1);
    const before = counter.snapshot();
    before.byKind['queue:GET'] = 99;
    expect(counter.snapshot().byKind['queue:GET']).toBe(1);
    counter.reset();
    expect(counter.snapshot().requests).toBe(0);
    expect(counter.snapshot().byKind).toEqual({});
  });

  it('sizes header blocks as they go on the wire', () => {
    // "GET /a HTTP/1.1\r\n" (17) + "Host: x\r\n" (9) + "\r\n" (2)
    expect(requestHeadBytes('GET', '/a', ['Host', 'x'])).toBe(28);
    // "HTTP/1.1 204 No Content\r\n" (25) + "\r\n" (2)
    expect(responseHeadBytes(204, 'No Content', [])).toBe(27);
    expect(toRawHeaders({ a: '1', b: '2' })).toEqual(['a', '1', 'b', '2']);
  });
});

describe('entities in a table read answer', () => {
  it('counts the entities of a query page and one for a point read', () => {
    const entity = { PartitionKey: 'Sales', RowKey: 'empid_000001', 'odata.etag': 'W/"1"' };
    expect(entitiesInTableAnswer(JSON.stringify({ value: [entity, entity, entity] }))).toBe(3);
    expect(entitiesInTableAnswer(JSON.stringify({ value: [] }))).toBe(0);
    expect(entitiesInTableAnswer(JSON.stringify(entity))).toBe(1);
  });

  it('counts nothing for table listings, errors and bodies that are not JSON', () => {
    expect(entitiesInTableAnswer(JSON.stringify({ value: [{ TableName: 'Employees' }] }))).toBe(0);
    expect(entitiesInTableAnswer(JSON.stringify({ 'odata.error': { code: 'X' } }))).toBe(0);
    expect(entitiesInTableAnswer('')).toBe(0);
    expect(entitiesInTableAnswer('null')).toBe(0);
    expect(entitiesInTableAnswer('<xml/>')).toBe(0);
  });
});
