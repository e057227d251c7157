import { lookupTable } from '../../../../lib/lookup-table.ts';
import type { PsWord } from './ps-word.ts';

/**
 * The cmdlets the rules read, with their parameters and aliases, and how a statement's words
 * bind to them (`rm -r C:\` → `Remove-Item -Path C:\ -Recurse`).
 */

interface ParameterSpec {
  /** Takes no value: `-Recurse`, `-Force`, or `-Recurse:$false` to turn it off. */
  switch?: boolean;
  aliases?: string[];
}

interface CmdletSpec {
  parameters: Record<string, ParameterSpec>;
  /** Parameters bound by position, in order. */
  positional: string[];
}

const COMMON_PARAMETERS: Record<string, ParameterSpec> = lookupTable({
  Verbose: { switch: true, aliases: ['vb'] },
  Debug: { switch: true, aliases: ['db'] },
  ErrorAction: { aliases: ['ea'] },
  WarningAction: { aliases: ['wa'] },
  InformationAction: { aliases: ['infa'] },
  ProgressAction: { aliases: ['proga'] },
  ErrorVariable: { aliases: ['ev'] },
  WarningVariable: { aliases: ['wv'] },
  InformationVariable: { aliases: ['iv'] },
  OutVariable: { aliases: ['ov'] },
  OutBuffer: { aliases: ['ob'] },
  PipelineVariable: { aliases: ['pv'] },
  WhatIf: { switch: true, aliases: ['wi'] },
  Confirm: { switch: true, aliases: ['cf'] },
});

const PROVIDER_PATH: Record<string, ParameterSpec> = lookupTable({
  Path: {},
  LiteralPath: { aliases: ['PSPath', 'LP'] },
  Filter: {},
  Include: {},
  Exclude: {},
  Force: { switch: true },
  Credential: {},
});

