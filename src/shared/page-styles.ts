// The styles of the parts every public page shares with the pages the server renders (the Text size
// control, the share panel): one string, inlined by the prerender step and by the link pages' stylesheet.
import { SHARE_STYLES } from './share-panel.js';
import { TEXT_SIZE_STYLES } from './text-size-control.js';

export const SHARED_PAGE_STYLES = `${TEXT_SIZE_STYLES}${SHARE_STYLES}`;
