import { describe } from 'vitest';
import { type Case, familyTable } from '../../../../test/verdict/family-table.ts';

const D = 'DEST_MUTATION';

describe('infra: Consul, Vault, Nomad, Argo CD, Flux, Velero', () => {
  familyTable([
    // Consul: the root prefix, or names from another command.
    ['consul kv delete -recurse /', D],
    ['consul kv delete -recurse', D],
    ["consul kv delete -recurse ''", D],
    ['consul kv delete -http-addr=https://consul:8500 -token=$T -recurse /', D],
    ['consul kv get -keys app/ | xargs -n1 consul kv delete', D],
    // Vault (and OpenBao): secrets named elsewhere, a whole engine.
    ['vault kv list -format=json secret/ | jq -r ".[]" | xargs -n1 vault kv metadata delete', D],
    ['vault kv metadata delete $(vault kv list secret/)', D],
    ['vault kv metadata delete -mount=secret $(vault kv list -mount=secret /)', D],
    ['vault kv list secret/app | xargs -I{} vault kv destroy -versions=1,2,3 secret/app/{}', D],
    ['bao kv list secret/ | xargs -n1 bao kv metadata delete', D],
    ['vault secrets disable secret/', D],
    ['vault delete sys/mounts/kv-prod', D],
    // Nomad: purged jobs named elsewhere.
    ["nomad job status -short | awk 'NR>1 {print $1}' | xargs nomad job stop -purge", D],
    ['nomad job stop -purge $(nomad job status -short)', D],
    ['nomad job status | xargs -n1 nomad stop -purge -yes', D],
    // Argo CD: applications named elsewhere or a selector that selects everything.
    ['argocd app list -o name | xargs argocd app delete', D],
    ['argocd app list -o name | xargs argocd app delete -y --cascade', D],
    ["argocd app delete -l '!app.kubernetes.io/instance' -y", D],
    ["argocd app delete -l 'env notin (dev)' -y", D],
    ['argocd appset delete $(argocd appset list -o name) -y', D],
    // Flux: its CRDs and every Flux object.
    ['flux uninstall', D],
    ['flux uninstall --silent --keep-namespace', D],
    ['flux --context prod uninstall -s', D],
    // Velero: every backup.
    ['velero backup delete --all', D],
    ['velero backup delete --all --confirm', D],
    ["velero backup delete -l '!keep' --confirm", D],
    ['velero backup get -o name | xargs velero backup delete --confirm', D],
    ['velero delete backup --all --confirm', D],
    // Look-alikes: one named key, secret, job, application or backup; reads; dry runs.
    ['consul kv delete -recurse app/config', null],
    ['consul kv delete app/config/feature-x', null],
    ['consul kv get -recurse /', null],
    ['vault kv metadata delete -mount=secret app/db-creds', null],
    ['vault kv destroy -versions=1 secret/app', null],
    ['vault kv list secret/ | xargs -n1 vault kv get', null],
    ['vault secrets list', null],
    ['vault secrets enable -path=kv2 kv-v2', null],
    ['vault kv metadata delete -output-curl-string secret/app', null],
    ['nomad job stop -purge web', null],
    ['nomad job status | xargs nomad job stop', null],
    ['nomad job status -short', null],
    ['argocd app delete guestbook -y', null],
    ['argocd app delete -l app.kubernetes.io/instance=web', null],
    ['argocd app list -o name | xargs -n1 argocd app sync', null],
    ['flux uninstall --dry-run', null],
    ['flux check', null],
    ['flux reconcile kustomization flux-system', null],
    ['velero backup delete nightly-2024-01-01 --confirm', null],
    ['velero backup delete -l app=web --confirm', null],
    ['velero backup get', null],
  ] satisfies Case[]);
});
