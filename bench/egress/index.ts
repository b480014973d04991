import { Worker } from 'node:worker_threads';

import { createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { httpRequestTool } from '@toolhost/core/tools';
import { Agent, request } from 'undici';

import { createEgressArm } from '../../packages/node/src/egress/create-egress-arm.js';
import { createTestCertificate } from '../../packages/node/src/egress/test-support/test-certificate.js';
import { measureUs, type BenchRow } from '../bench-row.js';

// The server runs on its own thread so the timings are the client side only: the arm's checks,
// pinning, header floor, bounded read and the registry pipeline, against undici's bare request.
const SERVER = `
const { createServer } = require('node:https');
const { parentPort, workerData } = require('node:worker_threads');
const bodies = { '/1k': Buffer.alloc(1024, 0x61), '/1m': Buffer.alloc(1024 * 1024, 0x61) };
const server = createServer({ key: workerData.key, cert: workerData.cert }, (req, res) => {
  res.setHeader('content-type', 'text/plain');
  res.end(bodies[req.url] ?? 'missing');
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

/** http_request GET 1 KiB / 1 MiB through registry + egress arm vs plain undici.request. */
export async function run(): Promise<BenchRow[]> {
  const certificate = createTestCertificate();
  const worker = new Worker(SERVER, { eval: true, workerData: certificate });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));

  const arm = createEgressArm({
    lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    dangerouslyAllowRanges: ['127.0.0.1/32'],
    ca: certificate.ca,
  });
  const registry = createToolRegistry({ tools: [httpRequestTool], host: { egress: arm } });
  const context: ToolDispatchContext = {
    nodeId: 'bench',
    grantedToolIds: new Set(['http_request']),
    config: {},
    toolPolicy: { allowedDomains: ['egress.test'] },
    fsScope: 'sandboxed',
    gateApproved: false,
  };
  const baselineAgent = new Agent({ connect: { ca: certificate.ca } });

  const rows: BenchRow[] = [];
  for (const [path, label, target, iterations] of [
    ['/1k', '1 KiB', '≤1.5x', 400],
    ['/1m', '1 MiB', '≤1.2x', 40],
  ] as const) {
    const url = `https://egress.test:${port}${path}`;
    const throughRegistry = async (): Promise<void> => {
      const outcome = await registry.dispatch(
        { id: 'b', name: 'http_request', args: { url } },
        context,
      );
      if ((outcome.output as { status?: number }).status !== 200) throw new Error('bench: status');
    };
    const armOnly = async (): Promise<void> => {
      const response = await arm.fetch({ method: 'GET', url, headers: {} });
      if (response.status !== 200) throw new Error('bench: status');
    };
    const baseline = async (): Promise<void> => {
      const response = await request(`https://127.0.0.1:${port}${path}`, {
        dispatcher: baselineAgent,
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error('bench: status');
    };
    // Interleave and keep each side's best median, so drift on a shared machine hits all
    // three; CPU time is reported beside wall time because wall time on a loaded box mostly
    // measures the neighbours.
    for (const clock of ['wall', 'cpu'] as const) {
      const best = { registry: Infinity, arm: Infinity, baseline: Infinity };
      for (let pass = 0; pass < 3; pass += 1) {
        const options = { iterations, clock };
        best.baseline = Math.min(best.baseline, await measureUs(baseline, options));
        best.arm = Math.min(best.arm, await measureUs(armOnly, options));
        best.registry = Math.min(best.registry, await measureUs(throughRegistry, options));
      }
      rows.push(
        {
          name: `egress GET ${label} (${clock})`,
          subject: 'http_request via registry + egress arm',
          baseline: 'undici.request',
          subjectUs: best.registry,
          baselineUs: best.baseline,
          ratio: best.registry / best.baseline,
          target,
        },
        {
          name: `egress GET ${label} (${clock}, arm only)`,
          subject: 'egress arm fetch',
          baseline: 'undici.request',
          subjectUs: best.arm,
          baselineUs: best.baseline,
          ratio: best.arm / best.baseline,
        },
      );
    }
  }

  await arm.close();
  await baselineAgent.close();
  worker.postMessage('stop');
  await new Promise((resolve) => worker.once('exit', resolve));
  return rows;
}
