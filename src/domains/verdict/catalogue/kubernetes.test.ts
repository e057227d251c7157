import { describe } from 'vitest';
import { type Case, contextWith, familyTable } from '../../../../test/verdict/family-table.ts';

const D = 'DEST_MUTATION';

describe('kubernetes: kubectl, oc, helm', () => {
  familyTable([
    ['kubectl delete ns prod', D],
    ['kubectl delete namespace staging', D],
    ['kubectl delete namespaces a b', D],
    ['kubectl delete namespace/prod', D],
    ['kubectl delete ns/prod', D],
    ['kubectl delete pods,ns web', D],
    ['kubectl -n prod delete ns x', D],
    ['kubectl --namespace=prod delete ns x', D],
    ['kubectl --context prod-eu delete ns x', D],
    ['kubectl delete --grace-period 0 ns x', D],
    ['kubectl delete NS x', D],
    ['/usr/local/bin/kubectl delete ns x', D],
    ['KUBECONFIG=/tmp/k kubectl delete ns x', D],
    ['sudo -E kubectl delete ns x', D],
    ['oc delete project payments', D],
    ['kubectl delete pods --all -A', D],
    ['kubectl delete pods --all', D],
    ['kubectl delete pods --all=true', D],
    ['kubectl delete deploy -Af x.yaml', D],
    ['kubectl delete all --all -n dev', D],
    ['kubectl delete pods --all-namespaces --field-selector=status.phase!=Running', D],
    ['kubectl delete pods -l app!=web', D],
    ["kubectl delete pods -l ''", D],
    ['kubectl delete crd certificates.cert-manager.io', D],
    ['kubectl get pods -o name | xargs kubectl delete', D],
    ['kubectl get pods -o name | xargs kubectl delete pod', D],
    ['kubectl delete pods $(kubectl get pods -o name)', D],
    ['helm uninstall $(helm ls -q)', D],
    ['helm ls -q | xargs helm uninstall', D],
    // How an agent might get around the rules.
    ['kubectl delete namespace prod --wait=false --ignore-not-found', D],
    ['kubectl delete -n prod --all pods', D],
    ['kubectl --all-namespaces=true delete pods --all', D],
    ['kubectl delete Namespace/prod', D],
    ['"kubectl" delete ns prod', D],
    ['k delete ns prod', D],
    ['env KUBECONFIG=/tmp/k kubectl delete ns prod', D],
    ['timeout 30 kubectl delete ns prod', D],
    ['K=kubectl; $K delete ns prod', D],
    ['echo prod | xargs kubectl delete ns', D],
    ['bash -c "kubectl delete ns prod"', D],
    ['ssh bastion kubectl delete ns prod', D],
    ['kubectl delete pods --selector=', D],
    // Look-alikes: one named resource, dry runs, reads.
    ['kubectl delete pod web-7f9c', null],
    ['kubectl delete pod/web-7f9c -n dev', null],
    ['kubectl delete deployment api -n staging --wait=false', null],
    ['kubectl delete pods -l app=web', null],
    ['kubectl delete -f deploy.yaml', null],
    ['kubectl delete pods --all=false web-1', null],
    ['kubectl delete ns prod --dry-run=client', null],
    ['kubectl delete ns prod --dry-run', null],
    ['kubectl delete --help', null],
    ['kubectl get ns', null],
    ['kubectl get pods -A', null],
    ['kubectl describe namespace prod', null],
    ['kubectl logs -n prod deploy/api --all-containers', null],
    ['oc get projects', null],
    ['helm uninstall web -n dev', null],
    ['helm uninstall web --dry-run', null],
    ['helm list --all -A', null],
  ] satisfies Case[]);
});

describe('kubernetes with protected namespaces', () => {
  const ctx = contextWith({ namespaces: ['prod', 'payments-*'] });
  familyTable(
    [
      ['kubectl delete pod web-1 -n prod', D],
      ['kubectl -nprod delete pod web-1', D],
      ['kubectl delete pod web-1 --namespace=payments-eu', D],
      ['helm uninstall api -n prod', D],
      ['helm uninstall api --namespace prod --dry-run', null],
      ['kubectl delete pod web-1 -n dev', null],
      ['kubectl get pods -n prod', null],
      ['kubectl delete pod web-1 -n production', null],
    ] satisfies Case[],
    ctx,
  );
});

