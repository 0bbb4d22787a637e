"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createLoopbackCertificate = createLoopbackCertificate;
/**
 * A throw-away self-signed TLS certificate for 127.0.0.1/localhost, made in pure Node (the
 * `selfsigned` package), for starting Azurite over HTTPS in tests (`--cert`/`--key`, which its
 * `--oauth basic` mode needs).
 */
const node_fs_1 = __importDefault(require("node:fs"));
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const selfsigned_1 = require("selfsigned");
/** Writes a new self-signed certificate and its private key (PEM) to a fresh temp folder. */
async function createLoopbackCertificate() {
    const pems = await (0, selfsigned_1.generate)([{ name: 'commonName', value: '127.0.0.1' }], {
        keySize: 2048,
        algorithm: 'sha256',
        notAfterDate: new Date(Date.now() + 2 * 24 * 3_600_000),
        extensions: [
            { name: 'basicConstraints', cA: false },
            { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
            { name: 'extKeyUsage', serverAuth: true },
            {
                name: 'subjectAltName',
                altNames: [
                    { type: 2, value: 'localhost' },
                    { type: 7, ip: '127.0.0.1' },
                ],
            },
        ],
    });
    const dir = node_fs_1.default.mkdtempSync(node_path_1.default.join(node_os_1.default.tmpdir(), 'loopback-cert-'));
    const certPath = node_path_1.default.join(dir, 'cert.pem');
    const keyPath = node_path_1.default.join(dir, 'key.pem');
    node_fs_1.default.writeFileSync(certPath, pems.cert);
    node_fs_1.default.writeFileSync(keyPath, pems.private, { mode: 0o600 });
    return { dir, certPath, keyPath, certPem: pems.cert };
}
//# sourceMappingURL=certs.js.map