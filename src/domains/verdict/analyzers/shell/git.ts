import { sensitiveFileKind } from '../egress/content.ts';
import { contentFindings, isTrustedHost } from '../egress.ts';
import { describeTarget, hostOf, push, type Walk } from './state.ts';

/**
 * git within the command line: secrets staged then pushed, headers set by `-c`, the branch a
 * checkout made current.
 */

/** `git add -f .env && git commit … && git push …`: the secret leaves with the push. */
export function judgeGitStaging(texts: readonly string[], walk: Walk): void {
  // `git -c http.extraHeader='X-Leak: <token>' ls-remote https://host/…`: a header git sends.
  const remote = texts.find((t) => /^https?:\/\//i.test(t));
  for (let k = 0; k < texts.length; k++) {
    const m =
      texts[k] === '-c'
        ? /^http\.(?:[^=]*\.)?extraheader=([^:]{1,64}):\s*(.+)$/is.exec(texts[k + 1] ?? '')
        : null;
    if (m === null) continue;
    const host = remote === undefined ? 'the remote' : (hostOf(remote) ?? 'the remote');
    if (host !== 'the remote' && isTrustedHost(host, walk.ctx.egress)) continue;
    walk.findings.push(...contentFindings(host, { headers: { [m[1]!.trim()]: m[2]!.trim() } }));
  }
  const sub = texts.findIndex((t, k) => !t.startsWith('-') && !/^-[cC]$/.test(texts[k - 1] ?? ''));
  if (texts[sub] === 'add') {
    for (const t of texts.slice(sub + 1))
      if (!t.startsWith('-') && sensitiveFileKind(t)) walk.ctx.staged.push(t);
  } else if (texts[sub] === 'push' && walk.ctx.staged.length > 0) {
    push(
      walk,
      'EXFILTRATION_BLOCKED',
      `git push sends ${describeTarget(walk.ctx.staged.join(' '))}, staged earlier in the command, to a remote`,
      'command "git"',
    );
  }
}

/**
 * `git checkout main && git push -f`: a push with no refspec pushes the current branch, so the
 * branch a checkout or switch made current earlier in the command line is the one pushed.
 * Records checkouts; returns a push's words with that branch added as its refspec.
 */
export function withCurrentBranch(texts: string[], walk: Walk): string[] {
  const sub = texts.findIndex((t, k) => !t.startsWith('-') && !/^-[cC]$/.test(texts[k - 1] ?? ''));
  const verb = texts[sub];
  const rest = texts.slice(sub + 1);
  if (verb === 'checkout' || verb === 'switch') {
    if (rest.includes('--')) return texts;
    const create = rest.findIndex((t) => /^-[bBcC]$/.test(t) || t === '--orphan');
    const branch = create >= 0 ? rest[create + 1] : rest.find((t) => !t.startsWith('-'));
    if (branch !== undefined && !branch.includes('/')) walk.ctx.branch = branch;
    return texts;
  }
  if (verb !== 'push' || walk.ctx.branch === undefined) return texts;
  const operands = rest.filter(
    (t, k) => !t.startsWith('-') && !/^(?:-o|--push-option|--repo)$/.test(rest[k - 1] ?? ''),
  );
  if (operands.length > 1 || rest.some((t) => /^--(?:all|branches|mirror|tags)$/.test(t))) return texts;
  return operands.length === 0 ? [...texts, 'origin', walk.ctx.branch] : [...texts, walk.ctx.branch];
}
