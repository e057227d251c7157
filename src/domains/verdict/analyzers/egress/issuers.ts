import type { SensitiveFinding } from './content.ts';

/** Where in a request a secret travels. */
export type SecretPlace = 'authorization' | 'aws-header' | 'header' | 'url' | 'body';

interface Issuer {
  /** gitleaks rule ids of the issuer's secrets. */
  rules: RegExp;
  /** Registrable domains (and their sub-domains) the issuer serves its API from. */
  hosts: readonly string[];
  /** Where that API reads the secret. */
  places: readonly SecretPlace[];
}

/**
 * Secrets sent to their own issuer, in the place the issuer's API reads them, are ordinary
 * use: a GitHub token in the Authorization header of a request to api.github.com. The same
 * token in a body, or to any other host, is not. Documented in the verdict README.
 */
export const ISSUERS: readonly Issuer[] = [
  { rules: /^github-/, hosts: ['github.com', 'githubusercontent.com'], places: ['authorization'] },
  { rules: /^gitlab-/, hosts: ['gitlab.com'], places: ['authorization'] },
  { rules: /^aws-/, hosts: ['amazonaws.com'], places: ['authorization', 'aws-header', 'url'] },
  { rules: /^stripe-/, hosts: ['stripe.com'], places: ['authorization'] },
  { rules: /^slack-(?!webhook)/, hosts: ['slack.com'], places: ['authorization'] },
  { rules: /^slack-webhook-url$/, hosts: ['hooks.slack.com'], places: ['url'] },
  { rules: /^microsoft-teams-webhook$/, hosts: ['office.com'], places: ['url'] },
  { rules: /^openai-/, hosts: ['openai.com'], places: ['authorization'] },
  { rules: /^anthropic-/, hosts: ['anthropic.com'], places: ['authorization'] },
  { rules: /^npm-/, hosts: ['npmjs.org', 'npmjs.com'], places: ['authorization'] },
  { rules: /^pypi-/, hosts: ['pypi.org'], places: ['authorization'] },
  { rules: /^gcp-api-key$/, hosts: ['googleapis.com'], places: ['authorization', 'url'] },
  { rules: /^huggingface-/, hosts: ['huggingface.co'], places: ['authorization'] },
  { rules: /^sendgrid-/, hosts: ['sendgrid.com'], places: ['authorization'] },
  { rules: /^linear-/, hosts: ['linear.app'], places: ['authorization'] },
  { rules: /^cohere-/, hosts: ['cohere.com', 'cohere.ai'], places: ['authorization'] },
  { rules: /^twilio-/, hosts: ['twilio.com'], places: ['authorization'] },
  { rules: /^sentry-/, hosts: ['sentry.io'], places: ['authorization'] },
  { rules: /^digitalocean-/, hosts: ['digitalocean.com'], places: ['authorization'] },
  { rules: /^cloudflare-/, hosts: ['cloudflare.com'], places: ['authorization'] },
  { rules: /^shopify-/, hosts: ['myshopify.com', 'shopify.com'], places: ['authorization', 'header'] },
  { rules: /^notion-/, hosts: ['notion.com', 'notion.so'], places: ['authorization'] },
  { rules: /^datadog-/, hosts: ['datadoghq.com', 'datadoghq.eu'], places: ['authorization', 'header'] },
];

function under(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** True when this secret, found in this place, is going to the service that issued it. */
export function issuerAllows(finding: SensitiveFinding, host: string, place: SecretPlace): boolean {
  const ruleId = finding.ruleId;
  // In an Authorization header the encoding is the scheme's own (`Basic base64(user:token)`).
  if (ruleId === undefined || (finding.encoded && place !== 'authorization')) return false;
  for (const issuer of ISSUERS) {
    if (!issuer.rules.test(ruleId)) continue;
    return issuer.places.includes(place) && issuer.hosts.some((domain) => under(host, domain));
  }
  return false;
}
