// Builds the MITRE ATT&CK coverage map: src/domains/verdict/catalogue/coverage.json (served by
// GET /v1/catalogue/coverage) and docs/coverage.md.
//
// The techniques come from the field's own detections: SigmaHQ process-creation rules for Linux,
// macOS and Windows and its AWS, Azure and GCP rules (Detection Rule License 1.1: used with
// attribution), and the MITRE ids of LOLBAS entries (GPL-3.0: only technique ids and binary names
// are taken, never their text). Arbiter's side is the `attack` field of the catalogue rules and
// the guards. No ATT&CK name list is in ../shared/data, so a technique is shown with a Sigma rule
// title that detects it, not with its ATT&CK name.
// Usage: npx tsx scripts/build-coverage.ts [path/to/shared/data/raw]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const rawRoot = resolve(process.argv[2] ?? resolve(repoRoot, '../shared/data/raw'));
const verdictRoot = resolve(repoRoot, 'src/domains/verdict');
const jsonOut = resolve(verdictRoot, 'catalogue/coverage.json');
const mdOut = resolve(repoRoot, 'docs/coverage.md');

/** Upstream commits, as ../shared/data/README.md records them. */
const SIGMA = {
  name: 'SigmaHQ/sigma',
  url: 'https://github.com/SigmaHQ/sigma',
  commit: '8eaafff1f284',
  licence: 'DRL-1.1',
};
const LOLBAS = {
  name: 'LOLBAS-Project/LOLBAS',
  url: 'https://github.com/LOLBAS-Project/LOLBAS',
  commit: '3403b338875b',
  licence: 'GPL-3.0',
};

const PLATFORMS = ['linux', 'macos', 'windows', 'aws', 'azure', 'gcp'] as const;
type Platform = (typeof PLATFORMS)[number];
const HOSTS: Platform[] = ['linux', 'macos', 'windows'];

const TACTICS = [
  ['credential-access', 'Credential access'],
  ['persistence', 'Persistence'],
  ['privilege-escalation', 'Privilege escalation'],
  ['defense-evasion', 'Defense evasion (stealth, defense impairment)'],
  ['exfiltration', 'Exfiltration'],
  ['impact', 'Impact'],
  ['command-and-control', 'Command and control'],
  ['execution', 'Execution'],
] as const;
type Tactic = (typeof TACTICS)[number][0];
/** ATT&CK v18 split Defense Evasion into Stealth and Defense Impairment; the issue asks for both. */
const TACTIC_ALIASES: Record<string, Tactic> = {
  stealth: 'defense-evasion',
  'defense-impairment': 'defense-evasion',
};

/** Sigma folders read, and the platform each describes. */
const SIGMA_FOLDERS: [string, Platform][] = [
  ['linux/process_creation', 'linux'],
  ['macos/process_creation', 'macos'],
  ['windows/process_creation', 'windows'],
  ['cloud/aws', 'aws'],
  ['cloud/azure', 'azure'],
  ['cloud/gcp', 'gcp'],
];

/** LOLBAS categories, for a technique no Sigma rule ties to a tactic. */
const LOLBAS_TACTICS: Record<string, Tactic[]> = {
  Execution: ['execution'],
  'AWL Bypass': ['defense-evasion'],
  'Defense Evasion': ['defense-evasion'],
  ADS: ['defense-evasion'],
  Compile: ['defense-evasion'],
  Encode: ['defense-evasion'],
  Decode: ['defense-evasion'],
  'UAC Bypass': ['privilege-escalation', 'defense-evasion'],
  Credentials: ['credential-access'],
  Dump: ['credential-access'],
  Download: ['command-and-control'],
  Upload: ['exfiltration'],
  Tamper: ['defense-evasion'],
};

/**
 * Where a program of Arbiter's rules runs; any other program is a cross-platform CLI (Linux,
 * macOS, Windows). Cloud CLIs count for their cloud; doctl for none of the six.
 */
