// Test support: Amazon SNS at the network edge. A loopback HTTP server that serves a signing
// certificate made for this run (openssl, a throwaway key) and answers subscription confirmations,
// reached only through the test-only SES_SNS_BASE_URL; and SNS's signing, so a test can post
// messages exactly as SNS would (SignatureVersion 1 or 2), or tamper with them.
import { execFileSync } from 'node:child_process';
import { createSign, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snsStringToSign } from '../bounces/ses-webhook.js';
import { machineClock } from './clock.js';

export const SNS_REGION = 'us-east-1';
export const CERT_URL = `https://sns.${SNS_REGION}.amazonaws.com/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem`;

export interface SnsStandIn {
  /** The origin to put in SES_SNS_BASE_URL. */
  baseUrl: string;
  /** Signs a message as SNS does (it must carry every field but Signature). */
  sign(message: Record<string, string>, version?: '1' | '2'): Record<string, string>;
  /** A notification from this topic carrying this SES report, signed. */
  notification(topicArn: string, report: unknown, extra?: Record<string, string>): Record<string, string>;
  /** The subscriptions confirmed (the query of each GET to the subscribe URL). */
  confirmed(): URLSearchParams[];
  /** How many times the certificate was fetched. */
  certificateFetches(): number;
  stop(): Promise<void>;
}

/** A throwaway RSA key and a self-signed certificate for it, made by openssl for this run. */
function makeCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sns-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=sns.${SNS_REGION}.amazonaws.com`,
      ].concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startSnsStandIn(): Promise<SnsStandIn> {
  const { key, cert } = makeCertificate();
  const confirmations: URLSearchParams[] = [];
  let fetches = 0;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (url.pathname === new URL(CERT_URL).pathname) {
      fetches += 1;
      response.writeHead(200, { 'content-type': 'application/x-x509-ca-cert' }).end(cert);
    } else if (url.pathname.endsWith('.pem')) {
      fetches += 1; // a certificate SNS does not have
      response.writeHead(404).end();
    } else if (url.searchParams.get('Action') === 'ConfirmSubscription') {
      confirmations.push(url.searchParams);
      response.writeHead(200, { 'content-type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const sign = (message: Record<string, string>, version: '1' | '2' = '1') => {
    const unsigned = { ...message, SignatureVersion: version, SigningCertURL: message.SigningCertURL ?? CERT_URL };
    const signer = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
    signer.update(snsStringToSign(unsigned)!, 'utf8');
    return { ...unsigned, Signature: signer.sign(key, 'base64') };
  };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sign,
    notification: (topicArn, report, extra = {}) =>
      sign({
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: topicArn,
        Message: JSON.stringify(report),
        Timestamp: machineClock.now().toISOString(),
        ...extra,
      }),
    confirmed: () => [...confirmations],
    certificateFetches: () => fetches,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
