// `broadcast -- create`: a new broadcast with its recipients taken now.
import { describeReport } from './audience-words.js';
import { UsageError, type Context, type Values } from './command-support.js';

export async function create(context: Context, values: Values): Promise<number> {
  const name = typeof values.name === 'string' ? values.name : undefined;
  const template = typeof values.template === 'string' ? values.template : undefined;
  if (!name || !template) throw new UsageError('create needs --name NAME and --template launch|beta.');
  if (values['include-unconfirmed'] === true && values['confirmed-only'] === true)
    throw new UsageError('--confirmed-only and --include-unconfirmed say opposite things: give one.');
  const channels =
    typeof values.channels === 'string' ? values.channels.split(',').map((part) => part.trim()) : undefined;
  const { broadcast, report } = await context.control.create({
    name,
    template,
    ...(typeof values.segment === 'string' ? { segment: values.segment } : {}),
    ...(channels ? { channels } : {}),
    ...(values['include-unconfirmed'] === true
      ? { confirmation: 'everyone' as const }
      : values['confirmed-only'] === true
        ? { confirmation: 'confirmed_only' as const }
        : {}),
  });
  const { out } = context.output;
  out.write(
    `Created the broadcast "${broadcast.name}" (${broadcast.template}, ${broadcast.segment === 'beta' ? 'beta testers' : 'everyone'}, ${broadcast.channels.join(' and ')}).\n`,
  );
  if (broadcast.confirmation === 'confirmed_only')
    out.write('Only people who confirmed their email are in it (--confirmed-only).\n');
  else if (broadcast.confirmation === 'asked')
    out.write(
      'People asked to confirm their email who did not are left out; those who signed up before confirmation was switched on are in (--confirmed-only leaves them out).\n',
    );
  for (const line of describeReport(report, broadcast, false)) out.write(`${line}\n`);
  out.write(`\nNext: sudo scamsavvy broadcast preview ${broadcast.name}\n`);
  return 0;
}
