// Amazon SES's reports through Amazon SNS (POST /api/webhooks/ses): bounces, complaints, deliveries
// and delays, whether SES publishes them as identity notifications or as a configuration set's
// events. Verified before anything else is believed: SNS's signature (SignatureVersion 1, SHA1, or
// 2, SHA256) with the certificate fetched only from SNS's documented address,
// https://sns.<region>.amazonaws.com/SimpleNotificationService-<32 hex>.pem, at most 10 fetches a
// minute, and cached once it has worked; then only the topics in SES_SNS_TOPIC_ARNS, nothing older than an
// hour, and a subscription confirmed only for such a topic. Each SNS message is acted on once (its
// MessageId is the report's id). Every email carries its token as an SES message tag
// (X-SES-MESSAGE-TAGS), which SES hands back; a notification with the original headers has it in
// our own header as well; SES's messageId (recorded from its SMTP answer) matches as a last resort.
import { createVerify, X509Certificate } from 'node:crypto';
import { withoutAddresses } from '../messaging/log-safe.js';
import { TOKEN_HEADER } from '../messaging/message-log.js';
import { reportedAt, type FeedbackEvent, type FeedbackKind } from './report-event.js';
import { jsonBody, text, type FeedbackWebhook, type WebhookVerdict } from './provider-webhook.js';

/**
 * SNS's own hosts, the only ones a certificate or a subscription is fetched from: sns.<region>.
 * amazonaws.com (or .com.cn), the region as AWS names them (us-east-1, eu-central-2, us-gov-west-1,
 * cn-north-1): never another service's host on amazonaws.com, such as sns.s3.amazonaws.com.
 */
const SNS_HOST = /^sns\.[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d{1,2}\.amazonaws\.com(?:\.cn)?$/;
/** How long a certificate URL that did not answer is not asked again: a flood of made-up URLs costs one fetch each per this long. */
const FAILED_FETCH_KEPT_MS = 5 * 60_000;
/** SNS's documented certificate path: /SimpleNotificationService-<32 hex>.pem, nothing else. */
const SNS_CERTIFICATE_PATH = /^\/SimpleNotificationService-[0-9a-f]{32}\.pem$/;
/** Certificate fetches a minute at most: SNS uses one certificate for months, so more is a flood. */
export const MOST_CERTIFICATE_FETCHES_A_MINUTE = 10;
/** A message older than this (or this far in the future) is refused: a replay, or a clock gone wrong. */
const MAX_AGE_MS = 60 * 60_000;
/** The fields SNS signs, in its order, per message type. */
const SIGNED_FIELDS: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

type SnsMessage = Record<string, unknown>;

interface SesMail {
  messageId?: unknown;
  tags?: Record<string, unknown>;
  headers?: Array<{ name?: unknown; value?: unknown }>;
}

interface SesReport {
  notificationType?: unknown;
  eventType?: unknown;
  mail?: SesMail;
  bounce?: {
    bounceType?: unknown;
    bounceSubType?: unknown;
    timestamp?: unknown;
    bouncedRecipients?: Array<{ status?: unknown; diagnosticCode?: unknown }>;
  };
  complaint?: { complaintFeedbackType?: unknown; timestamp?: unknown };
  delivery?: { timestamp?: unknown; smtpResponse?: unknown };
  deliveryDelay?: { timestamp?: unknown; delayType?: unknown };
}

/** Is this SNS's own https URL (a certificate or a subscription to confirm)? */
export function isSnsUrl(value: string | undefined): value is string {
  if (!value) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.port === '' && !url.username && SNS_HOST.test(url.hostname);
  } catch {
    return false;
  }
}

/** Is this an SNS signing certificate's URL, of the documented shape (no query, no fragment)? */
export function isSnsCertificateUrl(value: string | undefined): value is string {
  if (!isSnsUrl(value)) return false;
  const url = new URL(value);
  return url.search === '' && url.hash === '' && SNS_CERTIFICATE_PATH.test(url.pathname);
}

