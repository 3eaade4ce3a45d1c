// /owner/api-keys: the keys the owner's other tools call the API with (issue 56, docs/api.md):
// every key with its scope and last use, a form to make one (shown once), and a button to revoke each.
import type { ApiKeyListing } from '../db/api-keys-repository.js';
import { renderOwnerPage, ScrollTable, shortTime } from './owner-layout.js';

export const apiKeysWords = {
  title: 'API keys',
  intro:
    'A key lets another tool (Zapier, Make, a CRM, a partner’s sign-up page) use the list through the API. A read key reads the list; a write key may also add and delete people. Every use is in the audit log under the key’s name. Keys work only over https.',
  docs: 'How to use a key: docs/api.md, and the API’s description at',
  made: (name: string) => `The key “${name}” is made. Copy it now: it is shown only this once.`,
  madeHint: 'Keep it in the tool that uses it. If it is lost, revoke it and make another.',
  makeHeading: 'Make a key',
  name: 'Name (what uses it, such as Zapier)',
  scope: 'What it may do',
  scopes: { read: 'Read the list', write: 'Read, add and delete people' },
  make: 'Make the key',
  listHeading: 'Keys',
  none: 'No keys yet.',
  columns: { name: 'Name', scope: 'May', end: 'Ends with', made: 'Made', lastUsed: 'Last used', state: 'State' },
  never: 'Never',
  live: 'Works',
  revoked: (at: string) => `Revoked ${at}`,
  revoke: (name: string) => `Revoke “${name}”`,
  revokeColumn: 'Stop it working',
  revokedNotice: (name: string) => `The key “${name}” no longer works.`,
};

const words = apiKeysWords;

export interface ApiKeysPageOptions {
  ownerEmail: string;
  keys: ApiKeyListing[];
  siteUrl: string;
  /** A key just made: shown once. */
  made?: { name: string; key: string };
  revoked?: string;
  /** What was typed, and what is wrong with it. */
  problem?: string;
  typed?: { name: string; scope: string };
}

export function apiKeysPage({ ownerEmail, keys, siteUrl, made, revoked, problem, typed }: ApiKeysPageOptions): string {
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'api-keys' },
    <>
      <h1>{words.title}</h1>
      <p>{words.intro}</p>
      <p>
        {words.docs} <code className="address">{`${siteUrl}/api/v1/openapi.json`}</code>
      </p>
      {made && (
        <div className="notice" role="status" data-made-key>
          <p>{words.made(made.name)}</p>
          <p>
            <code className="secret">{made.key}</code>
          </p>
          <p>{words.madeHint}</p>
        </div>
      )}
      {revoked && (
        <p className="notice" role="status">
          {words.revokedNotice(revoked)}
        </p>
      )}
      <h2>{words.makeHeading}</h2>
      <form method="post" action="/owner/api-keys">
        {problem && (
          <p className="notice notice--error" role="alert" id="key-problem">
            {problem}
          </p>
        )}
        <p>
          <label htmlFor="key-name">{words.name}</label>
          <input
            id="key-name"
            name="name"
            type="text"
            maxLength={60}
            required
            defaultValue={typed?.name ?? ''}
            {...(problem ? { 'aria-describedby': 'key-problem', 'aria-invalid': true } : {})}
          />
        </p>
        <fieldset>
          <legend>{words.scope}</legend>
          {(['read', 'write'] as const).map((scope) => (
            <label key={scope} className="choice">
              <input type="radio" name="scope" value={scope} defaultChecked={(typed?.scope ?? 'read') === scope} />
              <span>{words.scopes[scope]}</span>
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" className="button button--primary">
            {words.make}
          </button>
        </div>
      </form>
      <h2>{words.listHeading}</h2>
      {keys.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        <ScrollTable label={words.listHeading}>
          <thead>
            <tr>
              {Object.values(words.columns).map((heading) => (
                <th key={heading} scope="col">
                  {heading}
                </th>
              ))}
              <th scope="col">{words.revokeColumn}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} data-key={key.name}>
                <td>{key.name}</td>
                <td>{words.scopes[key.scope]}</td>
                <td>{key.keyEnd}</td>
                <td>{`${shortTime(key.createdAt)}, ${key.createdBy}`}</td>
                <td>{key.lastUsedAt ? shortTime(key.lastUsedAt) : words.never}</td>
                <td>{key.revokedAt ? words.revoked(shortTime(key.revokedAt)) : words.live}</td>
                <td>
                  {!key.revokedAt && (
                    <form method="post" action="/owner/api-keys/revoke">
                      <input type="hidden" name="name" value={key.name} />
                      <button type="submit" className="button button--secondary">
                        {words.revoke(key.name)}
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>,
  );
}
