// A rule table (SMTP_RULES, over 400 lines by design). Whose fault a failed email was: the one place an SMTP server's answer (or a failure to reach it)
// is read and given a verdict, from nodemailer's error or from an error text stored earlier. The
// rules are data (SMTP_RULES), in order; docs/messaging.md has them as a table, decision 026 says why.
import { withoutAddresses } from './log-safe.js';
import { KEEP_TRYING, type FailureKind, type FailureVerdict } from './send-failure.js';

/** What a failed SMTP exchange said, read from nodemailer's error or from a stored error text. */
export interface SmtpAnswer {
  /** nodemailer's code: EAUTH, ENOAUTH, EENVELOPE, EMESSAGE, ECONNECTION, ETIMEDOUT, EDNS, ETLS, ESOCKET … */
  code?: string;
  /** The system's code underneath: ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED … */
  systemCode?: string;
  /** The server's reply code: 535, 550 … */
  reply?: number;
  /** The enhanced status code (RFC 3463) in the reply: 5.1.1, 5.7.8 … */
  status?: string;
  /** The command the server answered: AUTH PLAIN, MAIL FROM, RCPT TO, DATA, CONN. */
  command?: string;
  /** The mail server's host name, when it could not be found. */
  host?: string;
  /** Everything the error said (its message and the server's reply), addresses removed. */
  text: string;
}

/** One row of the table: which answers it covers, whose fault they are, and what to tell the owner. */
export interface SmtpRule {
  id: string;
  /** The answers it covers, in the words of the docs' table. */
  answer: string;
  kind: FailureKind;
  /** Refused for our sending: counted, and the channel pauses when they mount up (verdict.refused). */
  refused?: true;
  /** The person's own server's policy: skipped for this send (verdict.skip). */
  skip?: true;
  matches(answer: SmtpAnswer): boolean;
  reason(answer: SmtpAnswer): string;
}

/** nodemailer's own codes, which say which step failed (not what the system said). */
const NODEMAILER_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EREQUIRETLS',
  'EPROTOCOL',
  'EENVELOPE',
  'EMESSAGE',
  'ESTREAM',
  'EABORT',
  'EAUTH',
  'ENOAUTH',
  'EOAUTH2',
  'EMAXLIMIT',
  'EPROXY',
]);

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
]);
const CERTIFICATE = /certificate|self[- ]signed|altnames|SSL routines|Error initiating TLS|wrong version number/i;

/** "550 5.1.1" or "535" for the reasons: what the server said, without its words. */
function said(answer: SmtpAnswer): string {
  return [answer.reply, answer.status].filter(Boolean).join(' ');
}

/** " (550 5.1.1)", or nothing when the server gave no code. */
function inBrackets(answer: SmtpAnswer): string {
  const codes = said(answer);
  return codes ? ` (${codes})` : '';
}

