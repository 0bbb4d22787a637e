/**
 * `npm start` probes an emulator it would reuse with one SDK call per service: an Azurite started
 * without `--skipApiVersionCheck` is recognised (the pinned SDKs' API version is refused), and
 * the message says so plainly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import {
  azuriteConnectionString,
  freePort,
  isApiVersionRefusal,
  isListening,
  probeEmulator,
  type AzuritePorts,
} from '../../../tools/azurite';
import { refusedEmulatorMessage } from '../../../tools/host/launch';
import { azuriteConnectionString as sharedAzurite } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';

describe('emulator probe', () => {
  it('accepts the Azurite the project starts (with its flags)', async () => {
    expect(await probeEmulator(sharedAzurite())).toEqual({ kind: 'ok' });
  });

  describe('an Azurite started without --skipApiVersionCheck', () => {
    let child: ChildProcess;
    let ports: AzuritePorts;

    beforeAll(async () => {
      ports = { blob: await freePort(), queue: await freePort(), table: await freePort() };
      child = spawn(
        process.execPath,
        [
          require.resolve('azurite/dist/src/azurite.js'),
          '--blobPort',
          String(ports.blob),
          '--queuePort',
          String(ports.queue),
          '--tablePort',
          String(ports.table),
          '--inMemoryPersistence',
          '--disableTelemetry',
          '--silent',
        ],
        { stdio: 'ignore' },
      );
      const deadline = Date.now() + WAIT_MS;
      while (!(await isListening(ports.table)) || !(await isListening(ports.queue))) {
        if (Date.now() > deadline) throw new Error('Azurite did not start');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });

    afterAll(() => {
      child.kill('SIGKILL');
    });

    it('refuses an API version it does not know, which the probe reads as such, saying what to do', async () => {
      // Azurite 3.37 knows the API versions the pinned SDKs send, so they pass even without the
      // flag; SDKs newer than the emulator send one it does not know, as this request does.
      const response = await fetch(`http://127.0.0.1:${ports.blob}/devstoreaccount1?comp=list`, {
        headers: { 'x-ms-version': '2099-01-01' },
      });
      expect(response.status).toBe(400);
      const body = await response.text();
      const refusal = {
        code: /<Code>([^<]*)<\/Code>/.exec(body)?.[1],
        message: /<Message>([^<]*)/.exec(body)?.[1] ?? body,
      };
      expect(refusal.message).toMatch(/API version .* is not supported/);
      expect(isApiVersionRefusal(refusal)).toBe(true);
      const message = refusedEmulatorMessage({
        kind: 'apiVersionRefused',
        service: 'blob',
        message: refusal.message,
      });
      expect(message).toContain('refuses the API version');
      expect(message).toContain('--skipApiVersionCheck');
      expect(message).toContain('npm run azurite');
    });
  });

  describe('something else listening', () => {
    let server: Server;
    let port: number;

    beforeAll(async () => {
      server = createServer((_request, response) => {
        response.writeHead(404, { 'content-type': 'text/html' });
        response.end('<html>not storage</html>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });

    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('is reported as not a storage emulator', async () => {
      const probe = await probeEmulator(
        azuriteConnectionString({ blob: port, queue: port, table: port }),
      );
      expect(probe.kind).toBe('failed');
      if (probe.kind === 'ok') throw new Error('unreachable');
      expect(refusedEmulatorMessage(probe)).toContain('does not answer like a storage emulator');
    });
  });
});
