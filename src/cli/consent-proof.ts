// `sudo scamsavvy consent:proof --email ADDRESS | --phone NUMBER [--format text|json]`: the proof of a
// person's consent (docs/messaging.md, "Proof of consent"): each yes and no, when, from where, and the
// words shown or received; for a person deleted since, what their "no" keeps. Written in the audit log.
import { normalisePhone, PHONE_PATTERN } from '../shared/signup-schema.js';
import { loadConfig } from '../server/config.js';
import { compose } from '../server/compose.js';
import { consentProof, proofText } from '../server/consent/consent-proof.js';
import { isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

const usage = `Usage: sudo scamsavvy consent:proof --email ADDRESS [--format text|json]
       sudo scamsavvy consent:proof --phone NUMBER [--format text|json]

Prints the proof of a person's consent: each yes and no with its time, where it came from, the words
they were shown or sent, and the address a partner's page gave. For someone deleted since, what their
"no" keeps (by a scrambled code of the address: SECRET_KEY is needed to find it). Reads DATABASE_URL.`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const flags = readFlags(
    argv,
    { email: { type: 'string' }, phone: { type: 'string' }, format: { type: 'string' } },
    usage,
    { out, err },
  );
  if ('exitCode' in flags) return flags.exitCode;
  const email = flags.values.email?.trim() || undefined;
  const phone = flags.values.phone?.trim() || undefined;
  const format = flags.values.format ?? 'text';
  if (!email === !phone) {
    err.write(`Give the email or the phone number (one of them).\n\n${usage}\n`);
    return 2;
  }
  if (phone && !PHONE_PATTERN.test(normalisePhone(phone))) {
    err.write(`--phone must be a phone number such as +15551234567, not "${phone}".\n`);
    return 2;
  }
  if (format !== 'text' && format !== 'json') {
    err.write(`--format is text or json, not "${format}".\n`);
    return 2;
  }
  const config = loadConfig();
  const { store } = await openStoreForCli();
  try {
    const { subscriptions } = compose(config, store).messaging;
    const proofs = await consentProof(store, subscriptions, { email, phone });
    await store.owners.audit({
      ownerEmail: 'the command line (sudo scamsavvy consent:proof)',
      action: 'viewed_person',
      ...(proofs[0]?.person ? { subject: proofs[0].person.id } : {}),
      detail: `The proof of consent (${proofs.length === 0 ? 'nothing kept' : proofs[0]?.person ? 'on the list' : 'deleted since'})`,
    });
    const asked = email ? `the email ${email}` : `the phone number ${phone ?? ''}`;
    out.write(format === 'json' ? `${JSON.stringify(proofs, null, 2)}\n` : proofText(proofs, asked));
    return 0;
  } finally {
    await store.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli(main);
