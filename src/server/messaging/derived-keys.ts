// Keys for separate jobs come from the one SECRET_KEY, so a link's key never keys a hash or a
// message token: HMAC-SHA256 of "scamsavvy:<use>". After a rotation SECRET_KEY_PREVIOUS's key comes
// second, for reading what was made before it (decision 041).
import { createHmac } from 'node:crypto';

/** The key for `use`: first SECRET_KEY's (what new links, hashes and tokens use), then the previous key's. */
export function derivedKeys(use: string, secretKey: string, previousKey?: string): [Buffer, ...Buffer[]] {
  const derive = (key: string) => createHmac('sha256', key).update(`scamsavvy:${use}`).digest();
  return [derive(secretKey), ...(previousKey ? [derive(previousKey)] : [])];
}
