import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway CA and a leaf it signed, PEM-encoded. */
export interface TestCertificate {
  readonly ca: string;
  readonly key: string;
  readonly cert: string;
}

/** Names and IPs the test leaf is valid for; anything else must fail verification. */
export const TEST_CERT_NAMES = [
  'egress.test',
  'api.example.com',
  'evil.example.net',
  'hop.example.com',
  'search.example.com',
];
export const TEST_CERT_IPS = ['127.0.0.1', '1.1.1.1', '100.63.255.254'];

/** Generates a CA and a server certificate with openssl into a temp dir that is then removed. */
export function createTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'toolhost-cert-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' });
  };
  try {
    const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(
      'req',
      '-x509',
      ...ecKey,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=toolhost test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    openssl(
      'req',
      ...ecKey,
      '-keyout',
      file('leaf.key'),
      '-out',
      file('leaf.csr'),
      '-subj',
      '/CN=egress.test',
    );
    const names = TEST_CERT_NAMES.map((name) => `DNS:${name}`);
    const ips = TEST_CERT_IPS.map((ip) => `IP:${ip}`);
    writeFileSync(
      file('leaf.ext'),
      [
        `subjectAltName=${[...names, ...ips].join(',')}`,
        'basicConstraints=CA:FALSE',
        'extendedKeyUsage=serverAuth',
      ].join('\n'),
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file('leaf.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('leaf.pem'),
      '-days',
      '2',
      '-extfile',
      file('leaf.ext'),
    );
    return {
      ca: readFileSync(file('ca.pem'), 'utf8'),
      key: readFileSync(file('leaf.key'), 'utf8'),
      cert: readFileSync(file('leaf.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
