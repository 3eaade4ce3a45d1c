// The Flesch-Kincaid grade of a text: the plain-language check every visitor-facing word passes.

/** Syllables by vowel groups, the usual approximation (a silent final "e" does not count). */
function syllables(word: string): number {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '');
  if (letters.length <= 3) return 1;
  const groups = letters.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

/** The Flesch-Kincaid grade level: the school grade a reader needs. */
export function readingGrade(text: string): number {
  const sentences = text.split(/[.!?]+(?:\s|$)/).filter((sentence) => sentence.trim() !== '');
  const words = text.split(/\s+/).filter((word) => /[a-z]/i.test(word));
  const syllableCount = words.reduce((sum, word) => sum + syllables(word), 0);
  return 0.39 * (words.length / sentences.length) + 11.8 * (syllableCount / words.length) - 15.59;
}
