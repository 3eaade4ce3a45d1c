// Test support: delivery reports and complaints as Gmail, Microsoft 365, Postfix and Yahoo send
// them (the .eml files beside this one, with example addresses), filled in at test time with a
// token the test signed, so the reports name a message we sent.
import { readFileSync } from 'node:fs';
import { verpAddress } from '../../messaging/message-tokens.js';

/** The BOUNCE_ADDRESS the reports were sent back to. */
export const REPORT_BOUNCE_ADDRESS = 'bounces@mail.example.org';

export const REPORTS = [
  'gmail-no-such-user',
  'microsoft-recipient-not-found',
  'postfix-user-unknown',
  'postfix-delayed',
  'postfix-mailbox-full',
  'yahoo-complaint',
] as const;
export type ReportName = (typeof REPORTS)[number];

export interface ReportFill {
  /** The token our message carried, in its X-ScamSavvy-Token and its VERP envelope sender; none: a message we never signed. */
  token?: string;
  /** Where the report itself was delivered; by default the message's envelope sender (the VERP address). */
  to?: string;
}

/** A report's raw text, CRLF line ends as on the wire. */
export function report(name: ReportName, { token, to }: ReportFill = {}): string {
  const sender = token ? verpAddress(REPORT_BOUNCE_ADDRESS, token) : REPORT_BOUNCE_ADDRESS;
  return readFileSync(new URL(`./${name}.eml`, import.meta.url), 'utf8')
    .replace(/^X-ScamSavvy-Token: \{\{TOKEN\}\}\n/m, token ? `X-ScamSavvy-Token: ${token}\n` : '')
    .replaceAll('{{VERP}}', sender)
    .replaceAll('{{TO}}', to ?? sender)
    .replace(/\r?\n/g, '\r\n');
}

/** A token of the right shape whose MAC is wrong: what someone who has seen one of ours could make. */
export function forged(token: string): string {
  return `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
}
