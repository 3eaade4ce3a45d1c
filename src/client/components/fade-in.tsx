// Spec section 9: fades content up into view when 10% of it becomes visible, after an optional delay.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { usePrefersReducedMotion } from '../hooks/use-prefers-reduced-motion';

export const FADE_IN_THRESHOLD = 0.1;

export interface FadeInProps {
  children: ReactNode;
  /** Milliseconds before the animation starts once visible (spec default 0). */
  delayMs?: number;
  animation?: 'fade-in-up';
  className?: string;
}

export function FadeIn({ children, delayMs = 0, animation = 'fade-in-up', className = '' }: FadeInProps) {
  const element = useRef<HTMLDivElement>(null);
  const reducedMotion = usePrefersReducedMotion();
  // 'shown' until hydrated, so the prerendered page never hides content from a visitor without script.
  const [state, setState] = useState<'shown' | 'waiting' | 'animating'>('shown');

  useEffect(() => {
    const node = element.current;
    if (!node || reducedMotion || !('IntersectionObserver' in window)) return;
    // Anything on screen (or hidden by its section) at start stays as it is; only what is below waits.
    const box = node.getBoundingClientRect();
    if (box.height === 0 || box.top < window.innerHeight) return;
    setState('waiting');
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setState('animating');
          observer.disconnect();
        }
      },
      { threshold: FADE_IN_THRESHOLD },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [reducedMotion]);

  const classes = ['fade-in', `fade-in--${state}`, state !== 'shown' ? `fade-in--${animation}` : '', className];
  return (
    <div ref={element} className={classes.filter(Boolean).join(' ')} style={{ animationDelay: `${delayMs}ms` }}>
      {children}
    </div>
  );
}
