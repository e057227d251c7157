/**
 * Typed HTML templates: a tagged template that escapes every interpolated value unless it is
 * already `Html` (the output of another template or of `raw` for trusted constants). Escaping is
 * the default, so forgetting it cannot open a hole; opting out is visible at the call site.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) in stored text would
 * reorder what the page shows around them ("Trojan Source"): each is written as a visible
 * `⟨U+202E⟩` instead, so stored text cannot disguise itself or the text beside it.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function neutraliseBidi(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}

/** Escapes text for HTML, and shows bidirectional controls instead of obeying them. */
export function escapeHtml(text: string): string {
  return neutraliseBidi(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** A trusted constant (markup written in this code base), never request or database data. */
export function raw(text: string): Html {
  return new Html(text);
}
