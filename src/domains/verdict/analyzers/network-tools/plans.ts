import type { ToolInput, ToolWord } from './tool-words.ts';

/**
 * What one network tool's command line sends, and where: a plan per tool family (curl, wget,
 * HTTPie, scp/rsync/sftp, raw sockets, the rest), judged by ../network-tools.ts.
 */

const HOST_LIKE =
  /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:\/|$)|^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:\/|$)|^\[[0-9a-f:.]+\]/i;
export const DNS_TOOLS = new Set([
  'dig',
  'nslookup',
  'host',
  'ping',
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'whois',
  'ssh',
]);

/** What one command line sends, and where. */
interface Plan {
  urls: ToolWord[];
  hosts: ToolWord[];
  /** Literal data sent (curl -d, wget --post-data, httpie items). */
  literals: string[];
  /** Files whose content is sent. */
  files: string[];
  /** Header lines (`Name: value`). */
  headers: string[];
  /** Words carrying data that come from a substitution (their `reads`). */
  dynamicData: ToolWord[];
  readsStdin: boolean;
  sendsData: boolean;
  /** The port a raw socket tool connects to (`nc localhost 6379`), when named. */
  port?: number;
}

function emptyPlan(): Plan {
  return {
    urls: [],
    hosts: [],
    literals: [],
    files: [],
    headers: [],
    dynamicData: [],
    readsStdin: false,
    sendsData: false,
  };
}

// curl options whose value is data, files or headers; and other options that take a value.
const CURL_DATA = new Set(['-d', '--data', '--data-ascii', '--data-binary', '--data-raw', '--json']);
const CURL_VALUE = new Set([
  '-o',
  '--output',
  '-e',
  '--referer',
  '-A',
  '--user-agent',
  '-b',
  '--cookie',
  '-c',
  '--cookie-jar',
  '-x',
  '--proxy',
  '-K',
  '--config',
  '--resolve',
  '--connect-to',
  '-w',
  '--write-out',
  '-m',
  '--max-time',
  '--retry',
  '--cacert',
  '--cert',
  '-E',
  '--key',
  '--interface',
  '-u',
  '--user',
  '-r',
  '--range',
  '-z',
  '--time-cond',
  '--limit-rate',
  '--connect-timeout',
  '-Y',
  '-y',
  '-C',
  '--continue-at',
  '--data-urlencode',
  '-F',
  '--form',
  '--form-string',
  '-T',
  '--upload-file',
  '-H',
  '--header',
  '-X',
  '--request',
  '--url',
  '-D',
  '--dump-header',
  '--oauth2-bearer',
]);

export function carriesSubstitution(word: ToolWord): boolean {
  return (
    (word.reads !== undefined && word.reads.length > 0) || (word.from !== undefined && word.from.length > 0)
  );
}

function addDataValue(plan: Plan, value: ToolWord, allowFile: boolean): void {
  plan.sendsData = true;
  if (carriesSubstitution(value)) plan.dynamicData.push(value);
  const text = value.text;
  if (allowFile && text.startsWith('@')) {
    const file = text.slice(1);
    if (file === '-' || file === '/dev/stdin') plan.readsStdin = true;
    else if (file !== '') plan.files.push(file);
    return;
  }
  plan.literals.push(text);
}

function addFormValue(plan: Plan, value: ToolWord): void {
  plan.sendsData = true;
  if (carriesSubstitution(value)) plan.dynamicData.push(value);
  const eq = value.text.indexOf('=');
  const content = eq >= 0 ? value.text.slice(eq + 1) : value.text;
  if (content.startsWith('@') || content.startsWith('<')) {
    const file = content.slice(1).split(';')[0]!;
    if (file === '-') plan.readsStdin = true;
    else if (file !== '') plan.files.push(file);
  } else {
    plan.literals.push(content);
  }
}

function addDestination(plan: Plan, word: ToolWord): void {
  if (word.text.includes('://')) plan.urls.push(word);
  else plan.hosts.push(word);
}

