// Answers a pending approval by the approvalId its notice carried (the worker's `approval` line).
//
//   npx tsx --conditions source examples/restate-fleet/resolve.ts <approvalId> [approve|reject] [ingressUrl]
import { connect } from '@restatedev/restate-sdk-clients';
import { resolveApproval } from '@toolhost/restate';

const [approvalId, answer = 'approve', url = 'http://127.0.0.1:8080'] = process.argv.slice(2);
if (approvalId === undefined || (answer !== 'approve' && answer !== 'reject')) {
  console.error('usage: resolve.ts <approvalId> [approve|reject] [ingressUrl]');
  process.exit(2);
}
await resolveApproval(
  connect({ url }),
  approvalId,
  answer === 'approve'
    ? { outcome: 'approve' }
    : { outcome: 'reject', reason: 'rejected from the CLI' },
);
console.log(`${answer === 'approve' ? 'approved' : 'rejected'} ${approvalId}`);
