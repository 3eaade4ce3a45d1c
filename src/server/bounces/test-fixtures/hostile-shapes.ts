// The shapes a stranger can mail to the bounce address to make reading slow (issue 42), 1 MB each:
// for the test that reads them (hostile-shapes.test.ts) and the benchmark that times them (bench/feedback.ts).

export const MB = 1024 * 1024;

/** An email with these headers and this body (CRLF line ends, as mail comes). */
function mail(headers: Record<string, string>, body: string): string {
  const head = Object.entries({
    From: 'Mail Delivery System <MAILER-DAEMON@mx.example.net>',
    To: 'bounces@scamsavvy.example',
    Date: 'Fri, 27 Nov 2026 10:00:00 +0000',
    'Message-ID': '<shape@mx.example.net>',
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return `${head}\r\n\r\n${body}`;
}

const repeatTo = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));

export const HOSTILE_SHAPES: [string, string][] = [
  // Dashes and blank lines: every line start once began a copy-marker search to the end.
  [
    'an ordinary email of dashes and blank lines',
    mail({ Subject: 'Hello', From: 'someone@example.org' }, repeatTo('-- \r\n\r\n', MB)),
  ],
  // One long word with no @: every character once began an address search to its end.
  [
    'an "Undelivered" email of one long word',
    mail({ Subject: 'Undelivered Mail Returned to Sender' }, `550 ${'x'.repeat(MB)}`),
  ],
  ['an "Undelivered" email of dashes', mail({ Subject: 'Undelivered Mail Returned to Sender' }, repeatTo('-\r\n', MB))],
  // Thousands of recipients, each named on its line, each with a code.
  [
    'a bounce naming thousands of recipients',
    mail(
      { Subject: 'Undelivered Mail Returned to Sender' },
      Array.from({ length: 20_000 }, (_, index) => `<person${index}@example.com>: 550 5.1.1 no such user here`).join(
        '\r\n',
      ),
    ),
  ],
  // HTML with style blocks that never close, and < that never close.
  [
    'an HTML bounce of unclosed tags',
    mail(
      { Subject: 'Delivery Status Notification (Failure)', 'Content-Type': 'text/html; charset=utf-8' },
      `${repeatTo('<style>', MB / 2)}${repeatTo('<', MB / 2)}`,
    ),
  ],
];
