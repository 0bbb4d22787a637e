"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_REQUEST_BODY_BYTES = void 0;
exports.createHostServer = createHostServer;
/**
 * The host's HTTP server: functions under `/<routePrefix>/`, and a small part of the Functions
 * host's admin API under `/admin/` (`GET /admin/host/status`, `GET /admin/functions`,
 * `POST /admin/functions/{name}` to run a non-HTTP function once). Like Core Tools, nothing is
 * key-protected locally.
 */
const node_http_1 = __importDefault(require("node:http"));
const log_1 = require("../log");
const respond_1 = require("./respond");
/** The Functions host's request size limit. */
exports.MAX_REQUEST_BODY_BYTES = 100 * 1024 * 1024;
class BodyTooLargeError extends Error {
}
function readBody(request, limit) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        request.on('data', (chunk) => {
            size += chunk.length;
            if (size > limit) {
                reject(new BodyTooLargeError());
                request.resume();
                return;
            }
            chunks.push(chunk);
        });
        request.on('end', () => resolve(Buffer.concat(chunks)));
        request.on('error', reject);
    });
}
async function handleAdmin(admin, request, response, pathname, body) {
    const method = request.method ?? 'GET';
    if (pathname === '/admin/host/status' && method === 'GET') {
        (0, respond_1.sendJson)(response, 200, admin.status());
        return;
    }
    if (pathname === '/admin/functions' && method === 'GET') {
        (0, respond_1.sendJson)(response, 200, admin.functions());
        return;
    }
    const invoke = /^\/admin\/functions\/([^/]+)$/.exec(pathname);
    if (invoke && method === 'POST') {
        let input = '';
        if (body.length > 0) {
            let parsed;
            try {
                parsed = JSON.parse(body.toString('utf8'));
            }
            catch {
                (0, respond_1.sendJson)(response, 400, (0, respond_1.errorJson)('InvalidJson', 'The request body must be JSON: {"input": "..."}.'));
                return;
            }
            const value = parsed?.input;
            input =
                value === undefined || value === null
                    ? ''
                    : typeof value === 'string'
                        ? value
                        : JSON.stringify(value);
        }
        const refused = admin.invoke(decodeURIComponent(invoke[1]), input);
        if (refused)
            (0, respond_1.sendJson)(response, refused.status, (0, respond_1.errorJson)(refused.code, refused.message));
        else {
            response.writeHead(202, { 'content-length': '0' });
            response.end();
        }
        return;
    }
    (0, respond_1.sendJson)(response, 404, (0, respond_1.errorJson)('NotFound', `No admin API at ${method} ${pathname}.`));
}
/** The origin the client used (the host builds the function's URL from the Host header). */
function requestOrigin(request, fallback) {
    const host = request.headers.host;
    if (!host)
        return fallback;
    try {
        return new URL(`http://${host}`).origin;
    }
    catch {
        return fallback;
    }
}
function createHostServer(options) {
    const { routePrefix, httpDriver, admin, logger, drivers } = options;
    const prefix = routePrefix ? `/${routePrefix.toLowerCase()}` : '';
    let origin = 'http://127.0.0.1';
    let closing = false;
    const active = new Set();
    const serve = async (request, response) => {
        if (closing)
            response.setHeader('connection', 'close');
        const pathname = (request.url ?? '/').split('?')[0];
        let body;
        try {
            body = await readBody(request, exports.MAX_REQUEST_BODY_BYTES);
        }
        catch (error) {
            if (error instanceof BodyTooLargeError) {
                (0, respond_1.sendJson)(response, 413, (0, respond_1.errorJson)('RequestTooLarge', `The request body is over ${exports.MAX_REQUEST_BODY_BYTES} bytes.`));
            }
            else
                response.destroy();
            return;
        }
        if (pathname === '/admin' || pathname.startsWith('/admin/')) {
            await handleAdmin(admin, request, response, pathname, body);
            return;
        }
        const clientOrigin = requestOrigin(request, origin);
        for (const driver of drivers) {
            if (await driver.serveHttp?.({ request, response, pathname, body, origin: clientOrigin }))
                return;
        }
        const lower = pathname.toLowerCase();
        let below;
        if (prefix === '')
            below = pathname;
        else if (lower === prefix || lower.startsWith(`${prefix}/`))
            below = pathname.slice(prefix.length);
        if (below === undefined) {
            (0, respond_1.sendJson)(response, 404, (0, respond_1.errorJson)('NotFound', `No function matches ${request.method} ${pathname}; functions are served under ${prefix || '/'}.`));
            return;
        }
        await httpDriver.handle(request, response, below, body, clientOrigin);
    };
    const server = node_http_1.default.createServer((request, response) => {
        const work = serve(request, response)
            .catch((error) => {
            logger.error(`Request ${request.method} ${request.url} failed: ${(0, log_1.describeError)(error)}`);
            if (!response.headersSent)
                (0, respond_1.sendJson)(response, 500, (0, respond_1.errorJson)('InternalError', 'The local host failed to serve the request.'));
            else
                response.destroy();
        })
            .finally(() => active.delete(work));
        active.add(work);
    });
    // Functions may legitimately take minutes (up to functionTimeout); do not cut them off.
    server.requestTimeout = 0;
    return {
        origin: () => origin,
        listen(port, address) {
            return new Promise((resolve, reject) => {
                server.once('error', reject);
                server.listen(port, address, () => {
                    server.off('error', reject);
                    const bound = server.address().port;
                    const host = address.includes(':')
                        ? `[${address}]`
                        : address === '0.0.0.0'
                            ? '127.0.0.1'
                            : address;
                    origin = `http://${host}:${bound}`;
                    resolve(bound);
                });
            });
        },
        async close(graceMs) {
            closing = true;
            const closed = new Promise((resolve) => server.close(() => resolve()));
            let timer;
            await Promise.race([
                Promise.allSettled([...active]).then(() => closed),
                new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
            ]);
            clearTimeout(timer);
            server.closeAllConnections();
            await closed;
        },
    };
}
//# sourceMappingURL=server.js.map