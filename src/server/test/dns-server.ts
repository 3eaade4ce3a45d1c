// Test support: a DNS server on loopback (dns2, UDP and TCP on one port) answering TXT records from a
// map, NXDOMAIN for other names: the launch checks ask it through DNS_RESOLVER.
import dns2 from 'dns2';

export interface DnsServer {
  /** host:port, as DNS_RESOLVER takes it. */
  address: string;
  /** Sets (or, with undefined, removes) a name's TXT records. */
  set(name: string, records: string[] | undefined): void;
  close(): Promise<void>;
}

/** A TXT record's text in strings of at most 255 characters, as DNS carries it (a DKIM key is longer). */
const parts = (text: string) => text.match(/.{1,255}/gs) ?? [''];

export async function startDnsServer(records: Record<string, string[]> = {}): Promise<DnsServer> {
  const names = new Map(Object.entries(records).map(([name, values]) => [name.toLowerCase(), values]));
  const { Packet } = dns2;
  const handle = (request: dns2.Packet, send: (response: dns2.Packet) => void) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const txts = question ? names.get(question.name.toLowerCase().replace(/\.$/, '')) : undefined;
    if (!question || !txts)
      response.header.rcode = 3; // NXDOMAIN
    else if (question.type === Packet.TYPE.TXT)
      for (const text of txts)
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data: parts(text),
        } as never);
    send(response);
  };
  // UDP and TCP on the same port (a long answer comes again over TCP); a port UDP took may be taken for TCP: try another.
  for (let attempt = 0; ; attempt += 1) {
    const udp = dns2.createUDPServer(handle as never);
    const tcp = dns2.createTCPServer(handle as never);
    await udp.listen(0, '127.0.0.1');
    const port = (udp.address() as { port: number }).port;
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => resolve());
      });
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 20) continue;
      throw error;
    }
    return {
      address: `127.0.0.1:${port}`,
      set(name, values) {
        if (values) names.set(name.toLowerCase(), values);
        else names.delete(name.toLowerCase());
      },
      close: async () => {
        await new Promise<void>((resolve) => udp.close(() => resolve()));
        await new Promise<void>((resolve) => {
          tcp.close(() => resolve());
        });
      },
    };
  }
}
