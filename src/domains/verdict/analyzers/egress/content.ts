import {
  SecretScanner,
  shannonEntropy,
  shippedSecretRuleSet,
} from '../../../../shared/secrets/secret-rules.ts';
import { percentDecode } from '../paths.ts';

/**
 * What leaves with an outbound message: secrets (the ledger's gitleaks-derived rules), private
 * keys, credentials, `.env`-style dumps, bulk personal records, and base64 / hex / URL-encoded
 * forms of these. Findings name a kind and, for issued tokens, the rule; never the value.
 *
 * Budgets (input cut at MAX_INSPECT_CHARS; callers refuse larger messages to untrusted hosts):
 * - the fast detectors run in one linear pass each over the whole text (hand-written scans,
 *   or regexes that anchor on a literal);
 * - the gitleaks rules run only on windows around token-like runs, at most MAX_SECRET_WINDOWS
 *   windows of SECRET_WINDOW_CHARS, prefixed tokens (`ghp_…`, `AKIA…`) first;
 *   `generic-api-key` is left out there (its pattern backtracks on dense text): the
 *   credential-assignment detector covers what it finds;
 * - at most MAX_DECODE_CANDIDATES encoded runs are decoded, MAX_DECODED_CHARS in all, and
 *   decoded text is checked again at most MAX_DECODE_DEPTH levels deep.
 */
export const MAX_INSPECT_CHARS = 1024 * 1024;
const MAX_SECRET_WINDOWS = 32;
const SECRET_WINDOW_CHARS = 640;
const MAX_RUNS = 8192;
const MAX_DECODE_CANDIDATES = 16;
const MAX_DECODED_CHARS = 64 * 1024;
const MAX_DECODE_DEPTH = 2;
const MIN_BULK_RECORDS = 5;
const MAX_KEYWORD_HITS = 4096;

export interface SensitiveFinding {
  /** What was found, for messages: "GitHub token", "private key", "credential"… */
  kind: string;
  /** The gitleaks rule that found it, when one did. */
  ruleId?: string;
  /** True when the finding was only visible after decoding base64, hex or percent-encoding. */
  encoded?: boolean;
}

let scanner: SecretScanner | undefined;

/** The ledger's rule set (secret-rules.json), without the backtracking generic rule. */
function issuedSecretScanner(): SecretScanner {
  if (scanner === undefined) {
    const set = shippedSecretRuleSet();
    scanner = new SecretScanner({ ...set, rules: set.rules.filter((r) => r.id !== 'generic-api-key') });
  }
  return scanner;
}

const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d/;
/** `Basic <base64 of user:password>` written out: HTTP credentials. */
const BASIC_CREDENTIALS = /\bBasic [A-Za-z0-9+/]{12,}={0,2}/;
/** After `://`: `user:password@host`, a connection string with its password. */
const USERINFO = /[^\s:/@"'<>\\]{1,64}:[^\s@/"'<>\\]{1,128}@[A-Za-z0-9.-]{1,253}/y;
/**
 * `KEY = value` where the key names a secret: found from the keyword out, so the cost is one
 * pass plus a bounded look around each keyword. The value must be 8+ characters and not a
 * reference (`$VAR`, `${…}`, `<…>`); `token_type`, `max_tokens` and the like are not secrets.
 */
const SECRET_KEYWORD =
  /secret|passw(?:or)?d|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|(?:account|shared[_-]?access|signing|encryption|master|client)[_-]?key|credential|token|auth/gi;
const ASSIGNED_VALUE = /["']?[ \t]{0,3}[:=][ \t]{0,3}["']?([^\s"',;&<>$\\]{8,256})/y;
const SECRET_KEY_NAME =
  /(?:secret|passw(?:or)?d|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|(?:account|shared[_-]?access|signing|encryption|master|client)[_-]?key|credentials?|(?:^|[_.-])token|auth[_-]?token)$|^(?:secret|password|passwd|pwd|token|auth)[_.-]?/i;
