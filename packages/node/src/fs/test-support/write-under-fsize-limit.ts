// Fixture: writes a file larger than RLIMIT_FSIZE through the fs arm, so the write fails midway
// with EFBIG. argv: root, stateDir, relative path, byte count. Prints the failure as JSON.
import { createNodeToolHost } from '../../create-node-tool-host.js';

// Without a handler the kernel's SIGXFSZ would kill the process instead of failing the write.
process.on('SIGXFSZ', () => undefined);
const [root = '', stateDir = '', target = '', size = '0'] = process.argv.slice(2);
const { host, close } = await createNodeToolHost({ root, stateDir });
try {
  await host.fs?.writeFile?.({ path: target, content: 'N'.repeat(Number(size)) });
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (error) {
  process.stdout.write(
    JSON.stringify({ ok: false, reason: (error as { reason?: string }).reason }),
  );
} finally {
  await close();
}
