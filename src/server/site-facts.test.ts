import { describe, expect, it } from 'vitest';
import { applySiteFacts, isExampleAddress, siteFactsFrom, statisticsOnPage } from './site-facts.js';

const PAGE =
  '<span data-fact="statistic-1-figure">1 in 5</span> <span data-fact="statistic-1-words">seniors targeted yearly</span>' +
  '<li><span data-fact="statistic-1-figure">1 in 5</span>: <span data-fact="statistic-1-source">A survey</span>' +
  '<span data-fact="statistic-1-unconfirmed"> (we are still confirming the original study)</span>.</li>' +
  '<li><span data-fact="statistic-2-figure">$33,915</span>: <span data-fact="statistic-2-source"><a href="https://www.ic3.gov/r.pdf" rel="noopener noreferrer">FBI IC3</a></span>.</li>';

describe("the owner's site facts", () => {
  it("write the owner's figure, words and source over the built ones, in the page's language, escaped", () => {
    const problems: string[] = [];
    const facts = siteFactsFrom(
      {
        STATISTIC_1_FIGURE: '2 in 3',
        STATISTIC_1_FIGURE_ES: '2 de cada 3',
        STATISTIC_1_WORDS: 'adults <over> 65 "targeted"',
        STATISTIC_1_WORDS_ES: 'adultos',
        STATISTIC_1_SOURCE: 'AARP & friends, 2025',
        STATISTIC_1_SOURCE_URL: 'https://www.aarp.org/a?b=1&c=2',
      },
      problems,
    );
    expect(problems).toEqual([]);
    const english = applySiteFacts(PAGE, facts, 'en');
    expect(english).toContain('<span data-fact="statistic-1-figure">2 in 3</span> ');
    expect(english).toContain('adults &lt;over&gt; 65 &quot;targeted&quot;');
    expect(english).toContain(
      '<span data-fact="statistic-1-source"><a href="https://www.aarp.org/a?b=1&amp;c=2" rel="noopener noreferrer">AARP &amp; friends, 2025</a></span>.',
    );
    expect(english).not.toContain('still confirming');
    // The second statistic, untouched, keeps its own link.
    expect(english).toContain('<a href="https://www.ic3.gov/r.pdf" rel="noopener noreferrer">FBI IC3</a>');
    expect(statisticsOnPage(english)).toEqual([
      { figure: '2 in 3', source: 'AARP & friends, 2025', confirmed: true },
      { figure: '$33,915', source: 'FBI IC3', confirmed: true },
    ]);
    // The Spanish page: its own figure and words, and the source's name as written.
    const spanish = applySiteFacts(PAGE, facts, 'es');
    expect(spanish).toContain('<span data-fact="statistic-1-figure">2 de cada 3</span>');
    expect(spanish).toContain('AARP &amp; friends, 2025');
  });

  it('leave the built page as it is without settings, and say what is unconfirmed', () => {
    const facts = siteFactsFrom({}, []);
    expect(applySiteFacts(PAGE, facts, 'en')).toBe(PAGE);
    expect(statisticsOnPage(PAGE)[0]).toEqual({ figure: '1 in 5', source: 'A survey', confirmed: false });
  });

  it('refuse a new figure or new words without their Spanish', () => {
    const problems: string[] = [];
    siteFactsFrom({ STATISTIC_2_FIGURE: '$40,000', STATISTIC_3_WORDS_ES: 'estafas' }, problems);
    expect(problems).toEqual([
      'STATISTIC_2_FIGURE_ES: set it too (the Spanish page must say what the English one says)',
      'STATISTIC_3_WORDS: set it too (the Spanish page must say what the English one says)',
    ]);
  });

  it('know the example addresses this repository ships', () => {
    expect(isExampleAddress('privacy@scamsavvy.example')).toBe(true);
    expect(isExampleAddress('scamsavvy.example')).toBe(true);
    expect(isExampleAddress('me@example.com')).toBe(true);
    expect(isExampleAddress('privacy@ourfamilyfirm.org')).toBe(false);
    expect(isExampleAddress('examplefamily.org')).toBe(false);
  });
});
