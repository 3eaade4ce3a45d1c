// The interactive parts of the prerendered pages, by name: the browser hydrates these alone (decisions/038).
// Each mode's bundle carries only its own page's islands (`launched` is fixed when the page is built).
import type { ComponentType } from 'react';
import { AppPreviewCarousel } from '../components/app-preview-carousel';
import { CookieChoices } from '../components/cookie-choices';
import { DownloadBadges } from '../components/download-badges';
import { PrivacyNotice } from '../components/privacy-notice';
import { SignupButton } from '../components/signup-button';
import { StoreLinks } from '../components/store-links';
import { HowItProtects } from '../sections/how-it-protects';
import { launched } from '../site-mode';

const everyPage = {
  carousel: AppPreviewCarousel,
  'cookie-choices': CookieChoices,
  'how-it-protects': HowItProtects,
  'privacy-notice': PrivacyNotice,
};

const comingSoon = { ...everyPage, 'signup-button': SignupButton, 'download-badges': DownloadBadges };
const launchedPage = { ...everyPage, 'store-links': StoreLinks };

/** Names as written in the page's `data-island`; a name the other mode uses is simply not hydrated there. */
export type IslandName = keyof typeof comingSoon | keyof typeof launchedPage;
type Islands = typeof comingSoon & typeof launchedPage;
export type IslandProps<N extends IslandName> = Parameters<Islands[N]>[0];

export const islands: Partial<Record<IslandName, ComponentType<never>>> = launched ? launchedPage : comingSoon;