/** The cmdlets whose parameters the rules read; others keep their words as written. */
const CMDLETS: Record<string, CmdletSpec> = lookupTable<CmdletSpec>({
  'Remove-Item': {
    parameters: { ...PROVIDER_PATH, Recurse: { switch: true }, Stream: {} },
    positional: ['Path'],
  },
  'Get-ChildItem': {
    parameters: {
      ...PROVIDER_PATH,
      Recurse: { switch: true, aliases: ['s'] },
      Depth: {},
      Name: { switch: true },
      Attributes: {},
      Directory: { switch: true, aliases: ['ad', 'd'] },
      File: { switch: true, aliases: ['af'] },
      Hidden: { switch: true, aliases: ['ah', 'h'] },
      ReadOnly: { switch: true, aliases: ['ar'] },
      System: { switch: true, aliases: ['as'] },
      FollowSymlink: { switch: true },
    },
    positional: ['Path', 'Filter'],
  },
  'Get-Item': {
    parameters: { ...PROVIDER_PATH, Stream: {} },
    positional: ['Path'],
  },
  'Get-Content': {
    parameters: {
      ...PROVIDER_PATH,
      ReadCount: {},
      TotalCount: { aliases: ['First', 'Head'] },
      Tail: { aliases: ['Last'] },
      Delimiter: {},
      Wait: { switch: true },
      Raw: { switch: true },
      Encoding: {},
      AsByteStream: { switch: true },
      Stream: {},
    },
    positional: ['Path'],
  },
  'Invoke-Expression': { parameters: { Command: {} }, positional: ['Command'] },
  'Invoke-Command': {
    parameters: {
      ScriptBlock: { aliases: ['Command'] },
      ComputerName: { aliases: ['Cn'] },
      FilePath: {},
      ArgumentList: { aliases: ['Args'] },
      AsJob: { switch: true },
      Session: {},
      NoNewScope: { switch: true },
    },
    positional: ['ScriptBlock'],
  },
  'Start-Process': {
    parameters: {
      FilePath: { aliases: ['PSPath', 'Path'] },
      ArgumentList: { aliases: ['Args'] },
      Verb: {},
      WorkingDirectory: {},
      Wait: { switch: true },
      NoNewWindow: { switch: true, aliases: ['nnw'] },
      PassThru: { switch: true },
      WindowStyle: {},
      Credential: { aliases: ['RunAs'] },
      LoadUserProfile: { switch: true, aliases: ['Lup'] },
      RedirectStandardOutput: { aliases: ['RSO'] },
      RedirectStandardError: { aliases: ['RSE'] },
      RedirectStandardInput: { aliases: ['RSI'] },
      UseNewEnvironment: { switch: true },
    },
    positional: ['FilePath', 'ArgumentList'],
  },
  'Invoke-WebRequest': {
    parameters: {
      Uri: {},
      Method: {},
      OutFile: {},
      UseBasicParsing: { switch: true },
      Headers: {},
      Body: {},
      InFile: {},
    },
    positional: ['Uri'],
  },
  'Invoke-RestMethod': {
    parameters: { Uri: {}, Method: {}, OutFile: {}, Headers: {}, Body: {}, InFile: {} },
    positional: ['Uri'],
  },
  'Format-Volume': {
    parameters: {
      DriveLetter: {},
      FileSystemLabel: {},
      FileSystem: {},
      NewFileSystemLabel: {},
      Full: { switch: true },
      Force: { switch: true },
      Path: {},
      ObjectId: {},
      Partition: {},
      InputObject: {},
    },
    positional: ['DriveLetter'],
  },
  'Clear-Disk': {
    parameters: {
      Number: { aliases: ['DiskNumber'] },
      FriendlyName: {},
      RemoveData: { switch: true },
      RemoveOEM: { switch: true },
      ZeroOutEntireDisk: { switch: true },
      UniqueId: {},
      Path: {},
      InputObject: {},
    },
    positional: ['Number'],
  },
  'Set-MpPreference': {
    parameters: {
      DisableRealtimeMonitoring: {},
      DisableBehaviorMonitoring: {},
      DisableIOAVProtection: {},
      DisableScriptScanning: {},
      DisableIntrusionPreventionSystem: {},
      ExclusionPath: {},
      ExclusionProcess: {},
    },
    positional: [],
  },
  'Set-NetFirewallProfile': {
    parameters: { Profile: {}, Name: {}, Enabled: {}, All: { switch: true } },
    positional: [],
  },
  'Stop-Computer': {
    parameters: {
      ComputerName: { aliases: ['CN', '__SERVER', 'Server', 'IPAddress'] },
      Force: { switch: true },
    },
    positional: ['ComputerName'],
  },
  'Restart-Computer': {
    parameters: {
      ComputerName: { aliases: ['CN', '__SERVER', 'Server', 'IPAddress'] },
      Force: { switch: true },
      Wait: { switch: true },
    },
    positional: ['ComputerName'],
  },
  'Stop-Service': {
    parameters: {
      Name: { aliases: ['ServiceName'] },
      Force: { switch: true },
      DisplayName: {},
      InputObject: {},
    },
    positional: ['Name'],
  },
  'Set-Service': {
    parameters: {
      Name: { aliases: ['ServiceName', 'SN'] },
      StartupType: { aliases: ['StartMode', 'SM', 'ST'] },
      Status: {},
    },
    positional: ['Name'],
  },
  'Clear-EventLog': {
    parameters: { LogName: { aliases: ['LN'] }, ComputerName: { aliases: ['CN'] } },
    positional: ['LogName'],
  },
  'Write-Output': {
    parameters: { InputObject: {}, NoEnumerate: { switch: true } },
    positional: ['InputObject'],
  },
  'Set-Alias': {
    parameters: {
      Name: {},
      Value: {},
      Option: {},
      Scope: {},
      Description: {},
      Force: { switch: true },
      PassThru: { switch: true },
    },
    positional: ['Name', 'Value'],
  },
});

const NO_PARAMETERS: CmdletSpec = { parameters: {}, positional: [] };

/** Other cmdlets and functions PowerShell knows by name: their words are kept as written. */
const OTHER_CMDLETS = [
  'Set-Content',
  'Add-Content',
  'Clear-Content',
  'Copy-Item',
  'Move-Item',
  'New-Item',
  'Rename-Item',
  'Set-Item',
  'Out-File',
  'Set-ItemProperty',
  'Remove-ItemProperty',
  'New-Object',
  'Stop-Process',
  'ForEach-Object',
  'Where-Object',
  'Get-Command',
  'Get-WmiObject',
  'Get-CimInstance',
  'Remove-CimInstance',
  'Remove-WmiObject',
  'Invoke-WmiMethod',
  'Invoke-CimMethod',
  'Remove-Partition',
  'Initialize-Disk',
  'Clear-RecycleBin',
  'Disable-NetFirewallRule',
  'Set-ExecutionPolicy',
  'Set-Location',
  'Get-Location',
  'Write-Host',
  'Select-Object',
  'Sort-Object',
  'Select-String',
  'Test-Path',
  'Get-Process',
  'Get-Service',
  'Start-Service',
  'Restart-Service',
  'wevtutil',
];

