// Our own short addresses for the app's stores: the launched page's buttons and the launch messages
// link here, and the server sends each visitor on (docs/decisions/022-launch-mode.md).
//   /app          the store for the visitor's phone, by its User-Agent; the launched page otherwise
//   /app/ios      APP_STORE_URL          /app/android   PLAY_STORE_URL
//   /beta         the beta link for the visitor's phone, by its User-Agent; the home page otherwise
//   /beta/ios     BETA_IOS_URL           /beta/android  BETA_ANDROID_URL
// An address that is not set (before the launch, say) leads to the home page, never to an error.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { DownloadPlatform } from '../../shared/analytics-constants.js';
import { APP_LINK_PATH, BETA_LINK_PATH, BETA_LINK_PATHS, STORE_LINK_PATHS } from '../../shared/store-links.js';
import type { LaunchConfig } from '../config.js';

/**
 * 302 Found: a plain "go there now" that every browser and mail or chat app follows. Not 301: a
 * permanent redirect is cached for good, and the target changes (a store address set later).
 */
const REDIRECT = 302;
/** Where a visitor goes when there is no store to send them to: the page, which shows both buttons once launched. */
const HOME = '/';

/**
 * The phone a User-Agent names: iPhone, iPad and iPod are Apple's; Android is Google Play's. Anything
 * else (a computer; an iPad that asks for desktop sites, which says "Macintosh") gets null.
 */
export function phonePlatform(userAgent: string | undefined): DownloadPlatform | null {
  if (!userAgent) return null;
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'ios';
  if (/\bAndroid\b/i.test(userAgent)) return 'android';
  return null;
}

function redirect(reply: FastifyReply, to: string | undefined, { byPhone }: { byPhone: boolean }): FastifyReply {
  // Never kept by a browser or a proxy: the addresses may be set or changed at any restart.
  reply.header('cache-control', 'no-store');
  // The answer depends on the phone asking, so no cache may hand one phone's answer to another.
  if (byPhone) reply.header('vary', 'User-Agent');
  return reply.redirect(to ?? HOME, REDIRECT);
}

/** Each path, and the same with a trailing slash (a link typed or copied by hand). */
function bothForms(path: string): string[] {
  return [path, `${path}/`];
}

export const appLinkRoutes: FastifyPluginAsync<{ launch: LaunchConfig }> = async (app, { launch }) => {
  const stores: Record<DownloadPlatform, string | undefined> = {
    ios: launch.appStoreUrl,
    android: launch.playStoreUrl,
  };
  const betas: Record<DownloadPlatform, string | undefined> = {
    ios: launch.betaIosUrl,
    android: launch.betaAndroidUrl,
  };

  for (const [pickPath, paths, targets] of [
    [APP_LINK_PATH, STORE_LINK_PATHS, stores],
    [BETA_LINK_PATH, BETA_LINK_PATHS, betas],
  ] as const) {
    for (const url of bothForms(pickPath)) {
      app.get(url, (request, reply) => {
        const platform = phonePlatform(request.headers['user-agent']);
        return redirect(reply, platform ? targets[platform] : undefined, { byPhone: true });
      });
    }
    for (const platform of ['ios', 'android'] as const) {
      for (const url of bothForms(paths[platform])) {
        app.get(url, (_request, reply) => redirect(reply, targets[platform], { byPhone: false }));
      }
    }
  }
};
