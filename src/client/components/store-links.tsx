// The launched page's store buttons: links to our own /app/ios and /app/android, each recording a download intent.
import { STORE_LINK_PATHS } from '../../shared/store-links.js';
import { trackDownloadIntent } from '../analytics/analytics';
import { storeLinks } from '../launch-content';

/** `location`: the part of the page the buttons are in (the spec's location parameter). */
export function StoreLinks({ location }: { location: 'hero_section' | 'cta_section' }) {
  return (
    <ul className="download-badges download-badges--stores" aria-label={storeLinks.label}>
      {storeLinks.links.map((link) => (
        <li key={link.platform}>
          {/* Our address, not the store's: the page needs no store URL, and the server says where it is. */}
          <a
            className="button button--primary button--large store-link"
            href={STORE_LINK_PATHS[link.platform]}
            onClick={() => trackDownloadIntent(link.platform, location, 'store_button')} // spec section 7: platform, source landing_page
          >
            <span>{link.text}</span> <span className="store-link__phones">{link.phones}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