/** `--name=value` as the flag and its value; any other word as a flag with no value yet. */
function splitLongFlag(word: ToolWord): { flag: string; value: ToolWord | undefined } {
  const eq = word.text.startsWith('--') ? word.text.indexOf('=') : -1;
  if (eq <= 0) return { flag: word.text, value: undefined };
  return { flag: word.text.slice(0, eq), value: { ...word, text: word.text.slice(eq + 1) } };
}

function planCurl(args: readonly ToolWord[]): Plan {
  const plan = emptyPlan();
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    let { flag, value } = splitLongFlag(word);
    if (value === undefined && /^-[A-Za-z]{2,}/.test(flag) && !flag.startsWith('--')) {
      // `-sSd@file`, `-XPOST`: the first letter that takes a value takes the rest of the word.
      for (let j = 1; j < flag.length; j++) {
        const short = `-${flag[j]}`;
        if (CURL_VALUE.has(short) || CURL_DATA.has(short)) {
          const rest = flag.slice(j + 1);
          flag = short;
          if (rest !== '') value = { ...word, text: rest };
          break;
        }
      }
    }
    if (flag.startsWith('-') && flag.length > 1 && !flag.includes('://')) {
      const takes = CURL_VALUE.has(flag) || CURL_DATA.has(flag);
      if (!takes) continue;
      if (value === undefined) {
        value = args[i + 1];
        i++;
      }
      if (value === undefined) continue;
      if (CURL_DATA.has(flag)) addDataValue(plan, value, flag !== '--data-raw');
      else if (flag === '--data-urlencode') {
        const at = value.text.indexOf('@');
        const eqv = value.text.indexOf('=');
        if (at >= 0 && (eqv < 0 || at < eqv))
          addDataValue(plan, { ...value, text: value.text.slice(at) }, true);
        else addDataValue(plan, { ...value, text: value.text.slice(eqv + 1) }, false);
      } else if (flag === '-F' || flag === '--form') addFormValue(plan, value);
      else if (flag === '--form-string') addDataValue(plan, value, false);
      else if (flag === '-T' || flag === '--upload-file') {
        plan.sendsData = true;
        if (value.text === '-' || value.text === '.') plan.readsStdin = true;
        else plan.files.push(value.text);
      } else if (flag === '-H' || flag === '--header') {
        if (value.text.startsWith('@')) plan.files.push(value.text.slice(1));
        else plan.headers.push(value.text);
      } else if (flag === '-X' || flag === '--request') {
        if (/^(?:POST|PUT|PATCH)$/i.test(value.text)) plan.sendsData = true;
      } else if (flag === '--url') addDestination(plan, value);
      else if (flag === '--oauth2-bearer') plan.headers.push(`Authorization: Bearer ${value.text}`);
      continue;
    }
    addDestination(plan, word);
  }
  return plan;
}

const WGET_VALUE = new Set([
  '-O',
  '--output-document',
  '-o',
  '--output-file',
  '-P',
  '--directory-prefix',
  '-U',
  '--user-agent',
  '-e',
  '--execute',
  '-t',
  '--tries',
  '-T',
  '--timeout',
  '--user',
  '--password',
  '-i',
  '--input-file',
]);

function planWget(args: readonly ToolWord[]): Plan {
  const plan = emptyPlan();
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const { flag, value: inline } = splitLongFlag(word);
    let value = inline;
    const known = /^--(?:post-data|post-file|body-data|body-file|header|method)$/.test(flag);
    if (known) {
      if (value === undefined) {
        value = args[i + 1];
        i++;
      }
      if (value === undefined) continue;
      if (flag === '--post-data' || flag === '--body-data') addDataValue(plan, value, false);
      else if (flag === '--post-file' || flag === '--body-file') {
        plan.sendsData = true;
        if (value.text === '-' || value.text === '/dev/stdin') plan.readsStdin = true;
        else plan.files.push(value.text);
      } else if (flag === '--header') plan.headers.push(value.text);
      else if (/^(?:POST|PUT|PATCH)$/i.test(value.text)) plan.sendsData = true;
      continue;
    }
    if (flag.startsWith('-') && !flag.includes('://')) {
      if (inline === undefined && WGET_VALUE.has(flag)) i++;
      continue;
    }
    addDestination(plan, word);
  }
  return plan;
}

