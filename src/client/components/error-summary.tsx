// The GOV.UK-style error summary: lists the problems, links to each field, takes focus when shown.
import { useEffect, useRef, type MouseEvent } from 'react';
import { signupDialog } from '../content';

export interface ErrorSummaryItem {
  fieldId: string;
  message: string;
}

/** `focusKey` changes on every failed submit, so the summary takes focus each time. */
export function ErrorSummary({ items, focusKey }: { items: ErrorSummaryItem[]; focusKey: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusKey > 0) box.current?.focus();
  }, [focusKey]);

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
