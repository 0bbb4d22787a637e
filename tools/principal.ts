/**
 * Prints an `x-ms-client-principal` header value for local calls (`npm start`, `func start`),
 * where no App Service authentication stands in front of the app and the header is sent by hand.
 * In Azure with authentication on, the platform replaces whatever a client sends.
 *
 *   npm run -s principal -- --role DirectoryAdmin
 *   npm run -s principal -- --role DirectoryReader:Sales --role TelemetryWriter
 *   npm run -s principal -- --employee Sales/000123
 *   curl -H "x-ms-client-principal: $(npm run -s principal -- --role DirectoryAdmin)" \
 *     http://localhost:7071/api/departments
 */
import { parseArgs } from 'node:util';
import { encodePrincipalHeader, type PrincipalDescription } from '../src/identity/principal';

const USAGE =
  'usage: principal [--role ROLE]... [--employee DEPARTMENT/EMPLOYEEID] [--user USERID] [--name NAME]';

/**
 * Reads the command line into a principal.
 *
 * @throws {Error} with the usage for unknown options or an `--employee` without `/`.
 */
export function parsePrincipalArgs(args: string[]): PrincipalDescription {
  const { values } = parseArgs({
    args,
    options: {
      role: { type: 'string', multiple: true },
      employee: { type: 'string' },
      user: { type: 'string' },
      name: { type: 'string' },
    },
    strict: true,
  });
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
    userId,
    name: values.name ?? userId,
    roles: values.role ?? [],
    ...(employee ? { employee } : {}),
  };
}

if (require.main === module) {
  try {
    process.stdout.write(`${encodePrincipalHeader(parsePrincipalArgs(process.argv.slice(2)))}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}
