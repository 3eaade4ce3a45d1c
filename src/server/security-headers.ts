// Security headers on every response: a strict Content-Security-Policy and the rest of the set
// Mozilla HTTP Observatory scores (reckoning in docs/security.md).
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { LANGUAGE_HEAD_SCRIPT } from '../shared/languages.js';
import { TEXT_SIZE_HEAD_SCRIPT } from '../shared/text-size.js';

const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
/** The one inline script every page has (the text size, applied before the first paint), allowed by its hash. */
export const TEXT_SIZE_SCRIPT_HASH = scriptHash(TEXT_SIZE_HEAD_SCRIPT);
/** The landing pages' other one (the visitor's language: its offer, or their kept choice), allowed by its hash. */
export const LANGUAGE_SCRIPT_HASH = scriptHash(LANGUAGE_HEAD_SCRIPT);

/** Browser features the page never uses, all turned off. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

export const HSTS = 'max-age=63072000; includeSubDomains';

export interface SecurityHeaderOptions {
  /** The built pages' other inline scripts (their starter), by hash: 'sha256-…' as scripts/prerender.mjs wrote them. */
  scriptHashes?: string[];
  /** Extra origins scripts may load from and connect to (the analytics providers, when configured). */
  scriptOrigins?: string[];
  connectOrigins?: string[];
  imageOrigins?: string[];
}

export async function securityHeaders(app: FastifyInstance, options: SecurityHeaderOptions = {}): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // No 'unsafe-inline' and no 'unsafe-eval' for scripts: each inline script is named by its hash.
        'script-src': [
          "'self'",
          TEXT_SIZE_SCRIPT_HASH,
          LANGUAGE_SCRIPT_HASH,
          ...(options.scriptHashes ?? []),
          ...(options.scriptOrigins ?? []),
        ],
        // Inline style attributes only (React's prerendered style="…" and the dialog's scroll lock).
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', ...(options.imageOrigins ?? [])],
        'font-src': ["'self'"],
        'connect-src': ["'self'", ...(options.connectOrigins ?? [])],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'manifest-src': ["'self'"],
      },
    },
    // HSTS is sent only over HTTPS (below): over plain HTTP it means nothing, and on localhost it would stick.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false, // the analytics providers' scripts and images are cross-origin
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // request.protocol is https when the socket is TLS, or when a trusted proxy says so (TRUST_PROXY).
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
