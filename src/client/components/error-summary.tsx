// The GOV.UK-style error summary: lists the problems, links to each field, takes focus when shown.
import { useEffect, useRef, type MouseEvent } from 'react';
import { signupDialog } from '../signup-content';

export interface ErrorSummaryItem {
  fieldId: string;
  message: string;
}

/**
 * `focusKey` changes on every failed submit, so the summary takes focus each time; errors may
 * arrive a render later than the key, so the request waits until the summary is on screen. A
 * summary that appears while the visitor is typing does not steal focus.
 */
export function ErrorSummary({ items, focusKey }: { items: ErrorSummaryItem[]; focusKey: number }) {
  const box = useRef<HTMLDivElement>(null);
  const focusRequested = useRef(false);
  useEffect(() => {
    if (focusKey > 0) focusRequested.current = true;
  }, [focusKey]);
  useEffect(() => {
    if (focusRequested.current && box.current) {
      box.current.focus();
      focusRequested.current = false;
    }
  });

  if (items.length === 0) return null;

  function goToField(event: MouseEvent<HTMLAnchorElement>, fieldId: string) {
    event.preventDefault();
    const field = document.getElementById(fieldId);
    field?.focus();
    field?.scrollIntoView({ block: 'center' });
  }

  return (
    <div className="error-summary" ref={box} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h3 className="error-summary__title" id="error-summary-title">
        {signupDialog.errorSummaryTitle}
      </h3>
      <ul className="error-summary__list">
        {items.map((item) => (
          <li key={item.fieldId}>
            <a href={`#${item.fieldId}`} onClick={(event) => goToField(event, item.fieldId)}>
              {item.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
