// `sudo scamsavvy webhooks create|list|deliveries|test|resume|delete`: the endpoints the owner's other
// tools are told of events at (docs/webhooks.md). A signing secret is shown once, when made.
import { WEBHOOK_KINDS } from '../server/db/webhooks.table.js';
import {
  endpointEvents,
  endpointName,
  endpointUrl,
  endpointWords,
  isWebhookKind,
  makeEndpoint,
  removeEndpoint,
  resumeEndpoint,
} from '../server/webhooks/webhook-endpoints.js';
import { WEBHOOK_EVENT_TYPES } from '../server/webhooks/webhook-events.js';
import { WebhookSender } from '../server/webhooks/webhook-sender.js';
import { CliError, isEntryPoint, openStoreForCli, readFlags, runCli, TERMINAL, type Output } from './cli-support.js';
import { pino } from 'pino';

export const WEBHOOK_COMMANDS = ['create', 'list', 'deliveries', 'test', 'resume', 'delete'] as const;
type WebhookCommand = (typeof WEBHOOK_COMMANDS)[number];

/** Who the audit log says changed an endpoint from here. */
export const COMMAND_LINE = 'the command line (sudo scamsavvy webhooks)';

const usage = `Usage: sudo scamsavvy webhooks create --name NAME --url URL [--kind standard|slack] [--events LIST] [--with-personal-data]
       sudo scamsavvy webhooks list                  every endpoint: its events, whether it is paused and why
       sudo scamsavvy webhooks deliveries --name NAME  its latest deliveries and what each got back
       sudo scamsavvy webhooks test --name NAME        send it a test event now, and say what it answered
       sudo scamsavvy webhooks resume --name NAME      resume a paused endpoint: what waited goes now
       sudo scamsavvy webhooks delete --name NAME      tell it nothing more

--kind standard (the default) signs each delivery as Standard Webhooks 1.0 says (the secret is shown
once); --kind slack takes a Slack incoming-webhook URL and posts words, never a person's details.
--events is "all" (the default) or a comma-separated list of: ${WEBHOOK_EVENT_TYPES.join(', ')}.
--with-personal-data adds the person's name, email and phone to their events. The URL is https://
(http:// only on this computer). docs/webhooks.md says more. Reads DATABASE_URL.`;

export async function main(argv: string[], { out, err }: Output = TERMINAL): Promise<number> {
  const [command, ...rest] = argv;
  if (!WEBHOOK_COMMANDS.includes(command as WebhookCommand)) {
    err.write(`Unknown command "${command ?? ''}".\n\n${usage}\n`);
    return 2;
  }
  const flags = readFlags(
    rest,
    {
      name: { type: 'string' },
      url: { type: 'string' },
      kind: { type: 'string' },
      events: { type: 'string' },
      'with-personal-data': { type: 'boolean' },
    },
    usage,
    { out, err },
  );
  if ('exitCode' in flags) return flags.exitCode;
  try {
    return await run(command as WebhookCommand, flags.values, out);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    err.write(`${error.message}\n`);
    return 1;
  }
}

const when = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;

