// The inbox providers' rules for the sending domain (Gmail's and Yahoo's bulk-sender rules, Outlook's
// since May 2025): SPF, DKIM (our key published and matching), a DMARC record, a From domain aligned
// with SPF or DKIM, one-click unsubscribe over https, and how the list's size counts against them.
import { createPublicKey } from 'node:crypto';
import type { EmailConfig } from '../messaging-config.js';
import { check, type ReadyCheck, type ReadyFacts } from './ready-check.js';
import type { TxtAnswer } from './dns-records.js';

/** Gmail counts a sender as bulk for good once it sends 5,000 messages in a day to its users. */
export const BULK_SENDER_MESSAGES = 5_000;

const domainOf = (address: string) => (address.match(/<([^>]+)>/)?.[1] ?? address).split('@')[1]?.toLowerCase() ?? '';

/** Relaxed alignment (RFC 7489): the same domain, or one a part of the other's (mail.example.org and example.org). */
export function aligned(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

/** The p= of a DKIM record, without spaces. */
const publicKeyIn = (record: string) => /(?:^|;)\s*p=([^;]*)/.exec(record)?.[1]?.replace(/\s+/g, '') ?? '';

/** Our DKIM key's public half as a DKIM record's p= carries it (base64 SubjectPublicKeyInfo). */
export function dkimPublicKey(privateKey: string): string {
  return createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
}

function unknownCheck(id: string, title: string, answer: { unknown: string }, name: string): ReadyCheck {
  return check(
    id,
    'mail',
    'amber',
    title,
    `${name}: ${answer.unknown}`,
    'Check it again later, or set DNS_RESOLVER to a DNS server that answers.',
  );
}

/** The seed message's results, as the receiving side would judge our mail. */
async function seedCheck(
  config: ReadyFacts['config'],
  seed: ReadyFacts['seed'],
  db: ReadyFacts['db'],
): Promise<ReadyCheck> {
  const title = 'A seed message, read back';
  if (!config.readySeed)
    return check(
      'mail-seed',
      'mail',
      'amber',
      title,
      'not made: no mailbox to send it to',
      'Set READY_SEED_ADDRESS and READY_SEED_IMAP_URL to a mailbox of yours (at Gmail, Yahoo or Outlook, say), then run sudo scamsavvy ready: it sends one email through your mail server and reads what the receiving side makes of it.',
    );
  if (!seed) {
    // Here (the dashboard, a send's refusal) the last seed the command sent answers: the same answer in both places.
    const last = (await db.owners.auditLog(1_000)).find((entry) => entry.action === 'seed_checked');
    const said = last?.detail ? /^(green|red|amber): (.*)$/s.exec(last.detail) : null;
    if (!last || !said)
      return check(
        'mail-seed',
        'mail',
        'amber',
        title,
        'not sent yet: only sudo scamsavvy ready sends it (it takes up to a minute)',
        'Run sudo scamsavvy ready.',
      );
    return check(
      'mail-seed',
      'mail',
      said[1] as 'green' | 'red' | 'amber',
      title,
      `${said[2]} (the seed sudo scamsavvy ready sent on ${last.at.slice(0, 10)})`,
      'Put right what did not pass, then run sudo scamsavvy ready to send a new one.',
    );
  }
  const outcome = await seed();
  if (!outcome.arrived)
    return check(
      'mail-seed',
      'mail',
      'amber',
      title,
      outcome.why,
      'Check READY_SEED_ADDRESS and READY_SEED_IMAP_URL, and the mail server, then run it again.',
    );
  const results = `SPF ${outcome.spf}, DKIM ${outcome.dkim}${outcome.signedBy ? ` (d=${outcome.signedBy})` : ''}, DMARC ${outcome.dmarc}`;
  const passed = outcome.spf === 'pass' && outcome.dkim === 'pass' && outcome.dmarc === 'pass';
  return check(
    'mail-seed',
    'mail',
    passed ? 'green' : 'red',
    title,
    `as the receiving side reads it: ${results}`,
    'Put right the record that did not pass (the checks above say how); the inbox providers refuse or junk such mail.',
  );
}

export async function mailChecks({ config, db, dns, seed }: ReadyFacts): Promise<ReadyCheck[]> {
  const email: EmailConfig | undefined = config.messaging.email;
  if (!email)
    return [
      check(
        'mail-on',
        'mail',
        'amber',
        'Email is set up',
        'email is off: nobody gets the launch email',
        'Set SMTP_URL and MAIL_FROM (docs/messaging.md).',
      ),
    ];
  if (email.folder !== undefined)
    return [
      check(
        'mail-on',
        'mail',
        'amber',
        'Email goes out',
        `a rehearsal: every email is written to ${email.folder} (MAIL_TRANSPORT=folder:…)`,
        'For the real launch, unset MAIL_TRANSPORT and set SMTP_URL.',
      ),
    ];
  const from = domainOf(email.from);
  const checks: ReadyCheck[] = [];
  const txt = (name: string): Promise<TxtAnswer> => dns.txt(name);
  const [spfAnswer, dmarcAnswer, dkimAnswer] = await Promise.all([
    txt(from),
    txt(`_dmarc.${from}`),
    email.dkim ? txt(`${email.dkim.keySelector}._domainkey.${email.dkim.domainName}`) : Promise.resolve(undefined),
  ]);

  const spf = 'found' in spfAnswer ? spfAnswer.found.filter((record) => /^v=spf1(\s|$)/i.test(record)) : [];
  if ('unknown' in spfAnswer) checks.push(unknownCheck('mail-spf', 'SPF', spfAnswer, from));
  else
    checks.push(
      check(
        'mail-spf',
        'mail',
        spf.length === 1 ? 'green' : 'red',
        `SPF for ${from}`,
        spf.length === 1
          ? spf[0]!
          : spf.length === 0
            ? `no SPF record on ${from}`
            : `${spf.length} SPF records on ${from}: receivers treat that as none`,
        `Publish one TXT record on ${from}: v=spf1 include:<your mail provider's> ~all (your provider's guide names it).`,
      ),
    );

  if (email.dkim) {
    const { domainName, keySelector } = email.dkim;
    const name = `${keySelector}._domainkey.${domainName}`;
    const ours = dkimPublicKey(email.dkim.privateKey);
    if (dkimAnswer && 'unknown' in dkimAnswer) checks.push(unknownCheck('mail-dkim', 'DKIM', dkimAnswer, name));
    else {
      const records = dkimAnswer && 'found' in dkimAnswer ? dkimAnswer.found : [];
      const published = records.map(publicKeyIn).filter(Boolean);
      const matches = published.includes(ours);
      checks.push(
        check(
          'mail-dkim',
          'mail',
          matches ? 'green' : 'red',
          `DKIM key ${name}`,
          matches
            ? 'published, and it matches DKIM_PRIVATE_KEY'
            : published.length === 0
              ? `no DKIM key published at ${name}`
              : `the key published at ${name} is not the one DKIM_PRIVATE_KEY signs with`,
          `Publish a TXT record at ${name}: v=DKIM1; k=rsa; p=${ours}`,
        ),
      );
    }
  } else
    checks.push(
      check(
        'mail-dkim',
        'mail',
        'amber',
        'DKIM',
        'no DKIM keys here: your mail provider must sign for your domain',
        `Check in your provider's settings that it signs with d=${from} (or set DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY).`,
      ),
    );

  const dmarc = 'found' in dmarcAnswer ? dmarcAnswer.found.filter((record) => /^v=DMARC1\s*(;|$)/i.test(record)) : [];
  if ('unknown' in dmarcAnswer) checks.push(unknownCheck('mail-dmarc', 'DMARC', dmarcAnswer, `_dmarc.${from}`));
  else
    checks.push(
      check(
        'mail-dmarc',
        'mail',
        dmarc.length === 1 ? 'green' : 'red',
        `DMARC for ${from}`,
        dmarc.length === 1 ? dmarc[0]! : `no DMARC record at _dmarc.${from}`,
        `Publish a TXT record at _dmarc.${from}: v=DMARC1; p=none; rua=mailto:<an address of yours> (p=none is enough to start).`,
      ),
    );

  // Aligned: the envelope sender's domain (BOUNCE_ADDRESS's, or MAIL_FROM's) for SPF, the signing domain for DKIM.
  const envelope = config.messaging.feedback?.bounceAddress ? domainOf(config.messaging.feedback.bounceAddress) : from;
  const spfAligned = aligned(envelope, from);
  const dkimAligned = email.dkim ? aligned(email.dkim.domainName.toLowerCase(), from) : undefined;
  checks.push(
    check(
      'mail-alignment',
      'mail',
      spfAligned || dkimAligned ? 'green' : dkimAligned === undefined ? 'amber' : 'red',
      `The From domain (${from}) is aligned`,
      [
        `SPF: the envelope sender's domain ${envelope} ${spfAligned ? 'is' : 'is not'} aligned`,
        dkimAligned === undefined
          ? 'DKIM: signed by your provider (not known here)'
          : `DKIM: d=${email.dkim!.domainName} ${dkimAligned ? 'is' : 'is not'} aligned`,
      ].join('; '),
      `Send from an address at the domain you sign or send for: MAIL_FROM at ${email.dkim?.domainName ?? envelope}, or DKIM_DOMAIN=${from}.`,
    ),
  );

  checks.push(await seedCheck(config, seed, db));

  const people = await db.signups.count();
  const bulk = people >= BULK_SENDER_MESSAGES;
  const basics = checks.every((one) => one.level !== 'red');
  checks.push(
    check(
      'mail-bulk',
      'mail',
      bulk && !basics ? 'red' : 'green',
      'The bulk-sender rules (Gmail, Yahoo, Outlook)',
      `${people.toLocaleString('en-US')} people on the list: ${
        bulk
          ? `the launch makes you a bulk sender for good (${BULK_SENDER_MESSAGES.toLocaleString('en-US')} or more a day): SPF, DKIM, DMARC and alignment are required, and mail failing them is refused`
          : `under ${BULK_SENDER_MESSAGES.toLocaleString('en-US')}, but the same rules make delivery likely`
      }; one-click unsubscribe is on every list email; keep complaints under 0.3%`,
      'Put right every red mail check above before the launch.',
    ),
  );
  return checks;
}
