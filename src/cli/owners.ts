// `sudo scamsavvy owner:add|owner:remove|owner:list|owner:link`: who may sign in to the dashboard, and a
// sign-in link for an owner whose email is not set up (docs/owner-guide.md).
import { loadConfig } from '../server/config.js';
import { OWNER_EMAIL, SIGN_IN_LINK_LIFETIME_MS, signInLink } from '../server/owner/owner-auth.js';
import { newSecret, secretHash } from '../server/secrets.js';
import { ownerEmailKey } from '../server/db/owner-repository.js';
import { CliError, isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';

export const OWNER_COMMANDS = ['add', 'remove', 'list', 'link'] as const;
type OwnerCommand = (typeof OWNER_COMMANDS)[number];

const usage = `Usage: sudo scamsavvy owner:add --email ADDRESS      let this address sign in to /owner
       sudo scamsavvy owner:remove --email ADDRESS   take it away (signs them out at once)
       sudo scamsavvy owner:list                     who can sign in, and when they last did
       sudo scamsavvy owner:link --email ADDRESS     print a sign-in link (works once, for 15 minutes)

The dashboard is at SITE_URL/owner. Owners sign in with a link sent by email (SMTP_URL, MAIL_FROM);
owner:link prints one instead, for when email is not set up. Reads DATABASE_URL.`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const [command, ...rest] = argv;
  if (!OWNER_COMMANDS.includes(command as OwnerCommand)) {
    err.write(`Unknown command "${command ?? ''}".\n\n${usage}\n`);
    return 2;
  }
  const flags = readFlags(rest, { email: { type: 'string' } }, usage, {
    out,
    err,
  });
  if ('exitCode' in flags) return flags.exitCode;
  const { values } = flags;
  try {
    return await run(command as OwnerCommand, values.email, out);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    err.write(`${error.message}\n`);
    return 1;
  }
}

async function run(command: OwnerCommand, given: string | undefined, out: Output['out']): Promise<number> {
  const email = given === undefined ? undefined : ownerEmailKey(given);
  if (command !== 'list') {
    if (!email) throw new CliError(`--email is required.\n\n${usage}`);
    if (!OWNER_EMAIL.test(email)) throw new CliError(`--email must be an email address, not "${email}".`);
  }
  const { store } = await openStoreForCli();
  try {
    const owners = store.owners;
    switch (command) {
      case 'add': {
        const added = await owners.add(email as string);
        out.write(
          added === 'added'
            ? `${email} is an owner now. They sign in at ${loadConfig().siteUrl}/owner/sign-in with this address.\n`
            : `${email} is already an owner.\n`,
        );
        return 0;
      }
      case 'remove': {
        if (!(await owners.remove(email as string))) throw new CliError(`${email} is not an owner.`);
        out.write(`${email} is no longer an owner, and is signed out everywhere.\n`);
        return 0;
      }
      case 'list': {
        const all = await owners.list();
        if (all.length === 0) {
          out.write('No owners yet. Add one: sudo scamsavvy owner:add --email you@example.com\n');
          return 0;
        }
        for (const owner of all)
          out.write(
            `${owner.email}  added ${owner.createdAt.slice(0, 10)}, ${owner.lastSignInAt ? `last signed in ${owner.lastSignInAt.slice(0, 16).replace('T', ' ')} UTC` : 'never signed in'}\n`,
          );
        return 0;
      }
      case 'link': {
        const owner = await owners.byEmail(email as string);
        if (!owner)
          throw new CliError(`${email} is not an owner. Add them first: sudo scamsavvy owner:add --email ${email}`);
        const token = newSecret();
        await owners.createLink(owner.id, secretHash(token), SIGN_IN_LINK_LIFETIME_MS);
        out.write(
          `${signInLink(loadConfig().siteUrl, token)}\nThis link signs ${email} in once, within 15 minutes. Do not share it.\n`,
        );
        return 0;
      }
    }
  } finally {
    await store.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli((argv) => main(argv));