const PROGRAM_PLATFORMS: Record<string, Platform[]> = {
  ...table(
    ['linux'],
    [
      'ufw',
      'iptables',
      'ip6tables',
      'iptables-legacy',
      'iptables-nft',
      'nft',
      'firewall-cmd',
      'setenforce',
      'auditctl',
      'aa-disable',
      'aa-complain',
      'aa-teardown',
      'insmod',
      'modprobe',
      'chattr',
      'usermod',
      'useradd',
      'gpasswd',
      'adduser',
      'deluser',
      'userdel',
      'chpasswd',
      'systemctl',
      'service',
      'update-rc.d',
      'chkconfig',
      'secret-tool',
      'kwallet-query',
      'setcap',
      'init',
      'telinit',
      'killall5',
      'zpool',
      'zfs',
      'lvremove',
      'vgremove',
      'lvm',
      'btrfs',
      'ceph',
      'rbd',
      'virsh',
      'kubeadm',
      'lxc',
    ],
  ),
  ...table(['macos'], ['launchctl', 'spctl', 'csrutil', 'security']),
  ...table(
    ['linux', 'macos'],
    [
      'chmod',
      'visudo',
      'history',
      'unset',
      'passwd',
      'shutdown',
      'reboot',
      'halt',
      'poweroff',
      'kill',
      'crontab',
      'rm',
      'shred',
      'truncate',
      'unlink',
      'srm',
      'wipe',
      'pass',
      'gopass',
    ],
  ),
  ...table(
    ['windows'],
    [
      'schtasks',
      'reg',
      'register-scheduledtask',
      'new-scheduledtask',
      'new-scheduledtaskaction',
      'set-scheduledtask',
      'new-itemproperty',
      'set-itemproperty',
      'net',
      'add-localgroupmember',
      'set-mppreference',
      'add-mppreference',
      'wevtutil',
      'clear-eventlog',
      'remove-eventlog',
      'auditpol',
      'netsh',
      'set-netfirewallprofile',
      'bcdedit',
      'vaultcmd',
      'cmdkey',
      'clear-history',
      'remove-item',
      'del',
      'erase',
      'stop-computer',
      'restart-computer',
    ],
  ),
  ...table(['aws'], ['aws', 'eksctl']),
  ...table(['gcp'], ['gcloud', 'gsutil', 'bq']),
  ...table(['azure'], ['az']),
  doctl: [],
};

function table(platforms: Platform[], programs: string[]): Record<string, Platform[]> {
  return Object.fromEntries(programs.map((p) => [p, platforms]));
}

interface ArbiterRule {
  id: string;
  attack: string[];
  platforms: Platform[];
}

interface Seen {
  /** Sigma rule files (without `.yml`) by platform. */
  sigma: Map<Platform, Set<string>>;
  lolbas: Set<string>;
  /** Tactic votes of rules that tag this technique alone; `loose` of rules tagging several. */
  tactics: Map<string, number>;
  loose: Map<string, number>;
  title: string | undefined;
}

const TECHNIQUE_TAG = /^attack\.(t\d{4}(?:\.\d{3})?)$/i;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.yml'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function seenOf(seen: Map<string, Seen>, id: string): Seen {
  let entry = seen.get(id);
  if (entry === undefined) {
    entry = { sigma: new Map(), lolbas: new Set(), tactics: new Map(), loose: new Map(), title: undefined };
    seen.set(id, entry);
  }
  return entry;
}

function readSigma(seen: Map<string, Seen>): number {
  let read = 0;
  for (const [folder, platform] of SIGMA_FOLDERS) {
    for (const file of yamlFiles(join(rawRoot, 'sigma/rules', folder))) {
      const rule = parse(readFileSync(file, 'utf8')) as { title?: string; tags?: string[] } | null;
      const tags = (rule?.tags ?? []).map((t) => String(t).toLowerCase());
      const techniques = tags.flatMap((t) => TECHNIQUE_TAG.exec(t)?.[1]?.toUpperCase() ?? []);
      const tactics = tags
        .map((t) => t.replace(/^attack\./, '').replaceAll('_', '-'))
        .map((t) => TACTIC_ALIASES[t] ?? t)
        // Every tactic votes (discovery too), so a discovery technique is not listed elsewhere.
        .filter((t) => /^[a-z]+(?:-[a-z]+)*$/.test(t));
      read++;
      for (const id of techniques) {
        const entry = seenOf(seen, id);
        const files = entry.sigma.get(platform) ?? new Set();
        files.add(basename(file, '.yml'));
        entry.sigma.set(platform, files);
        const sole = new Set(techniques.map(parentOf)).size === 1;
        for (const tactic of tactics) vote(sole ? entry.tactics : entry.loose, tactic);
        if (sole && rule?.title && (entry.title === undefined || rule.title.length < entry.title.length))
          entry.title = rule.title;
      }
    }
  }
  return read;
}

