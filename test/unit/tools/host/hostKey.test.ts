/** Who may reach the host's own endpoints (tools/host/http/hostKey.ts), with awkward input. */
import {
  FRONT_SECRET_HEADER,
  hostAccessRefusal,
  isHostEndpoint,
  newSecret,
} from '../../../../tools/host/http/hostKey';
import { hostAccessFor } from '../../../../tools/host/launch';

const key = newSecret();
const frontSecret = newSecret();
const none = new URLSearchParams();

it.each([
  '/admin',
  '/admin/host/status',
  '/ADMIN/functions/x',
  '/runtime/webhooks/durabletask',
  '/runtime/webhooks/durabletask/instances/',
  '/Runtime/Webhooks/DurableTask/instances',
  '/api/../admin/host/status',
  '/x/../runtime/webhooks/durabletask/orchestrators/A',
  '/runtime/webhooks/durabletask/./instances',
])('%s is a host endpoint', (path) => {
  expect(isHostEndpoint(path)).toBe(true);
});

it.each(['/api/admin', '/api/departments', '/administrator', '/runtime/webhooks/other'])(
  '%s is not',
  (path) => {
    expect(isHostEndpoint(path)).toBe(false);
  },
);

it('wants the key on host endpoints, in the header or as code=, and nothing else will do', () => {
  const path = '/admin/host/status';
  expect(hostAccessRefusal({ key }, path, none, {})?.status).toBe(401);
  expect(hostAccessRefusal({ key }, path, none, { 'x-functions-key': `${key}x` })?.code).toBe(
    'HostKeyRequired',
  );
  expect(hostAccessRefusal({ key }, path, none, { 'x-functions-key': key })).toBeUndefined();
  expect(hostAccessRefusal({ key }, path, new URLSearchParams({ code: key }), {})).toBeUndefined();
  // Without a key (loopback) the host's endpoints answer anyone who reaches the host.
  expect(hostAccessRefusal({}, path, none, {})).toBeUndefined();
});

it('behind a front: everything wants its secret, except a host endpoint with the key', () => {
  const access = { key, frontSecret };
  expect(hostAccessRefusal(access, '/api/health', none, {})?.code).toBe('NotThroughFront');
  expect(
    hostAccessRefusal(access, '/api/health', none, { [FRONT_SECRET_HEADER]: 'x' })?.status,
  ).toBe(403);
  expect(
    hostAccessRefusal(access, '/api/health', none, { [FRONT_SECRET_HEADER]: frontSecret }),
  ).toBeUndefined();
  // The app's Durable client calls the host directly, with the key.
  expect(
    hostAccessRefusal(access, '/runtime/webhooks/durabletask/instances/1', none, {
      'x-functions-key': key,
    }),
  ).toBeUndefined();
  // Through the front, the host endpoints still want the key.
  expect(
    hostAccessRefusal(access, '/admin/host/status', none, { [FRONT_SECRET_HEADER]: frontSecret })
      ?.status,
  ).toBe(401);
});

it.each([
  [undefined, false],
  ['127.0.0.1', false],
  ['localhost', false],
  ['::1', false],
  ['0.0.0.0', true],
  ['192.168.1.20', true],
  ['127.example.com', true],
])('listening on %s: a key %s', (listenAddress, keyed) => {
  const { access, line } = hostAccessFor({ listenAddress });
  expect(access.key !== undefined).toBe(keyed);
  expect(line !== undefined).toBe(keyed);
  if (keyed) expect(line).toContain(access.key);
});

it('behind the Azure-mode front: a key even on loopback, and the secret', () => {
  const { access } = hostAccessFor({ listenAddress: '127.0.0.1', frontSecret });
  expect(access).toEqual({ key: expect.any(String), frontSecret });
});
