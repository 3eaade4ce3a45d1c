// Who gets a broadcast and why the others do not, as create and top-up say it.
import type { AudienceReport } from '../../server/broadcast/broadcasts.js';
import { EXCLUSION_WORDS, EXCLUSIONS } from '../../server/broadcast/eligibility.js';
import type { Broadcast } from '../../server/db/broadcasts-repository.js';
import { LANGUAGE_NAMES, LANGUAGES } from '../../shared/languages.js';
import { number, plural } from '../../shared/plain-numbers.js';

export function describeReport(report: AudienceReport, broadcast: Broadcast, topUp: boolean): string[] {
  const lines = [`${plural(report.people, 'person', 'people')} on the list.`];
  for (const channel of broadcast.channels) {
    const tally = report.channels[channel];
    if (!tally) continue;
    const what = channel === 'email' ? 'the email' : 'the text message';
    lines.push(
      topUp
        ? `${plural(tally.added, 'more person', 'more people')} will get ${what} (${number(tally.recipients)} in all).`
        : `${plural(tally.recipients, 'person', 'people')} will get ${what}.`,
    );
    // Each person's message is in their language (issue 45).
    const languages = LANGUAGES.filter((language) => tally.byLanguage[language] > 0);
    if (languages.length > 0)
      lines.push(
        `  by language: ${languages.map((language) => `${LANGUAGE_NAMES[language].english} ${number(tally.byLanguage[language])}`).join(', ')}`,
      );
    if (tally.beforeConfirmation > 0)
      lines.push(
        `  among them ${number(tally.beforeConfirmation)} signed up before confirmation was switched on (never asked to confirm; --confirmed-only leaves them out)`,
      );
    for (const why of EXCLUSIONS) {
      const count = tally.excluded[why];
      if (count > 0) lines.push(`  not ${number(count)}: ${EXCLUSION_WORDS[why]}`);
    }
  }
  return lines;
}
