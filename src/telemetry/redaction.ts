/**
 * Personal data out of telemetry (pure). Dependency spans name the storage resources they touch,
 * and this app's keys are personal data: entity keys carry employee ids, emails (`email_…`), user
 * ids (login tables) and last names; blob names carry employee ids (`photos`) and last names
 * (`lastname-index`); `$filter` literals and continuation tokens carry keys too. Before a span is
 * exported, every string it carries (its name, attributes and event attributes) goes through
 * {@link redactText}: keys, blob names, filter literals, continuation keys, e-mail addresses and
 * secrets (SAS signatures, the host key of the Durable client's `code=`, account keys of
 * connection strings, bearer tokens) become {@link REDACTED}. What stays is what an operator
 * needs to read a dependency: the account, the table, container or queue, the operation, the
 * status.
 *
 * Wired where telemetry starts (functions/shared/spanRedaction.ts); docs/telemetry.md.
 */

/** What a redacted key, blob name or address reads as. */
export const REDACTED = 'redacted';

/** Query parameters whose values are keys or names (the others are operations and flags). */
const KEY_PARAMETERS = new Set([
  'nextpartitionkey',
  'nextrowkey',
  'prefix',
  'marker',
  'startpk',
  'endpk',
  'startrk',
  'endrk',
  'spk',
  'epk',
  'srk',
  'erk',
]);

/**
 * Query parameters and connection-string fields whose values are credentials: a SAS signature,
 * a Functions key (the Durable client's URLs carry the host key as `code=`), account and access
 * keys, tokens, passwords. Compared lower-case; redacted in URLs and in any text.
 */
const SECRET_PARAMETERS = [
  'sig',
  'code',
  'x-functions-key',
  'accountkey',
  'sharedaccesskey',
  'sharedaccesssignature',
  'access_token',
  'id_token',
  'refresh_token',
  'client_secret',
  'api-key',
  'apikey',
  'password',
  'pwd',
];
const SECRET_NAMES = new Set(SECRET_PARAMETERS);

/**
 * A secret as `name=value` in any text (a query string, a connection string): the name at the
 * start or after `?`, `&` or `;` (not after a space: `exit code=1` is prose), the value up to the
 * next separator.
 */
const SECRET_IN_TEXT = new RegExp(
  `(^|[?&;])(${SECRET_PARAMETERS.map((name) => name.replace(/[-_]/g, '[-_]')).join('|')})=([^&;\\s'"]+)`,
  'gi',
);

/** An HTTP credential in a header's form: `Bearer <token>`, `SharedKey <account>:<signature>`. */
const CREDENTIAL_HEADER = /\b(Bearer|SharedKey(?:Lite)?)\s+[A-Za-z0-9\-._~+/:=]+/g;

/** A host that names the account (`<account>.blob.core.windows.net`): no account in the path. */
const ACCOUNT_HOST = /^[^.]+\.(?:blob|table|queue|dfs|file)\./i;

/** An entity or table path segment: `Employees(PartitionKey='…',RowKey='…')`, `Tables('x')`. */
const KEYED_SEGMENT = /^([^(]*)\((.*)\)$/s;

/**
 * A quoted OData literal (`'…'`, with `''` for a quote inside), optionally typed (`datetime'…'`).
 */
const ODATA_LITERAL = /'(?:[^']|'')*'/g;

/** An e-mail address, plain or percent-encoded (`%40`). */
const EMAIL = /[^\s'"/\\()<>,;:=&?@%]+(?:@|%40)[^\s'"/\\()<>,;:=&?@%]+\.[A-Za-z]{2,}/g;

/** A URL inside a longer text. */
const URL_IN_TEXT = /https?:\/\/[^\s"'<>]+/g;

/**
 * The text with every storage key, blob name, filter literal, continuation key, e-mail address and
 * secret it contains redacted: URLs (whole, or a path with its query), entity keys in any message
 * (`PartitionKey='…'`), secrets as `name=value` or as an `Authorization` value anywhere
 * ({@link SECRET_PARAMETERS}), and addresses anywhere.
 */
export function redactText(text: string): string {
  let out = text.replace(URL_IN_TEXT, (url) => redactUrl(url));
  if (out.startsWith('/')) out = redactPathAndQuery(out, false);
  out = out
    .replace(
      /((?:Partition|Row)Key\s*(?:eq|ne|gt|ge|lt|le|=)\s*)'(?:[^']|'')*'/g,
      `$1'${REDACTED}'`,
    )
    .replace(/((?:Partition|Row)Key=)'(?:[^']|'')*'/g, `$1'${REDACTED}'`)
    .replace(SECRET_IN_TEXT, `$1$2=${REDACTED}`)
    .replace(CREDENTIAL_HEADER, `$1 ${REDACTED}`);
  return out.replace(EMAIL, REDACTED);
}

/**
 * A storage URL with its keys and names redacted: the account and the table, container or queue
 * stay; entity keys, blob names and key-bearing query values do not. Anything that is not a URL
 * is returned through {@link redactText}'s other rules.
 */
function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(EMAIL, REDACTED);
  }
  const accountInPath = !ACCOUNT_HOST.test(parsed.hostname);
  const origin = `${parsed.protocol}//${parsed.host}`;
  return origin + redactPathAndQuery(`${parsed.pathname}${parsed.search}`, accountInPath);
}

/**
 * A path (and query) of a storage request with keys and names redacted. `accountInPath`: the
 * first segment is the account (emulators, path-style URLs), so the resource is the second; else
 * (or when the caller cannot tell) only the first segment is kept as it is.
 */
function redactPathAndQuery(pathAndQuery: string, accountInPath: boolean): string {
  const at = pathAndQuery.indexOf('?');
  const path = at === -1 ? pathAndQuery : pathAndQuery.slice(0, at);
  const query = at === -1 ? '' : pathAndQuery.slice(at + 1);
  const segments = path.split('/').slice(1);
  // The segments kept as they are: the account (if in the path) and the resource.
  const kept = accountInPath ? 2 : 1;
  const out: string[] = [];
  for (const [i, segment] of segments.entries()) {
    const keyed = KEYED_SEGMENT.exec(safeDecode(segment));
    if (keyed) {
      out.push(`${keyed[1]}(${redactLiterals(keyed[2] ?? '')})`);
    } else if (i < kept || segment === 'messages' || segment === '') {
      out.push(segment);
    } else if (i > 0 && segments[i - 1] === 'messages') {
      out.push(segment); // a queue message's id (a GUID the service assigned)
    } else {
      // A blob name (all of its segments), or a name this cannot place: one placeholder.
      if (out.at(-1) !== REDACTED) out.push(REDACTED);
    }
  }
  const redactedPath = `/${out.join('/')}`;
  return query === '' ? redactedPath : `${redactedPath}?${redactQuery(query)}`;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = pair.slice(0, eq);
      const lower = safeDecode(name).toLowerCase();
      if (KEY_PARAMETERS.has(lower) || SECRET_NAMES.has(lower)) return `${name}=${REDACTED}`;
      if (lower === '$filter') {
        const filter = safeDecode(pair.slice(eq + 1).replaceAll('+', ' '));
        return `${name}=${encodeURIComponent(redactLiterals(filter))}`;
      }
      return pair.replace(EMAIL, REDACTED);
    })
    .join('&');
}

/** Every quoted literal of an OData filter or key list redacted (`'…'` → `'redacted'`). */
function redactLiterals(text: string): string {
  return text.replace(ODATA_LITERAL, `'${REDACTED}'`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
