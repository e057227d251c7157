import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../engine.ts';
import { loadProgramRegistry, reduceProgram } from './registry.ts';

const split = (line: string) => line.split(' ').filter((w) => w !== '');

describe('the program registry', () => {
  it.each([
    // plain programs, by what they do
    ['ls -la', 'read', true],
    ['grep -rn TODO src', 'read', true],
    ['mkdir -p build', 'write', true],
    ['rm -f out.txt', 'delete', true],
    ['curl -s https://example.com', 'egress', true],
    ['python3 -c print(1)', 'execute', true],
    ['python3.11 manage.py test', 'execute', true],
    ['node.exe server.js', 'execute', true],
    // subcommands of CLIs
    ['git status', 'read', true],
    ['git -C repo log --oneline', 'read', true],
    ['git commit -m x', 'write', true],
    ['git push origin feature', 'egress', true],
    ['git frobnicate --all', 'write', false],
    ['npm test', 'write', true],
    ['npm publish', 'egress', true],
    ['pip install -r requirements.txt', 'write', true],
    // verb conventions: reads are reads, other verbs are changes Arbiter does not model
    ['aws s3 ls s3://bucket', 'read', true],
    ['aws ec2 describe-instances --region eu-west-1', 'read', true],
    ['aws --profile prod sts get-caller-identity', 'read', true],
    ['aws iam attach-user-policy --user-name x --policy-arn y', 'remote_mutation', false],
    ['aws cloudtrail stop-logging --name trail', 'remote_mutation', false],
    ['kubectl get pods -n web', 'read', true],
    ['kubectl --kubeconfig ./dev.kubeconfig get pods', 'read', true],
    ['kubectl apply -f k8s/', 'remote_mutation', true],
    ['kubectl frob node-1', 'remote_mutation', false],
    ['gcloud compute instances list --project p', 'read', true],
    ['gcloud projects add-iam-policy-binding p --role=roles/owner', 'remote_mutation', false],
    ['az vm list -g rg', 'read', true],
    ['az role assignment create --role Owner', 'remote_mutation', false],
    ['terraform plan', 'read', true],
    ['terraform apply', 'remote_mutation', true],
    ['gh pr list', 'read', true],
    ['gh api repos/acme/web/pulls', 'read', true],
    ['gh api -X DELETE repos/acme/web/branches/main/protection', 'remote_mutation', false],
    ['gh api --method=PUT repos/acme/web/collaborators/x', 'remote_mutation', false],
    ['gh secret set TOKEN', 'remote_mutation', true],
    ['gh extension exec x', 'remote_mutation', false],
    // PowerShell's verb-noun cmdlets
    ['Get-ChildItem C:\\', 'read', true],
    ['Remove-Item -Recurse x', 'delete', true],
  ])('%s: %s, recognised %s', (line, kind, recognised) => {
    const [name, ...args] = split(line);
    const step = reduceProgram(name!, args);
    expect(step.effects[0]?.kind).toBe(kind);
    expect(step.recognised).toBe(recognised);
    if (!recognised) expect(step.unrecognised).toMatch(/does not model|unknown program/);
  });

  it('does not know a program it was never told about, and says which', () => {
    const step = reduceProgram('frobctl', ['nuke', '--everything']);
    expect(step).toMatchObject({ recognised: false, unrecognised: 'unknown program "frobctl"' });
  });

  it('takes a program named by its path as that local file run', () => {
    expect(reduceProgram('build.sh', [], './scripts/build.sh')).toMatchObject({
      recognised: true,
      effects: [{ kind: 'execute', target: './scripts/build.sh' }],
    });
  });

  it('refuses a registry file that lists a name twice or has a field it does not know', () => {
    const real = JSON.parse(readFileSync(new URL('./programs.json', import.meta.url), 'utf8'));
    const dir = mkdtempSync(path.join(tmpdir(), 'arbiter-registry-'));
    const twice = structuredClone(real);
    twice.programs[0].names.push('git');
    writeFileSync(path.join(dir, 'twice.json'), JSON.stringify(twice));
    expect(() => loadProgramRegistry(path.join(dir, 'twice.json'))).toThrow(/"git" is listed twice/);
    const extra = structuredClone(real);
    extra.programs[0].danger = true;
    writeFileSync(path.join(dir, 'extra.json'), JSON.stringify(extra));
    expect(() => loadProgramRegistry(path.join(dir, 'extra.json'))).toThrow(/programs\/0/);
  });
});

describe('verdicts say what they understood', () => {
  const verdict = (action: string, payload: object) => evaluateAction({ action, payload });

  it('lists the effects of a command line and marks it recognised when every program is known', () => {
    const v = verdict('shell.exec', { command: 'git status && npm test | tee out.log' });
    expect(v).toMatchObject({ is_safe: true, recognised: true, unrecognised: [] });
    expect(v.effects.map((e) => e.kind)).toEqual(['read', 'write', 'write']);
  });

  it('is not recognised when one step is not understood, even beside known ones', () => {
    const v = verdict('shell.exec', { command: 'ls && frobctl sync --fast' });
    expect(v).toMatchObject({
      is_safe: true,
      recognised: false,
      unrecognised: ['unknown program "frobctl"'],
    });
  });

  it('is not recognised when the program is computed at run time', () => {
    const v = verdict('shell.exec', { command: 'T=$(cat tool.txt); "$T" --go' });
    expect(v.recognised).toBe(false);
    expect(v.unrecognised[0]).toMatch(/the program to run comes from/);
  });

  it('keeps refusals as they were, with the effect the refusal names', () => {
    const v = verdict('shell.exec', { command: 'rm -rf /' });
    expect(v.is_safe).toBe(false);
    expect(v.finding?.code).toBe('DEST_MUTATION');
    expect(v.effects.some((e) => e.kind === 'delete')).toBe(true);
  });

  it('reduces every built-in action to effects', () => {
    expect(verdict('fs.read', { path: 'src/app.ts' }).effects).toEqual([
      { kind: 'read', target: 'src/app.ts' },
    ]);
    expect(verdict('fs.delete', { path: 'build/x' }).effects).toEqual([
      { kind: 'delete', target: 'build/x' },
    ]);
    expect(verdict('db.query', { sql: 'SELECT 1' }).effects).toEqual([{ kind: 'read', target: 'database' }]);
    expect(verdict('db.query', { sql: 'UPDATE t SET a = 1 WHERE id = 2' }).effects[0]?.kind).toBe('write');
    expect(
      verdict('http.request', { url: 'https://api.github.com/repos/a/b', method: 'PATCH' }).effects,
    ).toEqual([
      { kind: 'egress', target: 'api.github.com' },
      { kind: 'remote_mutation', target: 'PATCH api.github.com' },
    ]);
  });

  it('is the same for the same input', () => {
    const command = 'kubectl get pods; frobctl x; aws iam create-access-key';
    expect(verdict('shell.exec', { command })).toEqual(verdict('shell.exec', { command }));
  });
});
