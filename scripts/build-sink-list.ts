// Builds src/domains/verdict/data/exfiltration-sinks.json: registrable domains of services
// that accept anonymous uploads or expose a local port publicly (paste sites, file drops,
// request bins, tunnels, out-of-band interaction servers, dynamic DNS).
//
// Sources: the MISP "lots-project" warning list (CC0-1.0), filtered to the entries whose
// service is a sink — mainstream platforms, hosting platforms, mail trackers and URL
// shorteners are dropped because agents legitimately talk to them — plus providers of the
// same categories that are public knowledge. Nothing is taken from GPL lists.
// Usage: npx tsx scripts/build-sink-list.ts [path/to/misp/list.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Category = 'paste' | 'file-drop' | 'request-bin' | 'tunnel' | 'oast' | 'dynamic-dns';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mispPath = resolve(
  process.argv[2] ?? resolve(repoRoot, '../shared/data/raw/misp-warninglists/lists/lots-project/list.json'),
);
const outPath = resolve(repoRoot, 'src/domains/verdict/data/exfiltration-sinks.json');

/** MISP entries kept, by the kind of service behind them. */
const MISP_CATEGORIES: Record<string, Category> = {
  '.gofile.io': 'file-drop',
  '.ngrok.io': 'tunnel',
  '.requestbin.net': 'request-bin',
  '.sendspace.com': 'file-drop',
  '.trycloudflare.com': 'tunnel',
  '.uplooder.net': 'file-drop',
  '.duckdns.org': 'dynamic-dns',
  '4sync.com': 'file-drop',
  'anonfiles.com': 'file-drop',
  'clbin.com': 'paste',
  'filebin.net': 'file-drop',
  'filecloudonline.com': 'file-drop',
  'filetransfer.io': 'file-drop',
  'ideone.com': 'paste',
  'ix.io': 'paste',
  'localhost.run': 'tunnel',
  'mediafire.com': 'file-drop',
  'mega.nz': 'file-drop',
  'paste.ee': 'paste',
  'pastebin.com': 'paste',
  'pastebin.pl': 'paste',
  'pastetext.net': 'paste',
  'pastie.org': 'paste',
  'rentry.co': 'paste',
  'siasky.net': 'file-drop',
  'sprunge.us': 'paste',
  'telegra.ph': 'paste',
  'teletype.in': 'paste',
  'termbin.com': 'paste',
  'textbin.net': 'paste',
  'transfer.sh': 'file-drop',
  'ufile.io': 'file-drop',
  'wetransfer.com': 'file-drop',
  'wtools.io': 'paste',
  'zerobin.net': 'paste',
};

