"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TrafficCounter = void 0;
exports.requestHeadBytes = requestHeadBytes;
exports.responseHeadBytes = responseHeadBytes;
exports.toRawHeaders = toRawHeaders;
/** Bytes of an HTTP/1.1 header block: start line, `name: value` lines, blank line. */
function headBytes(startLine, rawHeaders) {
    let bytes = Buffer.byteLength(startLine) + 2 + 2;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
        bytes += Buffer.byteLength(rawHeaders[i]) + 2 + Buffer.byteLength(rawHeaders[i + 1]) + 2;
    }
    return bytes;
}
/** Size of a request's head on the wire. `rawHeaders` alternates names and values. */
function requestHeadBytes(method, url, rawHeaders) {
    return headBytes(`${method} ${url} HTTP/1.1`, rawHeaders);
}
/** Size of a response's head on the wire. `rawHeaders` alternates names and values. */
function responseHeadBytes(status, statusMessage, rawHeaders) {
    return headBytes(`HTTP/1.1 ${status} ${statusMessage}`, rawHeaders);
}
/** Flattens a header map into the alternating name/value form of `rawHeaders`. */
function toRawHeaders(headers) {
    return Object.entries(headers).flat();
}
function emptyCounts() {
    return {
        requests: 0,
        byKind: {},
        bytesSent: 0,
        bytesReceived: 0,
        faultsInjected: 0,
        byFault: {},
        byStatus: {},
    };
}
function increment(map, key) {
    map[key] = (map[key] ?? 0) + 1;
}
/** Running totals, with copies handed out so callers cannot change them. */
class TrafficCounter {
    counts = emptyCounts();
    request(service, method, headBytes) {
        this.counts.requests += 1;
        increment(this.counts.byKind, `${service}:${method.toUpperCase()}`);
        this.counts.bytesSent += headBytes;
    }
    sent(bytes) {
        this.counts.bytesSent += bytes;
    }
    received(bytes) {
        this.counts.bytesReceived += bytes;
    }
    status(status) {
        increment(this.counts.byStatus, String(status));
    }
    fault(kind) {
        this.counts.faultsInjected += 1;
        increment(this.counts.byFault, kind);
    }
    snapshot() {
        return {
            ...this.counts,
            byKind: { ...this.counts.byKind },
            byFault: { ...this.counts.byFault },
            byStatus: { ...this.counts.byStatus },
        };
    }
    reset() {
        this.counts = emptyCounts();
    }
}
exports.TrafficCounter = TrafficCounter;
//# sourceMappingURL=trafficCounter.js.map