/** HTTPie and xh: `[METHOD] URL [items]`; items are `k=v`, `k:=json`, `k@file`, `H:v`, `k==q`. */
function planHttpie(args: readonly ToolWord[]): Plan {
  const plan = emptyPlan();
  let urlSeen = false;
  for (const word of args) {
    const text = word.text;
    if (text.startsWith('-')) {
      if (/^--(?:form|multipart)$|^-f$/.test(text)) plan.sendsData = true;
      continue;
    }
    if (!urlSeen) {
      // Both tools take the method in any case (`xh delete …`).
      if (/^(?:GET|HEAD|OPTIONS|DELETE)$/i.test(text)) continue;
      if (/^(?:POST|PUT|PATCH)$/i.test(text)) {
        plan.sendsData = true;
        continue;
      }
      urlSeen = true;
      if (/^:\d*\//.test(text) || text.startsWith(':/')) continue;
      addDestination(plan, text.includes('://') ? word : { ...word, text: `https://${text}` });
      continue;
    }
    if (text.startsWith('@')) {
      plan.sendsData = true;
      plan.files.push(text.slice(1));
      continue;
    }
    const item = /^([^=:@]*?)(==|:=@|=@|:=|=|@|:)(.*)$/s.exec(text);
    if (!item) continue;
    const [, key, sep, value] = item;
    if (sep === '==') plan.literals.push(`${key}=${value}`);
    else if (sep === ':') plan.headers.push(`${key}: ${value}`);
    else if (sep === '@' || sep === '=@' || sep === ':=@') {
      plan.sendsData = true;
      plan.files.push(value!);
    } else {
      plan.sendsData = true;
      plan.literals.push(`${key}=${value}`);
      if (carriesSubstitution(word)) plan.dynamicData.push(word);
    }
  }
  return plan;
}

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|(?:[^@\s/:]+@)?(?:\[[0-9a-f:.]+\]|[^:/\s]+):)/i;

/** scp / rsync / sftp: sources are uploaded when the last operand is remote. */
function planCopy(name: string, args: readonly ToolWord[], stdin: ToolInput | undefined): Plan {
  const plan = emptyPlan();
  const operands: ToolWord[] = [];
  const valued =
    name === 'rsync'
      ? /^-(?:e|-rsh|-exclude|-include|-filter|-files-from|-password-file|-port)$/
      : /^-[FiJloPScDBsX]$/;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text.startsWith('-')) {
      if (valued.test(text)) i++;
      continue;
    }
    operands.push(args[i]!);
  }
  const remoteOf = (w: ToolWord): string | undefined => {
    const m = REMOTE.exec(w.text);
    if (!m || /^[A-Za-z]:[\\/]/.test(w.text)) return undefined;
    if (m[0].includes('://')) return w.text;
    const host = m[0]
      .slice(0, -1)
      .replace(/^[^@]*@/, '')
      .replace(/^\[|\]$/g, '');
    return host;
  };
  if (name === 'sftp') {
    for (const w of operands) {
      const host = remoteOf(w) ?? w.text.replace(/^[^@]*@/, '');
      plan.hosts.push({ ...w, text: host });
    }
    const batch = stdin?.literal ?? '';
    for (const m of batch.matchAll(/^\s*put\s+(?:-\w+\s+)*(\S+)/gm)) plan.files.push(m[1]!);
    if (plan.files.length > 0) plan.sendsData = true;
    return plan;
  }
  const last = operands[operands.length - 1];
  const lastRemote = last ? remoteOf(last) : undefined;
  for (const w of operands) {
    const remote = remoteOf(w);
    if (remote !== undefined) addDestination(plan, { ...w, text: remote });
  }
  if (lastRemote !== undefined) {
    for (const w of operands.slice(0, -1)) {
      if (remoteOf(w) === undefined) {
        plan.files.push(w.text);
        plan.sendsData = true;
        if (carriesSubstitution(w)) plan.dynamicData.push(w);
      }
    }
  }
  return plan;
}