function readLolbas(seen: Map<string, Seen>): number {
  const files = yamlFiles(join(rawRoot, 'lolbas/yml'));
  for (const file of files) {
    const entry = parse(readFileSync(file, 'utf8')) as {
      Name?: string;
      Commands?: { MitreID?: string; Category?: string }[];
    } | null;
    for (const command of entry?.Commands ?? []) {
      const id = command.MitreID?.trim().toUpperCase();
      if (!id || !/^T\d{4}(\.\d{3})?$/.test(id)) continue;
      const technique = seenOf(seen, id);
      if (entry?.Name) technique.lolbas.add(entry.Name);
      for (const tactic of LOLBAS_TACTICS[command.Category ?? ''] ?? []) vote(technique.loose, tactic);
    }
  }
  return files.length;
}

function vote(votes: Map<string, number>, tactic: string): void {
  votes.set(tactic, (votes.get(tactic) ?? 0) + 1);
}

/**
 * The tactics most rules give a technique: those with at least a quarter of the leader's votes,
 * so one rule's stray tag (Valid Accounts under impact) does not list it there.
 */
function leading(votes: Map<string, number>): Set<string> {
  const most = Math.max(...votes.values());
  return new Set([...votes].filter(([, n]) => n * 4 >= most).map(([t]) => t));
}

function parentOf(id: string): string {
  return id.split('.')[0]!;
}

function platformsOf(programs: string[], family: string | undefined): Platform[] {
  if (family === 'windows') return ['windows'];
  const out = new Set<Platform>();
  for (const program of programs)
    for (const p of PROGRAM_PLATFORMS[program.toLowerCase()] ?? HOSTS) out.add(p);
  return PLATFORMS.filter((p) => out.has(p));
}

function arbiterRules(): ArbiterRule[] {
  const rules: ArbiterRule[] = [];
  const dir = join(verdictRoot, 'catalogue/rules');
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
      family: string;
      rules: { id: string; program: string | string[]; attack?: string[] }[];
    };
    for (const rule of file.rules) {
      if (!rule.attack) continue;
      const programs = Array.isArray(rule.program) ? rule.program : [rule.program];
      rules.push({ id: rule.id, attack: rule.attack, platforms: platformsOf(programs, file.family) });
    }
  }
  const guards = JSON.parse(readFileSync(join(verdictRoot, 'registry/guards.json'), 'utf8')) as {
    guards: { id?: string; programs: string[]; attack?: string[] }[];
  };
  for (const guard of guards.guards) {
    if (guard.id && guard.attack)
      rules.push({ id: guard.id, attack: guard.attack, platforms: platformsOf(guard.programs, undefined) });
  }
  return rules;
}

/**
 * ATT&CK v18 moved Impair Defenses and part of Indicator Removal to new ids, which this Sigma
 * snapshot uses; Arbiter's rules name the long-standing v17 ids that SIEMs still use. Read from
 * the titles of the Sigma rules that carry the new ids (`UFW Disable Attempt` → T1686, `Audit
 * Rules Deleted Via Auditctl` → T1685.004, …).
 */
const V18: Record<string, string> = {
  'T1562.001': 'T1685',
  'T1562.002': 'T1685.001',
  'T1562.008': 'T1685.002',
  'T1562.012': 'T1685.004',
  'T1070.001': 'T1685.005',
  'T1070.002': 'T1685.006',
  'T1562.004': 'T1686',
};

