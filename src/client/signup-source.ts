// Which button opened the sign-up dialog: its own module so the dialog, the form and the API share it without importing each other.
import type { SignupButton } from '../shared/signup-schema.js';

/** Which button opened the dialog (spec section 2: the click's section). */
export type SignupSource = SignupButton;
