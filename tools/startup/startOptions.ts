/**
 * `npm start`'s command line: its options, its usage text, and the emulator ports (an option or
 * `EMULATOR_PORTS`). Pure, so `--help`, a typo and a bad port are tested without starting
 * anything; a mistake is one line and the usage, never a stack trace.
 */
import { parseArgs } from 'node:util';
import type { AzuritePorts } from '../azurite';
import { STANDARD_EMULATOR_PORTS } from '../host/launch';
import { DEFAULT_TARGETS_FACTOR } from '../targets/azureTargets';

/** What `npm start -- --help` prints. */
export const START_USAGE = `Usage: npm start [-- options]

Runs the function app locally: storage (Azurite in ./.azurite/ unless AzureWebJobsStorage names
an account), then \`func start\` when Azure Functions Core Tools are installed, else the local host.

Options:
  --port <n>                  HTTP port of the API (default 7071; also PORT)
  --emulator-ports <ports>    Azurite's blob,queue,table ports, or the first of three in a row
                              (default 10000,10001,10002; also EMULATOR_PORTS)
  --reuse-emulator            use an emulator already on those ports even if it is not this
                              checkout's own (its data is then shared)
  --functions <glob>          which built function files to load (default dist/functions/*.js)
  --listen <address>          address to listen on (default 127.0.0.1)
  --allowed-host <host>       an extra Host header to accept (repeatable)
  --trust-principal-headers   believe hand-sent principal headers off loopback
  --azure                     the app as deployed: Flex Consumption settings behind App Service
                              authentication (docs/azure-mode.md)
  --issuer-port <n>           port of Azure mode's token issuer
  --cpu-prof <dir>            write CPU profiles of the app and its Azurite there
  --targets [factor]          hold the emulator to Azure's scalability targets divided by factor
                              (default ${DEFAULT_TARGETS_FACTOR}): past them 503 ServerBusy (docs/targets.md)
  --verbose                   log every invocation's start and end (HOST_LOG_LEVEL=debug)
  -h, --help                  this text
`;

/** The parsed command line: run with these values, print the usage, or refuse with a reason. */
export type StartCommand =
  { kind: 'run'; options: StartOptions } | { kind: 'help' } | { kind: 'refused'; message: string };

/** What `npm start` runs with. */
export interface StartOptions {
  port?: string;
  emulatorPorts: AzuritePorts;
  reuseEmulator: boolean;
  functions?: string;
  listen?: string;
  allowedHosts?: string[];
  trustPrincipalHeaders: boolean;
  azure: boolean;
  issuerPort?: string;
  cpuProf?: string;
  verbose: boolean;
  /** Azure's targets divided by this factor, enforced in front of the emulator. */
  targetsFactor?: number;
}

/** Parses `npm start`'s arguments; never throws. */
export function parseStartCommand(
  args: readonly string[],
  env: Record<string, string | undefined>,
): StartCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: withTargetsFactor(args),
      options: {
        port: { type: 'string' },
        'emulator-ports': { type: 'string' },
        'reuse-emulator': { type: 'boolean' },
        functions: { type: 'string' },
        listen: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'trust-principal-headers': { type: 'boolean' },
        azure: { type: 'boolean' },
        'issuer-port': { type: 'string' },
        'cpu-prof': { type: 'string' },
        verbose: { type: 'boolean' },
        targets: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'refused', message: firstLine(error) };
  }
  if (values.help) return { kind: 'help' };
  const portsText = values['emulator-ports'] ?? env.EMULATOR_PORTS;
  const emulatorPorts =
    portsText === undefined ? { ...STANDARD_EMULATOR_PORTS } : parsePorts(portsText);
  if (typeof emulatorPorts === 'string') return { kind: 'refused', message: emulatorPorts };
  const factor = values.targets === undefined ? undefined : Number(values.targets);
  if (factor !== undefined && !(Number.isFinite(factor) && factor >= 1))
    return {
      kind: 'refused',
      message: `--targets wants a factor of 1 or more, got "${values.targets}".`,
    };
  return {
    kind: 'run',
    options: {
      port: values.port,
      emulatorPorts,
      reuseEmulator: values['reuse-emulator'] ?? false,
      functions: values.functions,
      listen: values.listen,
      allowedHosts: values['allowed-host'],
      trustPrincipalHeaders: values['trust-principal-headers'] ?? false,
      azure: values.azure ?? false,
      issuerPort: values['issuer-port'],
      cpuProf: values['cpu-prof'],
      verbose: values.verbose ?? false,
      ...(factor === undefined ? {} : { targetsFactor: factor }),
    },
  };
}

/** `--targets` with no factor after it takes the default one. */
function withTargetsFactor(args: readonly string[]): string[] {
  return args.map((arg, i) =>
    arg === '--targets' && (args[i + 1] === undefined || args[i + 1]!.startsWith('-'))
      ? `--targets=${DEFAULT_TARGETS_FACTOR}`
      : arg,
  );
}

/** `"20000"` (three ports from there) or `"20000,20001,20002"`; a reason when neither. */
function parsePorts(text: string): AzuritePorts | string {
  const parts = text.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  const valid = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65533;
  const wrong = `Emulator ports must be "BLOB,QUEUE,TABLE" or the first of three (1-65533), got "${text}".`;
  if (parts.some((p) => !/^\d+$/.test(p)) || !numbers.every(valid)) return wrong;
  if (numbers.length === 1) {
    const first = numbers[0]!;
    return { blob: first, queue: first + 1, table: first + 2 };
  }
  if (numbers.length !== 3 || new Set(numbers).size !== 3) return wrong;
  const [blob, queue, table] = numbers as [number, number, number];
  return { blob, queue, table };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Node's parseArgs errors may start with their class and code: the person needs neither.
  const line = message.split('\n')[0] ?? message;
  return line.replace(/^\w*Error \[ERR_[A-Z_]+\]: /, '');
}
