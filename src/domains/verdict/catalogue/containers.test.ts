import { describe } from 'vitest';
import { type Case, familyTable } from '../../../../test/verdict/family-table.ts';

const D = 'DEST_MUTATION';

describe('containers: docker, podman, nerdctl, compose', () => {
  familyTable([
    ['docker system prune -a -f', D],
    ['docker system prune -af --volumes', D],
    ['docker system prune --all --force', D],
    ['docker system prune --all=true', D],
    ['docker -H tcp://build:2375 system prune -a', D],
    ['docker --context prod system prune --volumes', D],
    ['docker volume prune -f', D],
    ['docker volume prune --all --force', D],
    ['docker volume rm pgdata', D],
    ['docker volume rm -f mysql_data redis_data', D],
    ['docker volume rm $(docker volume ls -q)', D],
    ['docker rm -f $(docker ps -aq)', D],
    ['docker ps -aq | xargs docker rm -f', D],
    ['docker ps -aq | xargs -r docker rm -f', D],
    ['docker container rm -f $(docker container ls -aq)', D],
    ['docker rmi -f $(docker images -q)', D],
    ['docker images -q | xargs -r docker rmi -f', D],
    ['docker image rm $(docker image ls -q)', D],
    ['docker image prune -a -f', D],
    ['docker compose down -v', D],
    ['docker compose -f prod.yml down --volumes', D],
    ['docker compose -p shop down -v --remove-orphans', D],
    ['docker-compose down -v', D],
    ['podman system prune -a -f', D],
    ['podman system prune --all --volumes --force', D],
    ['podman system reset -f', D],
    ['podman volume prune -f', D],
    ['podman volume rm --all', D],
    ['podman rm -a -f', D],
    ['podman rm -af', D],
    ['podman rmi -a -f', D],
    ['podman pod rm --all', D],
    ['nerdctl system prune -a -f', D],
    ['sudo docker system prune -a --volumes -f', D],
    ['/usr/bin/docker volume rm data', D],
    // Look-alikes: one named container or image, reads, unused-only prunes.
    ['docker rm my-container', null],
    ['docker rm -f web-old', null],
    ['docker rmi myapp:1.0.3', null],
    ['docker ps -a', null],
    ['docker system df', null],
    ['docker system prune -f', null],
    ['docker container prune -f', null],
    ['docker image prune -f', null],
    ['docker volume ls', null],
    ['docker volume inspect pgdata', null],
    ['docker volume create pgdata', null],
    ['docker compose down', null],
    ['docker compose down --rmi local', null],
    ['docker stop web && docker rm web', null],
    ['docker network rm test-net', null],
    ['docker container prune --help', null],
    ['docker tag myapp:latest myapp:prune-test', null],
    ['podman rm old-build', null],
    ['podman pod rm dev-pod', null],
    ['docker exec web rm -f /app/tmp/cache.json', null],
  ] satisfies Case[]);
});

describe('containers: LXD and Incus instances that reach the host (FILESYSTEM_DENIED)', () => {
  const F = 'FILESYSTEM_DENIED';
  familyTable([
    ['lxc config device add c1 hostroot disk source=/ path=/mnt/host', F],
    ['incus config device add c1 hostroot disk source=/ path=/mnt/host', F],
    ['lxc config device add c1 etc disk source=/etc path=/mnt/etc readonly=true', F],
    ['lxc config device add c1 sock disk source=/var/run/docker.sock path=/var/run/docker.sock', F],
    ['lxc config device add c1 keys disk source=/home/agent/.ssh path=/root/.ssh', F],
    ['lxc profile device add default hostroot disk source=/ path=/mnt/host', F],
    ['lxc config set c1 security.privileged true', F],
    ['incus config set c1 security.privileged=true', F],
    ['lxc launch ubuntu:22.04 c1 -c security.privileged=true', F],
    // Look-alikes: a data directory, other settings, reads.
    ['lxc config device add c1 data disk source=/srv/data path=/data', null],
    ['incus config device add c1 src disk source=/home/agent/workspace/app path=/src', null],
    ['lxc config set c1 limits.memory=2GiB', null],
    ['lxc config set c1 security.privileged false', null],
    ['lxc launch ubuntu:22.04 c1 -c limits.cpu=2', null],
    ['lxc config device show c1', null],
    ['lxc list', null],
  ] satisfies Case[]);
});