/** Rule ids that cover `id` on `platform`: the technique itself, or for a parent any sub-technique. */
function coverers(rules: ArbiterRule[], id: string, platform: Platform): string[] {
  const isParent = !id.includes('.');
  return rules
    .filter(
      (r) =>
        r.platforms.includes(platform) &&
        r.attack.some((a) => [a, V18[a]].some((b) => b === id || (isParent && b && parentOf(b) === id))),
    )
    .map((r) => r.id)
    .sort();
}

const MAX_SIGMA = 8;

interface Cell {
  rules: string[];
  sigma: string[];
  sigma_total: number;
  lolbas?: string[];
}

function build() {
  const seen = new Map<string, Seen>();
  const sigmaCount = readSigma(seen);
  const lolbasCount = readLolbas(seen);
  const rules = arbiterRules();
  for (const rule of rules) for (const id of rule.attack) seenOf(seen, id);

  const tactics = TACTICS.map(([tacticId, tacticName]) => {
    const techniques = [...seen.entries()]
      .filter(([id, s]) => tacticsOf(id, s, seen).has(tacticId))
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .flatMap(([id, s]) => {
        const platforms: Partial<Record<Platform, Cell>> = {};
        for (const platform of PLATFORMS) {
          const sigma = [...(s.sigma.get(platform) ?? [])].sort();
          const lolbas = platform === 'windows' ? [...s.lolbas].sort() : [];
          const covering = coverers(rules, id, platform);
          if (sigma.length === 0 && lolbas.length === 0 && covering.length === 0) continue;
          const cell: Cell = { rules: covering, sigma: sigma.slice(0, MAX_SIGMA), sigma_total: sigma.length };
          if (lolbas.length > 0) cell.lolbas = lolbas;
          platforms[platform] = cell;
        }
        if (Object.keys(platforms).length === 0) return [];
        return [{ id, ...(s.title && { example: s.title }), platforms }];
      });
    const share = Object.fromEntries(
      PLATFORMS.map((p) => {
        // Shares count what the field has seen on the platform, not techniques only Arbiter names.
        const listed = techniques.filter((t) => {
          const cell = t.platforms[p];
          return cell !== undefined && (cell.sigma_total > 0 || cell.lolbas !== undefined);
        });
        return [
          p,
          {
            covered: listed.filter((t) => t.platforms[p]!.rules.length > 0).length,
            techniques: listed.length,
          },
        ];
      }),
    );
    return { id: tacticId, name: tacticName, share, techniques };
  });

  return {
    version: 1,
    description:
      'MITRE ATT&CK techniques of eight tactics, by platform: the Arbiter catalogue rules and guards that refuse them, and the public detections they were seen in. A technique listed for a platform with no rules is not covered there. Generated by scripts/build-coverage.ts; do not edit.',
    sources: [
      { ...SIGMA, rules_read: sigmaCount, note: 'rule file names and titles, used with attribution' },
      { ...LOLBAS, entries_read: lolbasCount, note: 'technique ids and binary names only' },
      {
        name: 'MITRE ATT&CK',
        url: 'https://attack.mitre.org/',
        licence: 'MITRE ATT&CK terms of use',
        note: '© The MITRE Corporation. This work is reproduced and distributed with the permission of The MITRE Corporation.',
      },
    ],
    platforms: [...PLATFORMS],
    tactics,
  };
}

/**
 * Tactics of a technique: those of rules tagging it alone; failing those, of rules tagging it
 * with others (or LOLBAS categories); a sub-technique Arbiter names but no source tags takes its
 * parent's.
 */
function tacticsOf(id: string, s: Seen, seen: Map<string, Seen>): Set<string> {
  if (s.tactics.size > 0) return leading(s.tactics);
  if (s.loose.size > 0) return leading(s.loose);
  const parent = seen.get(parentOf(id));
  return parent && parent !== s ? tacticsOf(parentOf(id), parent, seen) : new Set();
}

type Coverage = ReturnType<typeof build>;

