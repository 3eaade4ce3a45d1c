// Amazon SES through SNS, through the real app, on every engine: messages signed as SNS signs them
// (versions 1 and 2) with a throwaway certificate served by a stand-in at SNS's edge; a bounce and a
// complaint act once even when SNS delivers them twice; the subscription is confirmed only for our
// topic; tampered, unsigned, stale, wrong-topic and off-host ones get 401/403 and change nothing.
import { describe, expect, it, onTestFinished } from 'vitest';
import { addPeople, setup } from '../test/broadcast-setup.js';
import { appFor, firstTokens, mayEmail } from '../test/broadcast-world-app.js';
import { startSnsStandIn, SNS_REGION } from '../test/sns-stand-in.js';
import { storeEngines } from '../test/store-engines.js';
import { configuredWebhooks, tagHeadersFor } from '../compose-reports.js';
import { isSnsUrl, MOST_CERTIFICATE_FETCHES_A_MINUTE } from './ses-webhook.js';
import { machineClock } from '../test/clock.js';

const TOPIC = `arn:aws:sns:${SNS_REGION}:123456789012:ses-feedback`;
const OTHER_TOPIC = `arn:aws:sns:${SNS_REGION}:123456789012:someone-elses`;

/** An SES bounce as SES publishes it (a configuration set's event), about the message with this token. */
function sesBounce(token: string, bounceType: 'Permanent' | 'Transient' = 'Permanent') {
  return {
    eventType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: bounceType === 'Permanent' ? 'General' : 'MailboxFull',
      bouncedRecipients: [
        {
          emailAddress: 'person0@example.com',
          action: 'failed',
          status: '5.1.1',
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        },
      ],
      timestamp: machineClock.now().toISOString(),
      feedbackId: '0100018b-bounce',
      reportingMTA: 'dsn; a8-50.smtp-out.amazonses.com',
    },
    mail: {
      timestamp: machineClock.now().toISOString(),
      source: 'news@scamsavvy.example',
      messageId: '0100018b-ses-message-id',
      destination: ['person0@example.com'],
      tags: { 'ses:configuration-set': ['scamsavvy'], token: [token] },
    },
  };
}

/** An SES complaint as an identity notification with the original headers (our token among them). */
function sesComplaint(token: string) {
  return {
    notificationType: 'Complaint',
    complaint: {
      complainedRecipients: [{ emailAddress: 'person1@example.com' }],
      timestamp: machineClock.now().toISOString(),
      feedbackId: '0100018b-complaint',
      complaintFeedbackType: 'abuse',
    },
    mail: {
      messageId: '0100018b-other',
      headersTruncated: false,
      headers: [
        { name: 'From', value: 'ScamSavvy <news@scamsavvy.example>' },
        { name: 'X-ScamSavvy-Token', value: token },
      ],
    },
  };
}

