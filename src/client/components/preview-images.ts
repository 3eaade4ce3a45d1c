// The carousel's pictures, by name, in the page's language; Vite gives each a hashed URL that can be
// cached for good.
import suspiciousEmail from '../assets/previews/01-suspicious-email.svg';
import scamPhoneCall from '../assets/previews/02-scam-phone-call.svg';
import scamText from '../assets/previews/03-scam-text.svg';
import instantFeedback from '../assets/previews/04-instant-feedback.svg';
import progress from '../assets/previews/05-progress.svg';
import familyUpdate from '../assets/previews/06-family-update.svg';
import liveSupport from '../assets/previews/07-live-support.svg';
import suspiciousEmailEs from '../assets/previews/es/01-suspicious-email.svg';
import scamPhoneCallEs from '../assets/previews/es/02-scam-phone-call.svg';
import scamTextEs from '../assets/previews/es/03-scam-text.svg';
import instantFeedbackEs from '../assets/previews/es/04-instant-feedback.svg';
import progressEs from '../assets/previews/es/05-progress.svg';
import familyUpdateEs from '../assets/previews/es/06-family-update.svg';
import liveSupportEs from '../assets/previews/es/07-live-support.svg';
import { language } from '../language';

const english = {
  'suspicious-email': suspiciousEmail,
  'scam-phone-call': scamPhoneCall,
  'scam-text': scamText,
  'instant-feedback': instantFeedback,
  progress,
  'family-update': familyUpdate,
  'live-support': liveSupport,
};

export type PreviewImage = keyof typeof english;

const spanish: Record<PreviewImage, string> = {
  'suspicious-email': suspiciousEmailEs,
  'scam-phone-call': scamPhoneCallEs,
  'scam-text': scamTextEs,
  'instant-feedback': instantFeedbackEs,
  progress: progressEs,
  'family-update': familyUpdateEs,
  'live-support': liveSupportEs,
};

export const previewImages: Record<PreviewImage, string> = language === 'es' ? spanish : english;
