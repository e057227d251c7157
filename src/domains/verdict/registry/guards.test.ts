import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../engine.ts';

const judge = (command: string) => {
  const v = evaluateAction({ action: 'shell.exec', payload: { command } });
  return v.finding?.code ?? null;
};

describe('changes to what guards the machine', () => {
  it.each([
    // security controls: off, flushed, cleared
    ['sudo ufw disable', 'POLICY_VIOLATION'],
    ['ufw status verbose', null],
    ['sudo iptables -F', 'POLICY_VIOLATION'],
    ['sudo iptables -L -n', null],
    ['sudo iptables -P FORWARD ACCEPT', null],
    ['sudo setenforce 0', 'POLICY_VIOLATION'],
    ['getenforce', null],
    ['sudo auditctl -D', 'POLICY_VIOLATION'],
    ['sudo auditctl -l', null],
    ['sudo systemctl stop auditd', 'POLICY_VIOLATION'],
    ['sudo systemctl restart nginx', null],
    ['sudo spctl --master-disable', 'POLICY_VIOLATION'],
    ['wevtutil cl Security', 'POLICY_VIOLATION'],
    ['wevtutil qe System /c:5', null],
    ['history -c && unset HISTFILE', 'POLICY_VIOLATION'],
    ['history | tail -20', null],
    ['shred -u ~/.bash_history', 'POLICY_VIOLATION'],
    ['sudo rm /var/log/auth.log', 'POLICY_VIOLATION'],
    ['rm logs/app.log', null],
    // privilege
    ['sudo chmod u+s /bin/bash', 'POLICY_VIOLATION'],
    ['chmod 4755 /tmp/.x', 'POLICY_VIOLATION'],
    ['chmod 755 scripts/run.sh', null],
    ['chmod +x ./build.sh', null],
    ['sudo setcap cap_setuid+ep /usr/bin/python3', 'POLICY_VIOLATION'],
    ['getcap /usr/bin/ping', null],
    ['sudo usermod -aG sudo intern', 'POLICY_VIOLATION'],
    ['net localgroup administrators eve /add', 'POLICY_VIOLATION'],
    ['net localgroup administrators', null],
    ['visudo -c -f ./deploy/sudoers.test', null],
    // persistence the machine keeps
    ['useradd -m backup', null],
    ['sudo useradd -o -u 0 -g 0 backup', 'POLICY_VIOLATION'],
    ['SCHTASKS /CREATE /TN Updater /TR C:\\x.exe', 'POLICY_VIOLATION'],
    ['sudo iptables -A INPUT -p tcp --dport 443 -j ACCEPT', null],
    ['sudo iptables -P INPUT ACCEPT', 'POLICY_VIOLATION'],
    ['schtasks /create /tn Updater /tr C:\\x.exe /sc onlogon', 'POLICY_VIOLATION'],
    ['schtasks /query /fo LIST', null],
    ['launchctl bootstrap gui/501 ~/Library/LaunchAgents/x.plist', 'POLICY_VIOLATION'],
    ['launchctl list', null],
    [
      'reg add "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" /v x /d C:\\x.exe',
      'POLICY_VIOLATION',
    ],
    ['reg query "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"', null],
    // crontab jobs and services are judged by what they run, as before
    ['crontab -l', null],
    ['sudo systemctl enable --now nginx', null],
  ])('%s → %s', (command, code) => {
    expect(judge(command)).toBe(code);
  });

  it('names the change and its kind', () => {
    const v = evaluateAction({ action: 'shell.exec', payload: { command: 'sudo spctl --master-disable' } });
    expect(v.finding?.message).toBe(
      'spctl turns Gatekeeper off (security control: a change only a person should make)',
    );
    expect(v.effects).toEqual([{ kind: 'security_control', target: 'spctl' }]);
  });
});
