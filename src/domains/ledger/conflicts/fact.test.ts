import { describe, expect, it } from 'vitest';
import { detectConflict } from './checker.ts';
import { factView, questionAbout, readFact } from './fact.ts';

describe('readFact', () => {
  it.each([
    ['The capital of Peru is Lima.', 'peru', 'capital', 'Lima'],
    ['Lima is the capital of Peru.', 'peru', 'capital', 'Lima'],
    ["Peru's capital is Lima.", 'peru', 'capital', 'Lima'],
    ['The owner of svc-4 is the payments team.', 'svc-4', 'own', 'the payments team'],
    ['svc-4 is owned by the data team.', 'svc-4', 'own', 'the data team'],
    ['The Pro plan costs $9 per month.', 'pro plan', 'pric', '$9 per month'],
    ['The price of the Pro plan is $9 per month.', 'pro plan', 'pric', '$9 per month'],
    ['<PERSONab12cd34> lives in Lyon.', '<personab12cd34>', 'liv', 'Lyon'],
    ['<PERSONab12cd34> is living in Lyon.', '<personab12cd34>', 'liv', 'Lyon'],
    ['Alice has access to the vault.', 'alic', 'hav', 'access to the vault'],
  ])('%s → %s / %s / %s', (text, subject, relation, object) => {
    const f = readFact(text);
    expect(f?.subjectKey.join(' ')).toBe(subject);
    expect(f?.relationKey.join(' ')).toBe(relation);
    expect(f?.object).toBe(object);
  });

  it('reads the qualifiers: negation, time, scope, bound and count', () => {
    expect(readFact('Paris is not the capital of France.')?.negated).toBe(true);
    expect(readFact("The store isn't open on Sundays.")).toMatchObject({ negated: true, scope: 'on sunday' });
    expect(readFact('Alice lived in Lyon in 2019.')?.time).toBe('past in 2019');
    expect(readFact('Maria is on call this week.')?.time).toBe('this week');
    expect(readFact('The Pro plan costs $10 for students.')?.scope).toBe('for student');
    expect(readFact('The Pro plan costs at least $10.')?.bound).toBe('min');
    expect(readFact('Three engineers are on call.')?.count).toBe('3');
  });

  it('has no reading for what is not one short statement', () => {
    expect(readFact('There is no man cutting a potato.')).toBeNull();
    expect(readFact('Is the office open?')).toBeNull();
    expect(readFact('We met. Then we left.')).toBeNull();
    expect(readFact('ok')).toBeNull();
  });

  it('shows the reading as written', () => {
    expect(factView('The capital of Peru is Lima.')).toEqual({
      subject: 'Peru',
      relation: 'capital',
      object: 'Lima',
      negated: false,
    });
  });
});

describe('questionAbout', () => {
  it.each([
    ['What is the capital of Peru?', 'peru', 'capital'],
    ["What is Peru's capital?", 'peru', 'capital'],
    ['Who owns svc-4?', 'svc-4', 'own'],
    ['How much does the Pro plan cost?', 'pro plan', 'pric'],
    ['Where does <PERSONab12cd34> live?', '<personab12cd34>', 'liv'],
    ['When did Caroline go to the support group?', 'carolin', 'go'],
  ])('%s → %s / %s', (query, subject, relation) => {
    const about = questionAbout(query);
    expect(about?.subjectKey.join(' ')).toBe(subject);
    expect(about?.relationKey.join(' ')).toBe(relation);
  });
});

describe('conflicts between facts', () => {
  it.each([
    ['The capital of Peru is Lima.', 'The capital of Chile is Santiago.'],
    ['The capital of Peru is Lima.', 'Lima is the capital of Peru.'],
    ['The owner of svc-1 is the payments team.', 'The owner of svc-2 is the search team.'],
    ['The owner of svc-1 is the payments team.', 'svc-1 is owned by the payments team.'],
    ['The Pro plan costs $9 per month.', 'The Team plan costs $19 per month.'],
    ['<PERSONab12cd34> lives in Lyon.', '<PERSON00ff00ff> lives in Porto.'],
    ['Alice lived in Lyon in 2019.', 'Alice lives in Porto.'],
    ['The Pro plan costs $10 for students.', 'The Pro plan costs $20.'],
    ['The capital of Djibouti is Djibouti City.', 'Djibouti City is the capital of Djibouti.'],
  ])('%s / %s: none', (stored, incoming) => {
    expect(detectConflict(incoming, stored, 0.9)).toBeNull();
  });

  it.each([
    ['The capital of Peru is Lima.', 'Cusco is the capital of Peru.', 'entity_mismatch'],
    ['The capital of Finland is Helsinki.', 'The capital of Finland is New Helsinki.', 'entity_mismatch'],
    ['The capital of Finland is Helsinki.', 'Guatemala City is the capital of Finland.', 'entity_mismatch'],
    ['The owner of svc-4 is the payments team.', 'svc-4 is owned by the search team.', 'entity_mismatch'],
    ['The Pro plan costs $9 per month.', 'The price of the Pro plan is $19 per month.', 'value_mismatch'],
    ['<PERSONab12cd34> lives in Lyon.', '<PERSONab12cd34> lives in Porto.', 'entity_mismatch'],
    ['Paris is the capital of France.', 'Paris is not the capital of France.', 'negation'],
  ])('%s / %s: %s', (stored, incoming, kind) => {
    expect(detectConflict(incoming, stored, 0.9)?.kind).toBe(kind);
  });
});
