// The hero's carousel of app previews (spec section 4), following the WAI-ARIA APG carousel pattern.
import { useEffect, useRef, useState } from 'react';
import { carousel } from '../content';
import { usePrefersReducedMotion } from '../hooks/use-prefers-reduced-motion';
import { useSeen } from '../hooks/use-seen';
import { previewImages } from './preview-images';
import { useSignupDialogOpen } from './signup-dialog-host';

export function AppPreviewCarousel() {
  const { items } = carousel;
  const total = items.length;
  const [current, setCurrent] = useState(0);
  // The visitor's choice via the pause/play button; until they choose, reduced motion means paused.
  const [pauseChoice, setPauseChoice] = useState<boolean | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const paused = pauseChoice ?? reducedMotion;
  // The pictures are put in (and fetched) once the page is running and the carousel is in view: the
  // words paint first, and a slow phone spends nothing on a picture before them, nor on pictures below
  // the screen before the visitor gets there (docs/performance.md). Without script, the first picture
  // is in the page as sent (<noscript>).
  const slidesRef = useRef<HTMLDivElement>(null);
  const running = useSeen(slidesRef);
  // Nothing moves behind the sign-up dialog: the carousel holds still while it is open.
  const dialogOpen = useSignupDialogOpen();
  const rotating = !paused && !hovered && !focused && !dialogOpen;

  useEffect(() => {
    if (!rotating) return;
    const timer = setInterval(() => setCurrent((index) => (index + 1) % total), carousel.intervalMs);
    return () => clearInterval(timer);
  }, [rotating, total]);

  const show = (index: number) => setCurrent((index + total) % total);

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={carousel.label}
      onPointerEnter={(event) => event.pointerType === 'mouse' && setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <div className="carousel__slides" ref={slidesRef} aria-live={rotating ? 'off' : 'polite'}>
        {items.map((item, index) => (
          <div
            key={item.image}
            className={index === current ? 'carousel__slide carousel__slide--current' : 'carousel__slide'}
            role="group"
            aria-roledescription="slide"
            aria-label={carousel.slideLabel(index + 1, total)}
            aria-hidden={index === current ? undefined : true}
          >
            {/* A picture not yet wanted is not in the page at all (an <img> needs its src to be valid HTML). */}
            {running ? (
              <img
                src={previewImages[item.image]}
                alt={item.alt}
                width={320}
                height={640}
                loading={index === 0 ? 'eager' : 'lazy'}
                decoding="async"
              />
            ) : index === 0 ? (
              <noscript>
                <img src={previewImages[item.image]} alt={item.alt} width={320} height={640} />
              </noscript>
            ) : null}
          </div>
        ))}
      </div>

      <div className="carousel__pickers">
        {items.map((item, index) => (
          <button
            key={item.image}
            type="button"
            className="carousel__picker"
            aria-label={carousel.pickerLabel(index + 1, item)}
            aria-current={index === current ? 'true' : undefined}
            onClick={() => show(index)}
          >
            <span className="carousel__dot" aria-hidden="true" />
          </button>
        ))}
      </div>

      <div className="carousel__controls">
        <button type="button" className="button button--quiet" onClick={() => show(current - 1)}>
          <ControlIcon shape="previous" />
          <ButtonText text={carousel.previous} />
        </button>
        <button type="button" className="button button--quiet" onClick={() => setPauseChoice(!paused)}>
          <ControlIcon shape={paused ? 'play' : 'pause'} />
          <ButtonText text={paused ? carousel.play : carousel.pause} />
        </button>
        <button type="button" className="button button--quiet" onClick={() => show(current + 1)}>
          <ButtonText text={carousel.next} />
          <ControlIcon shape="next" />
        </button>
      </div>
    </section>
  );
}

function ButtonText({ text }: { text: { visible: string; hidden: string } }) {
  return (
    <span>
      {text.visible}
      <span className="visually-hidden">{text.hidden}</span>
    </span>
  );
}

const iconPaths = {
  previous: 'M15 5l-7 7 7 7',
  next: 'M9 5l7 7-7 7',
  pause: 'M8 5v14M16 5v14',
  play: 'M7 4.5v15l12-7.5z',
} as const;

function ControlIcon({ shape }: { shape: keyof typeof iconPaths }) {
  return (
    <svg className="button__icon" aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
      <path
        d={iconPaths[shape]}
        fill={shape === 'play' ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