const NOT_A_SECRET_VALUE =
  /^(?:true|false|null|none|undefined|bearer|basic|string|required|optional|example|\d+)$/i;
/** `.env` lines; `\n` written inside a JSON string counts as a line break. */
const ENV_LINE = /(?:^|\n|\\n)[ \t]{0,8}(?:export[ \t]+)?([A-Z][A-Z0-9_]{1,63})=([^\s\\"]{1,512})/g;
const ENV_SECRETISH = /SECRET|PASSW|TOKEN|API_?KEY|PRIVATE|CREDENTIAL|DATABASE_URL|_DSN$|_KEY$|AUTH/;

const SSN = /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g;
const PHONE = /(?:\+\d{1,3}[ .-]?)?\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b/g;

// Character classes for the hand-written scans: token characters ([A-Za-z0-9_+/=.-]),
// base64 / base64url characters, hex digits, e-mail local-part characters.
const TOKEN = 1;
const BASE64 = 2;
const HEX = 4;
const LOCAL = 8;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_+/=.-]/.test(ch)) CLASS[c]! |= TOKEN;
  if (/[A-Za-z0-9+/_=-]/.test(ch)) CLASS[c]! |= BASE64;
  if (/[0-9a-fA-F]/.test(ch)) CLASS[c]! |= HEX;
  if (/[A-Za-z0-9._%+-]/.test(ch)) CLASS[c]! |= LOCAL;
}

function classOf(code: number): number {
  return code < 128 ? CLASS[code]! : 0;
}

interface Run {
  start: number;
  end: number;
  /** Bitwise AND of the classes of its characters. */
  all: number;
}

/** Maximal runs of token characters at least 16 long, in one pass. */
function tokenRuns(text: string): Run[] {
  const runs: Run[] = [];
  let start = -1;
  let all = 0;
  for (let i = 0; i <= text.length; i++) {
    const cls = i < text.length ? classOf(text.charCodeAt(i)) : 0;
    if (cls & TOKEN) {
      if (start < 0) {
        start = i;
        all = cls;
      } else all &= cls;
      continue;
    }
    if (start >= 0 && i - start >= 16) {
      runs.push({ start, end: i, all });
      if (runs.length >= MAX_RUNS) return runs;
    }
    start = -1;
  }
  return runs;
}

function looksRandom(text: string, run: Run): boolean {
  let digits = 0;
  let letters = 0;
  const end = Math.min(run.end, run.start + 256);
  for (let i = run.start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
  }
  return digits >= 2 && letters >= 4;
}

/** Issued tokens start with a short tag: `ghp_`, `glpat-`, `xoxb-`, `sk_live_`, `AKIA`, `AIza`. */
const TAGGED = /^(?:[A-Za-z]{2,12}[_-]|AKIA|ASIA|AIza|SG\.|eyJ)/;

const RULE_KIND: readonly [RegExp, string][] = [
  [/^github-/, 'GitHub token'],
  [/^gitlab-/, 'GitLab token'],
  [/^aws-/, 'AWS key'],
  [/^stripe-/, 'Stripe key'],
  [/^slack-/, 'Slack token'],
  [/^openai-/, 'OpenAI key'],
  [/^anthropic-/, 'Anthropic key'],
  [/^npm-/, 'npm token'],
  [/^gcp-/, 'Google API key'],
  [/^private-key$/, 'private key'],
  [/^jwt/, 'JSON web token'],
];

function kindOfRule(ruleId: string): string {
  for (const [pattern, kind] of RULE_KIND) if (pattern.test(ruleId)) return kind;
  return `secret (${ruleId})`;
}

