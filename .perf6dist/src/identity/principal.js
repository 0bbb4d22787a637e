"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PRINCIPAL_HEADER = void 0;
exports.parsePrincipalHeader = parsePrincipalHeader;
exports.encodePrincipalHeader = encodePrincipalHeader;
/**
 * The caller's identity as Azure App Service authentication ("Easy Auth") hands it to the app:
 * the `x-ms-client-principal` request header, base64 of a JSON object
 * `{auth_typ, name_typ, role_typ, claims: [{typ, val}]}`.
 *
 * The platform sets this header after it has validated the caller's token and strips any copy a
 * client sent, so it can be trusted only when App Service authentication is switched on for the
 * app (see docs/sas.md). Locally the same header is sent by hand.
 */
const errors_1 = require("../errors");
/** Name of the request header that carries the principal. */
exports.PRINCIPAL_HEADER = 'x-ms-client-principal';
/** Claim types that carry an app role (Entra ID app roles arrive as `roles` claims). */
const ROLE_CLAIM = 'roles';
/** Claim types that carry the employee id (a directory extension attribute or a plain claim). */
const EMPLOYEE_ID_CLAIMS = ['employeeId', 'extension_employeeId'];
/** Claim types that identify the user, most stable first. */
const USER_ID_CLAIMS = [
    'http://schemas.microsoft.com/identity/claims/objectidentifier',
    'oid',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier',
    'sub',
];
const DEFAULT_NAME_CLAIM = 'name';
/** A real principal is a few KiB; anything far larger is not one. */
const MAX_HEADER_LENGTH = 32 * 1024;
function malformed(reason) {
    return new errors_1.UnauthenticatedError(`The ${exports.PRINCIPAL_HEADER} header is not a valid App Service principal (${reason}).`, 'InvalidPrincipal');
}
function optionalString(value, field) {
    if (value === undefined || value === null)
        return undefined;
    if (typeof value !== 'string')
        throw malformed(`${field} is not a string`);
    return value;
}
function readClaims(value) {
    if (value === undefined || value === null)
        return [];
    if (!Array.isArray(value))
        throw malformed('claims is not an array');
    return value.map((claim, index) => {
        const c = claim;
        if (c === null ||
            typeof c !== 'object' ||
            typeof c.typ !== 'string' ||
            typeof c.val !== 'string') {
            throw malformed(`claims[${index}] is not {typ, val} strings`);
        }
        return { typ: c.typ, val: c.val };
    });
}
/**
 * Decodes the `x-ms-client-principal` header.
 *
 * Roles are the claims whose type is `roles` or the principal's own `role_typ`; the employee id
 * is the `employeeId` (or `extension_employeeId`) claim. A top-level `userId` (the shape Static
 * Web Apps uses) is honoured as the user id.
 *
 * @throws {UnauthenticatedError} `Unauthenticated` when the header is absent or empty;
 *   `InvalidPrincipal` when it is not base64 JSON of the expected shape or names nobody.
 */
function parsePrincipalHeader(header) {
    const raw = header?.trim();
    if (!raw)
        throw new errors_1.UnauthenticatedError();
    if (raw.length > MAX_HEADER_LENGTH)
        throw malformed('header too long');
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw))
        throw malformed('not base64');
    let parsed;
    try {
        parsed = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
    }
    catch {
        throw malformed('not JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw malformed('not a JSON object');
    }
    const body = parsed;
    const claims = readClaims(body.claims);
    const roleType = optionalString(body.role_typ, 'role_typ');
    const nameType = optionalString(body.name_typ, 'name_typ') ?? DEFAULT_NAME_CLAIM;
    const first = (types) => claims.find((c) => types.includes(c.typ) && c.val.trim() !== '')?.val.trim();
    const userId = optionalString(body.userId, 'userId')?.trim() || first(USER_ID_CLAIMS);
    const name = first([nameType, DEFAULT_NAME_CLAIM]);
    if (!userId && !name)
        throw malformed('it names no user');
    const roles = new Set(claims
        .filter((c) => c.typ === ROLE_CLAIM || (roleType !== undefined && c.typ === roleType))
        .map((c) => c.val.trim())
        .filter((role) => role !== ''));
    return {
        userId,
        name,
        identityProvider: optionalString(body.auth_typ, 'auth_typ'),
        roles,
        employeeId: first(EMPLOYEE_ID_CLAIMS),
        claims,
    };
}
/**
 * Encodes a principal the way App Service does (tests, local clients, scripts).
 *
 * @param principal - who the caller is; roles become `roles` claims.
 */
function encodePrincipalHeader(principal) {
    const claims = [...(principal.claims ?? [])];
    if (principal.userId !== undefined) {
        claims.push({
            typ: 'http://schemas.microsoft.com/identity/claims/objectidentifier',
            val: principal.userId,
        });
    }
    if (principal.name !== undefined)
        claims.push({ typ: 'name', val: principal.name });
    if (principal.employeeId !== undefined)
        claims.push({ typ: 'employeeId', val: principal.employeeId });
    for (const role of principal.roles ?? [])
        claims.push({ typ: ROLE_CLAIM, val: role });
    const body = {
        auth_typ: 'aad',
        name_typ: 'name',
        role_typ: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role',
        claims,
    };
    return Buffer.from(JSON.stringify(body), 'utf8').toString('base64');
}
//# sourceMappingURL=principal.js.map