// The audit log: every sign-in, and every look at, export or deletion of people's data, newest first.
import { ownerWords } from './owner-words.js';
import type { AuditEntry } from '../db/owner-repository.js';
import { renderOwnerPage, ScrollTable, shortTime } from './owner-layout.js';

const words = ownerWords.audit;

export function auditPage({ ownerEmail, entries }: { ownerEmail: string; entries: AuditEntry[] }): string {
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'audit' },
    <>
      <h1>{words.heading}</h1>
      <p>{words.intro}</p>
      {entries.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        <ScrollTable label={words.heading}>
          <thead>
            <tr>
              <th scope="col">{words.when}</th>
              <th scope="col">{words.who}</th>
              <th scope="col">{words.what}</th>
              <th scope="col">{words.detail}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-action={entry.action}>
                <td>{shortTime(entry.at)}</td>
                <td>{entry.ownerEmail}</td>
                <td>{words.actions[entry.action] ?? entry.action}</td>
                <td>{entry.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>,
  );
}
