/**
 * What agents send `POST /v1/evaluate` most: safe calls of every kind and an occasional refusal.
 * The verdict bench and the vault bench's latency phase send the same mix.
 */
export const VERDICT_MIX = [
  { action: 'db.query', payload: { sql: 'SELECT id, name FROM users WHERE id = $1', params: [42] } },
  { action: 'shell.exec', payload: { command: 'git status --short' } },
  { action: 'shell.exec', payload: { command: 'npm test 2>&1 > "$LOG"' } },
  { action: 'fs.read', payload: { path: 'src/index.ts' } },
  { action: 'fs.write', payload: { path: 'notes/today.md', content: '# Notes\n' } },
  { action: 'http.request', payload: { url: 'https://api.github.com/repos/nodejs/node', method: 'GET' } },
  { action: 'email.send', payload: { to: 'ana@example.com', subject: 'Status', body: 'Deploy finished.' } },
  { action: 'agent.respond', payload: { text: 'The build is green.' } },
  { action: 'fs.read', payload: { path: '/etc/shadow' } },
];
