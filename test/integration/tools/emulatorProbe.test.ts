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
  isListening,
  probeEmulator,
  type AzuritePorts,
} from '../../../tools/azurite';
import { refusedEmulatorMessage } from '../../../tools/host/launch';
import { azuriteConnectionString as sharedAzurite } from '../../support/storage';

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
      const deadline = Date.now() + 30_000;
      while (!(await isListening(ports.table)) || !(await isListening(ports.queue))) {
        if (Date.now() > deadline) throw new Error('Azurite did not start');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });

    afterAll(() => {
      child.kill('SIGKILL');
    });

    it('is recognised as refusing the SDKs API version, and the message says what to do', async () => {
      const probe = await probeEmulator(azuriteConnectionString(ports));
      expect(probe).toMatchObject({ kind: 'apiVersionRefused', service: 'blob' });
      if (probe.kind === 'ok') throw new Error('unreachable');
      expect(probe.message).toMatch(/API version .* is not supported/);
      const message = refusedEmulatorMessage(probe);
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
