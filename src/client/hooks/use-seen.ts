// False in the prerendered HTML and until the element has come into the visitor's view; then true for good.
import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether `ref`'s element has been on screen since the page started (an IntersectionObserver, which
 * every browser the page supports has). What it holds back costs a phone nothing until the visitor
 * gets there.
 */
export function useSeen(ref: RefObject<Element | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || seen) return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}