describe('SNS URLs', () => {
  it("takes only SNS's own https hosts", () => {
    expect(isSnsUrl('https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem')).toBe(true);
    expect(isSnsUrl('https://sns.cn-north-1.amazonaws.com.cn/x.pem')).toBe(true);
    expect(isSnsUrl('https://sns.us-gov-west-1.amazonaws.com/x.pem')).toBe(true);
    expect(isSnsUrl('https://sns.ap-southeast-2.amazonaws.com/x.pem')).toBe(true);
    for (const url of [
      'https://sns.s3.amazonaws.com/x.pem',
      'https://sns.amazonaws.com/x.pem',
      'https://sns.evil-bucket.amazonaws.com/x.pem',
      'http://sns.us-east-1.amazonaws.com/x.pem',
      'https://sns.us-east-1.amazonaws.com.evil.example/x.pem',
      'https://evil.example/sns.us-east-1.amazonaws.com/x.pem',
      'https://sns.us-east-1.amazonaws.com:8443/x.pem',
      'https://user@sns.us-east-1.amazonaws.com/x.pem',
      'not a url',
    ])
      expect(isSnsUrl(url), url).toBe(false);
  });
});

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`Amazon SES through SNS on ${engine.name}`, () => {
    it('confirms our subscription only; a bounce and a complaint act once; forged, tampered, stale and wrong-topic ones change nothing', async () => {
      const sns = await startSnsStandIn();
      onTestFinished(() => sns.stop());
      const world = await setup(engine.name, {
        env: {
          SES_SNS_TOPIC_ARNS: `${TOPIC}, arn:aws:sns:eu-west-1:123456789012:spare`,
          SES_SNS_BASE_URL: sns.baseUrl,
        },
      });
      // Every email carries its token where SES hands it back.
      expect(tagHeadersFor(configuredWebhooks(world.config.messaging))('t0ken')).toEqual({
        'X-SES-MESSAGE-TAGS': 'token=t0ken',
      });
      const people = await addPeople(world.store, 3);
      const { broadcast } = await world.broadcasts.create({ name: 'launch', template: 'launch' });
      expect((await world.send(broadcast)).sent).toBe(3);
      const app = await appFor(world);
      onTestFinished(() => app.close());
      const tokens = await firstTokens(world, people);
      const post = (message: unknown) =>
        app.inject({
          method: 'POST',
          url: '/api/webhooks/ses',
          headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
          payload: JSON.stringify(message),
        });

      // The subscription: confirmed for our topic (by a GET to SNS's own URL), refused for another.
      const subscription = (topic: string) =>
        sns.sign({
          Type: 'SubscriptionConfirmation',
          MessageId: crypto.randomUUID(),
          Token: 'confirm-token-1',
          TopicArn: topic,
          Message: `You have chosen to subscribe to the topic ${topic}.`,
          SubscribeURL: `https://sns.${SNS_REGION}.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${topic}&Token=confirm-token-1`,
          Timestamp: machineClock.now().toISOString(),
        });
      expect((await post(subscription(OTHER_TOPIC))).statusCode).toBe(403);
      expect(sns.confirmed()).toHaveLength(0);
      expect((await post(subscription(TOPIC))).statusCode).toBe(200);
      expect(sns.confirmed().map((query) => query.get('TopicArn'))).toEqual([TOPIC]);

      const bounce = sns.notification(TOPIC, sesBounce(tokens[0]!));
      // Refused, and nothing changes: unsigned, tampered with, another topic, an hour old, a certificate off SNS's host.
      const { Signature: _signature, ...unsigned } = bounce;
      expect((await post(unsigned)).statusCode).toBe(401);
      expect((await post({ ...bounce, Message: JSON.stringify(sesBounce(tokens[2]!)) })).statusCode).toBe(401);
      expect((await post(sns.notification(OTHER_TOPIC, sesBounce(tokens[0]!)))).statusCode).toBe(403);
      const stale = sns.notification(TOPIC, sesBounce(tokens[0]!), {
        Timestamp: new Date(machineClock.ms() - 2 * 3_600_000).toISOString(),
      });
      expect((await post(stale)).statusCode).toBe(403);
      const offHost = sns.sign({ ...unsigned, SigningCertURL: `${sns.baseUrl}/SimpleNotificationService-x.pem` });
      expect((await post(offHost)).statusCode).toBe(401);
      // A certificate URL on SNS's host that SNS does not have: refused, and fetched once, not once a message.
      const certUrl = (name: string) => `https://sns.us-east-1.amazonaws.com/SimpleNotificationService-${name}.pem`;
      const missing = sns.sign({ ...unsigned, SigningCertURL: certUrl('f'.repeat(32)) });
      const fetchesBefore = sns.certificateFetches();
      expect((await post(missing)).statusCode).toBe(401);
      expect((await post(missing)).statusCode).toBe(401);
      expect(sns.certificateFetches()).toBe(fetchesBefore + 1);
      // Not of SNS's documented shape (a made-up name, a query, another folder): refused unfetched.
      for (const url of [certUrl('missing'), `${certUrl('e'.repeat(32))}?x=1`, certUrl('../other/x')])
        expect((await post(sns.sign({ ...unsigned, SigningCertURL: url }))).statusCode).toBe(401);
      expect(sns.certificateFetches()).toBe(fetchesBefore + 1);
      // A flood of well-shaped URLs costs at most MOST_CERTIFICATE_FETCHES_A_MINUTE fetches; the rest wait (503).
      const answers: number[] = [];
      for (let index = 0; index < MOST_CERTIFICATE_FETCHES_A_MINUTE + 5; index += 1)
        answers.push(
          (await post(sns.sign({ ...unsigned, SigningCertURL: certUrl(index.toString(16).padStart(32, '0')) })))
            .statusCode,
        );
      expect(sns.certificateFetches()).toBeLessThanOrEqual(fetchesBefore + MOST_CERTIFICATE_FETCHES_A_MINUTE);
      expect(answers.filter((status) => status === 503).length).toBeGreaterThanOrEqual(5);
      const fetchesAfterFlood = sns.certificateFetches();
      expect((await post('not json at all')).statusCode).toBe(401);
      // Signed by SNS, but naming a token we never issued: kept, acts on nobody.
      expect((await post(sns.notification(TOPIC, sesBounce('a'.repeat(32))))).json()).toMatchObject({ unmatched: 1 });
      expect(await mayEmail(world, people[0]!)).toBe(true);
      expect(await mayEmail(world, people[2]!)).toBe(true);

      // The real one (version 1), delivered twice by SNS: acted on once.
      expect((await post(bounce)).json()).toMatchObject({ stored: 1, duplicates: 0 });
      expect((await post(bounce)).json()).toMatchObject({ stored: 0, duplicates: 1 });
      expect(await mayEmail(world, people[0]!)).toBe(false);
      const history = await world.store.consentEvents.history(people[0]!.id);
      expect(history.filter((event) => event.kind === 'email_bounced')).toHaveLength(1);

      // A complaint, signed with version 2 (SHA256), matched by our header among the original headers.
      const complaint = sns.sign(
        {
          Type: 'Notification',
          MessageId: crypto.randomUUID(),
          TopicArn: TOPIC,
          Subject: 'Amazon SES Email Event Notification',
          Message: JSON.stringify(sesComplaint(tokens[1]!)),
          Timestamp: machineClock.now().toISOString(),
        },
        '2',
      );
      expect((await post(complaint)).json()).toMatchObject({ stored: 1 });
      expect(await mayEmail(world, people[1]!)).toBe(false);
      expect(await mayEmail(world, people[2]!)).toBe(true);
      // One certificate fetch served every message (it is cached once it has worked), besides the missing ones'.
      expect(fetchesBefore).toBe(1);
      expect(sns.certificateFetches()).toBe(fetchesAfterFlood);
      expect(
        await world.store.messageHealth.health(
          broadcast.id,
          'email',
          (await world.store.broadcasts.get('launch'))!.startedAt,
        ),
      ).toMatchObject({ messages: 3, hardBounced: 1, complained: 1 });
    });

    it('is not there while SES_SNS_TOPIC_ARNS is unset', async () => {
      const world = await setup(engine.name);
      const app = await appFor(world);
      onTestFinished(() => app.close());
      expect((await app.inject({ method: 'POST', url: '/api/webhooks/ses', payload: '{}' })).statusCode).toBe(404);
    });
  });
}
