// The suppression list's fold (decision 053): what the rows kept for an address's hashes add up to,
// read by the contact rule and the repository alike.
import { iso, type Time } from './column-types.js';
import { ADDRESS_ONLY_REASONS, CHANNEL_OFF_REASONS, type SuppressionReason } from './suppressions.table.js';

export interface SuppressionEntry {
  /** The number replied STOP (only START from it lifts that). */
  stop: boolean;
  /** When it last did ('' if never). */
  stopAt: string;
  /** The newest leaving, deletion or STOP ('' if none): only the person lifts it (an emailed button, or START). */
  latestAt: string;
  /** The newest reason among latestAt's ('' if none). */
  latestReason: SuppressionReason | '';
  /** When a provider said the address cannot be reached, it bounced, or it complained ('' if never): this channel only. */
  undeliverableAt: string;
  /** The newest reason among undeliverableAt's ('' if none). */
  undeliverableReason: SuppressionReason | '';
  /** When the person last reported our email as spam ('' if never): their "no", which no sign-up lifts. */
  complainedAt: string;
  /** When a person last turned this channel off on this address ('' if not, or turned on again since). */
  offAt: string;
  /** When the one "come back?" email last went to this address ('' if never). */
  askedBackAt: string;
}

/** An address the list holds nothing about. */
export const NOT_SUPPRESSED: Readonly<SuppressionEntry> = {
  stop: false,
  stopAt: '',
  latestAt: '',
  latestReason: '',
  undeliverableAt: '',
  undeliverableReason: '',
  complainedAt: '',
  offAt: '',
  askedBackAt: '',
};

/** A row of the list as the fold reads it; a 'lifted' row names the row it lifts. */
export interface ListRow {
  hash: string;
  reason: SuppressionReason;
  at: string;
  lifts?: { reason: SuppressionReason; at: string } | undefined;
}

/** The list's rows for some hashes (liftings among them), folded into one entry per hash. */
export function entriesFrom(rows: ListRow[]): Map<string, SuppressionEntry> {
  const lifted = new Set(rows.flatMap((row) => (row.lifts ? [`${row.hash} ${row.lifts.reason} ${row.lifts.at}`] : [])));
  const found = new Map<string, SuppressionEntry>();
  for (const { hash, reason, at } of rows) {
    if (reason === 'lifted' || lifted.has(`${hash} ${reason} ${at}`)) continue;
    const entry = found.get(hash) ?? { ...NOT_SUPPRESSED };
    if (CHANNEL_OFF_REASONS.includes(reason)) {
      // One channel's "no": it neither hides nor is hidden by a leaving, deletion or STOP.
      if (at > entry.offAt) entry.offAt = at;
    } else if (reason === 'asked_back') {
      if (at > entry.askedBackAt) entry.askedBackAt = at;
    } else if (ADDRESS_ONLY_REASONS.includes(reason)) {
      // Not the person's wish: it holds for this address alone.
      if (at >= entry.undeliverableAt) {
        entry.undeliverableAt = at;
        entry.undeliverableReason = reason;
      }
      if (reason === 'complained' && at > entry.complainedAt) entry.complainedAt = at;
    } else {
      if (reason === 'sms_stop' && at > entry.stopAt) {
        entry.stop = true;
        entry.stopAt = at;
      }
      if (at >= entry.latestAt) {
        entry.latestAt = at;
        entry.latestReason = reason;
      }
    }
    found.set(hash, entry);
  }
  return found;
}

/**
 * One address's entries under several hashes (SECRET_KEY's and SECRET_KEY_PREVIOUS's) as one: the
 * newest of each kind wins, as if the rows had been folded together.
 */
export function mergeEntries(entries: (SuppressionEntry | undefined)[]): SuppressionEntry | undefined {
  const found = entries.filter((entry): entry is SuppressionEntry => entry !== undefined);
  if (found.length <= 1) return found[0];
  return found.reduce((merged, entry) => ({
    stop: merged.stop || entry.stop,
    stopAt: entry.stopAt > merged.stopAt ? entry.stopAt : merged.stopAt,
    ...(entry.latestAt > merged.latestAt
      ? { latestAt: entry.latestAt, latestReason: entry.latestReason }
      : { latestAt: merged.latestAt, latestReason: merged.latestReason }),
    ...(entry.undeliverableAt > merged.undeliverableAt
      ? { undeliverableAt: entry.undeliverableAt, undeliverableReason: entry.undeliverableReason }
      : { undeliverableAt: merged.undeliverableAt, undeliverableReason: merged.undeliverableReason }),
    complainedAt: entry.complainedAt > merged.complainedAt ? entry.complainedAt : merged.complainedAt,
    offAt: entry.offAt > merged.offAt ? entry.offAt : merged.offAt,
    askedBackAt: entry.askedBackAt > merged.askedBackAt ? entry.askedBackAt : merged.askedBackAt,
  }));
}

/** A row as read, for the fold. */
export function listRow(row: {
  address_hash: string;
  reason: SuppressionReason;
  created_at: Time;
  lifts_reason: SuppressionReason | null;
  lifts_at: Time | null;
}): ListRow {
  return {
    hash: row.address_hash,
    reason: row.reason,
    at: iso(row.created_at),
    lifts: row.lifts_reason && row.lifts_at ? { reason: row.lifts_reason, at: iso(row.lifts_at) } : undefined,
  };
}
