import { describe, expect, it } from 'vitest';
import type { VerdictCode } from '../codes.ts';
import { evaluateAction } from '../engine.ts';
import { type CatalogueContext, EMPTY_PROTECTED_RESOURCES, judgeArgv } from './index.ts';

function verdictOf(command: string, catalogue?: CatalogueContext): VerdictCode | null {
  const verdict = evaluateAction(
    { action: 'shell.exec', payload: { command } },
    catalogue === undefined ? {} : { catalogue },
  );
  return verdict.finding?.code ?? null;
}

describe('git: what cannot be undone on a shared remote', () => {
  it.each<[string, VerdictCode | null]>([
    // force-push to a protected branch, however the force and the branch are written
    ['git push --force origin main', 'DEST_MUTATION'],
    ['git push -f origin main', 'DEST_MUTATION'],
    ['git push -uf origin master', 'DEST_MUTATION'],
    ['git push origin main --force', 'DEST_MUTATION'],
    ['git push origin +main', 'DEST_MUTATION'],
    ['git push origin +HEAD:main', 'DEST_MUTATION'],
    ['git push origin HEAD:main --force', 'DEST_MUTATION'],
    ['git push -f origin feature:main', 'DEST_MUTATION'],
    ['git push --force origin HEAD:refs/heads/main', 'DEST_MUTATION'],
    ['git push --force-with-lease origin main', 'DEST_MUTATION'],
    ['git push --force-with-lease=main:4f2a9c1 origin main', 'DEST_MUTATION'],
    ['git push --force-if-includes --force-with-lease origin develop', 'DEST_MUTATION'],
    ['git push --force upstream trunk', 'DEST_MUTATION'],
    ['git push --force origin production', 'DEST_MUTATION'],
    ['git push -f origin prod', 'DEST_MUTATION'],
    ['git push -f origin release', 'DEST_MUTATION'],
    ['git push -f origin release/2.4', 'DEST_MUTATION'],
    ['git push -f origin release-2026.11', 'DEST_MUTATION'],
    ["git push origin '+refs/heads/*:refs/heads/*'", 'DEST_MUTATION'],
    ['git -C ../app push --force origin main', 'DEST_MUTATION'],
    ['git -c push.default=current push -f origin main', 'DEST_MUTATION'],
    ['git --git-dir=/work/app/.git push -f origin main', 'DEST_MUTATION'],
    ['sudo -u deploy git push --force origin master', 'DEST_MUTATION'],
    ['cd app && git push --force origin main', 'DEST_MUTATION'],
    ['bash -c "git push -f origin main"', 'DEST_MUTATION'],
    ['git push origin main:main --force', 'DEST_MUTATION'],
    ['git push -f origin @:main', 'DEST_MUTATION'],
    ['git push -o ci.skip -f origin main', 'DEST_MUTATION'],
    ['git push --repo=origin -f main', 'DEST_MUTATION'],
    // deleting a protected branch on the remote
    ['git push origin :main', 'DEST_MUTATION'],
    ['git push origin :refs/heads/master', 'DEST_MUTATION'],
    ['git push origin --delete main', 'DEST_MUTATION'],
    ['git push --delete origin develop', 'DEST_MUTATION'],
    ['git push origin -d release/1.0', 'DEST_MUTATION'],
    // every ref at once
    ['git push --mirror', 'DEST_MUTATION'],
    ['git push --mirror git@github.com:acme/app.git', 'DEST_MUTATION'],
    ['git push --force --all', 'DEST_MUTATION'],
    ['git push --all -f origin', 'DEST_MUTATION'],
    // history rewrites and the loss of what could recover it
    ["git filter-branch --tree-filter 'rm -f secrets.env' HEAD", 'DEST_MUTATION'],
    ['git filter-branch -f --index-filter "git rm --cached -r --ignore-unmatch x" -- --all', 'DEST_MUTATION'],
    ['git filter-repo --path secrets --invert-paths', 'DEST_MUTATION'],
    ['git reflog expire --expire=now --all', 'DEST_MUTATION'],
    ['git reflog expire --expire-unreachable=now --all', 'DEST_MUTATION'],
    ['git reflog expire --expire=now --all && git gc --prune=now --aggressive', 'DEST_MUTATION'],
    ['git gc --prune=now', 'DEST_MUTATION'],
    ['git gc --aggressive --prune=all', 'DEST_MUTATION'],
    // removing the repository itself
    ['rm -rf .git', 'DEST_MUTATION'],
    ['rm -rf ./.git/', 'DEST_MUTATION'],
    ['rm -r -f app/.git', 'DEST_MUTATION'],
    ['sudo rm -fr .git', 'DEST_MUTATION'],
    ['rd /s /q .git', 'DEST_MUTATION'],
    ['Remove-Item -Recurse -Force .git', 'DEST_MUTATION'],
    ['powershell -c "Remove-Item .git -Recurse -Force"', 'DEST_MUTATION'],
    ['rm -rf .git/*', 'DEST_MUTATION'],
    ['rm -rf .git/objects', 'DEST_MUTATION'],
    ['del /s /q .git\\*', 'DEST_MUTATION'],
    // git inside Windows shells
    ['cmd /c "git push -f origin main"', 'DEST_MUTATION'],
    ['powershell -c "git push --force origin main"', 'DEST_MUTATION'],
    // benign look-alikes
    ['git push origin feature', null],
    ['git push origin main', null],
    ['git push origin HEAD:main', null],
    ['git push -u origin feat/login', null],
    ['git push --force-with-lease origin feat/x', null],
    ['git push --force origin feature/release-notes', null],
    ['git push -f origin fix-main-typo', null],
    ['git push -f origin mainline-docs', null],
    ['git push origin --delete feature/old', null],
    ['git push origin :feature/old', null],
    ['git push --dry-run --force origin main', null],
    ['git push -n -f origin main', null],
    ['git push --tags', null],
    ['git push --force', null],
    ['git push origin HEAD', null],
    ['rm -f .git/index.lock', null],
    ['rm -rf .git/hooks/pre-commit.sample', null],
    ['git log --oneline -20', null],
    ['git status', null],
    ['git fetch --prune', null],
    ['git remote prune origin', null],
    ['git branch -D feature/old', null],
    ['git reset --hard HEAD~1', null],
    ['git reset --hard origin/main', null],
    ['git clean -fdx', null],
    ['git clean -n', null],
    ['git gc', null],
    ['git gc --prune=2.weeks.ago', null],
    ['git reflog', null],
    ['git reflog expire --expire=90.days.ago --all', null],
    ['git filter-repo --analyze', null],
    ['git commit -m "git push --force origin main"', null],
    ['echo git push -f origin main', null],
    ['rm -rf .github/workflows/old.yml', null],
    ['rm -rf build .cache', null],
    ['rm .gitignore', null],
    ['rm -rf .git-backup-notes', null],
  ])('%s ⇒ %s', (command, code) => {
    expect(verdictOf(command)).toBe(code);
  });
});