/** Providers of the same categories, from public documentation of each service. */
const KNOWN_PROVIDERS: Record<Category, readonly string[]> = {
  tunnel: [
    'ngrok.io',
    'ngrok.app',
    'ngrok.dev',
    'ngrok-free.app',
    'ngrok-free.dev',
    'ngrok.pizza',
    'ngrok.pro',
    'loca.lt',
    'localtunnel.me',
    'serveo.net',
    'serveousercontent.com',
    'trycloudflare.com',
    'pinggy.io',
    'pinggy.link',
    'pinggy.online',
    'lhr.life',
    'lhr.rocks',
    'localhost.run',
    'localxpose.io',
    'loclx.io',
    'localto.net',
    'localtonet.com',
    'tunnelmole.net',
    'tunnelmole.com',
    'tuns.sh',
    'pgs.sh',
    'ssi.sh',
    'tunnel.staqlab.com',
    'tunnelto.dev',
    'jprq.io',
    'jprq.live',
    'jprq.site',
    'telebit.io',
    'telebit.fun',
    'telebit.cloud',
    'expose.sh',
    'expose.dev',
    'sharedwithexpose.com',
    'loophole.site',
    'loophole.cloud',
    'dataplicity.io',
    'dataplicity.com',
    'ssh-j.com',
    'bore.pub',
    'bore.digital',
    'zrok.io',
    'pagekite.me',
    'pktriot.net',
    'playit.gg',
    'portmap.io',
    'portmap.host',
    'openport.io',
    'hoppy.network',
    'btunnel.co',
    'ngrok.com',
    'localhost.direct',
    'packetriot.com',
    'tunnel.pyjam.as',
    'lt.dev',
    'gotunnel.dev',
  ],
  'request-bin': [
    'webhook.site',
    'requestbin.net',
    'requestbin.com',
    'requestcatcher.com',
    'pipedream.net',
    'm.pipedream.net',
    'beeceptor.com',
    'postb.in',
    'hookbin.com',
    'ptsv2.com',
    'ptsv3.com',
    'mockbin.org',
    'mockbin.io',
    'requestinspector.com',
    'webhook.cool',
    'smee.io',
    'httpdump.app',
    'hookdeck.com',
    'requestrepo.com',
    'typedwebhook.tools',
  ],
  oast: [
    'interact.sh',
    'interactsh.com',
    'oast.fun',
    'oast.live',
    'oast.me',
    'oast.online',
    'oast.pro',
    'oast.site',
    'oastify.com',
    'burpcollaborator.net',
    'canarytokens.com',
    'canarytokens.org',
    'dnslog.cn',
    'ceye.io',
    'dnslog.link',
    'xss.ht',
    'bxss.me',
  ],
  paste: [
    'pastebin.com',
    'paste.ee',
    'dpaste.com',
    'dpaste.org',
    'hastebin.com',
    'hastebin.skyra.pw',
    'ghostbin.co',
    'paste.rs',
    'privatebin.net',
    'controlc.com',
    'justpaste.it',
    'paste.mozilla.org',
    'paste.debian.net',
    'bpa.st',
    'paste.centos.org',
    'ix.io',
    'sprunge.us',
    'termbin.com',
    'rentry.org',
    'pastes.io',
    'paste2.org',
    'katb.in',
    'paste.gg',
    'snippet.host',
  ],
  'file-drop': [
    '0x0.st',
    'file.io',
    'temp.sh',
    'transfer.sh',
    'bashupload.com',
    'oshi.at',
    'catbox.moe',
    'litterbox.catbox.moe',
    'tmpfiles.org',
    'uguu.se',
    'pixeldrain.com',
    'gofile.io',
    'anonfiles.com',
    'bayfiles.com',
    'filebin.net',
    'keep.sh',
    'put.re',
    'x0.at',
    'send.vis.ee',
    'wetransfer.com',
    'we.tl',
    'sendspace.com',
    'file.coffee',
    'tempsend.com',
    'upload.ee',
    'filetransfer.io',
  ],
  'dynamic-dns': ['duckdns.org', 'no-ip.com', 'ddns.net', 'hopto.org', 'zapto.org', 'serveo.net', 'dynu.net'],
};

// A leading dot in MISP means "any sub-domain"; the engine matches sub-domains anyway.
function registrable(entry: string): string {
  return entry.replace(/^\./, '').toLowerCase();
}

function main(): void {
  const misp = JSON.parse(readFileSync(mispPath, 'utf8')) as { list: string[]; version?: number };
  const sinks = new Map<string, Category>();
  const unknown: string[] = [];
  for (const entry of misp.list) {
    const category = MISP_CATEGORIES[entry];
    if (category === undefined) continue;
    sinks.set(registrable(entry), category);
  }
  for (const entry of Object.keys(MISP_CATEGORIES)) {
    if (!misp.list.includes(entry)) unknown.push(entry);
  }
  for (const [category, domains] of Object.entries(KNOWN_PROVIDERS) as [Category, readonly string[]][]) {
    for (const domain of domains) if (!sinks.has(domain)) sinks.set(domain, category);
  }
  const domains = [...sinks.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([domain, category]) => ({ domain, category }));
  const out = {
    description:
      'Hosts that accept anonymous uploads or expose local ports: paste sites, file drops, request bins, tunnels, OAST, dynamic DNS. Generated by scripts/build-sink-list.ts.',
    sources: [
      `MISP warninglists lots-project (CC0-1.0) version ${misp.version ?? 'unknown'}`,
      'public provider documentation',
    ],
    domains,
  };
  writeFileSync(outPath, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`wrote ${domains.length} sink domains to ${outPath}`);
  if (unknown.length > 0) console.log(`MISP entries no longer in the list: ${unknown.join(', ')}`);
}

main();
