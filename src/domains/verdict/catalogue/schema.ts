import Type, { type Static } from 'typebox';

/**
 * The catalogue's rule format, version 1: one JSON Schema drives the check of the built-in files
 * at start, of account rules at submission, and the static types below. The meaning of every
 * field is in ./README.md.
 */
export const FORMAT_VERSION = 1;

/** Codes a catalogue rule may carry: what a command would do, never a protocol outcome. */
export const RULE_CODES = [
  'DEST_MUTATION',
  'FILESYSTEM_DENIED',
  'POLICY_VIOLATION',
  'EXFILTRATION_BLOCKED',
] as const;

/** A MITRE ATT&CK technique or sub-technique id. */
export const ATTACK_ID = '^T\\d{4}(\\.\\d{3})?$';
const AttackList = Type.Array(Type.String({ pattern: ATTACK_ID }), { minItems: 1, maxItems: 16 });
const Name = Type.String({ minLength: 1, maxLength: 64 });
/** A flag as written on the command line (`--all`, `-A`, `/S`, `-WhatIf`); a trailing `*` matches any suffix. */
const FlagName = Type.String({ minLength: 2, maxLength: 64, pattern: '^[-/+]' });
const FlagList = Type.Array(FlagName, { minItems: 1, maxItems: 64 });
/** A regular expression in RE2 syntax; a leading `(?i)` makes it case-insensitive. */
const Pattern = Type.String({ minLength: 1, maxLength: 512 });

export const PROTECTED_KINDS = ['branches', 'namespaces', 'databases', 'buckets', 'projects'] as const;
export const ProtectedKindSchema = Type.Enum(PROTECTED_KINDS);

export const BreadthSchema = Type.Object(
  {
    /** Any of these flags, given and not set to false, makes the command broad. */
    flags: Type.Optional(FlagList),
    /** Selector flags: broad when a value selects everything (empty, or only negations). */
    selectors: Type.Optional(FlagList),
    /** Broad when an operand matches (default: `*`, or a word built by a command substitution). */
    operands: Type.Optional(Pattern),
    /** Broad when no operand is given at all: the names come from elsewhere (xargs, a pipe). */
    noOperands: Type.Optional(Type.Boolean()),
    /** Flags whose values name targets: broad when a value matches the operand pattern. */
    values: Type.Optional(FlagList),
  },
  { additionalProperties: false },
);

export const ProgramSchema = Type.Object(
  {
    /** Other names that run the same program with the same arguments (`oc`, `podman`, `mariadb`). */
    aliases: Type.Optional(Type.Array(Name, { maxItems: 32 })),
    /**
     * How options are written: `posix` (`-rf` = `-r -f`, `--name=value`, `-nvalue`), `single-dash`
     * (Go's flag package and the like: `-auto-approve`, `--auto-approve` and `-chdir=x` are one flag
     * each), `powershell` (`-Name[:value]`, any unambiguous prefix of a parameter), `cmd`
     * (`/S /Q`, `/s/q`, `/name:value`).
     */
    style: Type.Optional(Type.Enum(['posix', 'single-dash', 'powershell', 'cmd'])),
    /** `commands`: subcommands and operands compare without case (redis); `all`: flags too. */
    ignoreCase: Type.Optional(Type.Enum(['none', 'commands', 'all'])),
    /**
     * Options that take a value in the next word when it is not attached. A name ending in `?`
     * takes a value only when attached (`-psecret`, `--password=x`), never the next word.
     */
    valueOptions: Type.Optional(Type.Array(Type.String({ minLength: 2, maxLength: 64 }), { maxItems: 256 })),
    /** Any of these flags makes every rule of the program pass (`--dry-run`, `--help`, `-WhatIf`). */
    safeFlags: Type.Optional(FlagList),
    /** The program's default breadth, used by rules that say `"broad": true`. */
    breadth: Type.Optional(BreadthSchema),
  },
  { additionalProperties: false },
);