/** More certificate fetches than MOST_CERTIFICATE_FETCHES_A_MINUTE asked for: SNS sends the message again. */
class TooManyFetches extends Error {}

/** What SNS signed: each field present, as "Name\nvalue\n", in SIGNED_FIELDS' order. */
export function snsStringToSign(message: SnsMessage): string | undefined {
  const fields = SIGNED_FIELDS[String(message.Type)];
  if (!fields) return undefined;
  let signed = '';
  for (const field of fields) {
    const value = message[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return undefined;
    signed += `${field}\n${value}\n`;
  }
  return signed;
}

/** What one SES report means for us: kind, when, the code and words. */
function reading(report: SesReport): { kind: FeedbackKind; at?: unknown; code?: string; detail?: string } | undefined {
  const type = text(report.notificationType) ?? text(report.eventType);
  switch (type) {
    case 'Bounce': {
      const recipient = report.bounce?.bouncedRecipients?.[0];
      const code = text(recipient?.status);
      const detail = text(recipient?.diagnosticCode) ?? text(report.bounce?.bounceSubType);
      // Permanent: the address is gone (or SES already knows it is). Transient and Undetermined: not for now.
      const kind = report.bounce?.bounceType === 'Permanent' ? 'hard_bounce' : 'soft_bounce';
      return { kind, at: report.bounce?.timestamp, ...(code ? { code } : {}), ...(detail ? { detail } : {}) };
    }
    case 'Complaint':
      // A mailbox provider saying its user meant "not spam" is no complaint.
      if (report.complaint?.complaintFeedbackType === 'not-spam') return undefined;
      return {
        kind: 'complaint',
        at: report.complaint?.timestamp,
        ...(text(report.complaint?.complaintFeedbackType)
          ? { code: String(report.complaint?.complaintFeedbackType) }
          : {}),
      };
    case 'Delivery': {
      const detail = text(report.delivery?.smtpResponse);
      return { kind: 'delivered', at: report.delivery?.timestamp, ...(detail ? { detail } : {}) };
    }
    case 'DeliveryDelay': {
      const detail = text(report.deliveryDelay?.delayType);
      return { kind: 'delayed', at: report.deliveryDelay?.timestamp, ...(detail ? { detail } : {}) };
    }
    case 'Send':
      return { kind: 'sent' };
    default:
      return undefined; // Open, Click, Reject (SES refused our message: ours), Rendering Failure …
  }
}

/** Our token: SES's message tag first, then our own header among the original headers. */
function tokenOf(mail: SesMail | undefined): string | undefined {
  const tag = mail?.tags?.token;
  if (Array.isArray(tag) && text(tag[0])) return String(tag[0]);
  const header = mail?.headers?.find(
    (entry) => typeof entry.name === 'string' && entry.name.toLowerCase() === TOKEN_HEADER.toLowerCase(),
  );
  return text(header?.value);
}

export interface SesWebhookOptions {
  topicArns: string[];
  /** Tests only: SNS's hosts reached here instead (the certificate's path kept). */
  snsBaseUrl?: string;
  now?: () => number;
}

export function createSesWebhook({
  topicArns,
  snsBaseUrl,
  now = () => Date.now(),
}: SesWebhookOptions): FeedbackWebhook {
  const topics = new Set(topicArns);
  /** Certificates by URL; a failed fetch is kept for FAILED_FETCH_KEPT_MS, then tried again. At most 100. */
  const certificates = new Map<string, { certificate: Promise<X509Certificate>; failedAt?: number }>();
  /** Where an SNS URL is reached: itself, or (tests only) the stand-in with the same path and query. */
  const reach = (url: string) => (snsBaseUrl ? `${snsBaseUrl}${new URL(url).pathname}${new URL(url).search}` : url);

  /** When the last fetches began, for the cap. */
  const fetchedAt: number[] = [];
  const certificate = (url: string): Promise<X509Certificate> => {
    const cached = certificates.get(url);
    if (cached && (cached.failedAt === undefined || now() - cached.failedAt < FAILED_FETCH_KEPT_MS))
      return cached.certificate;
    while (fetchedAt.length > 0 && now() - fetchedAt[0]! > 60_000) fetchedAt.shift();
    if (fetchedAt.length >= MOST_CERTIFICATE_FETCHES_A_MINUTE) return Promise.reject(new TooManyFetches());
    fetchedAt.push(now());
    const entry: { certificate: Promise<X509Certificate>; failedAt?: number } = {
      certificate: (async () => {
        const response = await fetch(reach(url), { signal: AbortSignal.timeout(10_000) });
        if (!response.ok) throw new Error(`the certificate URL answered ${response.status}`);
        return new X509Certificate(await response.text());
      })(),
    };
    entry.certificate.catch(() => (entry.failedAt = now()));
    certificates.delete(url);
    certificates.set(url, entry);
    if (certificates.size > 100) certificates.delete(certificates.keys().next().value!);
    return entry.certificate;
  };

  return {
    source: 'ses',
    async handle(request): Promise<WebhookVerdict> {
      const message = jsonBody(request) as SnsMessage | undefined;
      if (!message || typeof message !== 'object')
        return { ok: false, status: 401, reason: 'not a signed SNS message' };
      const version = message.SignatureVersion;
      const signature = text(message.Signature);
      const certUrl = text(message.SigningCertURL);
      const signed = snsStringToSign(message);
      if ((version !== '1' && version !== '2') || !signature || !signed)
        return { ok: false, status: 401, reason: 'no SNS signature' };
      if (!isSnsCertificateUrl(certUrl))
        return { ok: false, status: 401, reason: "the signing certificate is not at SNS's own certificate address" };
      let verified = false;
      try {
        const cert = await certificate(certUrl);
        const verifier = createVerify(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
        verifier.update(signed, 'utf8');
        verified = verifier.verify(cert.publicKey, signature, 'base64');
      } catch (error) {
        if (error instanceof TooManyFetches)
          return { ok: false, status: 503, reason: 'too many signing certificates asked for just now' };
        verified = false;
      }
      if (!verified) return { ok: false, status: 401, reason: 'the SNS signature does not match' };

      // Signed by SNS: now, is it for us, and fresh?
      if (!topics.has(String(message.TopicArn)))
        return { ok: false, status: 403, reason: 'a topic not in SES_SNS_TOPIC_ARNS' };
      const sentAt = Date.parse(String(message.Timestamp));
      if (!Number.isFinite(sentAt) || Math.abs(now() - sentAt) > MAX_AGE_MS)
        return { ok: false, status: 403, reason: 'the message is more than an hour old (or in the future)' };

      if (message.Type === 'SubscriptionConfirmation') {
        const subscribeUrl = text(message.SubscribeURL);
        if (!isSnsUrl(subscribeUrl)) return { ok: false, status: 403, reason: "the subscription URL is not SNS's own" };
        return { ok: true, events: [], confirmSubscriptionUrl: reach(subscribeUrl) };
      }
      if (message.Type !== 'Notification') return { ok: true, events: [] };

      const snsId = text(message.MessageId);
      let report: SesReport;
      try {
        report = JSON.parse(String(message.Message)) as SesReport;
      } catch {
        return { ok: true, events: [] }; // a test message typed into the SNS console
      }
      const read = report && typeof report === 'object' ? reading(report) : undefined;
      if (!read || !snsId) return { ok: true, events: [] };
      const token = tokenOf(report.mail);
      const providerId = text(report.mail?.messageId);
      const at = Date.parse(String(read.at));
      const event: FeedbackEvent = {
        source: 'ses',
        eventId: snsId,
        kind: read.kind,
        message: { ...(token ? { token } : {}), ...(providerId ? { providerId } : {}) },
        occurredAt: reportedAt(at, sentAt),
        ...(read.code ? { code: read.code } : {}),
        ...(read.detail ? { detail: withoutAddresses(read.detail).slice(0, 300) } : {}),
      };
      return { ok: true, events: [event] };
    },
    tagHeaders: (token) => ({ 'X-SES-MESSAGE-TAGS': `token=${token}` }),
  };
}
