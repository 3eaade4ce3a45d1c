// Writes file.br and file.gz beside each built file worth compressing, so the server sends them
// as they are (@fastify/static's preCompressed) and spends no time compressing at request time.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.html', '.txt', '.xml', '.json', '.webmanifest', '.map']);
/** A variant is kept only if it saves at least this share of the bytes (small files barely shrink). */
const WORTH_IT = 0.9;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.has(path.extname(entry.name))) yield full;
  }
}

export function compressDirectory(dir) {
  let written = 0;
  for (const file of files(dir)) {
    const bytes = readFileSync(file);
    const brotli = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    if (gzip.length <= bytes.length * WORTH_IT) {
      writeFileSync(`${file}.gz`, gzip);
      written += 1;
    }
    if (brotli.length <= bytes.length * WORTH_IT) {
      writeFileSync(`${file}.br`, brotli);
      written += 1;
    }
  }
  return written;
}

const dir = path.resolve(process.argv[2] ?? 'dist/client');
if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
console.log(`precompressed ${compressDirectory(dir)} files (brotli and gzip) in ${path.relative(process.cwd(), dir)}`);
