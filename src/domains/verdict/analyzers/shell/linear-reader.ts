import { wrapperOf } from '../../registry/registry.ts';
import { RESERVED_WORDS } from '../shell-simple.ts';
import { judgePathsInText } from './named-paths.ts';
import { assign, baseName, type Field, opaque, type Stream, type Walk } from './state.ts';

/**
 * The linear reader: a quote-aware split into simple commands and words, for scripts the parser
 * rejects or that are too large for it, and for the plainest scripts.
 */

export function splitLiteral(text: string): string[] {
  return splitWords(text).flatMap((c) => c.words.map((w) => w.text));
}

/**
 * Reserved words the linear reader steps over before a command's name (`if rm …`, `! rm …`). The
 * others are read as the command: they take words of their own (`for x in`, `case w in`,
 * `function f`), `time` is a wrapper the walk removes, and `[[ … ]]` is a test.
 */
const READ_AS_THE_COMMAND = new Set(['for', 'in', 'case', 'esac', 'select', 'function', 'time', '[[', ']]']);

/**
 * The linear reading: no expansion is resolved, so a word that still holds one in command
 * position is opaque when `unresolved` (the script was too large for the parser).
 */
export function walkSplit(script: string, walk: Walk, unresolved = false): void {
  let output: Stream | undefined;
  // Nothing is resolved here, so the same text judges the same: each distinct command once.
  const seen = new Set<string>();
  for (const { raw, pipedIn, substitution } of splitCommands(script)) {
    // Past the parser, a substitution's output is unknown: as the command's name, or as an
    // argument of a program that acts on what its arguments name, it is opaque.
    if (unresolved && substitution !== undefined && substitutionIsOpaque(raw, substitution.attached)) {
      opaque(walk, `${describeSubstituted(raw)}, in a script the parser could not take`);
    }
    if (raw === '') continue;
    const key = pipedIn ? `|${raw}` : raw;
    // A filter's output depends on its input: `base64 -d | base64 -d` decodes twice.
    const fresh = pipedIn && output?.literal !== undefined;
    if (!fresh && seen.has(key)) {
      if (!pipedIn) output = undefined;
      continue;
    }
    if (seen.size < 100_000) seen.add(key);
    const words = tokenize(raw);
    const stdin = pipedIn ? output : undefined;
    let start = 0;
    while (start < words.length) {
      const text = words[start]!.text;
      if (RESERVED_WORDS.has(text) && !READ_AS_THE_COMMAND.has(text)) start++;
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
        const value = text.slice(text.indexOf('=') + 1);
        judgePathsInText(value, walk);
        assign(walk, text.slice(0, text.indexOf('=')), {
          text: value,
          known: !words[start]!.dynamic && !unresolved,
        });
        start++;
      } else break;
    }
    const fields: Field[] = words.slice(start).map((w) => ({ text: w.text, dynamic: w.dynamic }));
    if (unresolved && fields[0]?.text.includes('$'))
      fields[0] = {
        ...fields[0],
        dynamic: true,
        codeLike: true,
        opaque: `${fields[0].text}, an expansion the parser could not read`,
      };
    output = fields.length > 0 ? walk.run.command(fields, walk, stdin) : undefined;
  }
}

/** Programs whose arguments name what they act on: an unknown argument may name anything. */
const ACTS_ON_ARGUMENTS =
  /^(?:rm|rmdir|unlink|shred|wipe|srm|dd|mkfs(?:\.\w+)?|mkswap|wipefs|chmod|chown|chgrp|chattr|mv|cp|ln|install|truncate|find|xargs|kill|pkill|killall|curl|wget|nc|ncat|netcat|socat|scp|sftp|rsync|ssh|sh|bash|zsh|dash|ksh|eval|exec|source|\.|python\d*(?:\.\d+)?|perl|ruby|node|php|psql|mysql|sqlite3|redis-cli|mongosh|kubectl|helm|terraform|docker|podman|aws|gcloud|az|gsutil|git|crontab|systemctl|iptables)$/;

/** Words a wrapper's command may follow: a wrapper (the registry's), an option, a duration. */
function precedesCommand(word: string): boolean {
  return /^(?:-\S*|\d+[smhd]?)$/.test(word) || wrapperOf(word) !== undefined;
}

/** Whether a command cut at a substitution gets a word the analysis must know to judge it. */
function substitutionIsOpaque(raw: string, attached: boolean): boolean {
  const words = tokenize(raw).map((w) => w.text);
  let k = 0;
  while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]!)) k++;
  // `X=$(…)`: a value for a variable, unknown from here on (the reader marks it so).
  if (k === words.length) return !(attached && k > 0);
  while (k < words.length - 1 && precedesCommand(words[k]!)) k++;
  const name = baseName(words[k] ?? '');
  return ACTS_ON_ARGUMENTS.test(name);
}