export const ProtectedRefSchema = Type.Object(
  {
    kind: ProtectedKindSchema,
    /** Values of these flags name a resource of the kind. */
    flags: Type.Optional(FlagList),
    /** Operands (after the path) that name one: `all` or a 0-based index. */
    operands: Type.Optional(Type.Union([Type.Literal('all'), Type.Integer({ minimum: 0, maximum: 64 })])),
    /** Applied to each value; its first capture group (or the whole match) is the name. */
    pattern: Type.Optional(Pattern),
  },
  { additionalProperties: false },
);

export const RuleSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/-]*$' }),
    /** Program name(s) as run, or a program the file (or a built-in file) defines with its aliases. */
    program: Type.Union([Name, Type.Array(Name, { minItems: 1, maxItems: 32 })]),
    /** Subcommand path alternatives: `"s3 rm"`, `"delete|del"`; a `*` segment matches any word. */
    path: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 32 }),
    ),
    flags: Type.Optional(
      Type.Object(
        {
          any: Type.Optional(FlagList),
          all: Type.Optional(FlagList),
          none: Type.Optional(FlagList),
        },
        { additionalProperties: false },
      ),
    ),
    /** Conditions on the operands, the positional words after the path. */
    operands: Type.Optional(
      Type.Object(
        {
          min: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
          max: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
          first: Type.Optional(Pattern),
          any: Type.Optional(Pattern),
          none: Type.Optional(Pattern),
        },
        { additionalProperties: false },
      ),
    ),
    /** Some value of one of these flags matches the pattern (`mongosh --eval`). */
    values: Type.Optional(
      Type.Object({ flags: FlagList, pattern: Pattern }, { additionalProperties: false }),
    ),
    /** `true`: only when the command is broad; `false`: only when it is not. */
    broad: Type.Optional(Type.Boolean()),
    /** The rule's own breadth, replacing the program's. */
    breadth: Type.Optional(BreadthSchema),
    /** Fires only when one of these references names a resource in the account's protected list. */
    protected: Type.Optional(Type.Array(ProtectedRefSchema, { minItems: 1, maxItems: 16 })),
    /**
     * Hands the code a flag, an operand or the standard input carries to its own analyzer (SQL or
     * Cypher); its findings are the rule's.
     */
    extract: Type.Optional(
      Type.Object(
        {
          /** `sql`: the SQL analyzer; `cypher`: the catalogue's Cypher reader (./cypher.ts). */
          language: Type.Enum(['sql', 'cypher']),
          /** The SQL dialect; only for `sql`. */
          dialect: Type.Optional(Type.Enum(['postgres', 'mysql', 'sqlite', 'mssql'])),
          flags: Type.Optional(FlagList),
          operand: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 })),
          /** The command's standard input when the shell knows it (`echo 'DROP …' | psql`). */
          stdin: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * The first operand after the path is a program that runs with the words after it (`npx`,
     * `pnpm dlx`, `yarn`): that command is judged instead, by its own rules.
     */
    delegate: Type.Optional(Type.Boolean()),
    code: Type.Optional(Type.Enum(RULE_CODES)),
    message: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    /** MITRE ATT&CK techniques the rule refuses (`T1562.004`); carried by its verdicts. */
    attack: Type.Optional(AttackList),
    /** Why the rule exists or why it stops where it does; not shown in verdicts. */
    note: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

export const RuleFileSchema = Type.Object(
  {
    version: Type.Literal(FORMAT_VERSION),
    family: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$' }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    /** Public rule sets that informed the file, with their licences. */
    sources: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String(),
            url: Type.String(),
            licence: Type.String(),
            /** The upstream commit whose rules were last reviewed for this file. */
            commit: Type.Optional(Type.String({ pattern: '^[0-9a-f]{7,40}$' })),
            note: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    programs: Type.Optional(Type.Record(Type.String({ pattern: '^[^/\\\\\\s]+$' }), ProgramSchema)),
    rules: Type.Array(RuleSchema),
  },
  { additionalProperties: false },
);

export type ProgramSpec = Static<typeof ProgramSchema>;
export type Breadth = Static<typeof BreadthSchema>;
export type ProtectedRef = Static<typeof ProtectedRefSchema>;
export type Rule = Static<typeof RuleSchema>;
export type RuleFile = Static<typeof RuleFileSchema>;
export type ProtectedKind = Static<typeof ProtectedKindSchema>;
