// The DNS records the launch checks read: TXT records, through the system's resolver or DNS_RESOLVER
// (host or host:port; the tests run their own DNS server on loopback). A name that does not exist or
// has no TXT record is "none"; a resolver that does not answer is "unknown": the check says so and
// does not block.
import { Resolver } from 'node:dns/promises';

export type TxtAnswer = { found: string[] } | { none: true } | { unknown: string };

export interface TxtLookup {
  txt(name: string): Promise<TxtAnswer>;
}

/** Answers within a few seconds or says it could not ask. */
export function dnsLookup(server?: string): TxtLookup {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (server) resolver.setServers([server]);
  return {
    async txt(name) {
      try {
        // A long record comes in parts of 255 characters: each record's parts joined.
        return { found: (await resolver.resolveTxt(name)).map((parts) => parts.join('')) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTFOUND' || code === 'ENODATA') return { none: true };
        return { unknown: `the DNS server did not answer (${code ?? (error as Error).message})` };
      }
    },
  };
}
