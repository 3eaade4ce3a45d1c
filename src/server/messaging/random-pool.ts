// Random bytes for the many small draws a send makes (a token per message, a MIME boundary per
// email), cut from one larger draw of the system's CSPRNG at a time, as crypto.randomUUID does:
// a call to randomBytes costs about the same for 16 bytes as for 4 kB. Each byte is handed out once;
// a spent pool is replaced, never refilled in place, so what was handed out stays as it was.
import { randomBytes } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `count` fresh random bytes (count at most 4096). */
export function randomPart(count: number): Buffer {
  if (count > POOL_BYTES) return randomBytes(count);
  if (offset + count > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const part = pool.subarray(offset, offset + count);
  offset += count;
  return part;
}
