// The carriers' side of texts: Twilio takes our sign-in, and the sender is registered for A2P 10DLC
// (US numbers must be, or carriers filter and block), and what Twilio's own STOP and HELP answers mean
// for ours.
import { DEFAULT_TWILIO_API_BASE_URL, type TwilioSmsConfig } from '../messaging-config.js';
import type { SmsProvider } from '../messaging/sms-provider.js';
import { messageWordsIn } from '../messaging/message-words.js';
import { contactFor } from '../messaging/transports.js';
import { check, type ReadyCheck, type ReadyFacts, type TwilioLookup } from './ready-check.js';

/** Twilio's REST API with the account's credentials (Messaging Services live on messaging.twilio.com). */
export function twilioLookup(config: TwilioSmsConfig, sms: SmsProvider): TwilioLookup {
  const messagingBase =
    config.apiBaseUrl === DEFAULT_TWILIO_API_BASE_URL ? 'https://messaging.twilio.com' : config.apiBaseUrl;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    account: () => sms.checkAccount(),
    async serviceRegistered(sid) {
      const response = await fetch(`${messagingBase}/v1/Services/${encodeURIComponent(sid)}`, {
        headers: { authorization },
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`Twilio answered ${response.status} about ${sid}`);
      const service = (await response.json()) as { us_app_to_person_registered?: unknown };
      return service.us_app_to_person_registered === true;
    },
  };
}

export async function textChecks({ config, twilio }: ReadyFacts): Promise<ReadyCheck[]> {
  const sms = config.messaging.sms;
  if (!sms)
    return [
      check(
        'texts-on',
        'texts',
        'amber',
        'Texts are set up',
        'texts are off: nobody gets a launch text',
        'To text the launch, set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM (docs/messaging.md).',
      ),
    ];
  if (sms.provider === 'folder')
    return [
      check(
        'texts-on',
        'texts',
        'amber',
        'Texts go out',
        `a rehearsal: every text is written to ${sms.folder} (SMS_TRANSPORT=folder:…)`,
        'For the real launch, unset SMS_TRANSPORT and set the TWILIO_* settings.',
      ),
    ];
  const checks: ReadyCheck[] = [];
  try {
    await twilio?.account();
    checks.push(check('texts-account', 'texts', 'green', 'Twilio takes our sign-in', `account ${sms.accountSid}`));
  } catch (error) {
    checks.push(
      check(
        'texts-account',
        'texts',
        'red',
        'Twilio takes our sign-in',
        (error as Error).message,
        'Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN against the Twilio Console, and that the account is active.',
      ),
    );
  }
  if (sms.messagingServiceSid) {
    try {
      const registered = await twilio?.serviceRegistered(sms.messagingServiceSid);
      checks.push(
        check(
          'texts-a2p',
          'texts',
          registered ? 'green' : 'red',
          'Registered for A2P 10DLC',
          registered
            ? `Messaging Service ${sms.messagingServiceSid} has a registered US campaign`
            : `Messaging Service ${sms.messagingServiceSid} has no registered US campaign: carriers filter or block its texts`,
          'Register a brand and a campaign for it in the Twilio Console (Messaging > Regulatory Compliance), and wait for it to be approved.',
        ),
      );
    } catch (error) {
      checks.push(
        check(
          'texts-a2p',
          'texts',
          'amber',
          'Registered for A2P 10DLC',
          `could not ask Twilio: ${(error as Error).message}`,
          'Check again later.',
        ),
      );
    }
  } else if (sms.from?.startsWith('+1'))
    checks.push(
      check(
        'texts-a2p',
        'texts',
        'amber',
        'Registered for A2P 10DLC',
        `Twilio's API does not say whether the single number ${sms.from} is in a registered campaign`,
        'Check in the Twilio Console (Messaging > Regulatory Compliance) that it is, or send through a Messaging Service (TWILIO_MESSAGING_SERVICE_SID) so this check can read it.',
      ),
    );
  checks.push(
    sms.keywordReplies === 'twilio'
      ? check(
          'texts-keywords',
          'texts',
          'amber',
          'One answer to STOP, START and HELP',
          'SMS_KEYWORD_REPLIES=twilio: Twilio answers them alone, in its words; ours stay silent',
          `Check in the Twilio Console that its answers are on (Advanced Opt-Out), and give HELP our words: ${messageWordsIn.en.sms.help(contactFor(config.messaging, config.siteUrl)).join(' ')} In Spanish (AYUDA; ALTO, PARAR, CANCELAR, BAJA, DETENER and NO MÁS stop texts too): ${messageWordsIn.es.sms.help(contactFor(config.messaging, config.siteUrl)).join(' ')}`,
        )
      : check(
          'texts-keywords',
          'texts',
          'amber',
          'One answer to STOP, START and HELP',
          'we answer them (SMS_KEYWORD_REPLIES=ours); on a plain number Twilio answers too unless its handling is off, and after a STOP it blocks ours',
          "Turn Twilio's own answers off (Advanced Opt-Out on the Messaging Service, its replies off) so ours are the only ones, or set SMS_KEYWORD_REPLIES=twilio to leave them to Twilio.",
        ),
  );
  return checks;
}