/** gitleaks rules on windows around token-like runs, so the cost does not grow with the text. */
function issuedSecrets(text: string, runs: readonly Run[], out: SensitiveFinding[]): void {
  const tagged: Run[] = [];
  const other: Run[] = [];
  for (const run of runs) {
    if (TAGGED.test(text.slice(run.start, run.start + 12))) tagged.push(run);
    else if (other.length < MAX_SECRET_WINDOWS && looksRandom(text, run)) other.push(run);
  }
  const chosen = [...tagged.slice(0, MAX_SECRET_WINDOWS), ...other].slice(0, MAX_SECRET_WINDOWS);
  chosen.sort((a, b) => a.start - b.start);
  const rules = issuedSecretScanner();
  let coveredTo = -1;
  for (const run of chosen) {
    if (run.start < coveredTo) continue;
    const start = Math.max(0, run.start - SECRET_WINDOW_CHARS / 2);
    const end = Math.min(text.length, start + SECRET_WINDOW_CHARS);
    coveredTo = end - 64;
    for (const hit of rules.scan(text.slice(start, end))) {
      if (!out.some((f) => f.ruleId === hit.ruleId))
        out.push({ kind: kindOfRule(hit.ruleId), ruleId: hit.ruleId });
    }
  }
}

/**
 * Issued API keys whose exact lengths vary between key generations: OpenAI (`sk-…T3BlbkFJ…`,
 * `sk-proj-…`), Anthropic (`sk-ant-api03-…`). gitleaks pins lengths; these only pin the shape.
 */
const ISSUED_KEY_SHAPES: readonly [RegExp, string][] = [
  [/\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}/, 'OpenAI key'],
  [/\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}/, 'OpenAI key'],
  [/\bsk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{32,}/, 'Anthropic key'],
];

/** Checked on token runs that start with `sk-`, each cut at 512 characters: linear in the text. */
function issuedKeyShapes(text: string, runs: readonly Run[], out: SensitiveFinding[]): void {
  for (const run of runs) {
    if (text.charCodeAt(run.start) !== 115 || !text.startsWith('sk-', run.start)) continue;
    const token = text.slice(run.start, Math.min(run.end, run.start + 512));
    for (const [pattern, kind] of ISSUED_KEY_SHAPES) {
      if (!out.some((f) => f.kind === kind) && pattern.test(token)) out.push({ kind });
    }
  }
}

function isIdentifierChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46
  );
}

function credentialAssignment(text: string): boolean {
  SECRET_KEYWORD.lastIndex = 0;
  let hits = 0;
  for (
    let m = SECRET_KEYWORD.exec(text);
    m !== null && hits < MAX_KEYWORD_HITS;
    m = SECRET_KEYWORD.exec(text)
  ) {
    hits++;
    let start = m.index;
    while (start > 0 && m.index - start < 48 && isIdentifierChar(text.charCodeAt(start - 1))) start--;
    let end = m.index + m[0].length;
    const limit = end + 24;
    while (end < text.length && end < limit && isIdentifierChar(text.charCodeAt(end))) end++;
    ASSIGNED_VALUE.lastIndex = end;
    const value = ASSIGNED_VALUE.exec(text);
    if (value === null) continue;
    if (SECRET_KEY_NAME.test(text.slice(start, end)) && !NOT_A_SECRET_VALUE.test(value[1]!)) return true;
  }
  return false;
}

function urlWithPassword(text: string): boolean {
  let hits = 0;
  for (let at = text.indexOf('://'); at >= 0 && hits < MAX_KEYWORD_HITS; at = text.indexOf('://', at + 3)) {
    hits++;
    USERINFO.lastIndex = at + 3;
    if (USERINFO.test(text)) return true;
  }
  return false;
}

/** E-mail addresses, found from each `@` outwards (bounded on both sides). */
function countEmails(text: string, limit: number): number {
  const seen = new Set<string>();
  for (let at = text.indexOf('@'); at >= 0 && seen.size < limit; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && classOf(text.charCodeAt(start - 1)) & LOCAL) start--;
    if (start === at) continue;
    const domain = /^[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}/.exec(
      text.slice(at + 1, at + 254),
    );
    if (domain === null) continue;
    seen.add(`${text.slice(start, at)}@${domain[0]}`.toLowerCase());
  }
  return seen.size;
}