/** nc / ncat / socat / telnet / openssl s_client: what goes in on stdin goes out. */
function planSocket(name: string, args: readonly ToolWord[]): Plan {
  const plan = emptyPlan();
  if (name === 'socat') {
    for (const w of args) {
      const addr = /^(?:tcp|tcp4|tcp6|udp|udp4|udp6|openssl|ssl)(?:-connect)?:([^:,]+)(?::(\d+))?/i.exec(
        w.text,
      );
      if (addr) {
        plan.hosts.push({ ...w, text: addr[1]! });
        if (addr[2] !== undefined) plan.port ??= Number(addr[2]);
      }
      const file = /^(?:file|open|gopen|create):([^,]+)/i.exec(w.text);
      if (file) {
        plan.files.push(file[1]!);
        plan.sendsData = true;
      }
      if (w.text === '-' || /^stdin$|^stdio$/i.test(w.text)) plan.readsStdin = true;
    }
    return plan;
  }
  // `nc -z host port` only asks whether the port is open (zero-I/O mode): nothing is sent, and
  // nothing runs unless a program is attached (`-e`, `-c`), which is judged as a connection.
  if (
    name !== 'openssl' &&
    name !== 'telnet' &&
    args.some((w) => /^-[a-yA-Z]*z[a-zA-Z]*$/.test(w.text)) &&
    !args.some((w) => /^-[a-zA-Z]*[ec]|^--(?:sh-)?exec\b|^--lua-exec\b/.test(w.text))
  )
    return plan;
  const valued = /^-(?:p|s|w|i|q|x|X|c|e|-sh-exec|-exec|connect|servername|proxy)$/;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.text.startsWith('-')) {
      if (name === 'openssl' && (w.text === '-connect' || w.text === '-servername')) {
        const v = args[i + 1];
        const port = v ? /:(\d+)$/.exec(v.text) : null;
        if (v) plan.hosts.push({ ...v, text: v.text.replace(/:\d+$/, '') });
        if (port) plan.port ??= Number(port[1]);
        i++;
      } else if (valued.test(w.text)) i++;
      continue;
    }
    if (/^\d+$/.test(w.text)) {
      if (name !== 'openssl') plan.port ??= Number(w.text);
      continue;
    }
    if (name === 'openssl') continue;
    plan.hosts.push(w);
  }
  plan.readsStdin = true;
  return plan;
}

function planGeneric(name: string, args: readonly ToolWord[]): Plan {
  const plan = emptyPlan();
  for (const w of args) {
    const text = w.text;
    if (text.startsWith('-') && !text.includes('://')) continue;
    if (name === 'dig' && text.startsWith('@')) {
      plan.hosts.push({ ...w, text: text.slice(1) });
      continue;
    }
    if (text.includes('://')) {
      plan.urls.push(w);
      continue;
    }
    const bare = text.replace(/^[^@\s/]+@/, '');
    if (HOST_LIKE.test(bare) || (w.dynamic && DNS_TOOLS.has(name))) plan.hosts.push({ ...w, text: bare });
  }
  return plan;
}

export function planFor(name: string, args: readonly ToolWord[], stdin: ToolInput | undefined): Plan {
  switch (name) {
    case 'curl':
      return planCurl(args);
    case 'wget':
      return planWget(args);
    case 'http':
    case 'https':
    case 'xh':
      return planHttpie(args);
    case 'scp':
    case 'rsync':
    case 'sftp':
      return planCopy(name, args, stdin);
    case 'nc':
    case 'ncat':
    case 'netcat':
    case 'socat':
    case 'telnet':
    case 'openssl':
      return planSocket(name, args);
    default:
      return planGeneric(name, args);
  }
}
