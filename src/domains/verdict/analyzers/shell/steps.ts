import { catalogueJudges } from '../../catalogue/index.ts';
import type { Finding } from '../../codes.ts';
import { effectOfFinding, type Step } from '../../effects.ts';
import { reduceProgram } from '../../registry/registry.ts';

/** Verbs of deletion, in the forms CLIs spell them. */
const DELETE_VERB =
  /(?:^|[\s:-])(?:delete|deletes|terminate|remove|rm|rb|destroy|drop|purge|uninstall|batch-delete)(?:[\s:-]|$)/;

/**
 * The step of one program a command line runs. Where a catalogue rule judged the command, the
 * rule modelled it: its effect is the one the finding names. Otherwise the program registry says.
 */
export function stepOf(
  name: string,
  args: readonly string[],
  path: string | undefined,
  ruled: readonly Finding[],
  runner?: string,
): Step {
  if (ruled.length > 0) {
    const effects = ruled.flatMap((finding) => {
      const effect = effectOfFinding(finding);
      return effect === undefined ? [] : [{ kind: effect.kind, target: name }];
    });
    if (effects.length > 0) return { effects, recognised: true };
  }
  const step = reduceProgram(name, args, path);
  // `aws ec2 terminate-instances i-1`, `gcloud compute instances delete vm-1`: a delete of a CLI
  // the catalogue has rules for is modelled by them (they refuse its breadth, pass one resource).
  if (!step.recognised && DELETE_VERB.test(step.effects[0]?.target ?? '') && catalogueJudges(name)) {
    return { effects: [{ kind: 'delete', target: step.effects[0]!.target! }], recognised: true };
  }
  // `uv run mypy`, `poetry run dev`, `npm exec eslint`: a tool the project installed, or a script
  // it defines, run through its package runner (what the runner fetches is judged on its own).
  if (!step.recognised && runner !== undefined && step.unrecognised?.startsWith('unknown program')) {
    return { effects: [{ kind: 'execute', target: `${runner} ${name}` }], recognised: true };
  }
  return step;
}

/** A command whose program is computed at run time: Arbiter cannot know what it runs. */
export function unknownProgram(source: string): Step {
  return {
    effects: [{ kind: 'execute' }],
    recognised: false,
    unrecognised: `the program to run comes from ${source}`,
  };
}