/** A payment card number: 13–19 digits, single spaces or dashes between, passing Luhn. */
function hasCardNumber(text: string): boolean {
  let digits = 0;
  let sum = 0;
  let alt = false;
  let checked = 0;
  // Walk right to left so the Luhn doubling starts at the check digit.
  for (let i = text.length - 1; i >= -1; i--) {
    const c = i >= 0 ? text.charCodeAt(i) : 0;
    if (c >= 48 && c <= 57) {
      let n = c - 48;
      if (alt) {
        n *= 2;
        if (n > 9) n -= 9;
      }
      sum += n;
      alt = !alt;
      digits++;
      if (digits <= 19) continue;
    } else if ((c === 32 || c === 45) && digits > 0 && i > 0) {
      const prev = text.charCodeAt(i - 1);
      if (prev >= 48 && prev <= 57) continue;
    }
    if (digits >= 13 && digits <= 19 && sum % 10 === 0) {
      const before = i >= 0 ? text.charCodeAt(i) : 0;
      if (!(before >= 48 && before <= 57) && !isLetter(before)) return true;
    }
    if (digits > 0 && ++checked > 1_000_000) return false;
    digits = 0;
    sum = 0;
    alt = false;
  }
  return false;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function countDistinct(text: string, pattern: RegExp, limit: number): number {
  const seen = new Set<string>();
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null && seen.size < limit; m = pattern.exec(text)) seen.add(m[0]);
  return seen.size;
}

function plainFindings(text: string, runs: readonly Run[], out: SensitiveFinding[]): void {
  if (PRIVATE_KEY.test(text)) out.push({ kind: 'private key' });
  if (urlWithPassword(text) || BASIC_CREDENTIALS.test(text)) out.push({ kind: 'credential' });
  let envLines = 0;
  let envSecrets = 0;
  ENV_LINE.lastIndex = 0;
  for (let m = ENV_LINE.exec(text); m !== null && envLines < 64; m = ENV_LINE.exec(text)) {
    envLines++;
    if (ENV_SECRETISH.test(m[1]!)) envSecrets++;
  }
  if (envLines >= 2 && envSecrets >= 1) out.push({ kind: '.env-style dump' });
  if (!out.some((f) => f.kind === 'credential') && credentialAssignment(text))
    out.push({ kind: 'credential' });
  issuedSecrets(text, runs, out);
  issuedKeyShapes(text, runs, out);
  if (countEmails(text, MIN_BULK_RECORDS) >= MIN_BULK_RECORDS) {
    out.push({ kind: 'bulk personal records (e-mail addresses)' });
  }
  if (countDistinct(text, SSN, 1) >= 1) out.push({ kind: 'US social security number' });
  if (hasCardNumber(text)) out.push({ kind: 'payment card number' });
  if (countDistinct(text, PHONE, MIN_BULK_RECORDS) >= MIN_BULK_RECORDS) {
    out.push({ kind: 'bulk personal records (phone numbers)' });
  }
}

const PRINTABLE = /^[\t\n\r\x20-\x7e]*$/;

