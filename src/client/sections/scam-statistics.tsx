// Spec section 2: '$16.6 Billion Lost to Scams' with three figures, and where each comes from. Each fact
// an owner may set (STATISTIC_1_FIGURE…, server/site-facts.ts) is marked `data-fact`: the server
// writes the owner's words over these at start. Not an island: the page never renders it again.
import type { ReactNode } from 'react';
import { scamStatistics } from '../content';

export function ScamStatistics() {
  const { heading, headline, intro, figures, sourcesLabel, unconfirmedNote } = scamStatistics;
  return (
    <section className="section statistics" aria-labelledby="statistics-heading">
      <div className="container">
        <h2 className="section__heading statistics__heading" id="statistics-heading">
          {heading}
        </h2>
        <p className="section__intro">{intro}</p>
        <ul className="grid-list grid-list--three statistics__figures">
          {figures.map((item, index) => (
            <li className="statistics__figure" key={item.figure}>
              <span className="statistics__number">
                <Fact name={`statistic-${index + 1}-figure`}>{item.figure}</Fact>
                <sup aria-hidden="true">{index + 1}</sup>
              </span>
              <span className="statistics__caption">
                <Fact name={`statistic-${index + 1}-words`}>{item.caption}</Fact>
              </span>
            </li>
          ))}
        </ul>
        <div className="statistics__sources" id="statistics-sources">
          <p>
            {sourcesLabel}. {heading}:{' '}
            <Fact name="statistic-headline-source">
              <Citation source={headline.source} url={headline.sourceUrl} />
            </Fact>
            .
          </p>
          <ol>
            {figures.map((item, index) => (
              <li key={item.figure}>
                <Fact name={`statistic-${index + 1}-figure`}>{item.figure}</Fact>:{' '}
                <Fact name={`statistic-${index + 1}-source`}>
                  <Citation source={item.source} url={item.sourceUrl} />
                </Fact>
                {item.sourceConfirmed ? null : (
                  <Fact name={`statistic-${index + 1}-unconfirmed`}>{` (${unconfirmedNote})`}</Fact>
                )}
                .
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}

function Citation({ source, url }: { source: string; url?: string | undefined }) {
  if (!url) return <>{source}</>;
  return (
    <a href={url} rel="noopener noreferrer">
      {source}
    </a>
  );
}

/** A fact the server may write over (site-facts.ts reads `<span data-fact="…">` exactly). */
function Fact({ name, children }: { name: string; children: ReactNode }) {
  return <span data-fact={name}>{children}</span>;
}
