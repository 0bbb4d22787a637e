/**
 * A throw-away self-signed TLS certificate for 127.0.0.1/localhost, made in pure Node (the
 * `selfsigned` package), for starting Azurite over HTTPS in tests (`--cert`/`--key`, which its
 * `--oauth basic` mode needs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

/** Where a generated certificate and its key are written. */
export interface CertificateFiles {
  /** Folder holding both files; remove it when done. */
  dir: string;
  certPath: string;
  keyPath: string;
  /** The certificate in PEM, for clients that pin it as a CA. */
  certPem: string;
}

/** Writes a new self-signed certificate and its private key (PEM) to a fresh temp folder. */
export async function createLoopbackCertificate(): Promise<CertificateFiles> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopback-cert-'));
  const certPath = path.join(dir, 'cert.pem');
  const keyPath = path.join(dir, 'key.pem');
  fs.writeFileSync(certPath, pems.cert);
  fs.writeFileSync(keyPath, pems.private, { mode: 0o600 });
  return { dir, certPath, keyPath, certPem: pems.cert };
}
