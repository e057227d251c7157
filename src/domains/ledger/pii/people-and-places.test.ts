import { describe, expect, it } from 'vitest';
import { detectPii, type PiiType, scrub } from './scrubber.ts';

const found = (text: string, type: PiiType): string[] =>
  detectPii(text)
    .filter((s) => s.type === type)
    .map((s) => text.slice(s.start, s.end));

describe('person names', () => {
  it.each([
    ['a known first name and a surname', 'My name is Lisa Wirtz and I lost my card.', ['Lisa Wirtz']],
    ['an initial inside', 'Please send it to Ella H. Snider by Friday.', ['Ella H. Snider']],
    [
      'names no lexicon knows, two of them',
      'The song was written by Szabina J Gelencsér in 1977.',
      ['Szabina J Gelencsér'],
    ],
    ['after an honorific, even an English word', 'Mrs. Baker will call back.', ['Baker']],
    ['after a naming cue', 'Sometimes people call me Piusz.', ['Piusz']],
    ['a first name in lower case', 'follow up with patricia desrosiers next week', ['patricia desrosiers']],
    ['a list with first names', 'They had three: Matheus, Janet and Kevin.', ['Matheus', 'Janet', 'Kevin']],
    ['a surname with an inner capital', 'Her maiden name is LeBatelier.', ['LeBatelier']],
    ['a Mc surname after an honorific', 'Dr. McAllister signed the form.', ['McAllister']],
    ['a surname that is an English word', 'Grace Hopper wrote the first compiler.', ['Grace Hopper']],
    ['two of them, one with an initial', 'Ask Tom Baker and Pete J. Rose.', ['Tom Baker', 'Pete J. Rose']],
    ['a first name in German text', 'Wolfgang Müller wohnt in der Nähe von Berlin.', ['Wolfgang Müller']],
  ])('%s', (_name, text, names) => {
    expect(found(text, 'PERSON')).toEqual(names);
  });

  it.each([
    ['a company, a month and a city', 'Apple opened a store in Paris in May.'],
    ['a weekday and a country', 'On Sunday the team flew to Norway.'],
    ['title words', 'The Tube Snake Boogie was on Entertainment Weekly.'],
    ['surnames joined as a firm', 'Barnett, Melton and Garcia is a design agency.'],
    ['an organisation with its designator', 'Our supplier is Drake PLC since 2019.'],
    ['a place after a travel verb', 'We returned to San Bernardino on Tuesday.'],
    ['a contraction in lower case', "i don't know what to press next"],
    ['a street named after someone', 'Meet me at Isaac Lodge.'],
    ['a greeting before a brand', 'Hi YouTube, the upload failed.'],
    ['a greeting before an English word', 'Hello World is the first program.'],
    ['title case after a first name', 'Ask Grace About Budget Cuts'],
    ['a thing named after a determiner', 'The Grace Team plan costs $160 per month.'],
  ])('leaves %s alone', (_name, text) => {
    expect(found(text, 'PERSON').filter((n) => n !== 'Grace')).toEqual([]);
  });

  it.each([
    'Der Kölner Dom steht in Köln.',
    'Die Deutsche Bahn fährt nach Berlin und Hamburg.',
    'Das Brandenburger Tor ist ein Wahrzeichen der Stadt.',
    'La Tour Eiffel est à Paris.',
    '東京タワーは東京にあります。',
  ])('leaves the capitalised nouns of %j as written', (text) => {
    expect(scrub(text, { pseudonymKey: 'account-a' }).text).toBe(text);
  });

  it('turns each word of a name into a keyed pseudonym when given a key', () => {
    const a = scrub("Maria Lopez is on call; Lopez's pager is on.", { pseudonymKey: 'account-a' }).text;
    const b = scrub('Maria Lopez is on call.', { pseudonymKey: 'account-b' }).text;
    const [maria, lopez] = a.match(/<PERSON[0-9a-f]{8}>/g)!;
    expect(a).toBe(`${maria} ${lopez} is on call; ${lopez}'s pager is on.`);
    expect(maria).not.toBe(lopez);
    expect(b).toMatch(/^<PERSON[0-9a-f]{8}> <PERSON[0-9a-f]{8}> is on call\.$/);
    expect(b.slice(0, 17)).not.toBe(a.slice(0, 17));
  });

  it('scrubs the name and keeps the rest of the fact', () => {
    expect(scrub('Maria Lopez is on call this week.')).toMatchObject({
      text: '<PERSON> is on call this week.',
      found: { PERSON: 1 },
    });
  });
});

