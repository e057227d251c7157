import type { EvaluationView } from '../../domains/judgment/index.ts';
import { type Html, html } from '../html.ts';
import type { KeyNames } from '../repo.ts';

const PAYLOAD_SUMMARY_CHARS = 240;

export function badge(kind: string, text: string = kind): Html {
  return html`<span class="badge ${kind.toLowerCase()}">${text}</span>`;
}

/** The payload as compact JSON, cut to a length a list can show. */
export function payloadSummary(payload: unknown): string {
  if (payload === null || payload === undefined) return '(not kept)';
  const text = JSON.stringify(payload);
  return text.length > PAYLOAD_SUMMARY_CHARS ? `${text.slice(0, PAYLOAD_SUMMARY_CHARS)}…` : text;
}

export function gateOutcomes(gates: EvaluationView['gates']): Html {
  return html`<ul class="gates" aria-label="Gates">
    ${Object.entries(gates).map(
      ([name, gate]) =>
        html`<li>${badge(gate.outcome, `${name}: ${gate.outcome}${gate.code ? ` (${gate.code})` : ''}`)}</li>`,
    )}
  </ul>`;
}

/** `value` when it is one of `allowed`, else undefined (a filter from the query string). */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

export function options(values: readonly string[], selected: string | undefined, anyLabel: string): Html {
  return html`<option value="">${anyLabel}</option>${values.map(
    (v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${v}</option>`,
  )}`;
}

/**
 * Who did something, as people know it: a key's name, with its id as the tooltip; an actor that is
 * no key of the account (`system`, `checkout`) as it is written.
 */
export function keyLabel(names: KeyNames, id: string | null | undefined): Html {
  if (id === null || id === undefined || id === '') return html``;
  const name = names.get(id);
  if (name === undefined) return html`<code>${id}</code>`;
  return html`<span class="key-name" title="Key ${id}">${name}</span>`;
}