function decodeBase64(run: string): string | undefined {
  const clean = run.replace(/=+$/, '');
  if (clean.length % 4 === 1) return undefined;
  const decoded = Buffer.from(clean.replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1');
  return decoded.length >= 8 && PRINTABLE.test(decoded) ? decoded : undefined;
}

function decodeHex(run: string): string | undefined {
  const decoded = Buffer.from(run.length % 2 === 0 ? run : run.slice(0, -1), 'hex').toString('latin1');
  return PRINTABLE.test(decoded) ? decoded : undefined;
}

/** Decoded forms of the text's encoded runs, within the decode budget. */
function decodedForms(text: string, runs: readonly Run[]): string[] {
  const forms: string[] = [];
  let budget = MAX_DECODED_CHARS;
  if (text.includes('%')) {
    const decoded = percentDecode(text.slice(0, MAX_DECODED_CHARS));
    if (decoded !== text) {
      forms.push(decoded);
      budget -= decoded.length;
    }
  }
  let candidates = 0;
  for (const run of runs) {
    if (candidates >= MAX_DECODE_CANDIDATES || budget <= 0) break;
    const length = Math.min(run.end - run.start, budget * 2);
    const raw = text.slice(run.start, run.start + length);
    let decoded: string | undefined;
    if (run.all & HEX && length >= 32) decoded = decodeHex(raw);
    else if (run.all & BASE64 && shannonEntropy(raw.slice(0, 64)) >= 3) decoded = decodeBase64(raw);
    else continue;
    candidates++;
    if (decoded === undefined) continue;
    budget -= decoded.length;
    forms.push(decoded);
  }
  return forms;
}

function inspect(text: string, depth: number, out: SensitiveFinding[]): void {
  const runs = tokenRuns(text);
  plainFindings(text, runs, out);
  if (depth >= MAX_DECODE_DEPTH) return;
  for (const decoded of decodedForms(text, runs)) {
    const found: SensitiveFinding[] = [];
    inspect(decoded, depth + 1, found);
    for (const f of found) {
      if (!out.some((o) => o.kind === f.kind)) out.push({ ...f, encoded: true });
    }
  }
}

/**
 * Sensitive data in a text about to leave. Text past MAX_INSPECT_CHARS is not read: callers
 * decide what an uninspectable message means (see `isUninspectable`).
 */
export function findSensitive(text: string): SensitiveFinding[] {
  const out: SensitiveFinding[] = [];
  if (text.length === 0) return out;
  inspect(text.length > MAX_INSPECT_CHARS ? text.slice(0, MAX_INSPECT_CHARS) : text, 0, out);
  return out;
}

export function isUninspectable(text: string): boolean {
  return text.length > MAX_INSPECT_CHARS;
}

/** Kinds, de-duplicated, for a message. */
export function describeKinds(findings: readonly SensitiveFinding[]): string {
  const kinds = [...new Set(findings.map((f) => (f.encoded ? `encoded ${f.kind}` : f.kind)))];
  return kinds.slice(0, 4).join(', ');
}

/**
 * Files whose contents are secrets or bulk data: uploading one is exfiltration whatever
 * the destination's reputation. Matched on the base name (and `.aws/credentials`-style tails).
 */
const SENSITIVE_FILE =
  /(?:^|\/)(?:\.env(?:\.[\w.-]+)?|[\w.-]*\.env|\.envrc|\.npmrc|\.pypirc|\.netrc|\.pgpass|\.git-credentials|\.htpasswd|\.dockercfg|credentials(?:\.json|\.csv|\.xml)?|secrets?(?:\.[\w-]+)?\.(?:ya?ml|json|toml|env|txt)|id_(?:rsa|dsa|ecdsa|ed25519)|[\w.-]+\.(?:pem|key|p12|pfx|jks|keystore|kdbx|kdb|ovpn|sql|sqlite|sqlite3|db|dump|bak|bundle)(?:\.(?:gz|bz2|xz|zst|zip|7z))?|[\w.-]*(?:backup|dump)[\w.-]*\.(?:tar|tgz|gz|zip|7z|bz2|xz|zst)|(?:secrets?|credentials|private[-_]keys?)\/?|wallet\.dat|shadow|passwd|master\.key|service[-_]account[\w.-]*\.json|terraform\.tfstate(?:\.backup)?|kubeconfig)$/i;

/** The kind of secret a file holds, or undefined for an ordinary file. */
export function sensitiveFileKind(path: string): string | undefined {
  const clean = path
    .trim()
    .replace(/^@/, '')
    .replace(/[;,].*$/, '');
  if (clean === '' || clean === '-' || /\.(?:example|sample|template|dist)$/i.test(clean)) return undefined;
  return SENSITIVE_FILE.test(clean) ? 'file that holds secrets or bulk data' : undefined;
}