function describeSubstituted(raw: string): string {
  const shown = raw.length > 60 ? `${raw.slice(0, 57)}...` : raw;
  return raw === ''
    ? 'a command substitution names the command'
    : `"${shown} $(…)" takes a word from a command substitution`;
}

const QUOTE_SINGLE = 39;

const QUOTE_DOUBLE = 34;

const BACKSLASH = 92;

const HASH = 35;

const DOLLAR = 36;

const PIPE = 124;

/**
 * Quote-aware split into simple commands at `;`, `&`, `|`, newlines, parentheses, back-ticks and
 * `$(`: the fallback for scripts the parser rejects or that are too large for it. It slices the
 * script and allocates nothing per character, so a megabyte costs a few milliseconds.
 */
interface SplitCommand {
  raw: string;
  pipedIn: boolean;
  /**
   * The command was cut where a command substitution opens (`$(`, an opening back-tick): its
   * output is a word of this command. `attached`: it continues the last word (`X=$(…)`,
   * `--file=$(…)`); otherwise it is a word of its own, the command's name when nothing precedes it.
   */
  substitution?: { attached: boolean };
}

function splitCommands(script: string): SplitCommand[] {
  const commands: SplitCommand[] = [];
  let start = 0;
  let pipedIn = false;
  let wordStart = true;
  let inBackquote = false;
  // One helper object, not a closure per call: the loader names closures at a cost.
  const at = {
    end(stop: number, skip: number, pipe: boolean, opens = false) {
      const raw = script.slice(start, stop).trim();
      const substitution = opens ? { attached: stop > start && !/\s/.test(script[stop - 1]!) } : undefined;
      if (raw !== '' || substitution !== undefined)
        commands.push(substitution ? { raw, pipedIn, substitution } : { raw, pipedIn });
      if (raw !== '' || !pipe) pipedIn = pipe;
      start = stop + skip;
      wordStart = true;
    },
  };
  for (let i = 0; i < script.length; i++) {
    const c = script.charCodeAt(i);
    if (c === QUOTE_SINGLE || c === QUOTE_DOUBLE) {
      const close = script.indexOf(c === QUOTE_SINGLE ? "'" : '"', i + 1);
      i = close < 0 ? script.length : close;
      wordStart = false;
    } else if (c === BACKSLASH) {
      i++;
      wordStart = false;
    } else if (c === HASH && wordStart) {
      const newline = script.indexOf('\n', i);
      const stop = newline < 0 ? script.length : newline;
      at.end(i, stop - i, false);
      i = stop - 1;
    } else if (c === 32 || c === 9) {
      wordStart = true;
    } else if (c === PIPE && script.charCodeAt(i + 1) !== PIPE && script.charCodeAt(i - 1) !== PIPE) {
      at.end(i, 1, true);
    } else if (c === 96) {
      at.end(i, 1, false, !inBackquote);
      inBackquote = !inBackquote;
    } else if (c === 59 || c === 38 || c === PIPE || c === 10 || c === 40 || c === 41) {
      at.end(i, 1, false);
    } else if (c === DOLLAR && script.charCodeAt(i + 1) === 40) {
      at.end(i, 2, false, script.charCodeAt(i + 2) !== 40);
      i++;
    } else {
      wordStart = false;
    }
  }
  at.end(script.length, 0, false);
  return commands;
}

/** The words of one simple command from splitCommands: quotes removed, `$` marks unknowns. */
function tokenize(raw: string): { text: string; dynamic: boolean }[] {
  const words: { text: string; dynamic: boolean }[] = [];
  let word = '';
  let inWord = false;
  let dynamic = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === "'" || ch === '"') {
      const close = raw.indexOf(ch, i + 1);
      const stop = close < 0 ? raw.length : close;
      word += raw.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (ch === '\\' && i + 1 < raw.length) {
      word += raw[i + 1];
      inWord = true;
      i++;
    } else if (ch === ' ' || ch === '\t' || ch === '\r') {
      if (inWord) words.push({ text: word, dynamic });
      word = '';
      inWord = false;
      dynamic = false;
    } else {
      if (ch === '$') dynamic = true;
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push({ text: word, dynamic });
  return words;
}

/** The linear reading of a script: its simple commands and their words. */
function splitWords(script: string): { words: { text: string; dynamic: boolean }[]; pipedIn: boolean }[] {
  return splitCommands(script)
    .filter(({ raw }) => raw !== '')
    .map(({ raw, pipedIn }) => ({ words: tokenize(raw), pipedIn }));
}
