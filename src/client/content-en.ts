// Every word the page shows in English, and every switch the owner may flip. The Spanish words are in
// content-es.ts, in the same shape; the page imports them through content.ts, which picks its build's
// language (docs/content.md). (Pictures live in components/preview-images.ts, so this stays plain data.)
import type { DownloadPlatform } from '../shared/analytics-constants.js';
import { REPLY_KEEP_DAYS } from '../shared/kept-days.js';
import type { PreviewImage } from './components/preview-images';

export const productName = 'ScamSavvy';

/**
 * Sections the spec keeps in the page but does not display. Each stays in the HTML (hidden from
 * sight and from screen readers) until its switch is turned on here.
 */
export const showSections = {
  founderStory: false,
  howItProtects: false,
  realProtection: false,
  builtForFamilies: false,
  closingCallToAction: false,
} as const;

export const site = {
  title: `${productName}: practice spotting scams safely, coming soon`,
  description:
    'ScamSavvy helps older adults spot scam emails, calls and texts through safe practice, with live support and updates for family. Sign up to hear when it launches.',
  skipLink: 'Skip to main content',
};

/**
 * What a shared link shows (Open Graph, Twitter/X cards), beside `site.title` and `site.description`.
 * Used only when prerendering. The picture is drawn by `npm run share-image`.
 */
export const shareCard = {
  image: { path: '/share-image.png', width: 1200, height: 630, type: 'image/png' },
  imageAlt: `The ${productName} shield and the words: Practice spotting scams, safely. Pretend scam emails, calls and texts, with friendly help. Coming soon: join the list.`,
};

/** The title of the 404 page, after the landing page's (`site.title`, or `launchedSite.title` once launched). */
export const notFoundTitle = (homeTitle: string) => `Page not found: ${homeTitle}`;

export const hero = {
  comingSoon: 'Coming soon...',
  description: [
    `${productName} is a phone app that helps older adults spot scams before they cause harm.`,
    'Practice with safe, pretend scam emails, calls and texts. Get friendly feedback right away, and talk to a real person whenever you are unsure. Your family gets simple updates, so everyone can worry a little less.',
  ],
  signupButton: 'Protect My Family — Notify Me On App Release!',
  reassurance: 'Free to join the list. We only ask for your name, phone and email.',
};

export interface CarouselItem {
  image: PreviewImage;
  alt: string;
  /** Short name for the picker button ("Show preview 3: Scam text"). */
  title: string;
}

export const carousel = {
  label: 'App previews',
  intervalMs: 3000,
  // Each button shows its first word; screen readers hear the whole name.
  previous: { visible: 'Previous', hidden: ' preview' },
  next: { visible: 'Next', hidden: ' preview' },
  pause: { visible: 'Pause', hidden: ' slideshow' },
  play: { visible: 'Play', hidden: ' slideshow' },
  slideLabel: (position: number, total: number) => `${position} of ${total}`,
  pickerLabel: (position: number, item: CarouselItem) => `Show preview ${position}: ${item.title}`,
  items: [
    {
      image: 'suspicious-email',
      title: 'Suspicious email',
      alt: 'A practice email pretending to be from a bank, with three red flags circled: an odd sender, a rushed tone and a strange link.',
    },
    {
      image: 'scam-phone-call',
      title: 'Scam phone call',
      alt: "A practice call from 'Medicare Benefits' asking for your Medicare number, with a hint that real agencies don't call asking for it.",
    },
    {
      image: 'scam-text',
      title: 'Scam text',
      alt: 'A practice text about a held package with an odd payment link, asking whether you would tap it or delete and report it.',
    },
    {
      image: 'instant-feedback',
      title: 'Instant feedback',
      alt: "A big green check saying 'Well spotted!' with the three clues caught in the fake text and a button for the next practice.",
    },
    {
      image: 'progress',
      title: 'Your progress',
      alt: 'A progress screen showing 72% of scams spotted, a 5-day streak, and counts of practice emails, calls and texts.',
    },
    {
      image: 'family-update',
      title: 'Family update',
      alt: 'A family update for an adult child: Mom spotted 4 of 5 practice scams this week, with a practice chart and one live support call.',
    },
    {
      image: 'live-support',
      title: 'Live support',
      alt: 'A live support chat where a real person advises hanging up and calling the grandson on his own number about a jail call.',
    },
  ] satisfies CarouselItem[],
};

