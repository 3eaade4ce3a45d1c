// False in the prerendered HTML and until the element has come into the visitor's view; then true for good.
import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';

const noSubscription = () => () => undefined;

/**
 * Whether `ref`'s element has been on screen since the page started (an IntersectionObserver). What it
 * holds back costs a phone nothing until the visitor gets there. Where there is no IntersectionObserver
 * (none of the browsers the page supports, but jsdom), true once the page is running.
 */
export function useSeen(ref: RefObject<Element | null>): boolean {
  const [seen, setSeen] = useState(false);
  // False in the prerendered HTML and while React takes the page over; true once it is running.
  const running = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const observable = typeof IntersectionObserver !== 'undefined';
  useEffect(() => {
    const element = ref.current;
    if (!element || seen || !observable) return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen, observable]);
  return seen || (running && !observable);
}
