// The machine's ceiling for the API benchmark: a bare Node http server that reads the body and answers 201.
import { Buffer } from 'node:buffer';
import http from 'node:http';

const body = '{"status":"ok"}';
http
  .createServer((request, response) => {
    request.on('data', () => undefined);
    request.on('end', () => {
      response.writeHead(201, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