describe("git: the account's own protected branches", () => {
  const catalogue: CatalogueContext = {
    protected: { ...EMPTY_PROTECTED_RESOURCES, branches: ['staging', 'hotfix-*'] },
    accountRules: [],
  };

  it.each<[string, VerdictCode | null]>([
    ['git push --force origin staging', 'DEST_MUTATION'],
    ['git push --force-with-lease origin HEAD:staging', 'DEST_MUTATION'],
    ['git push origin :staging', 'DEST_MUTATION'],
    ['git push origin --delete hotfix-42', 'DEST_MUTATION'],
    ['git push -f origin +hotfix-1', 'DEST_MUTATION'],
    ['git push --force origin main', 'DEST_MUTATION'],
    ['git push --force origin staging-notes', null],
    ['git push origin staging', null],
    ['git push --force origin feature/x', null],
  ])('%s ⇒ %s', (command, code) => {
    expect(verdictOf(command, catalogue)).toBe(code);
  });

  it('is judged by the catalogue on the resolved argv', () => {
    expect(judgeArgv(['git', 'push', '-f', 'origin', 'staging'], catalogue).map((f) => f.code)).toContain(
      'DEST_MUTATION',
    );
    expect(judgeArgv(['git', 'push', '-f', 'origin', 'staging'])).toEqual([]);
  });
});