function percent(covered: number, total: number): string {
  return total === 0 ? '–' : `${Math.round((covered / total) * 100)} % (${covered}/${total})`;
}

function markdown(coverage: Coverage): string {
  const out: string[] = [
    '# Coverage by MITRE ATT&CK technique',
    '',
    'Generated by `npm run build:coverage` (scripts/build-coverage.ts) from the `attack` field of the',
    'catalogue rules (`src/domains/verdict/catalogue/rules/*.json`) and guards',
    '(`src/domains/verdict/registry/guards.json`); served as `GET /v1/catalogue/coverage`. Do not edit.',
    '',
    'A technique is listed for a platform when a SigmaHQ rule for that platform (process creation on',
    'Linux, macOS and Windows; the AWS, Azure and GCP rules) or a LOLBAS entry (Windows) names it, or an',
    'Arbiter rule does. It is covered there when an Arbiter rule for that platform refuses it (for a',
    'parent technique: any of its sub-techniques); otherwise the cell says **none**. A rule counts for the',
    'platforms its program runs on. Arbiter names the ATT&CK v17 ids of impaired defenses and removed',
    `indicators; they also cover their v18 ids, which Sigma uses: ${Object.entries(V18)
      .map(([a, b]) => `${a} = ${b}`)
      .join(', ')}.`,
    'The label is the shortest title of a Sigma rule that detects the',
    'technique alone, not its ATT&CK name.',
    '',
    '**Attribution.** Technique sightings, Sigma rule names and titles: [SigmaHQ](https://github.com/SigmaHQ/sigma)',
    `(commit \`${SIGMA.commit}\`), Detection Rule License 1.1. Technique ids and binary names:`,
    `[LOLBAS](https://github.com/LOLBAS-Project/LOLBAS) (commit \`${LOLBAS.commit}\`), GPL-3.0; none of its text`,
    'is reproduced. MITRE ATT&CK® © The MITRE Corporation, reproduced and distributed with its permission.',
    '',
    '## Share covered',
    '',
    'Of the techniques Sigma or LOLBAS show on each platform, those an Arbiter rule covers.',
    '',
    `| tactic | ${PLATFORMS.join(' | ')} |`,
    `|---|${PLATFORMS.map(() => '---').join('|')}|`,
  ];
  for (const t of coverage.tactics)
    out.push(
      `| ${t.name} | ${PLATFORMS.map((p) => percent(t.share[p]!.covered, t.share[p]!.techniques)).join(' | ')} |`,
    );
  for (const t of coverage.tactics) {
    out.push(
      '',
      `## ${t.name}`,
      '',
      `| technique | platform | Arbiter rules | seen in |`,
      '|---|---|---|---|',
    );
    for (const technique of t.techniques) {
      const label = technique.example ? ` ${technique.example.replaceAll('|', '\\|')}` : '';
      for (const [platform, cell] of Object.entries(technique.platforms)) {
        const rules = cell.rules.length > 0 ? cell.rules.map((r) => `\`${r}\``).join(', ') : '**none**';
        const more =
          cell.sigma_total > cell.sigma.length ? ` and ${cell.sigma_total - cell.sigma.length} more` : '';
        const sigma = cell.sigma.length > 0 ? `Sigma: ${cell.sigma.join(', ')}${more}` : '';
        const lolbas = cell.lolbas ? `LOLBAS: ${cell.lolbas.join(', ')}` : '';
        const from = [sigma, lolbas].filter(Boolean).join('; ') || 'Arbiter only';
        out.push(`| ${technique.id}${label} | ${platform} | ${rules} | ${from} |`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

const coverage = build();
writeFileSync(jsonOut, `${JSON.stringify(coverage, null, 2)}\n`);
writeFileSync(mdOut, markdown(coverage));
console.log(`wrote ${relative(repoRoot, jsonOut)} and ${relative(repoRoot, mdOut)}`);
for (const t of coverage.tactics)
  console.log(
    t.name.padEnd(22),
    PLATFORMS.map((p) => `${p} ${percent(t.share[p]!.covered, t.share[p]!.techniques)}`).join('  '),
  );