describe('street addresses', () => {
  it.each([
    ['house number and street type', 'Ship it to 615 Benedum Drive please', '615 Benedum Drive'],
    ['street type written into the name', 'The office is at Koskikatu 25 since May', 'Koskikatu 25'],
    ['street type in front', 'She lives at 31 Rue Al Imam Al Bakri', '31 Rue Al Imam Al Bakri'],
    ['continental order', 'Address: 0138 Brisas 6802, Montevideo', '0138 Brisas 6802, Montevideo'],
    ['military', 'Mail: PSC 5420, Box 2708\nAPO AA 33879', 'PSC 5420, Box 2708\nAPO AA 33879'],
  ])('%s', (_name, text, address) => {
    expect(found(text, 'ADDRESS')).toEqual([address]);
  });

  it('takes the lines of the address block that follow the street', () => {
    const text = 'Billing address:\n20789 Allika 46\n Suite 501\n Riisa\n\n Estonia 62488\nThanks!';
    expect(found(text, 'ADDRESS')).toEqual(['20789 Allika 46\n Suite 501\n Riisa\n\n Estonia 62488']);
  });

  it.each([
    ['a year after a word', 'During 2017, the firm grew fast.'],
    ['a count of things', 'We shipped 300 Boxes to 12 stores.'],
    ['a version', 'Upgrade to Node 20 before Friday.'],
  ])('leaves %s alone', (_name, text) => {
    expect(found(text, 'ADDRESS')).toEqual([]);
  });
});

describe('phone numbers of other regions', () => {
  it.each([
    ['GB', 'Call the London office on 020 7946 0958 after nine.', '020 7946 0958'],
    ['DE', 'Die Zentrale: 030 901820', '030 901820'],
    ['FR', 'Le standard est au 01 42 68 53 00.', '01 42 68 53 00'],
    ['AU', 'Ring 0412 345 678 for the depot', '0412 345 678'],
  ])('a %s national number, with the default region', (_region, text, number) => {
    expect(found(text, 'PHONE')).toEqual([number]);
  });

  it.each([['+44 20 7946 0958'], ['+49 30 901820'], ['+81 3-1234-5678'], ['+55 11 91234-5678']])(
    'international format %s',
    (number) => {
      expect(found(`The number is ${number} today`, 'PHONE')).toEqual([number]);
    },
  );

  it('reads national numbers without a trunk prefix in the account region', () => {
    // Spanish numbers have no trunk prefix: nine digits are a number in ES, not in the US plan.
    const text = 'Llame al 912 345 678 mañana';
    expect(detectPii(text, { region: 'ES' }).map((s) => text.slice(s.start, s.end))).toEqual(['912 345 678']);
    expect(detectPii(text).map((s) => s.type)).toEqual([]);
    // And a US number written nationally is not one in Spain.
    const us = 'Figures 415 555 2671 attached';
    expect(detectPii(us).map((s) => s.type)).toEqual(['PHONE']);
    expect(detectPii(us, { region: 'ES' }).map((s) => s.type)).not.toContain('PHONE');
  });

  it('leaves grouped numbers without a trunk prefix alone', () => {
    expect(found('Invoice total 2024 0001 0002 was paid', 'PHONE')).toEqual([]);
    expect(found('The build 1.0.3 shipped on 2024-05-01', 'PHONE')).toEqual([]);
  });
});

describe('names and addresses stay linear', () => {
  it('on megabyte inputs of capitalised words and address shapes', () => {
    const inputs = [
      'Aaaa Bbbb Cccc Dddd Eeee Ffff '.repeat(35_000),
      'Lisa '.repeat(200_000),
      '12 Aaaa Bbbb Street\n'.repeat(50_000),
      'Suite 1\n'.repeat(130_000),
      '1 Aa 2 Bb 3 Cc 4 Dd 5 Ee 6 '.repeat(40_000),
      'corner of a and '.repeat(65_000),
    ];
    for (const input of inputs) {
      const start = performance.now();
      scrub(input);
      expect(performance.now() - start).toBeLessThan(3000);
    }
  });
});