/** The answer itself, addresses removed and cut short, for the owner to read. */
export function quoteSmtpAnswer(answer: SmtpAnswer): string {
  const text = answer.text.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** A refusal of the message's text rather than its address: a filter's, whatever it says. */
const afterTheText = (answer: SmtpAnswer) => /^DATA/i.test(answer.command ?? '') || AFTER_THE_TEXT.test(answer.text);
const permanentReply = (answer: SmtpAnswer) => answer.reply !== undefined && answer.reply >= 500;
const statusIn = (answer: SmtpAnswer, ...statuses: string[]) =>
  answer.status !== undefined && statuses.includes(answer.status);
const words = (answer: SmtpAnswer, pattern: RegExp) => pattern.test(answer.text);

/** Words an account-level stop uses (Amazon SES, SendGrid, Mailgun, Google Workspace). */
const ACCOUNT_STOPPED =
  /sending (?:is )?paused|(?:your|sending|our) account (?:is |has been )?(?:suspended|paused|on hold)|account (?:is )?under review/i;
const QUOTA_USED = /(?:daily|sending|message) (?:message )?quota|credits? exceeded|sending limit/i;
const MAILBOX_FULL = /mailbox (?:is )?full|over quota|out of storage|quota exceeded|insufficient (?:disk )?space/i;
/** A person's mailbox that exists but takes nothing now: disabled, suspended, inactive (it may come back). */
const MAILBOX_DISABLED =
  /(?:account|mailbox|user)(?: that you tried to reach)? (?:is |has been )?(?:disabled|suspended|inactive|deactivated|locked|blocked)|account (?:is )?(?:disabled|suspended)/i;
/**
 * An address, or its domain, that does not exist, in any words: the usual ones, then each big
 * provider's and mail server's own (Gmail, Yahoo and AOL, Microsoft 365 and Outlook.com, Postfix, Domino).
 */
const NO_SUCH_ADDRESS = new RegExp(
  [
    'no such (?:user|mailbox|recipient|address|account|domain|person)',
    'user unknown|unknown (?:user|recipient|mailbox|address|local part|alias)',
    "(?:user|mailbox|recipient|address|account)(?: name)? (?:not found|does not exist|doesn't exist|not exist|is unknown|invalid|unavailable)",
    'invalid (?:recipient|mailbox|address|final delivery userid)|destinataire invalide|not a valid (?:mailbox|recipient|user)',
    'address rejected\\.?(?:$|\\s)|does not exist|unrouteable address|no valid recipients',
    "account that you tried to reach does not exist|doesn't have an? [\\w.-]+ account|does not have an? [\\w.-]+ account",
    'recipient (?:address )?rejected: (?:access denied|user unknown|undeliverable address|mailbox not found)',
    'recipientnotfound|recipient not found|mailbox not found|mailbox unavailable|no mailbox here',
    'not listed in (?:the )?(?:domino directory|public name)',
    'host unknown|host or domain name not found|no such domain|domain (?:not found|does not exist)|dns lookup failure|no mx record|does not accept mail|not accepting (?:network )?messages|domain is not reachable',
  ].join('|'),
  'i',
);
/**
 * A receiving server refusing us, not the person: our domain's authentication (SPF, DKIM, DMARC),
 * block lists, our reputation, volume and spam policy. Never a person's suppression, whatever code
 * comes with it (a Spamhaus listing may come as 553 5.1.3, "too many recipients" as 5.1.1).
 */
const OUR_AUTHENTICATION =
  /\b(?:SPF|DMARC|DKIM)\b|unauthenticated|not authenticated|authentication (?:failed|failure|required)/i;
const REFUSED_FOR_OUR_SENDING = new RegExp(
  [
    'spamhaus|spamcop|barracuda|sorbs|blocked using|black ?list|block ?list|\\bRBL\\b|DNSBL|listed (?:at|in|on|by) \\S*(?:bl\\b|rbl|spam|block|black|abuse|\\.org|\\.net)',
    'reputation|too many (?:recipients|messages|connections|mails)|rate (?:limit|that prevents)|sending rate|sent too many|too fast',
    'spam|junk|unsolicited|bulk mail|policy reasons|content (?:rejected|filter)|message (?:rejected|refused|blocked) (?:as|due|because|by)',
    '\\bPTR\\b|reverse (?:DNS|lookup|hostname)|\\brDNS\\b|ip address .*(?:blacklisted|blocked|rejected|refused)|client host .* (?:blocked|rejected)',
    '(?:your|sender|sending|the) ip|blocked for|temporarily blocked|has been blocked',
  ].join('|'),
  'i',
);
/**
 * A person's own server refusing this email by its policy (a group that only takes mail from its
 * members, a recipient who allows only known senders): about that person, for this send.
 */
const PERSONS_POLICY =
  /not authori[sz]ed to send to (?:this|the) recipient|sendernotauthenticatedforgroup|RESOLVER\.RST\.|restricted (?:group|recipient|to members)|recipient preferences|only accepts mail from|not (?:allowed|permitted) to (?:send|post) to|delivery not authori[sz]ed|requires authentication to send to/i;
/**
 * A server that will not send for us, or not from our From address, or not unauthenticated mail:
 * our setup, whoever the recipient. The 5.7.1 decision (decision 026): these words make a policy
 * refusal ours; without them it stays unknown (perhaps the recipient's server judging the message).
 */
const NOT_FOR_US =
  /relay|sender|send(?:ing)? as\b|sendas|not (?:allowed|permitted|authori[sz]ed) to send|from address|mail from|unauthenticated|not authenticated|authentication required|not verified|unverified/i;
/** A refusal given after the message's text (DATA), not to the address: a content filter's, whatever its words. */
const AFTER_THE_TEXT = /\b(?:end of )?DATA\b(?: command)?|after (?:end of )?data|smtp command data/;

/** What a certificate or TLS failure was, in plain words. */
function tlsTrouble(answer: SmtpAnswer): string {
  const what = `${answer.systemCode ?? ''} ${answer.text}`;
  if (/EXPIRED|has expired/i.test(what)) return 'its certificate has expired';
  if (/SELF_SIGNED|self[- ]signed/i.test(what)) return 'its certificate is self-signed';
  if (/ALTNAME|altnames/i.test(what)) return 'its certificate is for another name';
  if (/WRONG_VERSION|wrong version number/i.test(what)) return 'it does not speak TLS on this port';
  if (/UNABLE_TO|unable to (?:verify|get)/i.test(what)) return 'its certificate could not be checked';
  return 'the secure connection failed';
}

/** How the connection failed, in plain words. */
function connectionTrouble(answer: SmtpAnswer): string {
  const what = `${answer.systemCode ?? ''} ${answer.code ?? ''} ${answer.text}`;
  if (/ECONNREFUSED|connection refused/i.test(what)) return 'connection refused';
  if (/EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN|unreachable/i.test(what)) return 'network unreachable';
  if (/ETIMEDOUT|timeout|timed out|greeting never received/i.test(what)) return 'timed out';
  return 'the connection dropped';
}

/** The rules, in order: the first that matches gives the verdict; none matching means unknown. */
export const SMTP_RULES: readonly SmtpRule[] = [
  {
    id: 'sign-in',
    answer:
      'Our sign-in refused or missing: 530, 534, 535, 538; 5.7.8, 5.7.9, 5.7.14; 5.7.0 to AUTH (nodemailer EAUTH, ENOAUTH)',
    kind: 'sender',
    matches: (answer) =>
      !(answer.reply !== undefined && answer.reply < 500) &&
      (answer.code === 'EAUTH' ||
        answer.code === 'ENOAUTH' ||
        [530, 534, 535, 538].includes(answer.reply ?? 0) ||
        (permanentReply(answer) && statusIn(answer, '5.7.8', '5.7.9', '5.7.14')) ||
        (statusIn(answer, '5.7.0') && /^AUTH/i.test(answer.command ?? ''))),
    reason: (answer) =>
      answer.code === 'ENOAUTH'
        ? 'The mail server wants us to sign in, and SMTP_URL has no user name or password: add them, then resume.'
        : answer.reply === 530 || answer.reply === 538
          ? `The mail server wants us to sign in first${inBrackets(answer)}: check the user name and password in SMTP_URL (and smtp:// with port 587, or smtps:// with 465), then resume.`
          : `The mail server refused our sign-in${inBrackets(answer)}: check the user name and password in SMTP_URL, then resume.`,
  },
  {
    id: 'account-stopped',
    answer:
      'Our sending account paused or suspended ("554 Message rejected: Sending paused for this account", Amazon SES)',
    kind: 'sender',
    matches: (answer) => words(answer, ACCOUNT_STOPPED) && !/^5\.[12]\./.test(answer.status ?? ''),
    reason: (answer) =>
      `The email provider has paused or suspended our sending account${inBrackets(answer)}: see its console (for Amazon SES, the account's sending status), then resume.`,
  },
  {
    id: 'quota-used',
    answer: 'Our sending quota used up ("Daily message quota exceeded", 5.4.5 "Daily user sending quota exceeded")',
    kind: 'sender',
    matches: (answer) => words(answer, QUOTA_USED),
    reason: (answer) =>
      `The email provider says our sending quota is used up${inBrackets(answer)}: raise the quota, or wait until it resets, then resume.`,
  },
  {
    id: 'mailbox-full',
    answer: 'The person\'s mailbox is full: 4.2.2, 5.2.2, "over quota"',
    kind: 'message',
    matches: (answer) => statusIn(answer, '4.2.2', '5.2.2') || words(answer, MAILBOX_FULL),
    reason: (answer) => `This person's mailbox is full${inBrackets(answer)}: we will try again later.`,
  },
  {
    id: 'try-later',
    answer: 'Any 4xx: 421 (busy, closing), 450, 451, 452, 454',
    kind: 'message',
    matches: (answer) => answer.reply !== undefined && answer.reply >= 400 && answer.reply < 500,
    reason: (answer) =>
      answer.code === 'EAUTH' || /^AUTH/i.test(answer.command ?? '')
        ? `The mail server could not check our sign-in just now${inBrackets(answer)}${KEEP_TRYING}`
        : answer.reply === 421
          ? `The mail server is busy or closing connections${inBrackets(answer)}${KEEP_TRYING}`
          : `The mail server asked us to try again later${inBrackets(answer)}${KEEP_TRYING}`,
  },
  {
    id: 'tls',
    answer:
      'A secure connection that failed: a certificate self-signed, expired or for another name, TLS on the wrong port (nodemailer ETLS)',
    kind: 'sender',
    matches: (answer) =>
      answer.code === 'ETLS' ||
      answer.code === 'EREQUIRETLS' ||
      /CERT|SELF_SIGNED|UNABLE_TO_|^ERR_SSL|^ERR_TLS/.test(answer.systemCode ?? '') ||
      words(answer, CERTIFICATE),
    reason: (answer) =>
      `We could not open a secure connection to the mail server (${tlsTrouble(answer)}): check the host and port in SMTP_URL (smtps:// with port 465, smtp:// with 587), then resume.`,
  },
  {
    id: 'dns-for-now',
    answer:
      "The mail server's name could not be looked up just now (EAI_AGAIN, ESERVFAIL, ETIMEOUT): a resolver's momentary answer",
    kind: 'message',
    matches: (answer) => ['EAI_AGAIN', 'ESERVFAIL', 'ETIMEOUT'].includes(answer.systemCode ?? ''),
    reason: (answer) =>
      `The mail server's name${answer.host ? ` (${answer.host})` : ''} could not be looked up just now${KEEP_TRYING}`,
  },
  {
    id: 'dns',
    answer: "The mail server's name not found (nodemailer EDNS: ENOTFOUND, EAI_FAIL, EAI_NONAME)",
    kind: 'sender',
    matches: (answer) =>
      answer.code === 'EDNS' || DNS_CODES.has(answer.systemCode ?? '') || words(answer, /getaddrinfo/i),
    reason: (answer) =>
      `The mail server's name${answer.host ? ` (${answer.host})` : ''} could not be found: check SMTP_URL, then resume.`,
  },
  {
    id: 'from-refused',
    answer: 'Our From address refused: a 5xx to MAIL FROM, 5.1.7, 5.1.8, "Sender address rejected"',
    kind: 'sender',
    matches: (answer) =>
      (permanentReply(answer) && /^MAIL FROM/i.test(answer.command ?? '')) ||
      statusIn(answer, '5.1.7', '5.1.8') ||
      words(answer, /sender address rejected|invalid sender/i),
    reason: (answer) =>
      `The mail server refused our From address${inBrackets(answer)}: check that MAIL_FROM is an address the SMTP_URL account may send from, then resume.`,
  },
  {
    id: 'persons-policy',
    answer:
      'The person\'s own server refusing this email by its policy: "not authorized to send to this recipient", 5.7.133 SenderNotAuthenticatedForGroup, "recipient preferences"',
    kind: 'message',
    skip: true,
    matches: (answer) => permanentReply(answer) && words(answer, PERSONS_POLICY),
    reason: (answer) =>
      `This person's own mail server refuses our email by its policy${inBrackets(answer)}: skipped for this send, and the send goes on. Nothing changes for the person.`,
  },
  {
    id: 'our-authentication',
    answer:
      'Our domain\'s authentication refused by the receiving server: 5.7.23 to 5.7.27, "SPF", "DKIM", "DMARC", "unauthenticated"',
    kind: 'sender',
    matches: (answer) =>
      permanentReply(answer) && (/^5\.7\.2[3-7]$/.test(answer.status ?? '') || words(answer, OUR_AUTHENTICATION)),
    reason: (answer) =>
      `The receiving mail server refused our email because our domain's authentication failed${inBrackets(answer)}: check the SPF, DKIM and DMARC records of MAIL_FROM's domain, then resume. Nobody is marked undeliverable for it.`,
  },
  {
    id: 'refused-for-our-sending',
    answer:
      'Refused for our sending, not the person: block lists ("Spamhaus", "blocked using", "listed"), reputation, volume ("too many recipients this hour"), spam policy, reverse DNS',
    kind: 'message',
    refused: true,
    matches: (answer) => permanentReply(answer) && words(answer, REFUSED_FOR_OUR_SENDING),
    reason: (answer) =>
      `The receiving mail server refused our email for our sending, not for this person${inBrackets(answer)}: a block list, our reputation, our volume or its spam policy. We will try again later; when such refusals mount up the channel pauses. Nobody is marked undeliverable for it.`,
  },
  {
    id: 'recipient-access-denied',
    answer:
      'Microsoft\'s "Recipient address rejected: Access denied" (550 5.4.1, 5.7.1): no such address in that directory',
    kind: 'recipient',
    matches: (answer) => permanentReply(answer) && words(answer, /recipient address rejected: access denied/i),
    reason: (answer) => `The mail server says this address does not exist${inBrackets(answer)}.`,
  },
  {
    id: 'mailbox-disabled',
    answer: 'The person\'s mailbox disabled, suspended or inactive: 5.2.1, "account is disabled"',
    kind: 'message',
    matches: (answer) =>
      permanentReply(answer) &&
      (words(answer, MAILBOX_DISABLED) || (statusIn(answer, '5.2.1') && !words(answer, NO_SUCH_ADDRESS))),
    reason: (answer) =>
      `This person's mailbox is disabled or suspended${inBrackets(answer)}: we will try again later. It counts as a soft bounce, never at once as an address that does not exist.`,
  },
  {
    id: 'no-such-address',
    answer:
      "This address or its domain does not exist: a 5xx with 5.1.1, 5.1.2, 5.1.3, 5.1.6, 5.1.10 or 5.4.4, not after the message's text",
    kind: 'recipient',
    matches: (answer) => permanentReply(answer) && /^5\.(?:1\.(?:1|2|3|6|10|351)|4\.4)$/.test(answer.status ?? ''),
    reason: (answer) => {
      const status = answer.status ?? '';
      const what =
        status === '5.2.1'
          ? 'this mailbox is disabled'
          : status === '5.1.2'
            ? "this address's domain takes no email"
            : status === '5.1.3'
              ? 'this is not a valid address'
              : status === '5.1.6'
                ? 'this mailbox has moved'
                : 'this address does not exist';
      return `The mail server says ${what}${inBrackets(answer)}.`;
    },
  },
  {
    id: 'no-such-address-in-words',
    answer:
      'The same, said in words by any 5xx ("No such user", "User unknown", "This user doesn\'t have a yahoo.com account", "mailbox unavailable", "Recipient address rejected: Access denied"), not after the message\'s text',
    kind: 'recipient',
    matches: (answer) =>
      permanentReply(answer) &&
      !afterTheText(answer) &&
      !/^5\.(?:1\.[078]|2\.0|7\.\d+)$/.test(answer.status ?? '') &&
      words(answer, NO_SUCH_ADDRESS),
    reason: (answer) => `The mail server says this address does not exist${inBrackets(answer)}.`,
  },
  {
    id: 'invalid-address',
    answer: 'An address nodemailer could not send to at all ("Invalid recipient", nothing sent)',
    kind: 'recipient',
    matches: (answer) =>
      answer.reply === undefined && answer.code === 'EENVELOPE' && words(answer, /invalid recipient/i),
    reason: () => 'This is not a valid email address, so nothing was sent.',
  },
  {
    id: 'not-for-us',
    answer:
      'Any other 5xx naming relaying, the sender, the From address or authentication: "5.7.1 Relaying denied", "5.7.26 unauthenticated", "Email address is not verified"',
    kind: 'sender',
    matches: (answer) => permanentReply(answer) && words(answer, NOT_FOR_US),
    reason: (answer) =>
      `The mail server refused to send email for us${inBrackets(answer)}: check that the SMTP_URL account may send as MAIL_FROM (and the domain's SPF and DKIM records), then resume.`,
  },
  {
    id: 'unreachable',
    answer:
      'The mail server not answering: connection refused, reset or dropped, timeouts (ESOCKET, ECONNECTION, ETIMEDOUT)',
    kind: 'message',
    matches: (answer) =>
      answer.reply === undefined &&
      (['ETIMEDOUT', 'ESOCKET', 'ECONNECTION', 'EPROXY'].includes(answer.code ?? '') ||
        NETWORK_CODES.has(answer.systemCode ?? '') ||
        words(answer, /greeting never received|connection timeout|connection closed|socket hang up|timed out/i)),
    reason: (answer) => `The mail server did not answer (${connectionTrouble(answer)})${KEEP_TRYING}`,
  },
];

/** The verdict for an answer no rule knows: never the person's fault; the owner reads it. */
function unknownVerdict(answer: SmtpAnswer): FailureVerdict {
  return {
    kind: 'unknown',
    reason: `We do not recognise the mail server's answer ("${quoteSmtpAnswer(answer)}"): we will try a few more times, then wait for you to read it and resume.`,
  };
}

/** The first rule that covers this answer, if any. */
export function smtpRuleFor(answer: SmtpAnswer): SmtpRule | undefined {
  return SMTP_RULES.find((rule) => rule.matches(answer));
}

export function classifySmtpAnswer(answer: SmtpAnswer): FailureVerdict {
  const rule = smtpRuleFor(answer);
  if (!rule) return unknownVerdict(answer);
  return {
    kind: rule.kind,
    reason: rule.reason(answer),
    ...(rule.refused ? { refused: true } : {}),
    ...(rule.skip ? { skip: true } : {}),
  };
}

/** The first reply code in a text ("Invalid login: 535 …"), not a port ("127.0.0.1:465") or a year. */
function replyIn(text: string): number | undefined {
  const found = text.match(/(?:^|\s)([45]\d\d)(?=[ -]|$)/m);
  return found ? Number(found[1]) : undefined;
}

/** The enhanced status code: the one right after the reply code, else the first that is not part of an IP address. */
function statusInText(text: string): string | undefined {
  const afterReply = text.match(/(?:^|\s)[245]\d\d[ -]([245]\.\d{1,3}\.\d{1,3})(?![.\d])/m);
  if (afterReply) return afterReply[1];
  return text.match(/(?<![\d.])([245]\.\d{1,3}\.\d{1,3})(?![.\d])/)?.[1];
}

/** nodemailer's message prefixes say which step failed, even in a stored text. */
const STEPS: { pattern: RegExp; code: string; command?: string }[] = [
  { pattern: /^Invalid login\b/i, code: 'EAUTH', command: 'AUTH' },
  { pattern: /^Missing credentials\b/i, code: 'ENOAUTH', command: 'AUTH' },
  { pattern: /^Mail command failed\b/i, code: 'EENVELOPE', command: 'MAIL FROM' },
  { pattern: /^Can't send mail - all recipients were rejected\b/i, code: 'EENVELOPE', command: 'RCPT TO' },
  { pattern: /^Invalid recipient\b/i, code: 'EENVELOPE', command: 'API' },
  { pattern: /^Invalid sender\b/i, code: 'EENVELOPE', command: 'API' },
  { pattern: /^(?:Message failed|Data command failed)\b/i, code: 'EMESSAGE', command: 'DATA' },
  { pattern: /^Error initiating TLS\b/i, code: 'ETLS', command: 'CONN' },
  { pattern: /^(?:Greeting never received|Connection timeout|Timeout)\b/i, code: 'ETIMEDOUT', command: 'CONN' },
  { pattern: /^Connection closed\b/i, code: 'ECONNECTION', command: 'CONN' },
];

/** A system's code in a text: a network or name lookup failure, or a certificate's. */
const SYSTEM_CODE = new RegExp(
  `\\b(${[...DNS_CODES, ...NETWORK_CODES].join('|')}|CERT_[A-Z_]+|ERR_(?:SSL|TLS)_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_[A-Z_]+)\\b`,
);

/** A host name as the system named it ("getaddrinfo ENOTFOUND smtp.example.org"), checked to be only a name. */
function hostIn(text: string): string | undefined {
  return onlyHost(text.match(/\b(?:ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)\s+(\S+)(?=\s|$)/)?.[1]);
}

/** The text when it is a host name and nothing else (never a user name or password beside it). */
function onlyHost(text: string | undefined): string | undefined {
  return text && /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?$/.test(text) ? text : undefined;
}

/**
 * Reads a stored error text ("Invalid login: 535 Authentication failed", "Can't send mail - all
 * recipients were rejected: 550 5.1.1 User unknown", "connect ECONNREFUSED 127.0.0.1:587"): what
 * nodemailer's fields would have said, as far as the words show it.
 */
export function readSmtpText(text: string): SmtpAnswer {
  const clean = withoutAddresses(text).trim();
  // A stored text may carry a prefix of ours ("gave up after 3 attempts: …").
  const step = STEPS.find(({ pattern }) => clean.split(/: /).some((part) => pattern.test(part)));
  const systemCode = clean.match(SYSTEM_CODE)?.[1];
  const reply = replyIn(clean);
  const status = statusInText(clean);
  const host = hostIn(clean);
  return {
    text: clean,
    ...(step ? { code: step.code } : {}),
    ...(step?.command ? { command: step.command } : {}),
    ...(systemCode ? { systemCode } : {}),
    ...(reply !== undefined ? { reply } : {}),
    ...(status ? { status } : {}),
    ...(host ? { host } : {}),
  };
}

/** The fields nodemailer puts on its errors (nodemailer's NodemailerError). */
interface NodemailerFields {
  message?: string;
  code?: string;
  originalCode?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  hostname?: string;
}

/** Reads nodemailer's error: its fields where it set them, the words of its message for the rest. */
export function readSmtpError(error: unknown): SmtpAnswer {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as NodemailerFields;
  const message = typeof fields.message === 'string' ? fields.message : String(error);
  const fromText = readSmtpText(message);
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const response = typeof fields.response === 'string' ? withoutAddresses(fields.response) : undefined;
  const status = response ? statusInText(response) : undefined;
  const systemCode =
    typeof fields.originalCode === 'string'
      ? fields.originalCode
      : code && !NODEMAILER_CODES.has(code)
        ? code
        : undefined;
  const host = typeof fields.hostname === 'string' ? onlyHost(fields.hostname) : undefined;
  return {
    ...fromText,
    ...(code && NODEMAILER_CODES.has(code) ? { code } : {}),
    ...(systemCode ? { systemCode } : {}),
    ...(typeof fields.responseCode === 'number' ? { reply: fields.responseCode } : {}),
    ...(status ? { status } : {}),
    ...(typeof fields.command === 'string' ? { command: fields.command } : {}),
    ...(host ? { host } : {}),
  };
}

/** The verdict on an error nodemailer threw (or any error a send threw). */
export function classifySmtpError(error: unknown): FailureVerdict {
  return classifySmtpAnswer(readSmtpError(error));
}

/** The verdict on a stored error text, e.g. an outbox row's `error` from an older release. */
export function classifySmtpText(text: string): FailureVerdict {
  return classifySmtpAnswer(readSmtpText(text));
}