async function run(
  command: WebhookCommand,
  values: {
    name?: string | undefined;
    url?: string | undefined;
    kind?: string | undefined;
    events?: string | undefined;
    'with-personal-data'?: boolean | undefined;
  },
  out: Output['out'],
): Promise<number> {
  const name = values.name === undefined ? undefined : endpointName(values.name);
  if (command !== 'list') {
    if (values.name === undefined) throw new CliError(`--name is required.\n\n${usage}`);
    if (!name) throw new CliError(endpointWords.nameRule);
  }
  const kind = values.kind ?? 'standard';
  if (command === 'create') {
    if (!isWebhookKind(kind)) throw new CliError(`--kind ${kind}: ${endpointWords.kindRule}`);
    if (!endpointUrl(values.url)) throw new CliError(`--url ${values.url ?? ''}: ${endpointWords.urlRule}`);
    if (kind === 'slack' && values['with-personal-data']) throw new CliError(endpointWords.slackPersonal);
  }
  const { store } = await openStoreForCli();
  try {
    const named = async () => {
      const endpoint = name ? await store.webhooks.byName(name) : undefined;
      if (!endpoint) throw new CliError(endpointWords.notFound(name ?? ''));
      return endpoint;
    };
    switch (command) {
      case 'create': {
        const chosen = endpointEvents(values.events, kind as (typeof WEBHOOK_KINDS)[number]);
        if ('problem' in chosen) throw new CliError(chosen.problem);
        const made = await makeEndpoint(store, {
          name: name as string,
          kind: kind as (typeof WEBHOOK_KINDS)[number],
          url: endpointUrl(values.url) as string,
          events: chosen.events,
          withPersonalData: values['with-personal-data'] === true,
          by: COMMAND_LINE,
        });
        if (made === 'name_taken') throw new CliError(endpointWords.nameTaken(name as string));
        out.write(
          kind === 'slack'
            ? `The Slack endpoint "${name}" is made: it will be told of new sign-ups and the launch.\n`
            : `${made.secret}\n\nThe endpoint "${name}" is made. Above is its signing secret, shown only now: give it to the tool\n` +
                `that receives the events, to check each delivery's webhook-signature (docs/webhooks.md).\n`,
        );
        out.write(`Send it a test event: sudo scamsavvy webhooks test --name "${name}"\n`);
        return 0;
      }
      case 'list': {
        const endpoints = await store.webhooks.list();
        if (endpoints.length === 0) {
          out.write('No webhook endpoints yet. Make one: sudo scamsavvy webhooks create --name CRM --url https://…\n');
          return 0;
        }
        for (const endpoint of endpoints) {
          const waiting = await store.webhooks.waiting(endpoint.id);
          out.write(
            `${endpoint.name}  ${endpoint.kind}, ${endpoint.url}\n  events: ${endpoint.events === '*' ? 'all' : endpoint.events.join(', ')}` +
              `${endpoint.withPersonalData ? ', with people’s details' : ''}; ${waiting} waiting\n` +
              (endpoint.pausedAt ? `  PAUSED ${when(endpoint.pausedAt)}: ${endpoint.pausedReason ?? ''}\n` : ''),
          );
        }
        return 0;
      }
      case 'deliveries': {
        const deliveries = await store.webhooks.deliveries((await named()).id);
        if (deliveries.length === 0) out.write('Nothing delivered to it yet.\n');
        for (const delivery of deliveries)
          out.write(
            `evt_${delivery.eventId}  ${delivery.type}  ${delivery.state} after ${delivery.attempts} ${delivery.attempts === 1 ? 'try' : 'tries'}` +
              `${delivery.sentAt ? `, ${when(delivery.sentAt)}` : ''}${delivery.error ? `; last answer: ${delivery.error}` : ''}` +
              `${delivery.nextAttemptAt && delivery.state !== 'sent' ? `; next try ${when(delivery.nextAttemptAt)}` : ''}\n`,
          );
        return 0;
      }
      case 'test': {
        const endpoint = await store.webhooks.forSending((await named()).id);
        const result = await new WebhookSender({ db: store, logger: pino({ level: 'silent' }) }).sendTest(endpoint!);
        if (!result.ok) throw new CliError(`The test was not accepted: ${result.answer}.`);
        out.write(`The test was accepted (${result.answer}).\n`);
        return 0;
      }
      case 'resume': {
        if (!(await resumeEndpoint(store, name as string, COMMAND_LINE)))
          throw new CliError(endpointWords.notFound(name as string));
        out.write(`"${name}" is resumed: what waited for it goes now, as the server sends.\n`);
        return 0;
      }
      case 'delete': {
        if (!(await removeEndpoint(store, name as string, COMMAND_LINE)))
          throw new CliError(endpointWords.notFound(name as string));
        out.write(`"${name}" is deleted: it is told nothing more.\n`);
        return 0;
      }
    }
  } finally {
    await store.close();
  }
}

if (isEntryPoint(import.meta.url)) runCli((argv) => main(argv));
