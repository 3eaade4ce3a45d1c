// The carousel's pictures, by name; Vite gives each a hashed URL that can be cached for good.
import suspiciousEmail from '../assets/previews/01-suspicious-email.svg';
import scamPhoneCall from '../assets/previews/02-scam-phone-call.svg';
import scamText from '../assets/previews/03-scam-text.svg';
import instantFeedback from '../assets/previews/04-instant-feedback.svg';
import progress from '../assets/previews/05-progress.svg';
import familyUpdate from '../assets/previews/06-family-update.svg';
import liveSupport from '../assets/previews/07-live-support.svg';

export const previewImages = {
  'suspicious-email': suspiciousEmail,
  'scam-phone-call': scamPhoneCall,
  'scam-text': scamText,
  'instant-feedback': instantFeedback,
  progress,
  'family-update': familyUpdate,
  'live-support': liveSupport,
} as const;

export type PreviewImage = keyof typeof previewImages;
