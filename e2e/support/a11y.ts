// Accessibility checks the specs share: axe in a given state, no sideways scrolling, names that hold
// their visible words, and 44 px targets.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/** The enhanced (7:1) contrast rule is tagged AAA and off by default: switched on by name. */
const ENHANCED_CONTRAST = 'color-contrast-enhanced';

/**
 * axe's WCAG 2.2 AA and best-practice rules, plus the enhanced (7:1) contrast rule for text, in one
 * pass: a rule switched on by name runs beside the tags (axe's `rules` option outranks `runOnly`
 * tags), so each state costs one walk of the page, not two.
 */
export async function expectNoViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page })
    .options({ rules: { [ENHANCED_CONTRAST]: { enabled: true } } })
    .withTags(WCAG_TAGS)
    .analyze();
  // If a later axe stopped honouring the switch, the 7:1 check would vanish silently: make it loud.
  const ran = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable];
  expect(
    ran.map((rule) => rule.id),
    `axe ran the enhanced contrast rule: ${state}`,
  ).toContain(ENHANCED_CONTRAST);
  const violations = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(violations, `axe violations: ${state}`).toEqual([]);
}

/** Nothing wider than the window: no sideways scrolling. */
export async function expectNoHorizontalOverflow(page: Page, state: string) {
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    wide: Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((element) => element.offsetParent !== null || element.tagName === 'BODY')
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((element) => `${element.tagName}.${element.className}`)
      .slice(0, 5),
  }));
  expect(overflow, state).toEqual({ page: 0, wide: [] });
}

/**
 * Every control whose name is set apart from its text (aria-label) has its visible words in that name
 * (WCAG 2.5.3, Label in Name): a voice-control user says what they see. Controls whose only content is
 * an icon have no words to match.
 */
export async function expectLabelsInNames(page: Page, state: string) {
  const mismatched = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('a[aria-label], button[aria-label], [role="button"][aria-label]'))
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => ({
        visible: element.innerText.replace(/\s+/g, ' ').trim(),
        name: (element.getAttribute('aria-label') ?? '').replace(/\s+/g, ' ').trim(),
      }))
      .filter(({ visible, name }) => visible !== '' && !name.toLowerCase().includes(visible.toLowerCase()))
      .map(({ visible, name }) => `"${visible}" named "${name}"`),
  );
  expect(mismatched, `controls whose name lacks their visible words: ${state}`).toEqual([]);
}

/** Every visible button, and link on a line of its own, at least 44 × 44 CSS px (WCAG 2.5.5's enhanced size; links inside a sentence are exempt). */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLElement>('main a.button, main button, header a, header button, footer button'),
    )
      .filter((element) => element.getClientRects().length > 0 && !element.closest('[hidden], .carousel__dots'))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(
        ({ element, box }) => `${element.textContent?.trim() ?? ''} ${Math.round(box.width)}×${Math.round(box.height)}`,
      ),
  );
}

/**
 * The words inside `selector`'s elements that the browser drew on more than one line: a word broken
 * inside itself ("Notifi / ed"). A word here runs between spaces, dashes and the marks a line may
 * break after in an address (/ ? & =). Hidden elements are passed over.
 */
export function wordsBrokenInside(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const broken: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      if (element.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(/[^\s\-–—/?&=]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // Only boxes with ink: a word at the start of a line can also report an empty box at the end of the one before.
          const boxes = [...range.getClientRects()].filter((rect) => rect.width > 1);
          const lines = new Set(boxes.map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(`${match[0]} (in "${element.textContent}")`);
        }
      }
    }
    return broken;
  }, selector);
}
