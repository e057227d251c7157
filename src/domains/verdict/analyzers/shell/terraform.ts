import { normalizePath } from '../paths.ts';
import { splitLiteral } from './linear-reader.ts';
import { destructive, lookup, type Walk } from './state.ts';
import { remember } from './written-files.ts';

/**
 * Terraform within the command line: arguments from TF_CLI_ARGS, and destroy plans saved then
 * applied.
 */

export function terraformEnvArgs(texts: readonly string[], walk: Walk): string[] {
  const sub = texts.find((t) => !t.startsWith('-'));
  const extra: string[] = [];
  for (const name of [
    'TF_CLI_ARGS',
    sub === undefined ? undefined : `TF_CLI_ARGS_${sub.replace(/-/g, '_')}`,
  ]) {
    const value = name === undefined ? undefined : lookup(walk, name);
    if (value?.known && value.text.trim() !== '') extra.push(...splitLiteral(value.text));
  }
  return extra;
}

/**
 * `terraform plan -destroy -out=p` then `terraform apply p`: the plan file carries the destroy, so
 * the apply is judged as `terraform destroy`.
 */
export function judgeSavedPlan(name: string, texts: readonly string[], walk: Walk): void {
  const words = texts.filter((t) => !/^-(?:chdir|var-file|var|lock-timeout|parallelism)=/.test(t));
  const sub = words.find((t) => !t.startsWith('-'));
  if (sub === 'plan' && words.some((t) => /^--?destroy(?:=true)?$/.test(t))) {
    const at = words.findIndex((t) => /^--?out(?:=|$)/.test(t));
    const file =
      at < 0
        ? undefined
        : words[at]!.includes('=')
          ? words[at]!.slice(words[at]!.indexOf('=') + 1)
          : words[at + 1];
    if (file) remember(walk, file, { unknown: `a ${name} destroy plan`, destroyPlan: true });
  } else if (sub === 'apply') {
    const operands = words.slice(words.indexOf('apply') + 1).filter((t) => !t.startsWith('-'));
    const plan =
      operands.length > 0
        ? walk.ctx.written.get(normalizePath(operands[operands.length - 1]!, walk.ctx.cwd))
        : undefined;
    if (plan?.destroyPlan) {
      destructive(
        walk,
        `${name} apply of a plan saved with -destroy earlier in the command: destroys every resource`,
        `command "${name}"`,
      );
    }
  }
}
