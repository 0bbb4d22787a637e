/**
 * `npm start`'s command line: `--help` prints every option, a mistake is one line (the launcher
 * adds the usage and exits 2), and the emulator's ports come from an option or EMULATOR_PORTS.
 */
import { parseStartCommand, START_USAGE } from '../../../../tools/startup/startOptions';

describe('npm start options', () => {
  test('--help and -h ask for the usage, which names every option', () => {
    expect(parseStartCommand(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseStartCommand(['-h'], {})).toEqual({ kind: 'help' });
    for (const option of [
      '--port',
      '--emulator-ports',
      '--reuse-emulator',
      '--functions',
      '--listen',
      '--allowed-host',
      '--trust-principal-headers',
      '--azure',
      '--issuer-port',
      '--cpu-prof',
      '--verbose',
      '--targets',
      '--help',
    ]) {
      expect(START_USAGE).toContain(option);
    }
  });

  test('an unknown option or a stray word is refused in one line', () => {
    for (const args of [['--bogus'], ['start'], ['--port']]) {
      const command = parseStartCommand(args, {});
      expect(command.kind).toBe('refused');
      if (command.kind === 'refused') expect(command.message).not.toContain('\n');
    }
    expect(parseStartCommand(['--bogus'], {})).toMatchObject({
      message: /^Unknown option '--bogus'/,
    });
    expect(parseStartCommand(['--emulator-ports', '-5'], {})).toMatchObject({ kind: 'refused' });
  });

  test('emulator ports: the standard ones, a first port, three ports, or the environment', () => {
    const ports = (args: string[], env: Record<string, string> = {}) => {
      const command = parseStartCommand(args, env);
      return command.kind === 'run' ? command.options.emulatorPorts : command;
    };
    expect(ports([])).toEqual({ blob: 10000, queue: 10001, table: 10002 });
    expect(ports(['--emulator-ports', '20000'])).toEqual({
      blob: 20000,
      queue: 20001,
      table: 20002,
    });
    expect(ports(['--emulator-ports', '1,5,3'])).toEqual({ blob: 1, queue: 5, table: 3 });
    expect(ports([], { EMULATOR_PORTS: '30000' })).toEqual({
      blob: 30000,
      queue: 30001,
      table: 30002,
    });
    // The option wins over the environment.
    expect(ports(['--emulator-ports', '20000'], { EMULATOR_PORTS: '30000' })).toMatchObject({
      blob: 20000,
    });
    for (const bad of ['x', '70000', '1,2', '1,1,2', '0', '65534']) {
      expect(ports(['--emulator-ports', bad])).toMatchObject({
        kind: 'refused',
        message: expect.stringContaining('Emulator ports') as unknown,
      });
    }
  });

  test('--verbose and --reuse-emulator are off unless given', () => {
    const command = parseStartCommand(['--verbose'], {});
    expect(command).toMatchObject({ options: { verbose: true, reuseEmulator: false } });
  });

  test('--targets takes a factor, or the default one when none follows', () => {
    const factor = (args: string[]) => {
      const command = parseStartCommand(args, {});
      return command.kind === 'run' ? command.options.targetsFactor : command;
    };
    expect(factor([])).toBeUndefined();
    expect(factor(['--targets'])).toBe(100);
    expect(factor(['--targets', '--verbose'])).toBe(100);
    expect(factor(['--targets', '20'])).toBe(20);
    expect(factor(['--targets=0.5'])).toMatchObject({ kind: 'refused' });
    expect(factor(['--targets', 'x'])).toMatchObject({ kind: 'refused' });
  });
});
