import { describe, expect, it } from 'vitest';
import { type Case, familyTable } from '../../../../test/verdict/family-table.ts';
import { evaluateAction } from '../engine.ts';
import { judgeArgv, judgeWindowsCommandLine } from './index.ts';

const D = 'DEST_MUTATION';

describe('search: Elasticsearch and OpenSearch over HTTP', () => {
  familyTable([
    ["curl -XDELETE 'https://search.example.com/_all'", D],
    ['curl -X DELETE https://es:9200/*', D],
    ["curl -X DELETE 'https://es.example.com:9200/logs-*'", D],
    ["curl -X DELETE 'https://es.example.com:9200/orders,_all'", D],
    ["curl -X DELETE 'https://es.example.com:9200/%2A'", D],
    ["curl -X DELETE 'https://es.example.com:9200/_data_stream/*'", D],
    ["curl -X DELETE 'https://es.example.com:9200/_snapshot/backups/*'", D],
    ["curl --request DELETE --url 'https://es.example.com/_all?pretty'", D],
    ["curl -u elastic:$PW -k -X DELETE 'https://10.0.0.5:9200/*?expand_wildcards=all'", D],
    ['wget --method=DELETE -qO- https://es.example.com/_all', D],
    ['http DELETE es.example.com/_all', D],
    ["xh delete ':9200/logs-*'", D],
    [
      `curl -X POST 'https://es.example.com/logs/_delete_by_query' -H 'Content-Type: application/json' -d '{"query":{"match_all":{}}}'`,
      D,
    ],
    [
      `curl -s 'https://es.example.com/*/_delete_by_query?conflicts=proceed' --json '{"query": {"match_all": {}}}'`,
      D,
    ],
    ["curl -X POST 'https://es.example.com/logs/_delete_by_query?q=*'", D],
    [`http POST es.example.com/logs/_delete_by_query query:='{"match_all": {}}'`, D],
    ['Invoke-RestMethod -Method Delete -Uri https://es.example.com/_all', D],
    ['powershell -c "irm -Method Delete https://es.example.com/logs-*"', D],
    // Look-alikes: one named index, document, data stream or snapshot; searches; a narrowing query.
    ['curl -X DELETE https://es.example.com/orders', null],
    ['curl -X DELETE https://es.example.com/orders-2023.01', null],
    ['curl -X DELETE https://es.example.com/orders/_doc/1', null],
    ['curl -X DELETE https://es.example.com/_data_stream/logs-app-default', null],
    ['curl -X DELETE https://es.example.com/_snapshot/backups/nightly-2024.01.01', null],
    ['curl https://es.example.com/_all/_search', null],
    ["curl 'https://es.example.com/*/_search?q=*'", null],
    ['curl -X GET https://es.example.com/_cat/indices/*', null],
    [
      `curl -X POST 'https://es.example.com/logs/_delete_by_query' -H 'Content-Type: application/json' -d '{"query":{"term":{"status":"stale"}}}'`,
      null,
    ],
    ["curl -X POST 'https://es.example.com/logs/_delete_by_query?q=status:stale'", null],
    [`curl -X POST 'https://es.example.com/logs/_search' -d '{"query":{"match_all":{}}}'`, null],
    ['http DELETE es.example.com/orders', null],
    ['http GET es.example.com/_all/_search', null],
    ['Invoke-RestMethod -Method Delete -Uri https://es.example.com/orders', null],
    ['Invoke-RestMethod -Uri https://es.example.com/_all/_search', null],
  ] satisfies Case[]);

  it('judges the argv an http.request becomes, [curl, -X, METHOD, URL], the same way', () => {
    const codes = (argv: string[]) => judgeArgv(argv).map((f) => f.code);
    expect(codes(['curl', '-X', 'DELETE', 'https://search.example.com/_all'])).toEqual([D]);
    expect(codes(['curl', '-X', 'DELETE', 'https://search.example.com/logs-*'])).toEqual([D]);
    expect(codes(['curl', '-X', 'POST', 'https://search.example.com/logs/_delete_by_query?q=*'])).toEqual([
      D,
    ]);
    expect(codes(['curl', '-X', 'DELETE', 'https://search.example.com/orders'])).toEqual([]);
    expect(codes(['curl', '-X', 'GET', 'https://search.example.com/_all/_search'])).toEqual([]);
  });

  it('reads a PowerShell body as PowerShell reads the raw line', () => {
    const line = `Invoke-RestMethod -Method Post -Uri https://es.example.com/logs/_delete_by_query -Body '{"query":{"match_all":{}}}' -ContentType application/json`;
    expect(judgeWindowsCommandLine(line)?.map((f) => f.code)).toEqual([D]);
    expect(evaluateAction({ action: 'shell.exec', payload: { command: line } }).finding?.code).toBe(D);
    const narrow = line.replace('{"match_all":{}}', '{"term":{"status":"stale"}}');
    expect(judgeWindowsCommandLine(narrow)).toEqual([]);
  });

  it.each([
    ['DELETE', 'https://search.example.com/_all', D],
    ['DELETE', 'https://search.example.com/*', D],
    ['delete', 'https://search.example.com/_data_stream/*', D],
    ['POST', 'https://search.example.com/logs/_delete_by_query?q=*', D],
    ['DELETE', 'https://search.example.com/orders', null],
    ['GET', 'https://search.example.com/_all/_search', null],
  ] as const)('http.request %s %s → %s', (method, url, code) => {
    const verdict = evaluateAction({ action: 'http.request', payload: { method, url } });
    expect(verdict.finding?.code ?? null, JSON.stringify(verdict.findings)).toBe(code);
  });
});
