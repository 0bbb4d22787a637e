"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sendResponse = sendResponse;
exports.sendJson = sendJson;
exports.errorJson = errorJson;
const NO_BODY = new Set([204, 205, 304]);
/** Writes a converted function response; repeated headers are combined as HTTP allows. */
function sendResponse(response, outgoing) {
    const headers = {};
    for (const [name, value] of outgoing.headers) {
        const key = name.toLowerCase();
        const existing = headers[key];
        if (key === 'set-cookie')
            headers[key] = [...(existing ?? []), value];
        else
            headers[key] = existing === undefined ? value : `${existing}, ${value}`;
    }
    const body = NO_BODY.has(outgoing.status) ? Buffer.alloc(0) : outgoing.body;
    if (!NO_BODY.has(outgoing.status))
        headers['content-length'] = String(body.length);
    response.writeHead(outgoing.status, headers);
    response.end(body);
}
/** Writes a JSON response of the host itself (404s, admin API). */
function sendJson(response, status, body) {
    const text = Buffer.from(JSON.stringify(body), 'utf8');
    response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(text.length),
        'cache-control': 'no-store',
    });
    response.end(text);
}
/** The host's JSON error body, in the API's shape. */
function errorJson(code, message) {
    return { error: { code, message } };
}
//# sourceMappingURL=respond.js.map