// The machine's ceiling for the static benchmark: a bare Node http server answering each path with
// bytes captured from the production server (BENCH_STATIC_DIR holds them: see bench/static.ts).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const dir = process.env.BENCH_STATIC_DIR;
const responses = new Map(
  JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')).map(({ url, headers, file }) => [
    url,
    { headers, body: readFileSync(path.join(dir, file)) },
  ]),
);

http
  .createServer((request, response) => {
    const found = responses.get(request.url);
    if (!found) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { ...found.headers, 'content-length': found.body.length });
    response.end(found.body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
