// How hard a text is to read: the plain-language check every visitor-facing word passes. English by
// the Flesch-Kincaid grade; Spanish (issue 45) by Fernández-Huerta's reading ease, turned into the
// same school grade by its own table, so both languages are held to one bar.
import type { Language } from './languages.js';

/** Syllables by vowel groups, the usual approximation (a silent final "e" does not count). */
function syllables(word: string): number {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '');
  if (letters.length <= 3) return 1;
  const groups = letters.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

const sentencesOf = (text: string) => text.split(/[.!?]+(?:\s|$)/).filter((sentence) => sentence.trim() !== '');

/** The Flesch-Kincaid grade level: the school grade a reader needs. */
export function readingGrade(text: string): number {
  const sentences = sentencesOf(text);
  const words = text.split(/\s+/).filter((word) => /[a-z]/i.test(word));
  const syllableCount = words.reduce((sum, word) => sum + syllables(word), 0);
  return 0.39 * (words.length / sentences.length) + 11.8 * (syllableCount / words.length) - 15.59;
}

const SPANISH_VOWELS = 'aeiouáéíóúü';
/** The open vowels: two side by side are two syllables (le-er, po-e-ta). */
const OPEN = 'aeoáéó';
/** A closed vowel with its accent is a syllable of its own beside any vowel (dí-a, ba-úl). */
const STRESSED_CLOSED = 'íú';

/**
 * A Spanish word's syllables, by its vowel nuclei: vowels side by side are one syllable (a
 * diphthong: bue-no, ciu-dad) unless both are open or one is an accented í or ú (a hiatus). Spanish
 * spelling marks these, so the count is near exact; "y" between words ("y", "muy") counts as one.
 */
export function spanishSyllables(word: string): number {
  const letters = word.toLowerCase().replace(/[^a-zñáéíóúü]/g, '');
  let count = 0;
  let previous = '';
  for (const letter of letters) {
    const vowel = SPANISH_VOWELS.includes(letter);
    if (vowel) {
      const previousVowel = previous !== '' && SPANISH_VOWELS.includes(previous);
      const hiatus =
        (OPEN.includes(letter) && OPEN.includes(previous)) ||
        STRESSED_CLOSED.includes(letter) ||
        STRESSED_CLOSED.includes(previous);
      if (!previousVowel || hiatus) count += 1;
    }
    previous = letter;
  }
  return Math.max(1, count);
}

/**
 * Fernández-Huerta's reading ease (1959, in the form Law 2011 corrected to Flesch's shape): 206.84 −
 * 60 × syllables per word − 1.02 × words per sentence. 100 is very easy; 60 to 70 is "normal".
 */
export function fernandezHuerta(text: string): number {
  const sentences = sentencesOf(text);
  const words = text.split(/\s+/).filter((word) => /[a-zñáéíóúü]/i.test(word));
  const syllableCount = words.reduce((sum, word) => sum + spanishSyllables(word), 0);
  return 206.84 - 60 * (syllableCount / words.length) - 1.02 * (words.length / sentences.length);
}

/**
 * The school grade a reader needs, in the text's language. Spanish goes by Fernández-Huerta's own
 * table (90–100: 4th grade, 80–90: 5th, 70–80: 6th, 60–70: 7th and 8th, 50–60: high school): a grade
 * of (100 − ease) / 10 + 4, so "8th grade or below" is an ease of 60 or more.
 */
export function readingGradeIn(language: Language, text: string): number {
  return language === 'es' ? (100 - fernandezHuerta(text)) / 10 + 4 : readingGrade(text);
}
