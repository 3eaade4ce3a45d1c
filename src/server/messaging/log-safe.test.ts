import { describe, expect, it } from 'vitest';
import { withoutAddresses } from './log-safe.js';

describe('withoutAddresses', () => {
  it('takes out emails and phone numbers and keeps what went wrong', () => {
    expect(withoutAddresses('550 5.1.1 <rosa@example.com>: Recipient address rejected')).toBe(
      '550 5.1.1 <[redacted]>: Recipient address rejected',
    );
    expect(withoutAddresses("The 'To' number +15551234567 is not a valid phone number.")).toBe(
      "The 'To' number [redacted] is not a valid phone number.",
    );
    expect(withoutAddresses('Twilio answered 400 (error 21211): bad')).toBe('Twilio answered 400 (error 21211): bad');
    expect(withoutAddresses('connect ECONNREFUSED 127.0.0.1:2525')).toContain('ECONNREFUSED');
  });
});
