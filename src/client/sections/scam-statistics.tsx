// Spec section 2: '$16.6 Billion Lost to Scams' with three figures, and where each comes from.
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
                {item.figure}
                <sup aria-hidden="true">{index + 1}</sup>
              </span>
              <span className="statistics__caption">{item.caption}</span>
            </li>
          ))}
        </ul>
        <div className="statistics__sources" id="statistics-sources">
          <p>
            {sourcesLabel}. {heading}: <Citation source={headline.source} url={headline.sourceUrl} />.
          </p>
          <ol>
            {figures.map((item) => (
              <li key={item.figure}>
                {item.figure}: <Citation source={item.source} url={item.sourceUrl} />
                {item.sourceConfirmed ? '' : ` (${unconfirmedNote})`}.
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
