import { domainToUnicode } from 'node:url';
import unhomoglyph from 'unhomoglyph';
import wellKnown from '../../data/well-known-domains.json' with { type: 'json' };

/**
 * Look-alike host names (Unicode TR39). Two names are confusable when their skeletons are
 * equal; the skeleton maps every character to its prototype in Unicode's confusables.txt, as
 * shipped by the `unhomoglyph` package (nodeca, MIT, regenerated from confusables.txt).
 * On top of the TR39 skeleton, `l` and `i` are folded together (confusables.txt maps Cyrillic
 * palochka `ӏ` to `i`, though it renders like `l`), and a second form drops diacritics, for
 * `gíthub.com`.
 */

function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD').toLowerCase().replaceAll('l', 'i');
}

function withoutDiacritics(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '');
}

const BRAND_SKELETONS = new Map<string, string>(wellKnown.brands.map((domain) => [skeleton(domain), domain]));

/** The brand or trusted domain a host's skeleton equals (the host itself or a parent). */
function skeletonMatch(host: string, targets: ReadonlyMap<string, string>): string | undefined {
  let candidate = host;
  for (;;) {
    const hit = targets.get(candidate);
    if (hit !== undefined) return hit;
    const dot = candidate.indexOf('.');
    if (dot < 0) return undefined;
    candidate = candidate.slice(dot + 1);
  }
}

const SCRIPT_TESTS: readonly [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
];
/** Scripts whose letters pass for Latin ones: TR39 forbids mixing them in one label. */
const CONFUSABLE_PAIRS = new Set([
  'Latin+Cyrillic',
  'Latin+Greek',
  'Cyrillic+Greek',
  'Latin+Armenian',
  'Latin+Cherokee',
]);

function mixedScriptLabel(label: string): string | undefined {
  const scripts = new Set<string>();
  for (const ch of label) {
    if (ch.charCodeAt(0) < 0x80 && !/[a-z]/i.test(ch)) continue;
    for (const [name, test] of SCRIPT_TESTS) {
      if (test.test(ch)) {
        scripts.add(name);
        break;
      }
    }
  }
  const list = [...scripts];
  for (let i = 0; i < list.length; i++) {
    for (let j = 0; j < list.length; j++) {
      if (CONFUSABLE_PAIRS.has(`${list[i]}+${list[j]}`)) return `${list[i]} mixed with ${list[j]}`;
    }
  }
  return undefined;
}

export interface LookAlikeOptions {
  /** Skeletons of the account's trusted domains, from `trustedSkeletons`. */
  trusted: ReadonlyMap<string, string>;
}

/** Skeleton → domain map for a list of trusted domains. */
export function trustedSkeletons(domains: readonly string[]): Map<string, string> {
  return new Map(domains.map((d) => [skeleton(d.toLowerCase().replace(/^\*?\./, '')), d]));
}

/**
 * Why an internationalised host (punycode or Unicode, lower-case) is a look-alike, or
 * undefined. ASCII hosts are never look-alikes here: `g00gle.com` is a different name, judged
 * like any other.
 */
export function lookAlikeReason(host: string, options: LookAlikeOptions): string | undefined {
  const unicode = host.includes('xn--') ? domainToUnicode(host) : host;
  if (unicode === '' || /^[\x00-\x7f]*$/.test(unicode)) return undefined;
  const sk = skeleton(unicode);
  const stripped = skeleton(withoutDiacritics(unicode));
  const trusted = skeletonMatch(sk, options.trusted) ?? skeletonMatch(stripped, options.trusted);
  if (trusted !== undefined) return `look-alike of trusted domain ${trusted}`;
  const brand = skeletonMatch(sk, BRAND_SKELETONS) ?? skeletonMatch(stripped, BRAND_SKELETONS);
  if (brand !== undefined) return `look-alike of ${brand}`;
  for (const label of unicode.split('.')) {
    const mixed = mixedScriptLabel(label);
    if (mixed !== undefined) return `mixed-script label (${mixed})`;
  }
  // Every letter has a Latin double: the name exists to be read as the ASCII one.
  if (/^[\x00-\x7f]*$/.test(sk) && sk !== unicode) return 'whole-script look-alike of an ASCII name';
  return undefined;
}