export interface Statistic {
  figure: string;
  caption: string;
  /** Where the figure comes from, shown in the small print. */
  source: string;
  sourceUrl?: string;
  /**
   * False where the figure came with the product brief and its original study is still to be
   * confirmed: the small print says so rather than invent a citation. See docs/content.md.
   */
  sourceConfirmed: boolean;
}

export const scamStatistics = {
  heading: '$16.6 Billion Lost to Scams',
  headline: {
    source: 'FBI Internet Crime Complaint Center (IC3), 2024 Internet Crime Report: $16.6 billion in reported losses',
    sourceUrl: 'https://www.ic3.gov/AnnualReport/Reports/2024_IC3Report.pdf',
  },
  intro: 'Scammers are skilled, and they often aim at older adults. These numbers show why practice matters.',
  figures: [
    {
      figure: '1 in 5',
      caption: 'seniors targeted yearly',
      source: 'Investor Protection Trust, Elder Investment Fraud and Financial Exploitation survey',
      sourceConfirmed: false,
    },
    {
      figure: '$33,915',
      caption: 'average loss per victim',
      source: 'FBI IC3, 2023 Elder Fraud Report: average loss per victim over 60',
      sourceUrl: 'https://www.ic3.gov/AnnualReport/Reports/2023_IC3ElderFraudReport.pdf',
      sourceConfirmed: true,
    },
    {
      figure: '1 in 2',
      caption: 'successful scams go unreported',
      source: 'figure from our product brief',
      sourceConfirmed: false,
    },
  ] satisfies Statistic[],
  sourcesLabel: 'Sources',
  /** Added after a source whose `sourceConfirmed` is false. */
  unconfirmedNote: 'we are still confirming the original study',
};

export const simpleSafeLearning = {
  heading: 'Simple, Safe Learning',
  intro: 'Three easy steps, at your own pace. Nothing in the practice is real, so there is nothing to lose.',
  steps: [
    {
      title: 'Practice Scenarios',
      text: 'Try safe, pretend scam emails, phone calls and texts that look just like the real thing.',
    },
    {
      title: 'Get Feedback',
      text: 'See right away what you spotted and what you missed, explained in plain words.',
    },
    {
      title: 'Family Updates',
      text: 'Your family gets short progress updates, so they know you are getting safer.',
    },
  ],
};

/** Hidden by default. The owner should replace this with their own story before switching it on. */
export const founderStory = {
  heading: 'Why We Are Building ScamSavvy',
  paragraphs: [
    'Scammers are getting better at sounding real. A call can sound like a grandchild in trouble. An email can look just like your bank. Anyone can be fooled, and it is never a matter of being smart or not.',
    'We are building ScamSavvy so that the people we love can practice saying "no" somewhere safe, with someone to ask when they are unsure, and with family close by.',
  ],
};

export interface FeatureCard {
  icon: 'practice' | 'shield' | 'family';
  title: string;
  text: string;
}

export const howItProtects = {
  heading: 'How ScamSavvy Protects Your Family',
  cards: [
    {
      icon: 'practice',
      title: 'Interactive Learning',
      text: 'Short, friendly practice sessions with pretend scams. You learn by doing, not by reading long lessons.',
    },
    {
      icon: 'shield',
      title: 'Scam Protection',
      text: 'Learn the warning signs scammers use most: rushing you, asking for secrecy, and asking for money or passwords.',
    },
    {
      icon: 'family',
      title: 'Family Connection',
      text: 'Invite a son, daughter or carer. They see your progress and can cheer you on, without reading your messages.',
    },
  ] satisfies FeatureCard[] as FeatureCard[],
};

export const realProtection = {
  heading: 'Real Protection, Gentle Learning',
  items: [
    'Practice scams that are always safe: no real money, no real links.',
    'Large text, clear buttons and plain words.',
    'Learn at your own pace, a few minutes at a time.',
    'A real person to ask when something does not feel right.',
    'Never a trick question and never any blame.',
  ],
};

export const builtForFamilies = {
  heading: 'Built for Families Who Care',
  cards: [
    {
      title: 'For Adult Children',
      text: 'Know that your parent is practicing, see how they are doing, and get a note when they ask for help.',
    },
    {
      title: 'For Seniors',
      text: 'Build confidence on your own terms. You choose what to share, and help is always one tap away.',
    },
  ],
};

