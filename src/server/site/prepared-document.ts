// A document made once at start (a page, robots.txt, the sitemap) and sent from memory: already
// compressed with brotli and gzip, with an ETag so a browser's revalidation costs a 304.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip';

export interface PreparedDocument {
  contentType: string;
  etag: string;
  identity: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
}

/** Below this size compression saves less than the bytes of its own header; sent as it is. */
const COMPRESS_FROM_BYTES = 1024;

export function prepareDocument(text: string, contentType: string): PreparedDocument {
  const identity = Buffer.from(text, 'utf8');
  const encoded: PreparedDocument['encoded'] = {};
  if (identity.length >= COMPRESS_FROM_BYTES) {
    encoded.br = brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    });
    encoded.gzip = gzipSync(identity, { level: 9 });
  }
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  return { contentType, etag, identity, encoded };
}

const ENCODINGS: Encoding[] = ['br', 'gzip'];

/** True when the request's If-None-Match names this ETag (or "*"). */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

export function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  document: PreparedDocument,
  { status = 200, cacheControl }: { status?: number; cacheControl: string },
): FastifyReply {
  reply
    .header('content-type', document.contentType)
    .header('cache-control', cacheControl)
    .header('vary', 'accept-encoding');
  if (status === 200) {
    reply.header('etag', document.etag);
    if (notModified(request, document.etag)) return reply.code(304).send();
  }
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? negotiate(accepted, ENCODINGS) : null;
  const body = encoding ? document.encoded[encoding] : undefined;
  if (encoding && body) return reply.code(status).header('content-encoding', encoding).send(body);
  return reply.code(status).send(document.identity);
}
