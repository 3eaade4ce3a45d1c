// `broadcast -- test NAME --to EMAIL|PHONE`: one real message to the owner.
import { UsageError, type Context, type Values } from './command-support.js';

export async function test(context: Context, name: string, values: Values): Promise<number> {
  const to = typeof values.to === 'string' ? values.to.trim() : '';
  if (!to) throw new UsageError('test needs --to EMAIL or --to PHONE.');
  const broadcast = await context.control.get(name);
  const id = await context.control.test(broadcast, to);
  context.output.out.write(`Sent one test ${to.includes('@') ? 'email' : 'text message'} to ${to} (${id}).\n`);
  return 0;
}