const ALIASES: Record<string, string> = lookupTable({
  rm: 'Remove-Item',
  del: 'Remove-Item',
  erase: 'Remove-Item',
  rd: 'Remove-Item',
  rmdir: 'Remove-Item',
  ri: 'Remove-Item',
  iex: 'Invoke-Expression',
  icm: 'Invoke-Command',
  iwr: 'Invoke-WebRequest',
  curl: 'Invoke-WebRequest',
  wget: 'Invoke-WebRequest',
  irm: 'Invoke-RestMethod',
  gc: 'Get-Content',
  cat: 'Get-Content',
  type: 'Get-Content',
  gci: 'Get-ChildItem',
  ls: 'Get-ChildItem',
  dir: 'Get-ChildItem',
  saps: 'Start-Process',
  start: 'Start-Process',
  echo: 'Write-Output',
  write: 'Write-Output',
  sc: 'Set-Content',
  ac: 'Add-Content',
  clc: 'Clear-Content',
  cp: 'Copy-Item',
  copy: 'Copy-Item',
  cpi: 'Copy-Item',
  mv: 'Move-Item',
  move: 'Move-Item',
  mi: 'Move-Item',
  ni: 'New-Item',
  rni: 'Rename-Item',
  ren: 'Rename-Item',
  gi: 'Get-Item',
  sp: 'Set-ItemProperty',
  rp: 'Remove-ItemProperty',
  kill: 'Stop-Process',
  spps: 'Stop-Process',
  '%': 'ForEach-Object',
  foreach: 'ForEach-Object',
  '?': 'Where-Object',
  where: 'Where-Object',
  gcm: 'Get-Command',
  gwmi: 'Get-WmiObject',
  rwmi: 'Remove-WmiObject',
  gcim: 'Get-CimInstance',
  rcim: 'Remove-CimInstance',
  cd: 'Set-Location',
  sl: 'Set-Location',
  chdir: 'Set-Location',
  pwd: 'Get-Location',
  gl: 'Get-Location',
  sal: 'Set-Alias',
  nal: 'Set-Alias',
  'new-alias': 'Set-Alias',
  ps: 'Get-Process',
  gps: 'Get-Process',
  gsv: 'Get-Service',
  spsv: 'Stop-Service',
  select: 'Select-Object',
  sort: 'Sort-Object',
  sls: 'Select-String',
});

const CANONICAL = new Map<string, string>();
for (const name of [...Object.keys(CMDLETS), ...OTHER_CMDLETS]) CANONICAL.set(name.toLowerCase(), name);
for (const [alias, name] of Object.entries(ALIASES)) CANONICAL.set(alias, name);

/** Aliases that only exist in PowerShell; `rm`, `cat`, `curl`… are also programs elsewhere. */
export const POWERSHELL_ONLY_ALIASES = new Set([
  'iex',
  'icm',
  'iwr',
  'irm',
  'gc',
  'gci',
  'ri',
  'saps',
  'gwmi',
  'rwmi',
  'gcim',
  'rcim',
  'spps',
  'gsv',
  'spsv',
]);

/** The cmdlet a command name stands for (`rm` → `Remove-Item`), or undefined. */
export function cmdletName(name: string): string | undefined {
  const unqualified = name.slice(name.lastIndexOf('\\') + 1).toLowerCase();
  const known = CANONICAL.get(unqualified);
  if (known) return known;
  const verb = /^([a-z]+)-[a-z][a-z0-9]*$/.exec(unqualified)?.[1];
  return verb !== undefined && APPROVED_VERBS.has(verb) ? unqualified : undefined;
}

/** PowerShell's approved verbs (Get-Verb): `apt-get` or `docker-compose` are no cmdlets. */
const APPROVED_VERBS = new Set(
  (
    'add approve assert backup block build checkpoint clear close compare complete compress confirm connect ' +
    'convert convertfrom convertto copy debug deny deploy disable disconnect dismount edit enable enter exit ' +
    'expand export find format get grant group hide import initialize install invoke join limit lock measure ' +
    'merge mount move new open optimize out ping pop protect publish push read receive redo register remove ' +
    'rename repair request reset resize resolve restart restore resume revoke save search select send set show ' +
    'skip split start step stop submit suspend switch sync test trace unblock undo uninstall unlock unprotect ' +
    'unpublish unregister update use wait watch where write foreach'
  ).split(' '),
);

