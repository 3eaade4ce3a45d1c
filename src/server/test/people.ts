// Test helper: the people the suites sign up, so each suite does not invent its own.
import type { SignupInput } from '../../shared/signup-schema.js';

/** Rosa wants email, texts and beta testing. */
export const rosa = {
  name: 'Rosa Díaz',
  phone: '+15551234567',
  email: 'rosa@example.com',
  betaTesting: true,
} as const satisfies SignupInput;

/** Rosa's sign-up as her browser sends it: typed with spaces and separators, the form open 8 seconds. */
export const rosaForm = {
  name: 'Rosa Díaz',
  phone: '+1 (555) 123-4567',
  email: ' rosa@example.com ',
  betaTesting: true,
  openedForMs: 8000,
} as const;

/** Ann wants launch news but not beta testing. */
export const ann = {
  name: 'Ann Lee',
  phone: '+15559876543',
  email: 'ann@example.com',
  betaTesting: false,
} as const satisfies SignupInput;
