import { describe } from 'vitest';
import { type Case, familyTable } from './family-table.test-support.ts';

const D = 'DEST_MUTATION';

describe('registries and forges: npm, gh, glab, hub', () => {
  familyTable([
    ['npm unpublish my-pkg --force', D],
    ['npm unpublish @acme/ui@1.2.3', D],
    ['npm unpublish --force', D],
    ['npm --registry https://npm.acme.dev unpublish my-pkg --force', D],
    ['cd packages/ui && npm unpublish --force', D],
    ['gh repo delete acme/api --yes', D],
    ['gh repo delete --yes', D],
    ['gh repo delete acme/infra --confirm', D],
    ['gh api -X DELETE repos/acme/api', D],
    ['gh api --method DELETE /repos/acme/website', D],
    ['gh api --method=delete repos/acme/website', D],
    ['gh api repos/acme/api -XDELETE', D],
    ['glab repo delete acme/api --yes', D],
    ['glab api -X DELETE projects/42', D],
    ['hub delete -y acme/api', D],
    // Look-alikes: dry runs, reads, single named releases, issues, secrets.
    ['npm publish', null],
    ['npm publish --dry-run', null],
    ['npm unpublish my-pkg --dry-run', null],
    ['npm deprecate my-pkg@"< 2" "use v2"', null],
    ['npm dist-tag rm my-pkg beta', null],
    ['npm cache clean --force', null],
    ['gh repo view acme/api', null],
    ['gh release delete v1.2.0 --yes', null],
    ['gh issue delete 42 --yes', null],
    ['gh secret delete OLD_TOKEN', null],
    ['gh api repos/acme/api', null],
    ['gh api -X DELETE repos/acme/api/git/refs/heads/feature-x', null],
    ['gh api -X GET repos/acme/api', null],
    ['gh repo archive acme/old-site --yes', null],
    ['cargo yank --version 1.0.1', null],
    ['glab mr list', null],
  ] satisfies Case[]);
});