describe('kubernetes: pods that hand the host over (FILESYSTEM_DENIED)', () => {
  const F = 'FILESYSTEM_DENIED';
  familyTable([
    ['kubectl debug node/worker-1 -it --image=busybox -- chroot /host sh', F],
    ['kubectl debug node/worker-1 -it --image busybox', F],
    ['kubectl debug nodes/worker-1 --image=busybox --profile=general', F],
    ['kubectl debug node/worker-1 --image=busybox --profile=netadmin', F],
    ['kubectl debug -it node/ip-10-0-1-5.ec2.internal --image=ubuntu --profile=sysadmin', F],
    ['oc debug node/worker-1', F],
    ['kubectl debug -it web-1 --image=busybox --profile=sysadmin --target=web', F],
    [
      `kubectl run pwn --image=x --restart=Never --overrides='{"spec":{"hostPID":true,"containers":[{"name":"pwn","image":"x","securityContext":{"privileged":true}}]}}'`,
      F,
    ],
    [
      `kubectl run pwn --image=x --overrides='{"spec":{"containers":[{"name":"pwn","image":"x","securityContext":{"privileged": true}}]}}'`,
      F,
    ],
    [`kubectl run pwn --image=x --overrides='{"spec":{"hostIPC":true}}'`, F],
    [
      `kubectl run pwn --image=x --overrides='{"spec":{"containers":[{"name":"p","image":"x","securityContext":{"capabilities":{"add":["SYS_ADMIN"]}}}]}}'`,
      F,
    ],
    [
      `kubectl run pwn --image=alpine --overrides='{"spec":{"volumes":[{"name":"h","hostPath":{"path":"/"}}],"containers":[{"name":"p","image":"alpine","volumeMounts":[{"name":"h","mountPath":"/host"}]}]}}'`,
      F,
    ],
    [
      `kubectl run pwn --image=alpine --overrides='{"spec":{"volumes":[{"name":"s","hostPath":{"type":"Socket","path":"/var/run/docker.sock"}}]}}'`,
      F,
    ],
    [
      `kubectl run pwn --image=alpine --overrides='{"spec":{"volumes":[{"name":"e","hostPath":{"path":"/etc"}}]}}'`,
      F,
    ],
    [
      `kubectl run pwn --image=x --override-type=json --overrides='[{"op":"add","path":"/spec/hostPID","value":true}]'`,
      F,
    ],
    ['kubectl run pwn --image=x --privileged', F],
    // Look-alikes: isolated profiles, pods, overrides that do not reach the host.
    ['kubectl debug node/worker-1 --image=busybox --profile=baseline', null],
    ['kubectl debug node/worker-1 --image=busybox --profile restricted', null],
    ['kubectl debug pod/web-1 -it --image=busybox', null],
    ['kubectl debug -it web-1 --image=busybox --target=web', null],
    ['kubectl debug web-1 -it --copy-to=web-debug --container=web -- sh', null],
    ['kubectl get node worker-1 -o yaml', null],
    ['kubectl run web --image=nginx --port=80', null],
    [
      `kubectl run tmp --image=alpine --overrides='{"spec":{"nodeSelector":{"pool":"batch"},"containers":[{"name":"tmp","image":"alpine","resources":{"limits":{"memory":"256Mi"}}}]}}'`,
      null,
    ],
    [
      `kubectl run tmp --image=alpine --overrides='{"spec":{"volumes":[{"name":"d","hostPath":{"path":"/data/cache"}}]}}'`,
      null,
    ],
    [`kubectl run tmp --image=alpine --overrides='{"spec":{"hostNetwork":true}}'`, null],
    [
      `kubectl run tmp --image=alpine --overrides='{"spec":{"containers":[{"name":"t","image":"alpine","securityContext":{"privileged":false,"runAsNonRoot":true}}]}}'`,
      null,
    ],
  ] satisfies Case[]);
});
