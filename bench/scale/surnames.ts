/**
 * Last names as a real organisation has them: a few common ones shared by many people and a long
 * tail of names almost nobody else carries. Surname frequencies follow a power law; here rank r
 * is drawn with weight r^-0.75 from 64,040 names, which gives about 9,900 distinct names among
 * 15,000 people, the commonest held by about 1.3% of them (real-world figures: docs/benchmarks.md,
 * "Real names at real size"). The draw is a hash of the employee number, so a run is repeatable.
 */

/** The commonest names first, with the spellings a directory must handle (accents, apostrophes). */
const COMMON = [
  'Smith', 'García', 'Nguyen', 'Müller', 'Johnson', 'Kim', 'Rossi', 'Williams', 'Martínez',
  'Brown', "O'Brien", 'Dubois', 'Jones', 'Kowalski', 'Wang', 'Silva', 'van der Berg', 'Singh',
  'Andersson', 'Novák', 'Lee', 'Hernández', 'Schmidt', 'Davis', 'Papadopoulos', 'Yamamoto',
  'Lopez', 'Fischer', 'Miller', 'Petrov', 'Wilson', 'Moreau', 'Taylor', 'Nielsen', 'Ivanova',
  'Thomas', "D'Angelo", 'Costa', 'Jackson', 'Le Roux',
] as const; // prettier-ignore

/** Syllables the long tail is built from: 40³ names, each distinct. */
const SYLLABLES = [
  'al', 'ber', 'cas', 'dan', 'el', 'fen', 'gor', 'hal', 'is', 'jor',
  'kel', 'lin', 'mar', 'nor', 'ol', 'pet', 'quin', 'ros', 'sten', 'tor',
  'ul', 'ver', 'wes', 'yar', 'zel', 'bran', 'cor', 'dal', 'ev', 'fal',
  'grim', 'hart', 'ing', 'kar', 'lov', 'mond', 'ner', 'os', 'rik', 'sel',
] as const; // prettier-ignore

const TAIL = SYLLABLES.length ** 3;
/** How many names the draw picks from. */
export const NAME_RANKS = COMMON.length + TAIL;
const EXPONENT = 0.75;

/** The name of rank `rank` (0-based): the common list, then the syllable names. */
export function surnameOfRank(rank: number): string {
  if (rank < COMMON.length) return COMMON[rank]!;
  let rest = rank - COMMON.length;
  const parts: string[] = [];
  for (let i = 0; i < 3; i++) {
    parts.push(SYLLABLES[rest % SYLLABLES.length]!);
    rest = Math.floor(rest / SYLLABLES.length);
  }
  const name = parts.reverse().join('');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A uniform number in [0, 1) from `n` (a 32-bit integer mix), the same on every run. */
function uniformOf(n: number): number {
  let x = (n + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  x ^= x >>> 16;
  return (x >>> 0) / 2 ** 32;
}

/**
 * The last name of employee number `n`: a rank drawn by the inverse of the power law's
 * (continuous) distribution function, so low ranks are common and the tail is long.
 */
export function realisticSurname(n: number): string {
  const a = 1 - EXPONENT;
  const u = uniformOf(n);
  const rank = Math.floor((1 + u * (NAME_RANKS ** a - 1)) ** (1 / a)) - 1;
  return surnameOfRank(Math.min(Math.max(rank, 0), NAME_RANKS - 1));
}