export const closingCallToAction = {
  heading: 'Be First to Know When ScamSavvy Is Ready',
  text: 'Join the list and we will tell you the moment the app is ready to download.',
  signupButton: 'Protect My Family — Notify Me When Ready!',
  /** Spec section 1: a badge records a download intent, then opens the sign-up (no download exists yet). */
  badgesLabel: 'The app will be in both stores',
  badges: [
    { platform: 'ios', store: 'App Store', text: 'Coming soon on the App Store' },
    { platform: 'android', store: 'Google Play', text: 'Coming soon on Google Play' },
  ] as { platform: DownloadPlatform; store: string; text: string }[],
};

export const notFound = {
  heading: '404',
  text: 'Oops! Page not found',
  homeLink: 'Return to Home',
};

export const footer = {
  copyright: (year: number) => `© ${year} ${productName}. All rights reserved.`,
  trust: `${productName} will never call you to ask for money, passwords or bank details.`,
  cookieChoices: 'Change cookie choices',
};

/**
 * The privacy notice, in the footer of every page. Replace the contact address with a real inbox
 * before launch (docs/content.md).
 */
export const privacyNotice = {
  id: 'privacy-notice',
  summary: 'Privacy notice: what we collect and why',
  /** Shown only for the providers switched on for this site (all three until the page knows which). */
  cookies: {
    heading: 'Only if you say yes to cookies',
    providers: {
      'Google Analytics':
        'Google Analytics (by Google) tells us how people find and use this page. It never receives your name, phone or email.',
      PostHog:
        'PostHog records how the page is used, such as clicks and scrolling, to help us make it easier. Anything you type is hidden from the recording. If you sign up, your name, phone and email are added to that record.',
      'Meta Pixel':
        'The Meta Pixel (by Meta, the company behind Facebook) tells Meta when someone signs up after seeing our ad. It sends your email, phone and name in scrambled form, so Meta can match them to an account.',
    } as Record<string, string>,
    globalPrivacyControl:
      'If your browser sends the Global Privacy Control signal, PostHog and the Meta Pixel stay off, whatever you choose.',
  },
  contactLabel: 'Write to us:',
  sections: [
    {
      heading: 'When you sign up',
      paragraphs: [
        `We keep your name, phone number, email address and whether you want to beta test. We use them only to tell you when ${productName} launches and about beta testing, by text message and email. We never sell them.`,
        "We also keep where you came from (the website, campaign or page that brought you, and the button you pressed), your own link to pass on to family, and, if you came through a family member's link, whose link it was.",
        // {{UNCONFIRMED_RETENTION_DAYS}}: the page writes in UNCONFIRMED_RETENTION_DAYS (privacy-notice.tsx).
        `We also record when and how you agreed, confirmed or changed your mind, with the words you saw or texted us. If we ask you to confirm by email and you do not, we delete your details after {{UNCONFIRMED_RETENTION_DAYS}} days. If you text us words we do not act on by ourselves, we keep them ${REPLY_KEEP_DAYS} days so a person can read them.`,
      ],
    },
    {
      heading: 'Counting visits, without cookies',
      paragraphs: [
        'Our own server counts page views, scrolling and sign-up steps so we know whether this page is helpful. These counts hold no name, no address, no cookie and no internet address.',
      ],
    },
    {
      heading: 'To leave, or to ask a question',
      paragraphs: [
        // {{BACKUP_DAYS}}: the page writes in how long backups are kept (BACKUP_KEEP × BACKUP_EVERY_HOURS).
        'Every email has a link to your own page. There you can turn emails or texts off, leave the list, or delete your details: to be sure it is you, we email you a button, and pressing it deletes them at once. You can also reply STOP to any text, or write to us at the address below: we will delete your details within 30 days. Safety copies of the list (backups) keep them until those copies are replaced by newer ones, at most {{BACKUP_DAYS}} days later.',
        'If you leave or delete your details, we keep only a scrambled code of your email and phone, so we never write to you again by mistake. With it we keep the record of what you agreed to and when you said no, so we can show it. We keep these as long as we keep the list. Someone else typing your email or number into this page does not undo that: only you can, with the button in the one email we then send you, or by texting START.',
      ],
    },
  ],
};

/**
 * The way to the page in the other language (issue 45), written in that language, on every public
 * page; and, for a visitor whose browser asks for that language first, an offer of it at the top.
 */
export const languageSwitch = {
  /** The language the link leads to, its page, and its name in its own words. */
  to: 'es' as 'en' | 'es',
  href: '/es/',
  text: 'Español',
  /** What a screen reader hears: where it goes, in that language. */
  label: 'Ver esta página en español',
  offer: {
    text: '¿Prefiere leer en español?',
    link: 'Ver esta página en español',
    close: 'No, gracias',
  },
};
