// The dashboard's "Ready for launch" page: the launch checks (ready/ready-checks.ts), by area, each
// with its state in words and colour and what to do.
import type { ReadyCheck } from '../ready/ready-check.js';
import { levelCounts } from '../ready/ready-checks.js';
import { ownerWords } from './owner-words.js';
import { renderOwnerPage, ScrollTable } from './owner-layout.js';

const words = ownerWords.ready;

export function readyPage({ ownerEmail, checks }: { ownerEmail: string; checks: ReadyCheck[] }): string {
  const counts = levelCounts(checks);
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'ready' },
    <>
      <h1>{words.heading}</h1>
      <p>{words.intro}</p>
      <p className={counts.red > 0 ? 'notice notice--error' : 'notice'} role="status">
        {words.verdict(counts.red === 0, counts.red, counts.amber, counts.green)}
      </p>
      {(Object.keys(words.areas) as ReadyCheck['area'][]).map((area) => {
        const ofArea = checks.filter((one) => one.area === area);
        if (ofArea.length === 0) return null;
        return (
          <section key={area}>
            <h2>{words.areas[area]}</h2>
            <ScrollTable label={words.areas[area]}>
              <thead>
                <tr>
                  <th scope="col">{words.check}</th>
                  <th scope="col">{words.level}</th>
                  <th scope="col">{words.found}</th>
                  <th scope="col">{words.fix}</th>
                </tr>
              </thead>
              <tbody>
                {ofArea.map((one) => (
                  <tr key={one.id} data-check={one.id} data-level={one.level}>
                    <th scope="row">{one.title}</th>
                    <td className={`level level--${one.level}`}>{words.levels[one.level]}</td>
                    <td>{one.found}</td>
                    <td>{one.fix ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          </section>
        );
      })}
    </>,
  );
}
