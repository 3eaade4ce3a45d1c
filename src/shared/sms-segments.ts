// How many SMS segments a text takes, as carriers count them (3GPP TS 23.038): GSM-7 when every
// character is in the GSM alphabet (160 in one, 153 each when split), otherwise UCS-2 (70, then 67).
// Each segment is billed, and a split text can arrive out of order on older phones.

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters sent as an escape plus one more: each counts as two. */
const GSM_EXTENSION = '^{}\\[~]|€\f';

export interface SmsSegments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Characters as the network counts them (GSM extension characters count two; UCS-2 counts UTF-16 units). */
  characters: number;
  segments: number;
}

export function smsSegments(text: string): SmsSegments {
  let gsmLength = 0;
  for (const character of text) {
    if (GSM_BASIC.includes(character)) gsmLength += 1;
    else if (GSM_EXTENSION.includes(character)) gsmLength += 2;
    else {
      gsmLength = -1;
      break;
    }
  }
  if (gsmLength >= 0) {
    return { encoding: 'GSM-7', characters: gsmLength, segments: count(gsmLength, 160, 153) };
  }
  return { encoding: 'UCS-2', characters: text.length, segments: count(text.length, 70, 67) };
}

function count(length: number, single: number, part: number): number {
  if (length === 0) return 0;
  return length <= single ? 1 : Math.ceil(length / part);
}

/** The characters of `text` outside the GSM alphabet (each once): any one makes a text UCS-2. */
export function outsideGsm(text: string): string[] {
  return [
    ...new Set([...text].filter((character) => !GSM_BASIC.includes(character) && !GSM_EXTENSION.includes(character))),
  ];
}
