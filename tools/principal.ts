/**
 * Prints an `x-ms-client-principal` header value for local calls (`npm start`, `func start`),
 * where no App Service authentication stands in front of the app and the header is sent by hand.
 * In Azure with authentication on, the platform replaces whatever a client sends.
 *
 *   npm run -s principal -- --role DirectoryAdmin
 *   npm run -s principal -- --role DirectoryReader:Sales --role TelemetryWriter
 *   npm run -s principal -- --employee Sales/000123
 *
 * With `--azure` (behind the imitation of App Service authentication, where hand-sent headers are
 * stripped) it prints a bearer access token instead, signed by that run's test issuer
 * (`--issuer`, default http://127.0.0.1:7072): docs/azure-mode.md "Run it".
 */
import { parseArgs } from 'node:util';
import { encodePrincipalHeader, type PrincipalDescription } from './easyauth/principalHeader';
import { DEFAULT_ISSUER_PORT } from './easyauth/launch';
import { claimsForPrincipal } from './easyauth/tokenClaims';

const USAGE =
  'usage: principal [--role ROLE]... [--employee DEPARTMENT/EMPLOYEEID] [--user USERID] [--name NAME]\n' +
  '                 [--azure [--issuer URL]]';

/** What to print: the principal, as a header value or (Azure mode) as a token of this issuer. */
export interface PrincipalCommand {
  principal: PrincipalDescription;
  /** Set with `--azure`: the test issuer to ask for a token. */
  issuer?: string;
}

/**
 * Reads the command line into a principal.
 *
 * @throws {Error} with the usage for unknown options or an `--employee` without `/`.
 */
export function parsePrincipalArgs(args: string[]): PrincipalDescription {
  return parsePrincipalCommand(args).principal;
}

/**
 * Reads the command line: the principal, and with `--azure` the issuer to ask for a token.
 *
 * @throws {Error} with the usage for unknown options, an `--employee` without `/`, or `--issuer`
 *   without `--azure`.
 */
export function parsePrincipalCommand(args: string[]): PrincipalCommand {
  const { values } = parseArgs({
    args,
    options: {
      role: { type: 'string', multiple: true },
      employee: { type: 'string' },
      user: { type: 'string' },
      name: { type: 'string' },
      azure: { type: 'boolean' },
      issuer: { type: 'string' },
    },
    strict: true,
  });
  if (values.issuer !== undefined && !values.azure) {
    throw new Error(`--issuer goes with --azure\n${USAGE}`);
  }
  let employee: PrincipalDescription['employee'];
  if (values.employee !== undefined) {
    const slash = values.employee.lastIndexOf('/');
    if (slash <= 0 || slash === values.employee.length - 1) {
      throw new Error(`--employee takes DEPARTMENT/EMPLOYEEID, e.g. Sales/000123\n${USAGE}`);
    }
    employee = {
      department: values.employee.slice(0, slash),
      employeeId: values.employee.slice(slash + 1),
    };
  }
  const userId =
    values.user ??
    (employee ? `${employee.department}/${employee.employeeId}` : (values.role?.[0] ?? 'local'));
  return {
    principal: {
      userId,
      name: values.name ?? userId,
      roles: values.role ?? [],
      ...(employee ? { employee } : {}),
    },
    ...(values.azure ? { issuer: values.issuer ?? `http://127.0.0.1:${DEFAULT_ISSUER_PORT}` } : {}),
  };
}

/**
 * Asks the Azure-mode test issuer (`POST /dev/token`) for an access token with the claims that
 * make the front hand the app `principal`.
 *
 * @throws {Error} when the issuer cannot be reached (is `npm start -- --azure` running?).
 */
async function tokenFromIssuer(issuer: string, principal: PrincipalDescription): Promise<string> {
  const url = `${issuer.replace(/\/+$/, '')}/dev/token`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ claims: claimsForPrincipal(principal) }),
    });
  } catch {
    throw new Error(`No test issuer answers at ${issuer}: is "npm start -- --azure" running?`);
  }
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

if (require.main === module) {
  const fail = (error: unknown): never => {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  };
  try {
    const command = parsePrincipalCommand(process.argv.slice(2));
    if (command.issuer === undefined) {
      process.stdout.write(`${encodePrincipalHeader(command.principal)}\n`);
    } else {
      tokenFromIssuer(command.issuer, command.principal).then(
        (token) => process.stdout.write(`${token}\n`),
        fail,
      );
    }
  } catch (error) {
    fail(error);
  }
}
