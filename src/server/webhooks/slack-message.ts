// What a Slack endpoint posts (issue 56): the list growing and the launch's progress, in plain
// words and never with a person's details. Slack reads { "text": … } from an incoming webhook;
// so do Mattermost, Rocket.Chat and others that take Slack's format.
import { number, plural } from '../../shared/plain-numbers.js';

export interface Growth {
  total: number;
  today: number;
  throughFamily: number;
}

export interface BroadcastFacts {
  name: string;
  channels: string[];
  resumed?: boolean;
  /** For the end: how many went and how many did not. */
  sent?: number;
  notSent?: number;
}

const channelWords = (channels: string[]) =>
  channels.map((channel) => (channel === 'sms' ? 'texts' : channel)).join(' and ');

export const slackWords = {
  signup: ({ total, today, throughFamily }: Growth) =>
    `New sign-up: ${number(today)} today, ${number(total)} in all (${number(throughFamily)} through a family link)`,
  started: ({ name, channels, resumed }: BroadcastFacts) =>
    `The broadcast “${name}” ${resumed ? 'is sending again' : 'started sending'} (${channelWords(channels)}).`,
  paused: ({ name }: BroadcastFacts) => `The broadcast “${name}” is paused.`,
  completed: ({ name, sent = 0, notSent = 0 }: BroadcastFacts) =>
    `The broadcast “${name}” is finished: ${plural(sent, 'message')} sent, ${number(notSent)} not sent.`,
  test: 'A test from ScamSavvy: this channel will be told of new sign-ups and the launch.',
};

/** The Slack text for an event, or undefined for one Slack is not told of. */
export function slackText(type: string, facts: { growth?: Growth; broadcast?: BroadcastFacts }): string | undefined {
  switch (type) {
    case 'signup.created':
      return facts.growth ? slackWords.signup(facts.growth) : undefined;
    case 'broadcast.started':
      return facts.broadcast ? slackWords.started(facts.broadcast) : undefined;
    case 'broadcast.paused':
      return facts.broadcast ? slackWords.paused(facts.broadcast) : undefined;
    case 'broadcast.completed':
      return facts.broadcast ? slackWords.completed(facts.broadcast) : undefined;
    case 'webhook.test':
      return slackWords.test;
    default:
      return undefined;
  }
}
