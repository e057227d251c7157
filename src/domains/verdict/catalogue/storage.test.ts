import { describe } from 'vitest';
import { familyTable } from '../../../../test/verdict/family-table.ts';

const D = 'DEST_MUTATION';
const P = 'POLICY_VIOLATION';

describe('storage: ZFS, LVM, Btrfs, Ceph, libvirt', () => {
  familyTable([
    ['zpool destroy tank', D],
    ['zpool destroy -f tank', D],
    ['sudo zpool destroy tank', D],
    ['zfs destroy tank/data', D],
    ['zfs destroy -r tank/data@nightly', D],
    ['zfs destroy -R tank', D],
    ['zfs destroy tank/data@2024-01%2024-06', D],
    ['zfs destroy tank/data@a,b,c', D],
    ['lvremove -f vg0/root', D],
    ['lvremove -y vg0/data', D],
    ['vgremove -f vg0', D],
    ['lvm lvremove vg0/data', D],
    ['btrfs subvolume delete /mnt/data', D],
    ['btrfs sub del /mnt/snapshots/home', D],
    ['ceph osd pool delete rbd rbd --yes-i-really-really-mean-it', D],
    ['ceph fs rm cephfs --yes-i-really-mean-it', D],
    ['rbd rm volumes/vm-disk-1', D],
    ['rbd trash purge volumes', D],
    ['virsh undefine prod --remove-all-storage', D],
    ['virsh undefine prod --storage vda', D],
    ['virsh vol-delete disk.qcow2 --pool default', D],
    ["ssh nas 'zfs destroy -r tank/backups'", D],
    // look-alikes: one named snapshot, dry runs, reads, creation, power-off
    ['zfs destroy tank/data@nightly', null],
    ['zfs destroy -n -r tank/data', null],
    ['zfs list -t snapshot', null],
    ['zfs snapshot tank/data@now', null],
    ['zpool status -x', null],
    ['zpool scrub tank', null],
    ['lvremove --test vg0/data', null],
    ['lvs', null],
    ['lvcreate -L 10G -n data vg0', null],
    ['btrfs subvolume list /', null],
    ['btrfs subvolume snapshot /mnt/data /mnt/snap', null],
    ['ceph osd pool ls detail', null],
    ['ceph status', null],
    ['rbd ls volumes', null],
    ['virsh undefine old-vm', null],
    ['virsh destroy prod', null],
    ['virsh list --all', null],
  ]);
});

describe('clusters, queues and processes', () => {
  familyTable([
    ['kubeadm reset -f', D],
    ['kubeadm reset --force --kubeconfig ./admin.conf', D],
    ['kafka-topics.sh --bootstrap-server kafka:9092 --delete --topic orders', D],
    ["kafka-topics --bootstrap-server kafka:9092 --delete --topic '.*'", D],
    ['rabbitmqctl reset', D],
    ['rabbitmqctl force_reset', D],
    ['kill -9 1', P],
    ['kill 1', P],
    ['kill -9 -1', P],
    ['kill -KILL -1', P],
    ['kill -s KILL -1', P],
    ['kill -- -1', P],
    ['killall5 -9', P],
    // look-alikes: one process, a process group, HUP to one process, reads
    ['kubeadm token list', null],
    ['kubeadm reset --help', null],
    ['kafka-topics.sh --bootstrap-server kafka:9092 --list', null],
    ['kafka-topics.sh --bootstrap-server kafka:9092 --describe --topic orders', null],
    ['rabbitmqctl list_queues', null],
    ['kill 1234', null],
    ['kill -9 1234 1235', null],
    ['kill -1 1234', null],
    ['kill -TERM -1234', null],
    ['kill -l', null],
    ['kill -HUP $(cat /run/nginx.pid)', null],
  ]);
});
