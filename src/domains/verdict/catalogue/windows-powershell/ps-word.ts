/** A PowerShell statement and its words, as the reader resolved them. */

export interface PsWord {
  /** The text PowerShell would pass, with unknown expansions shown as `$name` or `(…)`. */
  text: string;
  /** Items of an unquoted comma list (`C:\,D:\`); one item otherwise. */
  items: string[];
  /** Every part is known: no unknown variable, subexpression or member call. */
  literal: boolean;
  /** Written without quotes, so a leading `-` makes it a parameter name. */
  bare: boolean;
  /** A `( )`, `$( )`, `[Type]::…` or `{ }` value rather than a string. */
  expression?: 'group' | 'block' | 'type';
  /** The word as written, for calls such as `[IO.Directory]::Delete('C:\', $true)`. */
  raw: string;
  /** The statements of a `{ }` script block. */
  inner?: PsStatement[];
}

export interface PsStatement {
  words: PsWord[];
  /** Written after the call operator `&` or dot-sourcing `.`: the first word is what runs. */
  invoked: boolean;
  /** The pipeline element before this one, whose output this one reads. */
  pipedFrom?: PsStatement;
  /** `>`/`>>` targets. */
  writes: string[];
  /** Reached through `( )`, `$( )` or a method argument of another statement's word. */
  nested: boolean;
}
