import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.js';
import { capturedLog } from './test/captured-log.js';

function capture() {
  const { written: lines, logger } = capturedLog(loggerOptions('info'));
  return { logger, lines };
}

describe('server logs', () => {
  it('never write a visitor’s email, phone or name, even inside a database error', () => {
    const { logger, lines } = capture();
    const databaseError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      detail: 'Key (email_key)=(rosa@example.com) already exists.',
      code: '23505',
    });
    logger.error({ err: databaseError }, 'request failed');
    logger.info({ body: { name: 'Rosa Díaz', email: 'rosa@example.com', phone: '+15551234567' } }, 'a body');
    logger.info({ signup: { name: 'Rosa Díaz' } }, 'a sign-up');
    logger.info({ record: { email: 'rosa@example.com', phone: '+15551234567' } }, 'a record');
    const output = lines.join('');
    expect(output).not.toMatch(/rosa@example\.com|5551234567|Rosa Díaz/);
    expect(output).toContain('[redacted]');
    expect(output).toContain('duplicate key value violates unique constraint'); // what went wrong is still there
    expect(output).toContain('23505');
  });
});
