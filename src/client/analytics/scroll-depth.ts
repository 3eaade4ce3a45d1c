// Spec sections 2 and 9: records how far down the page the visitor scrolled, at 25, 50, 75 and 100 percent, once each per page view.
import { SCROLL_THRESHOLDS, type ScrollPercentage } from '../../shared/analytics-constants.js';
import { trackScrollDepth } from './analytics';

/** How far down the scrollable height the visitor is, 0 to 100; null when the page does not scroll. */
export function scrollPercentage(scrollTop: number, scrollHeight: number, viewportHeight: number): number | null {
  const scrollable = scrollHeight - viewportHeight;
  if (scrollable <= 0) return null;
  // A fraction of a pixel short of the bottom (zoom, rounding) still counts as the bottom.
  return Math.min(100, Math.max(0, ((scrollTop + 1) / scrollable) * 100));
}

/** The thresholds reached and not yet recorded, smallest first (a jump to the bottom records all four). */
export function newlyReached(percentage: number, recorded: ReadonlySet<ScrollPercentage>): ScrollPercentage[] {
  return SCROLL_THRESHOLDS.filter((threshold) => percentage >= threshold && !recorded.has(threshold));
}

/** The section in the middle of the screen: its id, else the landmark's name. */
function sectionInView(): string {
  const middle = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
  const section = middle?.closest('section[id], header, footer, main');
  if (!section) return 'page';
  return section.id || section.tagName.toLowerCase();
}

/** Watches the page's scrolling for the rest of this page view (each page load is one). */
export function startScrollDepth(): void {
  const recorded = new Set<ScrollPercentage>();
  let frame = 0;
  const measure = () => {
    frame = 0;
    const root = document.documentElement;
    const percentage = scrollPercentage(window.scrollY, root.scrollHeight, window.innerHeight);
    if (percentage === null) return;
    const reached = newlyReached(percentage, recorded);
    if (reached.length === 0) return;
    const section = sectionInView();
    for (const threshold of reached) {
      recorded.add(threshold);
      trackScrollDepth(threshold, section);
    }
  };
  const onScroll = () => {
    frame ||= window.requestAnimationFrame(measure);
  };
  window.addEventListener('scroll', onScroll, { passive: true });
}
