// Each inbound text's provider id (Twilio's MessageSid), so a text delivered or replayed twice is acted on once.
import type { Time } from './column-types.js';

export interface InboundTextsTable {
  provider_id: string;
  received_at: Time;
}
