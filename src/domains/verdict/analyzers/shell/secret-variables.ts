/**
 * Environment variables that hold secrets by their name (`$AWS_SECRET_ACCESS_KEY`,
 * `$CI_JOB_TOKEN`), and whether a command that carries one sends it away or uses it: a token in
 * an authorisation header is used as a credential, and leaves only when it goes to a host that is
 * not its issuer's (where the name says the issuer).
 */

export const SECRET_VARIABLE =
  /^(?:[A-Z0-9_]*_)?(?:TOKEN|SECRET|SECRET_KEY|SECRET_ACCESS_KEY|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?|AUTH_TOKEN|PAT)$|^(?:DATABASE_URL|DB_URL|DSN|MONGO(?:DB)?_URI|REDIS_URL|POSTGRES_URL)$/;

const PREFIX = 'the secret in $';
const PRINTED = /^the (?:token|credentials) (\S+) prints$/;

export function secretInVariable(name: string): string | undefined {
  return SECRET_VARIABLE.test(name) ? `${PREFIX}${name}` : undefined;
}

/** The service a variable's name says issued it, by the prefix of the name. */
const ISSUERS: ReadonlyArray<[RegExp, string[]]> = [
  [/^(?:GITHUB|GH)_/, ['github.com', 'githubusercontent.com', 'ghcr.io']],
  [/^(?:GITLAB|GL|CI_JOB)_/, ['gitlab.com']],
  [/^NPM_/, ['npmjs.org', 'npmjs.com']],
  [/^(?:SLACK)_/, ['slack.com']],
  [/^STRIPE_/, ['stripe.com']],
  [/^OPENAI_/, ['openai.com']],
  [/^ANTHROPIC_/, ['anthropic.com']],
  [/^(?:HF|HUGGINGFACE|HUGGING_FACE)_/, ['huggingface.co']],
  [/^(?:CLOUDFLARE|CF)_/, ['cloudflare.com']],
  [/^(?:DIGITALOCEAN|DO)_/, ['digitalocean.com']],
  [/^VERCEL_/, ['vercel.com']],
  [/^NETLIFY_/, ['netlify.com']],
  [/^HEROKU_/, ['heroku.com']],
  [/^SENTRY_/, ['sentry.io']],
  [/^(?:DATADOG|DD)_/, ['datadoghq.com', 'datadoghq.eu']],
  [/^TWILIO_/, ['twilio.com']],
  [/^SENDGRID_/, ['sendgrid.com']],
  [/^LINEAR_/, ['linear.app']],
  [/^NOTION_/, ['notion.com', 'notion.so']],
  [/^(?:DOCKER|DOCKERHUB)_/, ['docker.com', 'docker.io']],
  [/^CIRCLE(?:CI)?_/, ['circleci.com']],
  [/^CODECOV_/, ['codecov.io']],
  [/^(?:BITBUCKET|BB)_/, ['bitbucket.org']],
  [/^ATLASSIAN_|^JIRA_/, ['atlassian.net', 'atlassian.com']],
];

const AUTH_HEADER =
  /^\s*(?:authorization|proxy-authorization|x-api-key|api-key|apikey|private-token|job-token|x-auth-token|x-access-token|x-token|token)\s*:/i;

/**
 * Whether a field holding `sensitive` (as this module names it) leaves with a request to `hosts`.
 * Other kinds of sensitive data (the environment, a secret file) always leave.
 */
export function sendsSecretAway(sensitive: string, fieldText: string, hosts: readonly string[]): boolean {
  const printer = PRINTED.exec(sensitive)?.[1];
  if ((!sensitive.startsWith(PREFIX) && printer === undefined) || !AUTH_HEADER.test(fieldText)) return true;
  const issuer =
    printer !== undefined
      ? PRINTER_ISSUERS[printer]
      : ISSUERS.find(([pattern]) => pattern.test(sensitive.slice(PREFIX.length)))?.[1];
  // A credential used as one, for a service its name does not say: the request is its use.
  if (issuer === undefined) return printer !== undefined;
  return hosts.some((host) => !issuer.some((domain) => host === domain || host.endsWith(`.${domain}`)));
}

/** Where the tokens a CLI prints are meant to go. */
const PRINTER_ISSUERS: Record<string, string[]> = {
  gh: ['github.com', 'githubusercontent.com', 'ghcr.io'],
  gcloud: ['googleapis.com', 'google.com', 'gcr.io', 'pkg.dev'],
  az: ['azure.com', 'azure.net', 'microsoft.com', 'windows.net', 'microsoftonline.com', 'azurecr.io'],
  aws: ['amazonaws.com', 'aws.amazon.com'],
  heroku: ['heroku.com'],
};

/**
 * Commands that print a stored credential (`gh auth token`, `gcloud auth print-access-token`,
 * `kubectl config view --raw`): what they print is a secret wherever it goes next.
 */
const PRINTERS: ReadonlyArray<[program: string, pattern: RegExp, what: 'token' | 'credentials']> = [
  ['gh', /^auth token\b/, 'token'],
  ['glab', /^auth status .*--show-token\b/, 'token'],
  [
    'gcloud',
    /^(?:auth (?:application-default )?print-(?:access|identity)-token|config config-helper)\b/,
    'token',
  ],
  ['az', /^account get-access-token\b/, 'token'],
  [
    'aws',
    /^(?:configure export-credentials|configure get aws_secret_access_key|ecr get-login-password|sts get-session-token|ecr-public get-login-password)\b/,
    'credentials',
  ],
  ['kubectl', /^config view\b.*--raw\b|^config view\b.*--flatten\b/, 'credentials'],
  ['heroku', /^auth:token\b/, 'token'],
  ['vault', /^(?:read|kv get|token create|print token)\b/, 'credentials'],
  ['doctl', /^auth token\b/, 'token'],
];

/** What a command prints of a stored credential, named for messages, or undefined. */
export function printedSecret(name: string, args: readonly string[]): string | undefined {
  const line = args
    .filter(
      (a) => !/^--?(?:profile|region|project|account|format|output|o|context|kubeconfig)(?:=|$)/.test(a),
    )
    .join(' ');
  const hit = PRINTERS.find(([program, pattern]) => program === name && pattern.test(line));
  return hit ? `the ${hit[2]} ${name} prints` : undefined;
}