export interface BoundCmdlet {
  name: string;
  /** Parameter values by full name; switches hold `'$true'`. */
  named: Map<string, string[]>;
  /** Words that bound to no parameter. */
  rest: string[];
  /** The same, as an argv a rule can read: `[name, -Param, value, …, rest…]`. */
  argv: string[];
}

interface ParameterTable {
  exact: Map<string, [string, ParameterSpec]>;
  names: [string, ParameterSpec][];
}

const parameterTables = new WeakMap<CmdletSpec, ParameterTable>();

function parameterTable(spec: CmdletSpec): ParameterTable {
  let table = parameterTables.get(spec);
  if (table !== undefined) return table;
  const names = Object.entries({ ...COMMON_PARAMETERS, ...spec.parameters });
  const exact = new Map<string, [string, ParameterSpec]>();
  for (const entry of names) {
    exact.set(entry[0].toLowerCase(), entry);
    for (const alias of entry[1].aliases ?? []) exact.set(alias.toLowerCase(), entry);
  }
  table = {
    exact,
    names: names.map(([name, parameter]) => [name.toLowerCase(), parameter] as [string, ParameterSpec]),
  };
  parameterTables.set(spec, table);
  return table;
}

function resolveParameter(spec: CmdletSpec, typed: string): [string, ParameterSpec] | undefined {
  const table = parameterTable(spec);
  const lower = typed.toLowerCase();
  const exact = table.exact.get(lower);
  if (exact !== undefined) return exact;
  const candidates = table.names
    .filter(([name]) => name.startsWith(lower))
    .map(([name]) => table.exact.get(name)!);
  // PowerShell refuses an ambiguous prefix (`-f`: Filter or Force?). Reading it as the switch
  // it could be keeps the path after it a path, the reading that can do harm.
  return candidates.find(([, parameter]) => parameter.switch) ?? candidates[0];
}

/**
 * Binds a cmdlet's words the way PowerShell would: parameter names by unambiguous prefix
 * (`-Rec` is `-Recurse`), `-Name:value`, switches turned off with `:$false`, positional values.
 */
export function bindCmdlet(name: string, words: readonly PsWord[]): BoundCmdlet {
  const spec = CMDLETS[name] ?? NO_PARAMETERS;
  const named = new Map<string, string[]>();
  const rest: string[] = [];
  const add = (parameter: string, values: string[]) => {
    named.set(parameter, [...(named.get(parameter) ?? []), ...values]);
  };
  let position = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const parameterForm = word.bare && /^-[A-Za-z_?][\w-]*:?/.exec(word.text);
    if (parameterForm) {
      const colon = word.text.indexOf(':');
      const typed = word.text.slice(1, colon < 0 ? undefined : colon);
      const resolved = resolveParameter(spec, typed);
      if (resolved === undefined) {
        rest.push(word.text);
        continue;
      }
      const [parameter, { switch: isSwitch }] = resolved;
      if (colon >= 0) {
        const inline = word.text.slice(colon + 1);
        const value = inline === '' ? (words[++i]?.text ?? '') : inline;
        if (isSwitch) {
          if (!/^\$?(false|0)$/i.test(value)) add(parameter, ['$true']);
        } else
          add(parameter, colon >= 0 && inline !== '' ? splitItems(inline) : (words[i]?.items ?? [value]));
      } else if (isSwitch) add(parameter, ['$true']);
      else {
        // A value parameter with nothing after it keeps an empty value: a POSIX reading of
        // `"… -DisableRealtimeMonitoring $true"` erases `$true`.
        const value = words[++i];
        add(parameter, value ? (value.items.length > 0 ? value.items : [value.text]) : ['']);
      }
      continue;
    }
    const slot = spec.positional[position];
    if (slot !== undefined && !named.has(slot)) {
      add(slot, word.items.length > 0 ? word.items : [word.text]);
      position++;
    } else rest.push(word.text);
  }
  const argv = [name];
  const own = CMDLETS[name]?.parameters ?? {};
  const specOf = (parameter: string) =>
    Object.hasOwn(own, parameter) ? own[parameter] : COMMON_PARAMETERS[parameter];
  for (const [parameter, values] of named) {
    for (const value of values) {
      argv.push(`-${parameter}`);
      if (value !== '$true' || !specOf(parameter)?.switch) argv.push(value);
    }
  }
  argv.push(...rest);
  return { name, named, rest, argv };
}

function splitItems(text: string): string[] {
  return text.split(',').filter((item) => item !== '');
}
