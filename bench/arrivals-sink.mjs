// The SMTP server bench:api --confirmations sends to, in a process of its own (as a provider's is
// never on the load generator's event loop): takes every message and writes, per recipient, a line
// "address<TAB>epoch ms" the moment its message has arrived. Its first line is "port N".
import { performance } from 'node:perf_hooks';
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      process.stdout.write(session.envelope.rcptTo.map((rcpt) => `${rcpt.address.toLowerCase()}\t${at}\n`).join(''));
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`port ${server.server.address().port}\n`));
