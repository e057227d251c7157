import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../engine.ts';

// Assembled at run time so that no whole key sits in the repository for scanners to flag.
const PEM = [
  '-----BEGIN OPENSSH PRIVATE',
  ' KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDs1yq0kH3n4cNq\n-----END OPENSSH PRIVATE',
  ' KEY-----',
].join('');
const GITHUB = ['ghp', '_', 'R8kLm2Qx7VbN4Tz9WcY1HdF6JpS3UaE0GiKo'].join('');

const say = (text: string) =>
  evaluateAction({ action: 'agent.respond', payload: { text } }).finding?.code ?? null;
const mail = (to: string, body: string) =>
  evaluateAction({ action: 'email.send', payload: { to, subject: 'creds', body } }).finding?.code ?? null;

describe('what the agent says', () => {
  it.each([
    [`Here is the deploy key:\n${PEM}`, 'EXFILTRATION_BLOCKED'],
    [`Use this token: ${GITHUB}`, 'EXFILTRATION_BLOCKED'],
    [
      'Your .env:\nDATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal:5432/app\nSTRIPE_SECRET_KEY=sk_live_51HqLx2Ck8d9Jw0PqRtZ7vBnM4\n',
      'EXFILTRATION_BLOCKED',
    ],
    // where a secret is, what one looks like, how to read one
    ['Set STRIPE_SECRET_KEY in your environment and read it with `os.environ["STRIPE_SECRET_KEY"]`.', null],
    ['The AWS docs use AKIAIOSFODNN7EXAMPLE as an example access key id.', null],
    ['Put your token in `GITHUB_TOKEN=<your-token>` and never commit it.', null],
    [
      'A Slack webhook looks like https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      null,
    ],
    ['The tests pass and the build is green.', null],
  ])('%s → %s', (text, code) => {
    expect(say(text)).toBe(code);
  });

  it('does not mail a key to anyone, a colleague included, and mails ordinary text', () => {
    expect(mail('ops@example.com', `the key: ${GITHUB}`)).toBe('EXFILTRATION_BLOCKED');
    expect(mail('ops@example.com', 'the release went out at 10:00')).toBeNull();
  });
});
