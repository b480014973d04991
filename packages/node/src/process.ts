// `@toolhost/node/process`: the process arm on its own — its factory, spill targets, the child's
// environment, containment detection and the sandbox probe.
export { createProcessArm } from './process/create-process-arm.js';
export type {
  ContainmentDescription,
  ProcessArm,
  ProcessArmOptions,
} from './process/create-process-arm.js';
export type { OpenProcessSpill, ProcessSpillTarget } from './process/capture-output.js';
export { createSpillOpener } from './process/create-spill-opener.js';
export { buildChildEnv, isRefusedEnvName } from './process/build-child-env.js';
export { detectContainment } from './process/detect-containment.js';
export type {
  ContainmentInfo,
  ContainmentMode,
  DetectContainmentOptions,
  PidNamespaceMechanism,
} from './process/detect-containment.js';
export type { SandboxDescription } from './process/sandbox/create-sandbox.js';
export { probeSandbox } from './process/sandbox/detect-sandbox.js';
export type { ProbeSandboxOptions, SandboxProbe } from './process/sandbox/detect-sandbox.js';
